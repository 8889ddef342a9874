#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Names that extend each other are different components.

A path prefix is not an ancestor: cpu1 is not above cpu10, foo1 not above
foo10, and a root /T/r does not hold /T/r.  Each check below runs the
library or the CLI on a tree with such siblings and compares with answers
written by hand:

  - a START (tree, -l, JSON, with and without a filter) shows only its own
    subtree;
  - the filtered tree draws cpu10 as cpu1's sibling, not its child;
  - the enumerator's parent match keeps only the parent's subtree;
  - --parents names the real parent;
  - a subsystem link whose absolute target lies in a sibling directory of
    the root (/T/r./bus/cpu beside the root /T/r) is not a bus link;
  - a column name is taken whole (-o dev is not DEVNAME).

Usage: test_prefix_siblings.py SYSDEV_TREE ENUMTOOL
"""
import json
import re
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402
from sysdevtest.tree import Tree  # noqa: E402

C = T.Checker()
CPU = "/devices/system/cpu"


def build(top):
    t = Tree(os.path.join(top, "r"))
    t.buses("cpu", "platform")
    t.classes("net")
    for n in ("1", "10"):
        t.device(f"{CPU}/cpu{n}", "bus:cpu")
        t.device(f"{CPU}/cpu{n}/sub{n}", "bus:cpu")
        t.device(f"/devices/platform/foo{n}", "bus:platform")
        t.device(f"/devices/platform/foo{n}/net/eth{n}", "class:net")
    # beside the root, a directory whose name the root's is a prefix of
    Tree(os.path.join(top, "r.")).buses("cpu")
    t.device("/devices/platform/odd", subsystem_link=os.path.join(top, "r.", "bus", "cpu"))
    return t.root


def firsts(out):
    """The first word of each line: enumtool's devpaths."""
    return {ln.split()[0] for ln in out.splitlines() if ln.strip()}


def tool(cli, root, *args):
    return T.run3([cli, "--root", root, *args])


def main():
    cli, enumtool = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as top:
        root = build(top)
        cpu1 = {f"{CPU}/cpu1", f"{CPU}/cpu1/sub1"}

        rc, out, err = tool(cli, root, "-l", "-n", "-o", "DEVPATH", f"{CPU}/cpu1")
        C.check("-l START=cpu1 lists cpu1's subtree and nothing of cpu10",
                rc == 0 and set(out.split()) == cpu1, out + err)
        rc, out, err = tool(cli, root, "-l", "-n", "-o", "DEVPATH", "-s", "cpu", f"{CPU}/cpu1")
        C.check("-l -s cpu START=cpu1 (the filtered selection) lists cpu1's subtree only",
                rc == 0 and set(out.split()) == cpu1, out + err)
        rc, out, err = tool(cli, root, "--json", f"{CPU}/cpu1")
        paths = set()

        def collect(n):
            if n.get("kind") == "device":
                paths.add(n["path"])
            for c in n.get("children", []):
                collect(c)
        if rc == 0:
            for n in json.loads(out)["nodes"]:
                collect(n)
        C.check("--json START=cpu1 holds cpu1's subtree only", paths == cpu1, out + err)
        rc, out, err = tool(cli, root, "-l", "-n", "-o", "DEVPATH", "/devices/platform/foo1")
        C.check("-l START=foo1 leaves out foo10 and its eth10",
                rc == 0 and set(out.split()) == {"/devices/platform/foo1",
                                                 "/devices/platform/foo1/net/eth1"}, out + err)

        # the filtered tree: cpu1 and cpu10 both children of cpu/, cpu1 not last
        rc, out, err = tool(cli, root, "-s", "cpu", CPU)
        lines = out.splitlines()
        row = {}
        for ln in lines:
            m = re.search(r"─ (\S+)", ln)
            if m:
                row[m.group(1)] = ln
        ok = (rc == 0 and set(row) == {"cpu1", "cpu10", "sub1", "sub10"}
              and row["cpu1"].startswith("├─ cpu1") and row["cpu10"].startswith("└─ cpu10")
              and row["sub1"].startswith("│  └─ sub1") and row["sub10"].startswith("   └─ sub10"))
        C.check("-s cpu tree: cpu10 is drawn as cpu1's last sibling, sub1 under cpu1 only",
                ok, out + err)

        rc, out, err = T.run3([enumtool, "list", root, f"parent={CPU}/cpu1"])
        C.check("enumerator parent=cpu1 matches cpu1 and sub1, not cpu10 or sub10",
                rc == 0 and firsts(out) == cpu1, out + err)
        rc, out, err = T.run3([enumtool, "list", root, "subsystem=cpu", f"parent={CPU}/cpu1"])
        C.check("enumerator subsystem=cpu parent=cpu1 (the bus's index) matches cpu1 and sub1 only",
                rc == 0 and firsts(out) == cpu1, out + err)
        rc, out, err = T.run3([enumtool, "list", root, "--full", "parent=/devices/platform/foo1"])
        C.check("enumerator parent=foo1 (full walk) matches foo1 and eth1 only",
                rc == 0 and firsts(out) == {
                    "/devices/platform/foo1", "/devices/platform/foo1/net/eth1"}, out + err)

        rc, out, err = tool(cli, root, "--parents", f"{CPU}/cpu10/sub10")
        C.check("--parents of cpu10/sub10 names cpu10 as the parent",
                rc == 0 and f"parent  {CPU}/cpu10\n" in out and f"{CPU}/cpu1\n" not in out,
                out + err)

        rc, out, err = tool(cli, root, "--json", "/devices/platform/odd")
        node = json.loads(out)["nodes"][0] if rc == 0 else {}
        C.check("a subsystem link into r./bus/cpu, beside the root r, is not a bus link",
                node.get("subsystem_kind") is None, out + err)
        # a column is named whole: a prefix or an extension of a name is refused
        for bad in ("dev", "DEV", "DEVNAM", "DEVNAMEX", "SUB"):
            rc, out, err = tool(cli, root, "-l", "-o", bad)
            C.check(f"-o {bad}: refused (exit 2, one line), not taken for a column it begins",
                    rc == 2 and out == "" and len(err.splitlines()) == 1 and bad in err, out + err)
        rc, out, err = tool(cli, root, "-l", "-o", "devname")
        C.check("-o devname: a whole name in any case is taken",
                rc == 0 and out.splitlines()[0].strip() == "DEVNAME", out + err)
    return C.finish()


if __name__ == "__main__":
    sys.exit(main())
