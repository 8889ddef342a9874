#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A filesystem that leaves d_type unknown, or whose getdents64() a signal
interrupts: the walk answers as on one that fills it in and is never interrupted.

XFS made without ftype, some network and FUSE filesystems return DT_UNKNOWN
for every directory entry; a captured tree may sit on one, and on FUSE or
NFS a signal can interrupt the call (EINTR).  getdents-shim.c (LD_PRELOAD)
makes getdents64() answer so.  Each fixture, unpacked, is walked with and
without the shim: the JSON of every node (links, kinds, attributes), a list
and a tree of link-borne columns must be the same bytes, and the shim must
have done its part (it ran).
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
    tmp = tempfile.mkdtemp(prefix="sysdev-getdents.")
    try:
        count = os.path.join(tmp, "count")
        env = dict(os.environ, LD_PRELOAD=SHIM, GETDENTS_SHIM_COUNT=count,
                   ASAN_OPTIONS="verify_asan_link_order=0:" + os.environ.get("ASAN_OPTIONS", ""))
        eintr = dict(env, GETDENTS_SHIM_EINTR="1")
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
                os.unlink(count)
                rc3, interrupted, err3 = T.run3([TREE, "--root", root, *args], timeout=300,
                                                env=eintr)
                ran = os.path.exists(count) and int(open(count).read().split()[1]) > 0
                C.check(label + ": the shim interrupted calls", ran)
                C.check(label + ": getdents64() interrupted (EINTR) and called again: exit 0, "
                        "the same answer", rc3 == 0 and interrupted == plain,
                        err3 or first_difference(plain, interrupted))
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
