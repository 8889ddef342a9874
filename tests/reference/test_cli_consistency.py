#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Every node of a fixture through the CLI's single-directory paths, against
the CLI's whole-tree walk (--json --all):

  --explain PATH                 names the same kind
  --json --all --depth 0 PATH    a walk started there: the same kind and fields
  --json --parents PATH          (devices) the same fields, and the chain is
                                 the walk's parents up to the top

    test_cli_consistency.py SYSDEV_TREE SYSDEV_FIXTURE A.sysfs [--every N]

--every N checks every Nth directory in path order and every root, container
and class-dir (big trees; the library-level check, consistency.c, sees
every node of every fixture).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

FIELDS = ("subsystem", "subsystem_kind", "driver", "parent", "class_dir", "placement", "devnum",
          "devtype", "devname")


def run(args):
    return subprocess.run(args, capture_output=True, timeout=120)


def main():
    tree, fixture, archive = sys.argv[1:4]
    every = int(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[4] == "--every" else 1
    tmp = tempfile.mkdtemp(prefix="sysdev-cli-consistency-")
    root = tmp + "/root"
    failures = []
    try:
        subprocess.run([fixture, "unpack", archive, root], check=True)
        r = run([tree, "--root", root, "--json", "--all"])
        doc = json.loads(r.stdout.decode("utf-8", "surrogateescape"))
        nodes = {}

        def flat(n):
            nodes[n["path"]] = n
            for c in n["children"]:
                flat(c)
        flat(doc["nodes"][0])
        paths = [p for i, p in enumerate(sorted(nodes))
                 if nodes[p]["kind"] in ("root", "container", "class-dir") or i % every == 0]

        def one(path):
            bad = []
            w = nodes[path]
            fsp = os.fsencode(path)
            r = run([tree, "--root", root, "--explain", fsp])
            text = r.stdout.decode("utf-8", "surrogateescape")
            kind = text.split(": ", 2)[1] if text.count(": ") >= 2 else None
            if r.returncode != 0 or kind != w["kind"]:
                bad.append("--explain %s: exit %d kind %r, the walk %r" % (
                    ascii(path), r.returncode, kind, w["kind"]))
            r = run([tree, "--root", root, "--json", "--all", "--depth", "0", fsp])
            try:
                n = json.loads(r.stdout.decode("utf-8", "surrogateescape"))["nodes"][0]
            except (ValueError, KeyError, IndexError):
                n = {}
            want_trunc = True if w["children"] else None
            if n.get("children") != [] or n.get("truncated") is not want_trunc:
                bad.append("walk at %s --depth 0: children %r truncated %r, the whole walk has "
                           "%d children" % (ascii(path), n.get("children"), n.get("truncated"),
                                            len(w["children"])))
            for k in ("path", "kind") + (FIELDS if w["kind"] == "device" else ()):
                if n.get(k, "<absent>") != w.get(k):
                    bad.append("walk at %s: %s %r, the whole walk %r" % (ascii(path), k,
                                                                        n.get(k, "<absent>"),
                                                                        w.get(k)))
            if w["kind"] == "device":
                r = run([tree, "--root", root, "--json", "--parents", fsp])
                try:
                    chain = json.loads(r.stdout.decode("utf-8", "surrogateescape"))["chain"]
                except (ValueError, KeyError):
                    chain = []
                want = [path]
                while nodes[want[-1]].get("parent"):
                    want.append(nodes[want[-1]]["parent"])
                if [c.get("path") for c in chain] != want:
                    bad.append("--parents %s: chain %r, the walk's parents %r" % (
                        ascii(path), [c.get("path") for c in chain], want))
                for c in chain:
                    wn = nodes.get(c.get("path"), {})
                    for k in FIELDS:
                        if c.get(k, "<absent>") != wn.get(k):
                            bad.append("--parents %s: %s of %s %r, the whole walk %r" % (
                                ascii(path), k, ascii(c.get("path")), c.get(k, "<absent>"),
                                wn.get(k)))
            return bad

        with ThreadPoolExecutor(max_workers=2) as ex:
            for bad in ex.map(one, paths):
                failures += bad
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures[:50]:
        print("FAIL: " + f)
    print("cli consistency %s: %d of %d directories checked, %d failures" % (
        os.path.basename(archive), len(paths), len(nodes), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
