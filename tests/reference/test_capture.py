#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""--capture keeps what it copies as it was: modes, link texts, contents.

    test_capture.py SYSDEV_TREE HAND_EDGES_PY

On the hand-edges tree with files and directories of unusual modes
(write-only, root-only, 0700, 0555): every entry under devices/ of the
capture has the type, mode and link text of the source (read here with
lstat/readlink), and regular files their contents; a capture of START
(/devices/system) keeps the S/bus and S/class links into START and none into
a sibling whose name START is a prefix of (/devices/systemX).
"""
import os
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402

C = T.Checker(quiet=True)


def listing(top):
    out = {}
    btop = os.fsencode(top)
    for dirpath, dirnames, filenames in os.walk(btop):
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            st = os.lstat(p)
            rel = os.path.relpath(p, btop)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(p))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir", oct(stat.S_IMODE(st.st_mode)))
            else:
                data = None
                if st.st_mode & 0o444:
                    with open(p, "rb") as f:
                        data = f.read()
                out[rel] = ("file", oct(stat.S_IMODE(st.st_mode)), data)
    return out


def main():
    tree, gen = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="sysdev-capture-")
    src = os.path.join(tmp, "src")
    try:
        subprocess.run([sys.executable, gen, "--tree", src], check=True)
        s8 = os.path.join(src, "devices/platform/serial8250")
        for name, mode, data in (("wo", 0o200, ""), ("secret", 0o400, "s3cret\n"),
                                 ("group", 0o640, "g\n"), ("rw", 0o644, "x\n")):
            with open(os.path.join(s8, name), "w") as f:
                f.write(data)
            os.chmod(os.path.join(s8, name), mode)
        for name, mode in (("privdir", 0o700), ("rodir", 0o555), ("odd", 0o750)):
            os.mkdir(os.path.join(s8, name))
            with open(os.path.join(s8, name, "attr"), "w") as f:
                f.write("1\n")
            os.chmod(os.path.join(s8, name), mode)
        cap = os.path.join(tmp, "cap")
        r = subprocess.run([tree, "--root", src, "--capture", cap], capture_output=True)
        C.check("--capture: exit %d %r" % (r.returncode, r.stderr), r.returncode == 0)
        # the summary names what was captured: the root's devices/ when no START is given
        want = ("sysdev-tree: %s: captured %s/devices: " % (cap, src)).encode()
        C.check("--capture's summary begins %r: %r" % (want, r.stderr), r.stderr.startswith(want))
        a = listing(os.path.join(src, "devices"))
        b = listing(os.path.join(cap, "devices"))
        C.check("capture lists other entries: %r" % sorted(set(a) ^ set(b))[:10], sorted(a) == sorted(b))
        for k in sorted(set(a) & set(b)):
            C.check("capture of devices/%s: %r, source %r" % (k.decode(errors="replace"),
                                                                         b[k], a[k]), a[k] == b[k])
        # S/bus/B/drivers: each driver's directory by name, as the source has them
        for bus in sorted(os.listdir(os.path.join(src, "bus"))):
            sd, cd = (os.path.join(x, "bus", bus, "drivers") for x in (src, cap))
            if os.path.isdir(sd):
                C.check("capture of bus/%s/drivers: %r" % (bus, os.listdir(sd)),
                        os.path.isdir(cd) and sorted(os.listdir(sd)) == sorted(os.listdir(cd)))
        C.check("the source has drivers to capture",
                any(os.listdir(os.path.join(src, "bus", b, "drivers"))
                    for b in os.listdir(os.path.join(src, "bus"))
                    if os.path.isdir(os.path.join(src, "bus", b, "drivers"))))
        for k in (b"platform/serial8250/wo", b"platform/serial8250/privdir"):
            C.check("capture lacks devices/%s" % k.decode(), k in b)

        # a capture of START: links into START kept, links into devices/systemX not
        cap2 = os.path.join(tmp, "cap-system")
        r = subprocess.run([tree, "--root", src, "--capture", cap2, "/devices/system"],
                           capture_output=True)
        C.check("--capture /devices/system: exit %d %r" % (r.returncode, r.stderr), r.returncode == 0)
        want = ("sysdev-tree: %s: captured %s/devices/system: " % (cap2, src)).encode()
        C.check("--capture START's summary begins %r: %r" % (want, r.stderr), r.stderr.startswith(want))
        C.check("capture of /devices/system lacks bus/cpu/devices/cpu0",
                os.path.islink(os.path.join(cap2, "bus/cpu/devices/cpu0")))
        C.check("capture of /devices/system keeps bus/coll/devices/systemX (outside START)",
                not os.path.lexists(os.path.join(cap2, "bus/coll/devices/systemX")))
        C.check("capture of /devices/system holds devices/systemX",
                not os.path.lexists(os.path.join(cap2, "devices/systemX")))

        # a capture of a START deeper down keeps the files of the directories above it
        # (devices/platform's uevent: the ancestor stays a device), not their subdirectories
        cap3 = os.path.join(tmp, "cap-serial")
        r = subprocess.run([tree, "--root", src, "--capture", cap3, "/devices/platform/serial8250"],
                           capture_output=True)
        C.check("--capture /devices/platform/serial8250: exit %d %r" % (r.returncode, r.stderr),
                r.returncode == 0)
        def files_of(d):
            return sorted(n for n in os.listdir(d) if not os.path.isdir(os.path.join(d, n)))
        want = files_of(os.path.join(src, "devices/platform"))
        got = files_of(os.path.join(cap3, "devices/platform"))
        C.check("capture of serial8250 keeps devices/platform's files %r: %r" % (want, got),
                want == got and "uevent" in got)
        C.check("capture of serial8250 leaves devices/platform's other subdirectories out",
                not os.path.lexists(os.path.join(cap3, "devices/platform/input")))
    finally:
        for dirpath, dirnames, filenames in os.walk(tmp):
            for n in dirnames:
                try:
                    os.chmod(os.path.join(dirpath, n), 0o755)
                except OSError:
                    pass
        shutil.rmtree(tmp, ignore_errors=True)
    return C.summary()


if __name__ == "__main__":
    sys.exit(main())
