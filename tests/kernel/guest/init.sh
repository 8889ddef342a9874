#!/bin/sh
# /init of the kunit suite's initramfs (tests/kernel/kunit.py builds it).
#
# The KUnit suites are built in and have run before this starts (their
# KTAP is on the console).  This script makes kmemleak look for leaks: it
# waits past kmemleak's minimum object age (5 s), scans twice, and prints
# what it found between @@KMEMLEAK-BEGIN and @@KMEMLEAK-END; then it prints
# "@@SDT-DONE rc=N" and reboots (qemu runs with -no-reboot, so it exits).

export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug

echo "@@KUNIT-INIT kernel $(uname -r)"
rc=0
KML=/sys/kernel/debug/kmemleak
sleep 6
if echo scan > $KML && echo scan > $KML; then
	echo "@@KMEMLEAK-SCANNED"
else
	echo "@@KMEMLEAK-SCAN-FAILED"
	rc=1
fi
echo "@@KMEMLEAK-BEGIN"
cat $KML
echo "@@KMEMLEAK-END"

echo "@@SDT-DONE rc=$rc"
reboot -f
sleep 5
exit 1
