#!/usr/bin/env python3
"""Boot a kernel and initramfs in qemu-system-x86_64 (TCG) with a hard timeout.

Interface
---------
    boot.py --kernel VMLINUZ --initrd INITRD [--timeout SEC] [--log FILE]
            [--out-dir DIR] [--out-disk-mib N] [--memory MIB] [--smp N]
            [--append ARGS] [--no-quiet] [-- QEMU_ARGS...]

Runs, under timeout(1) (SIGTERM at SEC, SIGKILL 10 s later):

    qemu-system-x86_64 -accel tcg -m MIB -smp N -nographic -no-reboot -nic none
        -kernel VMLINUZ -initrd INITRD
        -append "console=ttyS0 panic=-1 quiet ARGS"   (no quiet: --no-quiet)
        [-drive file=OUT.img,if=none,format=raw,id=sdtout
         -device virtio-blk-pci,drive=sdtout,serial=sdtout]
        QEMU_ARGS                   (e.g. -M q35 -device e1000e ...)

The serial console goes to FILE (default OUT_DIR/console.log). With
--out-dir, a sparse raw disk of N MiB (default 256) is attached; the
initramfs' /init (guest/init.sh, which needs the virtio_pci and virtio_blk
modules) writes its /out there as a tar, and boot.py unpacks it into
OUT_DIR/out. Without the disk /init sends /out base64 on the console and
boot.py unpacks that instead. Prints a JSON summary:

    {"rc": qemu's exit status (124 = timed out), "seconds": wall time,
     "timed_out": bool, "done": bool (the guest printed @@SDT-DONE),
     "guest_rc": int or null, "out": OUT_DIR/out or null, "log": FILE}

Importable: boot(kernel, initrd, ...) returns the same dict.
"""

import argparse
import base64
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time


def _unpack_tar(fileobj, dest, mode="r:"):
    if os.path.exists(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    with tarfile.open(fileobj=fileobj, mode=mode) as tar:
        for m in tar.getmembers():
            name = os.path.normpath(m.name)
            if name.startswith("..") or os.path.isabs(name):
                continue
            if not (m.isfile() or m.isdir()):
                continue
            tar.extract(m, dest, set_attrs=False)


def boot(kernel, initrd, timeout=600, log=None, out_dir=None,
         out_disk_mib=256, memory=512, smp=1, append="", qemu_args=(),
         qemu="qemu-system-x86_64", quiet=True):
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    if log is None:
        log = os.path.join(out_dir or ".", "console.log")
    cmd = ["timeout", "-k", "10", str(int(timeout)), qemu,
           "-accel", "tcg", "-m", str(memory), "-smp", str(smp),
           "-nographic", "-no-reboot", "-nic", "none",
           "-kernel", kernel, "-initrd", initrd,
           "-append", ("console=ttyS0 panic=-1 %s%s"
                       % ("quiet " if quiet else "", append)).strip()]
    disk = None
    if out_dir:
        disk = os.path.join(out_dir, "out.img")
        with open(disk, "wb") as f:
            f.truncate(out_disk_mib << 20)
        cmd += ["-drive", "file=%s,if=none,format=raw,id=sdtout" % disk,
                "-device", "virtio-blk-pci,drive=sdtout,serial=sdtout"]
    cmd += list(qemu_args)

    print("boot: $ " + " ".join(cmd), file=sys.stderr, flush=True)
    start = time.monotonic()
    with open(log, "wb") as logf:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=logf,
                              stderr=subprocess.STDOUT)
    seconds = time.monotonic() - start

    with open(log, "rb") as f:
        text = f.read().decode("utf-8", errors="replace").replace("\r", "")
    m = re.search(r"^@@SDT-DONE rc=(\d+)", text, re.M)
    result = {
        "rc": proc.returncode,
        "seconds": round(seconds, 1),
        "timed_out": proc.returncode in (124, 137),
        "done": m is not None,
        "guest_rc": int(m.group(1)) if m else None,
        "out": None,
        "log": log,
    }
    if out_dir:
        dest = os.path.join(out_dir, "out")
        b = re.search(r"^@@SDT-OUT-BEGIN\n(.*?)^@@SDT-OUT-END", text,
                      re.M | re.S)
        try:
            if re.search(r"^@@SDT-OUT-DISK /dev/", text, re.M):
                with open(disk, "rb") as f:
                    _unpack_tar(f, dest)
                result["out"] = dest
            elif b:
                data = base64.b64decode("".join(b.group(1).split()))
                _unpack_tar(io.BytesIO(data), dest, "r:gz")
                result["out"] = dest
        except (tarfile.TarError, OSError, ValueError) as e:
            print("boot: cannot unpack the guest's output: %s" % e,
                  file=sys.stderr)
        if disk and os.path.exists(disk):
            os.unlink(disk)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--initrd", required=True)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--log")
    ap.add_argument("--out-dir")
    ap.add_argument("--out-disk-mib", type=int, default=256)
    ap.add_argument("--memory", type=int, default=512)
    ap.add_argument("--smp", type=int, default=1)
    ap.add_argument("--append", default="")
    ap.add_argument("--no-quiet", action="store_true",
                    help="boot without quiet: every kernel message on the console")
    ap.add_argument("qemu_args", nargs="*")
    args = ap.parse_args()
    res = boot(args.kernel, args.initrd, args.timeout, args.log, args.out_dir,
               args.out_disk_mib, args.memory, args.smp, args.append,
               args.qemu_args, quiet=not args.no_quiet)
    print(json.dumps(res, indent=1))
    return 0 if res["done"] and not res["timed_out"] else 1


if __name__ == "__main__":
    sys.exit(main())
