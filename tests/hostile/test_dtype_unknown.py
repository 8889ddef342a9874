#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A filesystem that leaves d_type unknown: the walk answers as on one that fills it in.

XFS made without ftype, some network and FUSE filesystems return DT_UNKNOWN
for every directory entry; a captured tree may sit on one.  dtype-shim.c
(LD_PRELOAD) makes getdents64() answer so.  Each fixture, unpacked, is walked
with and without the shim: the JSON of every node (links, kinds, attributes)
and a list of link-borne columns must be the same bytes, and the shim must
have rewritten entries (it ran).
"""
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import sysdevtest as T  # noqa: E402

TREE = os.path.abspath(sys.argv[1])
FIXTURE = os.path.abspath(sys.argv[2])
SHIM = os.path.abspath(sys.argv[3])
FIXTURES = os.path.join(HERE, "..", "..", "fixtures")
C = T.Checker()

COMMANDS = [
    ["--json", "--all", "--attrs", "--power"],
    ["-l", "-o", "DEVPATH,SUBSYSTEM,DRIVER,DEVNAME,MODALIAS,PARENT"],
    ["-o", "NAME,KIND,SUBSYSTEM,DRIVER", "--all"],
]


def main():
    tmp = tempfile.mkdtemp(prefix="sysdev-dtype.")
    try:
        count = os.path.join(tmp, "count")
        env = dict(os.environ, LD_PRELOAD=SHIM, DTYPE_SHIM_COUNT=count,
                   ASAN_OPTIONS="verify_asan_link_order=0:" + os.environ.get("ASAN_OPTIONS", ""))
        for name in ("article", "qemu-q35", "hand-edges", "old-system"):
            root = os.path.join(tmp, name)
            rc, _, err = T.run3([FIXTURE, "unpack", os.path.join(FIXTURES, name + ".sysfs"), root],
                                timeout=300)
            C.check("%s unpacks" % name, rc == 0, err)
            for args in COMMANDS:
                label = "%s %s" % (name, " ".join(args))
                rc1, plain, err1 = T.run3([TREE, "--root", root, *args], timeout=300)
                if os.path.exists(count):
                    os.unlink(count)
                rc2, unknown, err2 = T.run3([TREE, "--root", root, *args], timeout=300, env=env)
                ran = os.path.exists(count) and int(open(count).read().split()[0]) > 0
                C.check(label + ": the shim rewrote entries", ran)
                C.check(label + ": exit 0 both ways", rc1 == 0 and rc2 == 0, err1 + err2)
                C.check(label + ": every d_type unknown gives the same answer",
                        plain == unknown and plain != "",
                        first_difference(plain, unknown))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    C.finish()


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a.splitlines(), b.splitlines())):
        if x != y:
            return "line %d: %r vs %r" % (i + 1, x, y)
    return "lengths %d vs %d" % (len(a), len(b))


if __name__ == "__main__":
    main()
