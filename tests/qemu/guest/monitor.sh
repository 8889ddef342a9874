#!/bin/sh
# Guest half of the qemu-monitor test: run by /init as `sh /guest.sh OUT`.
#
# A libsysdev monitor (montool watch) listens while the testbed module is
# loaded and unloaded CYCLES times; the host (run_testbed.py --mode monitor)
# judges what it heard against what the guest's tree held.
#   OUT/loaded_uevent   devpaths with a uevent file while the testbed is loaded
#   OUT/loaded_subsystem  those with a subsystem link (the kernel's uevents
#                       filter drops the others: no bus, no class, no event)
#   OUT/events          montool's lines: SEQNUM ACTION DEVPATH KIND SUBSYSTEM
#                       parent=... class_dir=...; last line "dropped N"
#   OUT/udev_events     the same, from udevd through libudev (montool watch-udev),
#                       with systemd-udevd started from the initramfs
#   OUT/watch.out       sysdev-tree --watch -J, ended by SIGINT (OUT/watch.rc)
#   OUT/cycles          load/unload cycles done
#   OUT/errors          insmod/rmmod failures

OUT=$1
KO=/lib/modules/$(uname -r)/extra/sdt_testbed.ko
CYCLES=3

insmod "$KO" || echo "insmod failed (snapshot)" >> "$OUT/errors"
find /sys/devices -name uevent -type f | sed 's,^/sys,,; s,/uevent$,,' | sort > "$OUT/loaded_uevent"
# the kernel sends uevents only for devices on a bus or in a class
find /sys/devices -name subsystem -type l | sed 's,^/sys,,; s,/subsystem$,,' | sort > "$OUT/loaded_subsystem"
rmmod sdt_testbed || echo "rmmod failed (snapshot)" >> "$OUT/errors"
sleep 1

# udevd, from the initramfs with its libraries: its processed events reach
# the udev source (through libudev's monitor)
UDEVD=/usr/lib/systemd/systemd-udevd
if [ -x "$UDEVD" ]; then
	mkdir -p /run/udev /etc/udev/rules.d
	"$UDEVD" --daemon 2> "$OUT/udevd.err" && echo started > "$OUT/udevd"
	sleep 1
fi

# listen first, then make the events; each monitor runs for a bounded time
/usr/bin/montool watch 20 > "$OUT/events" 2> "$OUT/events.err" &
mon=$!
/usr/bin/sysdev-tree --watch -J > "$OUT/watch.out" 2> "$OUT/watch.err" &
watch=$!
if [ -s "$OUT/udevd" ]; then
	/usr/bin/montool watch-udev 20 > "$OUT/udev_events" 2> "$OUT/udev_events.err" &
	umon=$!
fi
sleep 2
n=0
while [ $n -lt $CYCLES ]; do
	insmod "$KO" || echo "insmod failed at cycle $n" >> "$OUT/errors"
	sleep 1
	rmmod sdt_testbed || echo "rmmod failed at cycle $n" >> "$OUT/errors"
	sleep 1
	n=$((n + 1))
	echo "$n" > "$OUT/cycles"
done
wait $mon
echo $? > "$OUT/montool.rc"
kill -INT $watch
wait $watch
echo $? > "$OUT/watch.rc"
if [ -n "$umon" ]; then
	wait $umon
	echo $? > "$OUT/montool-udev.rc"
	udevadm control --exit 2>/dev/null || killall systemd-udevd 2>/dev/null
fi
touch "$OUT/errors"
dmesg > "$OUT/dmesg"
exit 0
