#!/bin/sh
# Generic /init of the QEMU test initramfs (built by build_initramfs.py).
#
# 1. mounts proc, sysfs, devtmpfs, tmpfs on /tmp;
# 2. insmods the modules listed in /etc/modules.load, in order;
# 3. runs `sh /guest.sh /out` (the test's own script), its output on the
#    console, and stores its exit status in /out/guest.rc;
# 4. ships /out to the host: as a tar written to the virtio disk whose serial
#    is "sdtout" (boot.py --out-disk adds it), or, without that disk, as a
#    gzip'ed tar in base64 on the console between the lines
#    @@SDT-OUT-BEGIN and @@SDT-OUT-END;
# 5. prints "@@SDT-DONE rc=N" and powers off (the kernel's panic=-1 and
#    qemu's -no-reboot end the VM should that fail).

export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export LD_LIBRARY_PATH=/lib:/usr/lib
export HOME=/root
# Settings the host passes on (run_testbed.py: sanitizer options).
[ -f /etc/guest-env ] && . /etc/guest-env

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mkdir -p /out

echo "@@SDT-INIT kernel $(uname -r)"

while read -r ko; do
	[ -n "$ko" ] || continue
	insmod "$ko" || echo "@@SDT-INIT insmod $ko failed"
done < /etc/modules.load

echo "@@SDT-GUEST start"
sh /guest.sh /out
rc=$?
echo "$rc" > /out/guest.rc
echo "@@SDT-GUEST end rc=$rc"

outdev=
tries=0
while [ -z "$outdev" ] && [ -e /sys/bus/virtio ] && [ $tries -lt 50 ]; do
	for b in /sys/block/*; do
		[ -e "$b/serial" ] || continue
		if [ "$(cat "$b/serial")" = sdtout ]; then
			outdev=/dev/${b##*/}
		fi
	done
	[ -n "$outdev" ] && break
	tries=$((tries + 1))
	sleep 0.1
done

if [ -n "$outdev" ]; then
	if tar -C /out -cf "$outdev" . && sync; then
		echo "@@SDT-OUT-DISK $outdev"
	else
		echo "@@SDT-OUT-DISK-FAILED $outdev"
	fi
else
	echo "@@SDT-OUT-BEGIN"
	tar -C /out -czf - . | base64
	echo "@@SDT-OUT-END"
fi

echo "@@SDT-DONE rc=$rc"
sync
poweroff -f
sleep 5
exit 1
