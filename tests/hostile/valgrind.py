#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""valgrind.py VALGRIND CLI ARGS...: run the CLI on the live /sys under
memcheck; fail on any error or any leak (definite, indirect, possible).
ARGS "usb-without-product": --properties of a hand-made USB device that has
no product attribute (many devices give no product string), whose hwdb key
is made without one; "capture-big-file": --capture of a tree holding a file
larger than the capture's bound."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402


def main():
    valgrind, cli, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    tmp = None
    if args == ["usb-without-product"]:
        tmp = tempfile.mkdtemp(prefix="sysdev-valgrind-")
        t = T.Tree(tmp)
        t.dirs("bus/usb/devices", "class")
        t.device("/devices/pci0")
        t.device("/devices/pci0/usb1", "bus:usb", uevent="DEVTYPE=usb_device\nPRODUCT=1d6b/2/606\n")
        t.file("devices/pci0/usb1/idVendor", "1d6b\n")
        t.file("devices/pci0/usb1/idProduct", "0002\n")
        args = ["--root", tmp, "--properties", "/devices/pci0/usb1"]
    elif args == ["capture-big-file"]:
        # a file past the capture's 1 MiB bound: read up to the bound and one byte more
        # (which says it was cut), never past the buffer
        tmp = tempfile.mkdtemp(prefix="sysdev-valgrind-")
        t = T.Tree(os.path.join(tmp, "root"))
        t.dirs("bus", "class")
        t.device("/devices/platform")
        t.file("devices/platform/blob", "\x01" * (1024 * 1024 + 100))
        args = ["--root", os.path.join(tmp, "root"), "--capture", os.path.join(tmp, "cap")]
    try:
        return run(valgrind, cli, args)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def run(valgrind, cli, args):
    if not valgrind:
        T.skip("valgrind is not installed (apt-get install valgrind)")
    if not os.path.isdir("/sys/devices"):
        T.skip("no /sys/devices")
    # an ASan build cannot run under valgrind
    deps = subprocess.run(["ldd", cli], capture_output=True, text=True).stdout
    if "libasan" in deps or "libubsan" in deps:
        T.skip("sanitizer build: valgrind cannot run ASan binaries")
    cmd = [valgrind, "--tool=memcheck", "--leak-check=full", "--show-leak-kinds=all",
           "--errors-for-leak-kinds=all", "--error-exitcode=99", "--track-fds=no",
           "-q", cli] + args
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=800)
    err = p.stderr.decode("utf-8", "replace")
    sys.stdout.write(err)
    C = T.Checker()
    # the CLI itself may exit 1 (a /sys directory it may not read); valgrind says 99
    if C.check("memcheck finds no error and no leak",
               not (p.returncode == 99 or "==" in err and ("definitely lost" in err or "Invalid" in err))):
        C.check("the CLI exits 0 or 1 (exit %d)" % p.returncode, p.returncode in (0, 1))
    return C.summary()


if __name__ == "__main__":
    sys.exit(main())
