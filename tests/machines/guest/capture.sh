#!/bin/sh
# Guest half of the 'machines' suite (run as `sh /guest.sh /out` by
# tests/qemu/guest/init.sh once the image modules are loaded).
#
# 1. waits until the device tree settles: the number of directories under
#    /sys/devices holding a uevent file must stay the same for SETTLE
#    consecutive polls, a second apart (at most SETTLE_MAX polls);
# 2. instantiates EEPROMs on every SMBus adapter (the Linux way of declaring
#    i2c clients that cannot be probed: `echo NAME ADDR > new_device`),
#    as i2c_register_spd() does not on QEMU's memory type, then settles again;
# 3. records what the host judges, in /out, as NAME.out, NAME.err and
#    NAME.rc (exit status) for each step:
#      check-udev   sysdev-tree --check-udev on the live /sys
#      live         sysdev-tree --json --all on the live /sys
#      capture      sysdev-tree --capture /tmp/cap (full capture)
#      full         sysdev-fixture pack /tmp/cap (the archive on stdout)
#      readback     sysdev-tree --root /tmp/cap --json --all
#      stats        sysdev-tree --stats --json
#      fixture      sysdev-fixture capture (walk-only contents), moved to
#                   /out/fixture.sysfs
#    and info.txt: kernel, uptimes, device count, loaded modules.
# The script's own exit status is 0 unless a step could not run at all; the
# host decides what passed.
out=${1:-/out}
SETTLE=${SETTLE:-5}
SETTLE_MAX=${SETTLE_MAX:-60}

ndev() { find /sys/devices -name uevent -type f 2>/dev/null | wc -l; }

settle() {
	last=-1 same=0 t=0
	while [ $t -lt "$SETTLE_MAX" ]; do
		n=$(ndev)
		if [ "$n" = "$last" ]; then
			same=$((same + 1))
			[ $same -ge "$SETTLE" ] && break
		else
			same=0
		fi
		last=$n
		sleep 1
		t=$((t + 1))
	done
	echo "@@SDT-MACHINE settled at $last devices after ${t}s"
}

{
	echo "kernel $(uname -r)"
	echo "uptime_start $(cut -d' ' -f1 /proc/uptime)"
} > "$out/info.txt"

settle

# An HDA controller probes its codecs asynchronously, and on a loaded host
# (TCG) the tree can stand still for seconds before they appear: wait for
# them, as long as a settle may last.
# When the controller's codec query times out (the guest's timers run late
# under TCG on a busy host), the driver gives up on the card for good:
# unbind and bind it again, up to three times, and keep the kernel's own
# account of each try for the log.
hda_failures() { dmesg | grep -c -e "Cannot probe codecs" -e "no codecs found"; }
hda_wait() {
	t=0 failed=$(hda_failures)
	while [ $t -lt "$1" ] && ! ls /sys/bus/hdaudio/devices/* >/dev/null 2>&1; do
		# the driver said it gave up on this try: no use waiting longer
		[ "$(hda_failures)" -gt "$failed" ] && break
		sleep 1
		t=$((t + 1))
	done
	ls /sys/bus/hdaudio/devices/* >/dev/null 2>&1
}
hda=$(ls -d /sys/bus/pci/drivers/snd_hda_intel/0000:* 2>/dev/null | head -n 1)
if [ -n "$hda" ]; then
	hda=${hda##*/}
	try=0
	if ! ls /sys/bus/hdaudio/devices/* >/dev/null 2>&1 && [ "$(hda_failures)" -gt 0 ]; then
		echo "@@SDT-MACHINE dmesg: $(dmesg | grep -e "Cannot probe codecs" -e "no codecs found" | tail -n 1)"
		try=1
		echo "$hda" > /sys/bus/pci/drivers/snd_hda_intel/unbind
		echo "$hda" > /sys/bus/pci/drivers/snd_hda_intel/bind
	fi
	until hda_wait "$SETTLE_MAX"; do
		try=$((try + 1))
		dmesg | grep -i -e hda -e snd | tail -n 5 | sed 's/^/@@SDT-MACHINE dmesg: /'
		[ $try -gt 3 ] && break
		echo "@@SDT-MACHINE no hda codec on $hda: rebinding (try $try)"
		echo "$hda" > /sys/bus/pci/drivers/snd_hda_intel/unbind
		echo "$hda" > /sys/bus/pci/drivers/snd_hda_intel/bind
	done
	echo "@@SDT-MACHINE hda codecs after $try rebinds"
	settle
fi

for a in /sys/bus/i2c/devices/i2c-*; do
	[ -e "$a/name" ] || continue
	name=$(cat "$a/name")
	case "$name" in
	SMBus*)
		# QEMU's pc and q35 put 256-byte EEPROMs at 0x50..0x57.
		echo spd 0x50 > "$a/new_device"
		echo 24c02 0x51 > "$a/new_device"
		echo "@@SDT-MACHINE eeproms on ${a##*/} ($name)"
		;;
	esac
done
settle

echo "uptime_settled $(cut -d' ' -f1 /proc/uptime)" >> "$out/info.txt"
echo "devices $(ndev)" >> "$out/info.txt"

run() {
	name=$1
	shift
	"$@" > "$out/$name.out" 2> "$out/$name.err"
	echo $? > "$out/$name.rc"
	echo "@@SDT-MACHINE $name rc=$(cat "$out/$name.rc")"
}

run check-udev sysdev-tree --check-udev
run live sysdev-tree --json --all
run capture sysdev-tree --capture /tmp/cap
run full sysdev-fixture pack /tmp/cap
run readback sysdev-tree --root /tmp/cap --json --all
run stats sysdev-tree --stats --json
run fixture sysdev-fixture capture /tmp/fixture.sysfs
[ -f /tmp/fixture.sysfs ] && mv /tmp/fixture.sysfs "$out/fixture.sysfs"
cat "$out/check-udev.out"

{
	echo "uptime_end $(cut -d' ' -f1 /proc/uptime)"
	echo "modules"
	cut -d' ' -f1 /proc/modules | sort
} >> "$out/info.txt"
exit 0
