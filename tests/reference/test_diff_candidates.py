#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""--diff pairs a move only when it is unambiguous.

A device that went away from one place and came back at one other place,
with the same name, subsystem and modalias, is a move.  When it came back
at two places, no pairing is more right than the other: the diff reports a
removal and two additions, in both directions.  The answers are written by
hand.

Usage: test_diff_candidates.py SYSDEV_TREE
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402
from sysdevtest.tree import Tree, up  # noqa: E402

C = T.Checker()
P = "/devices/platform"


def tree(root, parents):
    """Three platform devices a, b, c and a 'widget' below each of parents.
    The widgets' subsystem links are made by hand: two devices of one name
    cannot both have the bus's index entry."""
    t = Tree(root)
    t.buses("platform")
    for p in ("a", "b", "c"):
        t.device(f"{P}/{p}", "bus:platform")
    for p in parents:
        rel = f"devices/platform/{p}/widget"
        t.device("/" + rel, subsystem_link=up(rel) + "bus/platform",
                 uevent="MODALIAS=platform:widget\n")
        t.file(rel + "/modalias", "platform:widget\n")
    return root


def diff(cli, old, new):
    rc, out, err = T.run3([cli, "--diff", old, new])
    return rc, sorted(out.splitlines()), err


def main():
    cli = sys.argv[1]
    with tempfile.TemporaryDirectory() as top:
        one = tree(os.path.join(top, "one"), ["a"])
        moved = tree(os.path.join(top, "moved"), ["b"])
        two = tree(os.path.join(top, "two"), ["b", "c"])

        rc, out, err = diff(cli, one, moved)
        C.check("one candidate: a move, exit 1",
                rc == 1 and out == [f"> {P}/a/widget -> {P}/b/widget"], "\n".join(out) + err)
        rc, out, err = diff(cli, one, two)
        C.check("two candidates in NEW: a removal and two additions, no move",
                rc == 1 and out == sorted([f"- {P}/a/widget", f"+ {P}/b/widget",
                                           f"+ {P}/c/widget"]), "\n".join(out) + err)
        rc, out, err = diff(cli, two, one)
        C.check("two candidates in OLD: two removals and an addition, no move",
                rc == 1 and out == sorted([f"+ {P}/a/widget", f"- {P}/b/widget",
                                           f"- {P}/c/widget"]), "\n".join(out) + err)
    return C.finish()


if __name__ == "__main__":
    sys.exit(main())
