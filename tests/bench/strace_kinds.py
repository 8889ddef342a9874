#!/usr/bin/env python3
"""System calls of a command, broken down by the kind of directory they are
spent on (the kinds of sysdev(7): root, device, class-dir, attr-group,
container), one line per figure.

    strace_kinds.py --exe sysdev-tree [--root S] [--label L] -- ARGV...

The kinds come from `sysdev-tree --root S --json --all` (so this trusts the
classifier; it measures cost, not correctness).  ARGV is run under
`strace -f -y`; every call whose file descriptor or result names a path is
charged to the nearest directory at or above that path that the JSON lists
(a `uevent` read is charged to its device, an openat of a directory to that
directory).  Calls that name no path under S/devices (start-up, the output
writes, libc) are charged to `other`.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

FD_PATH = re.compile(r"^(\w+)\((?:-?\d+|AT_FDCWD)<([^>]*)>")
RESULT_PATH = re.compile(r"= \d+<([^>]*)>\s*$")
FIRST_STR = re.compile(r'^\w+\((?:[^,]*), "((?:[^"\\]|\\.)*)"')
NAME = re.compile(r"^(?:\d+\s+)?(\w+)\(")


def kinds_of(exe, root):
    r = subprocess.run([exe, "--root", root, "--json", "--all"],
                       stdout=subprocess.PIPE, check=True)
    doc = json.loads(r.stdout)
    kinds = {}
    stack = list(doc["nodes"])
    while stack:
        n = stack.pop()
        kinds[n["path"]] = n["kind"]
        stack.extend(n.get("children") or [])
    return kinds


def charge(path, root, kinds):
    """devpath-keyed kind of the nearest listed directory at or above path."""
    rp = os.path.realpath(root)
    for base in (root.rstrip("/"), rp.rstrip("/")):
        if path == base or path.startswith(base + "/"):
            dp = path[len(base):] or "/"
            break
    else:
        return None
    while dp and dp != "/":
        if dp in kinds:
            return dp
        dp = dp.rsplit("/", 1)[0]
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--root", default="/sys")
    ap.add_argument("--label", default="cmd")
    ap.add_argument("argv", nargs="+")
    a = ap.parse_args()
    kinds = kinds_of(a.exe, a.root)
    ndirs = {}
    for k in kinds.values():
        ndirs[k] = ndirs.get(k, 0) + 1
    with tempfile.NamedTemporaryFile(prefix="strace-kinds-", suffix=".txt") as tf:
        subprocess.run(["strace", "-f", "-y", "-s", "256", "-o", tf.name] + a.argv,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        lines = open(tf.name, errors="replace").read().splitlines()
    table = {}          # (kind, syscall) -> calls
    for line in lines:
        line = re.sub(r"^\d+\s+", "", line)
        m = NAME.match(line)
        if not m or line.startswith("+++") or line.startswith("---"):
            continue
        sc = m.group(1)
        path = None
        fm = FD_PATH.match(line)
        rm = RESULT_PATH.search(line)
        if sc in ("openat", "open") and rm:
            path = rm.group(1)
        elif fm:
            path = fm.group(2)
            sm = FIRST_STR.match(line)
            if sc in ("newfstatat", "readlinkat", "openat", "faccessat2",
                      "statx") and sm and not sm.group(1).startswith("/"):
                path = path.rstrip("/") + "/" + sm.group(1)
        elif sc in ("openat", "open", "newfstatat", "stat", "readlink", "access"):
            sm = re.search(r'"(/[^"]*)"', line)
            path = sm.group(1) if sm else None
        dp = charge(path, a.root, kinds) if path else None
        kind = kinds[dp] if dp else "other"
        table[(kind, sc)] = table.get((kind, sc), 0) + 1
    total = sum(table.values())
    alld = len(kinds)
    print("strace-kinds %s total_syscalls=%d dirs=%d per_dir=%.2f"
          % (a.label, total, alld, total / alld))
    for kind in ["root", "container", "device", "class-dir", "attr-group", "other"]:
        calls = {sc: n for (k, sc), n in table.items() if k == kind}
        if not calls and kind not in ndirs:
            continue
        nd = ndirs.get(kind, 0)
        s = sum(calls.values())
        detail = " ".join("%s=%d" % (sc, n) for sc, n in
                          sorted(calls.items(), key=lambda kv: -kv[1]))
        if nd:
            per = " ".join("%s=%.2f" % (sc, n / nd) for sc, n in
                           sorted(calls.items(), key=lambda kv: -kv[1]))
            print("strace-kinds %s kind=%s dirs=%d calls=%d per_dir=%.2f per_dir_by_call: %s"
                  % (a.label, kind, nd, s, s / nd, per))
        else:
            print("strace-kinds %s kind=%s calls=%d by_call: %s" % (a.label, kind, s, detail))
    return 0


if __name__ == "__main__":
    sys.exit(main())
