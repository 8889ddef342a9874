#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""sysdev-tree --json --all against sysfs-ref.sh, a reading of the same tree
with plain shell tools (no sysdev-tree, libsysdev or Python oracle in it).

    test_shell_reference.py SYSDEV_TREE SYSDEV_FIXTURE SCRIPT --archive A.sysfs
    test_shell_reference.py SYSDEV_TREE SYSDEV_FIXTURE SCRIPT --live /sys

Every directory under S/devices: the same set of paths, the same kind, and
for devices the same subsystem, subsystem_kind, driver, parent, class_dir,
placement, devnum, devtype and devname.  The expected values are computed by
the script at test time, never stored from the tool.
"""
import json
import shutil
import subprocess
import sys
import tempfile

FIELDS = ("kind", "subsystem", "subsystem_kind", "driver", "parent", "class_dir", "placement",
          "devnum", "devtype", "devname")


def shell_view(script, root):
    r = subprocess.run(["bash", script, root], capture_output=True, timeout=900)
    if r.returncode != 0:
        raise SystemExit("sysfs-ref.sh %s: exit %d: %s" % (root, r.returncode,
                                                          r.stderr.decode(errors="replace")))
    parts = r.stdout.split(b"\0")
    if parts[-1] != b"" or (len(parts) - 1) % 11:
        raise SystemExit("sysfs-ref.sh %s: output is not records of 11 fields" % root)
    out = {}
    for i in range(0, len(parts) - 1, 11):
        rec = [p.decode("utf-8", "surrogateescape") for p in parts[i:i + 11]]
        path, vals = rec[0], rec[1:]
        if path in out:
            raise SystemExit("sysfs-ref.sh: %s twice" % ascii(path))
        row = {"kind": vals[0]}
        if vals[0] == "device":
            row.update({k: (None if v == "-" else v) for k, v in zip(FIELDS[1:], vals[1:])})
        out[path] = row
    return out


def tool_view(tree, root):
    r = subprocess.run([tree, "--root", root, "--json", "--all"], capture_output=True, timeout=600)
    if r.returncode != 0:
        raise SystemExit("sysdev-tree --json --all: exit %d: %s" % (r.returncode, r.stderr[-300:]))
    doc = json.loads(r.stdout.decode("utf-8", "surrogateescape"))
    out = {}

    def walk(n):
        row = {"kind": n["kind"]}
        if n["kind"] == "device":
            row.update({k: n.get(k, "<absent>") for k in FIELDS[1:]})
        out[n["path"]] = row
        for c in n.get("children", []):
            walk(c)
    walk(doc["nodes"][0])
    return out


def compare(a, b):
    bad = []
    for p in sorted(set(a) | set(b)):
        if p not in a:
            bad.append("%s: only the tool lists it (%s)" % (ascii(p), b[p]["kind"]))
        elif p not in b:
            bad.append("%s: only the shell reading lists it (%s)" % (ascii(p), a[p]["kind"]))
        elif a[p] != b[p]:
            diff = {k: (a[p].get(k), b[p].get(k)) for k in FIELDS if a[p].get(k) != b[p].get(k)}
            bad.append("%s: shell vs tool %s" % (ascii(p), diff))
    return bad


def main():
    tree, fixture, script, how, what = sys.argv[1:6]
    tmp = None
    try:
        if how == "--archive":
            tmp = tempfile.mkdtemp(prefix="sysdev-shellref-")
            root = tmp + "/root"
            subprocess.run([fixture, "unpack", what, root], check=True)
        else:
            root = what
        for attempt in range(3 if how == "--live" else 1):
            ref = shell_view(script, root)
            got = tool_view(tree, root)
            bad = compare(ref, got)
            if not bad:
                break
            print("attempt %d: %d differences (a live tree may change)" % (attempt + 1, len(bad)))
        for line in bad[:50]:
            print("FAIL: " + line)
        ndev = sum(1 for r in ref.values() if r["kind"] == "device")
        print("shell reference %s: %d directories, %d devices, %d differences" % (
            what, len(ref), ndev, len(bad)))
        return 1 if bad or len(ref) < 2 else 0
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
