#!/bin/sh
# Guest half of the qemu-testbed test: run by /init as `sh /guest.sh OUT`.
#
# It only runs commands and records what they did; the host
# (run_testbed.py --mode testbed) judges. For each step NAME it writes
# OUT/NAME.out, OUT/NAME.err and OUT/NAME.rc; latency steps also write
# OUT/NAME.state (raw pm_qos_latency_tolerance_us, effective_tolerance_us and
# kernel_tolerance_us read with cat after the step).
#
# Needs: busybox, /usr/bin/sysdev-tree, the testbed module at
# /lib/modules/$(uname -r)/extra/sdt_testbed.ko.

OUT=$1
CLI=/usr/bin/sysdev-tree
KO=/lib/modules/$(uname -r)/extra/sdt_testbed.ko
HOST=/sys/devices/platform/sdt-host.0
ADAPTER=$HOST/sdt-2
CLIENT=$ADAPTER/2-0045
LT=$CLIENT/power/pm_qos_latency_tolerance_us

# run NAME CMD... : run CMD (killed after 120 s: exit 143), keep stdout,
# stderr and exit status
run() {
	name=$1
	shift
	timeout 120 "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"
	rc=$?
	echo "$rc" > "$OUT/$name.rc"
	echo "[guest] $name: rc=$rc"
	return 0
}

# state NAME : snapshot the latency-tolerance files after step NAME
state() {
	{
		echo "raw=$(cat "$LT" 2>/dev/null || echo '<missing>')"
		echo "effective=$(cat "$CLIENT/effective_tolerance_us" 2>/dev/null)"
		echo "kernel=$(cat "$CLIENT/kernel_tolerance_us" 2>/dev/null)"
	} > "$OUT/$1.state"
}

# lt NAME CMD... : a latency step through the CLI, then a snapshot
lt() {
	name=$1
	shift
	run "$name" "$@"
	state "$name"
}

# kreq NAME VALUE : set the kernel-side request through kernel_tolerance_us
kreq() {
	name=$1
	run "$name" sh -c "echo '$2' > $CLIENT/kernel_tolerance_us"
	state "$name"
}

# uevent_dirs FILE : every directory under /sys/devices with a regular uevent
uevent_dirs() {
	find /sys/devices -name uevent -type f | sed 's,/uevent$,,' | sort > "$1"
}

all_dirs() {
	find /sys/devices -type d | sort > "$1"
}

echo "[guest] sysdev-tree: $(ls -l $CLI 2>&1)"
cat /proc/version > "$OUT/proc_version"

# Before the module: a reference walk.
run pre_walk $CLI --json --all

# Load.
run insmod insmod "$KO"
cat /proc/devices > "$OUT/proc_devices"
ls /sys/bus | sort > "$OUT/ls_bus"
ls /sys/class | sort > "$OUT/ls_class"

# Walks over the loaded tree; references for the whole guest.
run walk_all $CLI --json --all
uevent_dirs "$OUT/uevent_dirs"
all_dirs "$OUT/all_dirs"
run walk_noall $CLI --json
for start in /devices/platform/sdt-host.0 /devices/virtual/sdtled \
	     /devices/system/sdtsys /devices/virtual/sdtvirt \
	     /devices/sdt-toplevel; do
	tag=$(echo "$start" | tr -c 'A-Za-z0-9\n' '_')
	run "start$tag" $CLI --json --all "/sys$start"
done

# --stats and its references (SPEC section 4).
run stats $CLI --stats
run stats_json $CLI --stats --json
cat /sys/class/*/*/power/runtime_status 2>/dev/null | sort | uniq -c \
	> "$OUT/ref_rs_class"
cat /sys/bus/*/devices/*/power/runtime_status 2>/dev/null | sort | uniq -c \
	> "$OUT/ref_rs_bus"

# Latency tolerance (SPEC section 5). Numbered so the host sees the order.
[ -e "$LT" ] && echo yes > "$OUT/lt_exists_client" || echo no > "$OUT/lt_exists_client"
[ -e "$ADAPTER/power/pm_qos_latency_tolerance_us" ] && echo yes > "$OUT/lt_exists_adapter" \
	|| echo no > "$OUT/lt_exists_adapter"
lt lt01_get_adapter $CLI --get-latency-tolerance "$ADAPTER"
lt lt02_set_adapter $CLI --set-latency-tolerance 100 "$ADAPTER"
lt lt03_get_initial $CLI --get-latency-tolerance "$CLIENT"
lt lt04_set_100 $CLI --set-latency-tolerance 100 "$CLIENT"
lt lt05_get_100 $CLI --get-latency-tolerance "$CLIENT"
lt lt06_set_any $CLI --set-latency-tolerance any "$CLIENT"
lt lt07_get_any $CLI --get-latency-tolerance "$CLIENT"
lt lt08_set_auto $CLI --set-latency-tolerance auto "$CLIENT"
lt lt09_get_auto $CLI --get-latency-tolerance "$CLIENT"
kreq lt10_kernel_50 50
lt lt11_set_100 $CLI --set-latency-tolerance 100 "$CLIENT"
lt lt12_get_100 $CLI --get-latency-tolerance sdt:2-0045
lt lt13_set_20 $CLI --set-latency-tolerance 20 "$CLIENT"
lt lt14_get_20 $CLI --get-latency-tolerance "$CLIENT"
lt lt15_set_auto $CLI --set-latency-tolerance auto "$CLIENT"
lt lt16_get_auto $CLI --get-latency-tolerance "$CLIENT"
kreq lt17_kernel_remove -1
lt lt18_set_any $CLI --set-latency-tolerance any "$CLIENT"
lt lt19_set_100 $CLI --set-latency-tolerance 100 "$CLIENT"
lt lt20_bad_neg5 $CLI --set-latency-tolerance -5 "$CLIENT"
lt lt21_bad_garbage $CLI --set-latency-tolerance garbage "$CLIENT"
lt lt22_bad_empty $CLI --set-latency-tolerance "" "$CLIENT"
lt lt23_bad_huge $CLI --set-latency-tolerance 99999999999 "$CLIENT"
lt lt24_get_after_bad $CLI --get-latency-tolerance "$CLIENT"
lt lt25_set_auto $CLI --set-latency-tolerance auto "$CLIENT"

# Unload, and walk again.
run rmmod rmmod sdt_testbed
for p in $HOST $ADAPTER $CLIENT /sys/devices/virtual/sdtled \
	 /sys/devices/system/sdtsys /sys/devices/virtual/sdtvirt \
	 /sys/devices/sdt-toplevel /sys/bus/sdt /sys/bus/sdtsys \
	 /sys/bus/sdtvirt /sys/bus/sdtcoll /sys/class/sdtled \
	 /sys/class/sdtdisk /sys/class/sdtcoll; do
	[ -e "$p" ] && echo "$p"
done > "$OUT/left_after_rmmod"
find /sys -name '*sdt*' > "$OUT/find_after_rmmod"
run post_walk $CLI --json --all
uevent_dirs "$OUT/uevent_dirs_post"
all_dirs "$OUT/all_dirs_post"

# Every error path of the module's init: make step N fail, for N = 1, 2, ...
# until insmod succeeds; each failure must leave nothing behind.
n=1
while [ $n -le 64 ]; do
	run "fault_$n" insmod "$KO" fail_at=$n
	find /sys -name '*sdt*' > "$OUT/fault_$n.left"
	if [ "$(cat "$OUT/fault_$n.rc")" = 0 ]; then
		rmmod sdt_testbed
		break
	fi
	n=$((n + 1))
done
echo $n > "$OUT/fault_steps"
all_dirs "$OUT/all_dirs_fault"

dmesg > "$OUT/dmesg"
exit 0
