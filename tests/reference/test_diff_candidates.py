#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""--diff pairs a move only when it is unambiguous.

A device that went away from one place and came back at one other place,
with the same name, subsystem and modalias, is a move.  When it came back
at two places, no pairing is more right than the other: the diff reports a
removal and two additions, in both directions; three places, the same.  A
namesake with another modalias is no candidate, wherever it sorts.  The
answers are written by hand.

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
    for p in ("a", "b", "c", "d"):
        t.device(f"{P}/{p}", "bus:platform")
    for p in parents:
        # "b=other": the widget below b has the modalias platform:other
        p, _, alias = p.partition("=")
        alias = "platform:" + (alias or "widget")
        rel = f"devices/platform/{p}/widget"
        t.device("/" + rel, subsystem_link=up(rel) + "bus/platform",
                 uevent=f"MODALIAS={alias}\n")
        t.file(rel + "/modalias", alias + "\n")
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
        three = tree(os.path.join(top, "three"), ["b", "c", "d"])
        # the same name and subsystem, another modalias: not a candidate; the
        # one candidate (below c) sorts after it
        other = tree(os.path.join(top, "other"), ["b=other", "c"])

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
        rc, out, err = diff(cli, one, three)
        C.check("three candidates in NEW: a removal and three additions, no move",
                rc == 1 and out == sorted([f"- {P}/a/widget", f"+ {P}/b/widget",
                                           f"+ {P}/c/widget", f"+ {P}/d/widget"]),
                "\n".join(out) + err)
        rc, out, err = diff(cli, three, one)
        C.check("three candidates in OLD: three removals and an addition, no move",
                rc == 1 and out == sorted([f"+ {P}/a/widget", f"- {P}/b/widget",
                                           f"- {P}/c/widget", f"- {P}/d/widget"]),
                "\n".join(out) + err)
        rc, out, err = diff(cli, two, three)
        C.check("b and c on both sides, d added: an addition, no move",
                rc == 1 and out == [f"+ {P}/d/widget"], "\n".join(out) + err)
        rc, out, err = diff(cli, one, other)
        C.check("one candidate beside a namesake of another modalias: a move",
                rc == 1 and out == sorted([f"> {P}/a/widget -> {P}/c/widget",
                                           f"+ {P}/b/widget"]), "\n".join(out) + err)
        rc, out, err = diff(cli, other, one)
        C.check("the same, the other way",
                rc == 1 and out == sorted([f"> {P}/c/widget -> {P}/a/widget",
                                           f"- {P}/b/widget"]), "\n".join(out) + err)
    return C.finish()


if __name__ == "__main__":
    sys.exit(main())
