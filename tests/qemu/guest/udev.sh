#!/bin/sh
# Guest half of the qemu-udev test: run by /init as `sh /guest.sh OUT`.
#
# systemd-udevd with Debian's own rules and hwdb (the udev package's, copied
# into the initramfs) handles every device of the guest: `udevadm trigger`
# replays their add events, `udevadm settle` waits until udevd is done.
# Then udev's answers and ours are recorded; the host
# (run_testbed.py --mode udev) judges.
#   OUT/export-db        udevadm info --export-db
#   OUT/properties       sysdev-tree --properties (every device)
#   OUT/disk.name        the device node of the disk the host made (serial
#                        sdtdisk, an ext4 file system)
#   OUT/disk.udevadm     udevadm info -q property DISK
#   OUT/disk.sysdev      sysdev-tree --properties DISK
#   OUT/bylink.sysdev    sysdev-tree --properties /dev/disk/by-id/virtio-sdtdisk
#   OUT/links            every link below /dev/disk: NAME -> TARGET
#   OUT/list.json        sysdev-tree -l -J -o DEVPATH,SYMLINKS,TAGS,INITIALIZED,...
#   OUT/udev.dump        every device as libudev reads it (tests/udev/udev-db-tool):
#                        is_initialized, links, tags, current tags, properties
#   OUT/sysdev.dump      the same through libsysdev
#   OUT/record.umockdev  umockdev-record --all (imported and walked on the host)
#   OUT/errors           what went wrong in the guest itself

OUT=$1
touch "$OUT/errors"
UDEVD=/usr/lib/systemd/systemd-udevd

mkdir -p /run/udev /etc/udev/rules.d
if ! "$UDEVD" --daemon 2> "$OUT/udevd.err"; then
	echo "systemd-udevd did not start" >> "$OUT/errors"
	exit 1
fi
udevadm trigger --type=subsystems --action=add 2>> "$OUT/trigger.err"
udevadm trigger --type=devices --action=add 2>> "$OUT/trigger.err"
if ! udevadm settle --timeout=300 2>> "$OUT/trigger.err"; then
	echo "udevadm settle timed out" >> "$OUT/errors"
fi
# nothing may change while both sides are asked
udevadm control --stop-exec-queue 2>> "$OUT/errors"

udevadm info --export-db > "$OUT/export-db" 2> "$OUT/export-db.err"
echo $? > "$OUT/export-db.rc"
sysdev-tree --properties > "$OUT/properties" 2> "$OUT/properties.err"
echo $? > "$OUT/properties.rc"
# the disk the host made: the virtio disk whose serial is sdtdisk
DISK=
for b in /sys/block/*; do
	[ "$(cat "$b/serial" 2> /dev/null)" = sdtdisk ] && DISK=/dev/${b##*/}
done
[ -n "$DISK" ] || echo "no virtio disk with serial sdtdisk" >> "$OUT/errors"
echo "$DISK" > "$OUT/disk.name"
udevadm info -q property "$DISK" > "$OUT/disk.udevadm" 2>> "$OUT/errors"
sysdev-tree --properties "$DISK" > "$OUT/disk.sysdev" 2> "$OUT/disk.err"
echo $? > "$OUT/disk.rc"
sysdev-tree --properties /dev/disk/by-id/virtio-sdtdisk > "$OUT/bylink.sysdev" \
	2> "$OUT/bylink.err"
echo $? > "$OUT/bylink.rc"
for l in $(find /dev/disk -type l | sort); do
	echo "$l -> $(readlink "$l")"
done > "$OUT/links"
sysdev-tree -l -J -o DEVPATH,SYMLINKS,TAGS,INITIALIZED,SERIAL,ID_PATH,FSTYPE,UUID,LABEL \
	> "$OUT/list.json" 2> "$OUT/list.err"
echo $? > "$OUT/list.rc"
udev-db-tool udev-dump > "$OUT/udev.dump" 2> "$OUT/udev.dump.err"
echo $? > "$OUT/udev.dump.rc"
udev-db-tool sysdev-dump /sys > "$OUT/sysdev.dump" 2> "$OUT/sysdev.dump.err"
echo $? > "$OUT/sysdev.dump.rc"
if command -v umockdev-record > /dev/null; then
	umockdev-record --all > "$OUT/record.umockdev" 2> "$OUT/record.err"
	echo $? > "$OUT/record.rc"
else
	echo "umockdev-record is not in the initramfs" >> "$OUT/errors"
fi
udevadm control --exit 2> /dev/null || killall systemd-udevd 2> /dev/null
dmesg > "$OUT/dmesg"
exit 0
