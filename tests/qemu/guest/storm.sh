#!/bin/sh
# Guest half of the qemu storm test: run by /init as `sh /guest.sh OUT`.
#
# The testbed's "storm" parameter makes and removes class devices below
# sdt-host.0 in bursts (sdt_storm/stormK).  Each run starts a watcher,
# waits until it hears a marker (a change uevent of sdt-host.0), stops it
# with SIGSTOP, starts a burst, continues it 2 seconds later, then sends
# markers until it hears one: every seqnum up to that marker has been heard
# or reported lost.  The host (run_testbed.py --mode storm) judges.
#   OUT/NAME.out, .err, .rc   sysdev-tree --watch's lines, summary, status
#   OUT/NAME.s0, .s1          the kernel's seqnum before the burst, the last marker
#   OUT/NAME.before, .after   the storm devices present before and after
#   OUT/rate-NAME-K.events, .seconds  drain rates (three rounds K): a reader
#                             stopped during a whole burst, then timed until it
#                             heard the marker
#   OUT/errors                what went wrong in the guest itself

OUT=$1
KO=/lib/modules/$(uname -r)/extra/sdt_testbed.ko
P=/sys/module/sdt_testbed/parameters/storm
HOST=/sys/devices/platform/sdt-host.0
ADDS=6000
REMOVES=4000
touch "$OUT/errors"

insmod "$KO" || { echo "insmod failed" >> "$OUT/errors"; exit 1; }

seq_now() { cat /sys/kernel/uevent_seqnum; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }
storm_devices() { ls "$HOST/sdt_storm" 2>/dev/null | sort; }

# heard_marker FILE PATTERN-PREFIX: send markers until FILE shows one
# (a line starting with its seqnum, or, for udevadm, one more marker line);
# prints the seqnum of the marker heard.
heard_marker() {
	i=0
	while [ $i -lt 240 ]; do
		echo change > "$HOST/uevent"
		s=$(seq_now)
		j=0
		while [ $j -lt 20 ]; do
			if grep -q "^$s " "$1"; then
				echo "$s"
				return 0
			fi
			sleep 0.25
			j=$((j + 1))
		done
		i=$((i + 1))
	done
	return 1
}

# run NAME [WATCH-OPTION...]: a burst of ADDS adds and REMOVES removes
# while the watcher is stopped for 2 seconds
run() {
	name=$1
	shift
	storm_devices > "$OUT/$name.before"
	sysdev-tree --watch "$@" > "$OUT/$name.out" 2> "$OUT/$name.err" &
	w=$!
	heard_marker "$OUT/$name.out" > /dev/null || echo "$name: the watcher never heard a marker" >> "$OUT/errors"
	seq_now > "$OUT/$name.s0"
	kill -STOP $w
	( echo $ADDS > $P && echo -$REMOVES > $P ) &
	b=$!
	sleep 2
	kill -CONT $w
	wait $b || echo "$name: the burst failed" >> "$OUT/errors"
	heard_marker "$OUT/$name.out" > "$OUT/$name.s1" ||
		echo "$name: no marker heard after the burst" >> "$OUT/errors"
	# one more: heard only after the resync a loss started has printed its lines
	heard_marker "$OUT/$name.out" > /dev/null ||
		echo "$name: no marker heard after the resync" >> "$OUT/errors"
	kill -INT $w
	wait $w
	echo $? > "$OUT/$name.rc"
	storm_devices > "$OUT/$name.after"
	echo "storm $name: $(wc -l < "$OUT/$name.out") lines, $(cat "$OUT/$name.err")"
}

# (1) the default buffer: nothing lost although stopped
run default
echo -1000000 > $P
# (2) a small buffer: losses reported exactly, then a resync
run small --receive-buffer 64K
echo -1000000 > $P

# Drain rates, process against process: the reader is stopped during a whole
# burst (RATE adds, RATE removes, a marker), then continued and timed until it
# prints the marker.  udevadm monitor -k prints no seqnum: its marker is the
# one change line of sdt-host.0.
RATE=4000
rate() {
	name=$1
	shift
	"$@" > "$OUT/rate-$name.out" 2> /dev/null &
	w=$!
	sleep 3
	s0=$(seq_now)
	kill -STOP $w
	echo $RATE > $P && echo -$RATE > $P
	echo change > "$HOST/uevent"
	s1=$(seq_now)
	t0=$(uptime_s)
	kill -CONT $w
	i=0
	while [ $i -lt 30000 ]; do
		# only the end of the output is looked at: grep over all of it, ten
		# times a second, would take the CPU from the reader it times
		if [ "${name%-*}" = udevadm ]; then
			tail -c 4096 "$OUT/rate-$name.out" | grep -q 'change.*/devices/platform/sdt-host.0 (platform)' && break
		else
			tail -c 4096 "$OUT/rate-$name.out" | grep -q "^$s1 " && break
		fi
		sleep 0.02
		i=$((i + 1))
	done
	t1=$(uptime_s)
	kill -INT $w
	wait $w
	echo $((s1 - s0)) > "$OUT/rate-$name.events"
	echo "$t0 $t1" > "$OUT/rate-$name.seconds"
}
# three rounds, taking turns: one drain under TCG varies by half from run to run
for k in 1 2 3; do
	rate sysdev-tree-$k sysdev-tree --watch
	rate udevadm-$k udevadm monitor -k
done
dmesg > "$OUT/dmesg"
exit 0
