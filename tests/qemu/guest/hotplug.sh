#!/bin/sh
# Guest half of the qemu-hotplug test: run by /init as `sh /guest.sh OUT`.
#
# Records, for the host (run_testbed.py --mode hotplug) to judge:
#   OUT/{loaded,unloaded}_{uevent,dirs}  directories with a uevent file / all
#                                        directories under /sys/devices with
#                                        the testbed loaded and unloaded
#   OUT/walk_N.{out,err,rc}              WALKS runs of sysdev-tree --json --all
#                                        while a background loop loads and
#                                        unloads the testbed module
#   OUT/cycles                           load/unload cycles the loop did
#   OUT/loop_errors                      insmod/rmmod failures of the loop
#   OUT/final_loaded                     lsmod lines naming sdt_testbed at end
#   OUT/dmesg
#
# WALKS is taken from the kernel command line (sdt.walks=N), default 50.

OUT=$1
CLI=/usr/bin/sysdev-tree
KO=/lib/modules/$(uname -r)/extra/sdt_testbed.ko
WALKS=50
for arg in $(cat /proc/cmdline); do
	case $arg in
	sdt.walks=*) WALKS=${arg#sdt.walks=} ;;
	esac
done
echo "$WALKS" > "$OUT/walks"

snapshot() {
	find /sys/devices -name uevent -type f | sed 's,/uevent$,,' | sort \
		> "$OUT/$1_uevent"
	find /sys/devices -type d | sort > "$OUT/$1_dirs"
}

snapshot unloaded
insmod "$KO" || echo "insmod failed" >> "$OUT/loop_errors"
snapshot loaded
rmmod sdt_testbed || echo "rmmod failed" >> "$OUT/loop_errors"

# The hotplug loop: runs until /tmp/stop appears.
(
	n=0
	while [ ! -e /tmp/stop ]; do
		insmod "$KO" || echo "insmod failed at cycle $n" >> "$OUT/loop_errors"
		# Stay loaded 0, 20, 40 or 60 ms: some walks race with the
		# load or unload itself, some see the whole testbed.
		[ $((n % 4)) -eq 0 ] || usleep $((n % 4 * 20000))
		rmmod sdt_testbed || echo "rmmod failed at cycle $n" >> "$OUT/loop_errors"
		n=$((n + 1))
		echo "$n" > "$OUT/cycles"
	done
) &
loop=$!

i=1
while [ "$i" -le "$WALKS" ]; do
	timeout 120 $CLI --json --all > "$OUT/walk_$i.out" 2> "$OUT/walk_$i.err"
	echo $? > "$OUT/walk_$i.rc"
	echo "[guest] hotplug walk $i: rc=$(cat "$OUT/walk_$i.rc") cycles=$(cat "$OUT/cycles" 2>/dev/null)"
	i=$((i + 1))
done

touch /tmp/stop
wait "$loop"
lsmod | grep sdt_testbed > "$OUT/final_loaded"
touch "$OUT/loop_errors"
dmesg > "$OUT/dmesg"
exit 0
