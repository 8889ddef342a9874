#!/bin/sh
# Guest half of the qemu-testbed test: run by /init as `sh /guest.sh OUT`.
#
# It only runs commands and records what they did; the host
# (run_testbed.py --mode testbed) judges. For each step NAME it writes
# OUT/NAME.out, OUT/NAME.err and OUT/NAME.rc; latency steps also write
# OUT/NAME.state (raw pm_qos_latency_tolerance_us, effective_tolerance_us,
# kernel_tolerance_us, tolerance_calls and the driver read after the step;
# for sdt-lt-early also the module's early_* parameters).
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
EARLY=/sys/devices/sdt-lt-early
ELT=$EARLY/power/pm_qos_latency_tolerance_us
PARAMS=/sys/module/sdt_testbed/parameters

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

# state NAME [DEVICE] : snapshot the latency-tolerance files of DEVICE
# (default 2-0045) after step NAME
state() {
	dev=${2:-$CLIENT}
	{
		echo "raw=$(cat "$dev/power/pm_qos_latency_tolerance_us" 2>/dev/null || echo '<missing>')"
		echo "effective=$(cat "$dev/effective_tolerance_us" 2>/dev/null)"
		echo "kernel=$(cat "$dev/kernel_tolerance_us" 2>/dev/null)"
		echo "calls=$(cat "$dev/tolerance_calls" 2>/dev/null)"
		echo "driver=$(basename "$(readlink "$dev/driver" 2>/dev/null)" 2>/dev/null)"
		echo "exists=$([ -d "$dev" ] && echo yes || echo no)"
		if [ "$dev" = "$EARLY" ]; then
			for p in early early_calls early_effective early_flushed; do
				echo "$p=$(cat "$PARAMS/$p" 2>/dev/null)"
			done
		fi
	} > "$OUT/$1.state"
}

# raw NAME FORMAT VALUE [DEVICE] : write `printf FORMAT VALUE` straight into
# DEVICE's pm_qos_latency_tolerance_us (one write(2) by dd, which names the
# errno; no CLI), so that the kernel's own parser judges it; then a snapshot
raw() {
	dev=${4:-$CLIENT}
	run "$1" sh -c 'printf "$1" "$2" | dd of="$3" bs=4096 conv=notrunc' sh \
		"$2" "$3" "$dev/power/pm_qos_latency_tolerance_us"
	state "$1" "$dev"
}

# sysw NAME FILE VALUE [DEVICE] : echo VALUE > FILE, then a snapshot of DEVICE
sysw() {
	run "$1" sh -c 'echo "$1" > "$2"' sh "$3" "$2"
	state "$1" "$4"
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

# --stats and its references (sysdev(7), "The article's measurements").
run stats $CLI --stats
run stats_json $CLI --stats --json
cat /sys/class/*/*/power/runtime_status 2>/dev/null | sort | uniq -c \
	> "$OUT/ref_rs_class"
cat /sys/bus/*/devices/*/power/runtime_status 2>/dev/null | sort | uniq -c \
	> "$OUT/ref_rs_bus"

# Latency tolerance (sysdev(7), "Latency tolerance"). Numbered so the host sees the order.
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

# Raw writes (issue 15): the kernel's parser, not the CLI's. 6.1 parses a
# number with kstrtos32(buf, 0) (so 0x10 is 16 and 010 is 8), refuses a
# negative number, and compares the rest with sysfs_streq() against "auto"
# and "any" (one trailing newline allowed); everything else is EINVAL.
raw rw01_100 '%s\n' 100
raw rw02_neg5 '%s\n' -5
raw rw03_neg1 '%s\n' -1
raw rw04_garbage '%s\n' garbage
raw rw05_auto_2nl '%s\n\n' auto
raw rw06_space_auto '%s' ' auto'
raw rw07_upper_auto '%s\n' AUTO
raw rw08_s32_over '%s\n' 2147483648
raw rw09_same_nonl '%s' 100
raw rw10_hex_same '%s\n' 0x64
raw rw11_hex_16 '%s\n' 0x10
raw rw12_octal_8 '%s\n' 010
raw rw13_auto_nonl '%s' auto
raw rw14_auto_nl '%s\n' auto
raw rw15_any_nl '%s\n' any
raw rw16_any_nonl '%s' any
raw rw17_s32_max '%s\n' 2147483647
# A kernel request with "any", and its update 50 -> 30.
kreq kr01_any_kernel_50 50
kreq kr02_update_30 30
kreq kr03_same_30 30
kreq kr04_remove -1
# Unbind and bind the client driver: remove() hides the attribute (dropping
# the user request) and drops its kernel request; probe() exposes it again.
raw ub01_user_100 '%s\n' 100
kreq ub02_kernel_50 50
sysw ub03_unbind /sys/bus/sdt/drivers/sdt-client/unbind 2-0045
kreq ub04_kernel_unbound 40
sysw ub05_bind /sys/bus/sdt/drivers/sdt-client/bind 2-0045
# sdt-lt-early: the attribute comes from device_add(), not from expose.
state el00_initial "$EARLY"
raw el01_user_70 '%s\n' 70 "$EARLY"
sysw el02_kernel_40 "$EARLY/kernel_tolerance_us" 40 "$EARLY"
# Unregister it with both requests live: the PM QoS core flushes them.
sysw el03_unregister "$PARAMS/early" 0 "$EARLY"
sysw el04_register_again "$PARAMS/early" 1 "$EARLY"

# Unload, and walk again.
run rmmod rmmod sdt_testbed
for p in $HOST $ADAPTER $CLIENT $EARLY /sys/devices/virtual/sdtled \
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
