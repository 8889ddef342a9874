#!/bin/sh
# /init of the kunit suite's initramfs (tests/kernel/kunit.py builds it).
#
# The KUnit suites are built in and have run before this starts (their
# KTAP is on the console).  This script makes kmemleak look for leaks: it
# waits past kmemleak's minimum object age (5 s), then scans until the
# number of reports is stable: at least twice (a scan does not report an
# object whose contents changed since the one before), and again while the
# count changes, at most 10 times.  Each scan prints "@@KMEMLEAK-SCAN N
# reports"; "@@KMEMLEAK-SCANNED" only if every scan was accepted and the
# last two agreed.  Then it prints the reports between @@KMEMLEAK-BEGIN and
# @@KMEMLEAK-END, "@@SDT-DONE rc=N", and reboots (qemu runs with
# -no-reboot, so it exits).

export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug

echo "@@KUNIT-INIT kernel $(uname -r)"
rc=0
KML=/sys/kernel/debug/kmemleak
sleep 6
scans=0
last=-1
stable=no
while [ $scans -lt 10 ]; do
	if ! echo scan > $KML; then
		echo "@@KMEMLEAK-SCAN-FAILED"
		rc=1
		break
	fi
	scans=$((scans + 1))
	n=$(grep -c '^unreferenced object' $KML)
	echo "@@KMEMLEAK-SCAN $n reports"
	if [ $scans -ge 2 ] && [ "$n" = "$last" ]; then
		stable=yes
		break
	fi
	last=$n
done
if [ $rc = 0 ] && [ $stable = yes ]; then
	echo "@@KMEMLEAK-SCANNED"
elif [ $rc = 0 ]; then
	echo "@@KMEMLEAK-UNSTABLE after $scans scans"
	rc=1
fi
echo "@@KMEMLEAK-BEGIN"
cat $KML
echo "@@KMEMLEAK-END"

echo "@@SDT-DONE rc=$rc"
reboot -f
sleep 5
exit 1
