#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A file swapped for a FIFO between the reader's check and its open.

A hostile tree can replace a regular attribute by a FIFO (or a directory)
after the reader looked at it and before it opens it.  swap-shim.c
(LD_PRELOAD) makes that race happen every time: the first openat() of the
attribute renames a FIFO over it.  The attribute must then be refused as
not a regular file, never read: the FIFO's writer still holds what it
wrote, nothing hangs, and the rest of the answer is what it is without the
race.
"""
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import sysdevtest as T  # noqa: E402

TREE = os.path.abspath(sys.argv[1])
SHIM = os.path.abspath(sys.argv[2])
C = T.Checker()
DEV = "devices/platform/victim"


def main():
    tmp = tempfile.mkdtemp(prefix="sysdev-swap.")
    try:
        root = os.path.join(tmp, "sys")
        t = T.Tree(root)
        t.buses("platform")
        t.device("/devices/platform")
        t.device("/" + DEV, "bus:platform")
        t.file(DEV + "/label", "regular\n")
        t.file(DEV + "/other", "kept\n")
        args = [TREE, "--root", root, "-l", "-o", "DEVPATH,ATTR:label,ATTR:other", "-s", "platform",
                "--json"]
        rc, plain, err = T.run3(args, timeout=60)
        C.check("without the race: label and other read (exit 0)",
                rc == 0 and "regular" in plain and "kept" in plain, plain + err)

        fifo = os.path.join(root, DEV, "swapin")
        os.mkfifo(fifo)
        held = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
        os.write(held, b"SENTINEL\n")
        count = os.path.join(tmp, "count")
        env = dict(os.environ, LD_PRELOAD=SHIM, SWAP_SHIM_NAME="label", SWAP_SHIM_WITH="swapin",
                   SWAP_SHIM_COUNT=count,
                   ASAN_OPTIONS="verify_asan_link_order=0:" + os.environ.get("ASAN_OPTIONS", ""))
        rc, out, err = T.run3(args, timeout=60, env=env)
        swapped = os.path.exists(count) and open(count).read().split() == ["1"]
        C.check("the shim swapped the FIFO in, once", swapped)
        C.check("the FIFO is there now, where label was",
                os.path.exists(os.path.join(root, DEV, "label"))
                and not os.path.isfile(os.path.join(root, DEV, "label")))
        C.check("with the race: the run ends (exit 0), other still read", rc == 0 and "kept" in out,
                out + err)
        C.check("with the race: nothing of the FIFO is shown", "SENTINEL" not in out, out)
        try:
            left = os.read(held, 64)
        except BlockingIOError:
            left = b""
        os.close(held)
        C.check("with the race: the FIFO was never read (its writer's bytes are all there)",
                left == b"SENTINEL\n", left)
        try:
            rows = json.loads(out)["devices"]
        except (ValueError, KeyError):
            rows = None
        C.check("with the race: label is null (as a FIFO is), not a value read; other is kept",
                rows == [{"devpath": "/" + DEV, "ATTR:label": None, "ATTR:other": "kept"}], out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    C.finish()


if __name__ == "__main__":
    main()
