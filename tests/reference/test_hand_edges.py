#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""sysdev-tree on the hand-edges tree, against the answers written in hand_edges.py.

    test_hand_edges.py SYSDEV_TREE FIXTURES_DIR

- the committed fixtures/hand-edges.* are what hand_edges.py writes
- --json --all: every directory, its kind and every device field
- each single-directory path, for every directory: --explain (the kind it
  names), a walk started there (--json --all START --depth 0), and for
  devices --parents --json (the device's own fields and its chain)
- DEVICE forms: SUBSYSTEM:NAME for a bus and a class, a NAME holding
  colons, /dev/NODE (vda1 is not vda), a syspath
- --subsystem NAME for overlapping names (pci/pci_bus, usb/usbmisc, net):
  exactly the devices written below
- --stats --json: bus/class names and runtime status as written below,
  kinds and subsystems counted from the answers
- text output escapes U+2029, C1 controls and DEL (tree, list, --parents)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hand_edges as H  # noqa: E402

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL: " + what, flush=True)
    return cond


def run(args):
    return subprocess.run(args, capture_output=True, timeout=120)


def js(tree, root, *args):
    r = run([tree, "--root", root, *args])
    what = " ".join(ascii(a) if isinstance(a, bytes) else a for a in args)
    if not check(r.returncode == 0, "%s: exit %d: %s" % (what, r.returncode, r.stderr[-300:])):
        return None
    try:
        return json.loads(r.stdout.decode("utf-8", "surrogateescape"))
    except ValueError as e:
        check(False, "%s: not JSON: %s" % (what, e))
        return None


def want_fields(path):
    w = H.EXPECTED[path]
    return None if isinstance(w, str) else dict(zip(H.FIELDS, w[1:]))


def want_kind(path):
    w = H.EXPECTED[path]
    return w if isinstance(w, str) else w[0]


def flatten(node, out):
    out[node["path"]] = node
    for c in node.get("children", []):
        flatten(c, out)
    return out


def check_node(n, path, how):
    check(n.get("kind") == want_kind(path), "%s %s: kind %r, by hand %r" %
          (how, ascii(path), n.get("kind"), want_kind(path)))
    wf = want_fields(path)
    if wf:
        for k, v in wf.items():
            check(n.get(k, "<absent>") == v, "%s %s: %s = %r, by hand %r" %
                  (how, ascii(path), k, n.get(k, "<absent>"), v))


def main():
    tree, fixtures = sys.argv[1], sys.argv[2]
    # the committed files are the generator's
    r = subprocess.run([sys.executable, os.path.join(HERE, "hand_edges.py"), "--check", fixtures],
                       capture_output=True, text=True)
    check(r.returncode == 0, "committed hand-edges files: " + r.stdout.strip())

    tmp = tempfile.mkdtemp(prefix="sysdev-hand-")
    root = os.path.join(tmp, "root")
    try:
        subprocess.run([sys.executable, os.path.join(HERE, "hand_edges.py"), "--tree", root],
                       check=True)
        # --json --all
        doc = js(tree, root, "--json", "--all")
        nodes = flatten(doc["nodes"][0], {}) if doc else {}
        # every directory exactly once, in pre-order with siblings bytewise by name
        order = []

        def preorder(n):
            order.append(n["path"])
            for c in n.get("children", []):
                preorder(c)
        if doc:
            preorder(doc["nodes"][0])
        want_order = sorted(H.EXPECTED, key=lambda p: [c.encode("utf-8") for c in p.split("/")])
        check(order == want_order, "--json --all: not every directory once in bytewise "
              "pre-order: %d listed, %d distinct, %d by hand" % (len(order), len(set(order)),
                                                                len(want_order)))
        check(sorted(nodes) == sorted(H.EXPECTED),
              "--json --all lists %s, by hand %s" % (
                  sorted(set(map(ascii, nodes)) ^ set(map(ascii, H.EXPECTED))), "the rest"))
        for path in sorted(H.EXPECTED):
            if path in nodes:
                check_node(nodes[path], path, "--json --all")

        # each single-directory path
        for path in sorted(H.EXPECTED):
            fspath = os.fsencode(path)
            r = run([tree, "--root", root, "--explain", fspath])
            text = r.stdout.decode("utf-8", "surrogateescape")
            # "PATH: KIND: why" with PATH escaped: take the kind after the first ": "
            kind = text.split(": ", 2)[1] if text.count(": ") >= 2 else None
            check(r.returncode == 0 and kind == want_kind(path),
                  "--explain %s: exit %d, kind %r, by hand %r" % (ascii(path), r.returncode, kind,
                                                                 want_kind(path)))
            d = js(tree, root, "--json", "--all", "--depth", "0", fspath)
            if d:
                n = d["nodes"][0] if d.get("nodes") else {}
                check(n.get("path") == path, "walk at %s: node %r" % (ascii(path), n.get("path")))
                has_kids = any(p.rsplit("/", 1)[0] == path for p in H.EXPECTED if p != path)
                check(n.get("children") == [] and n.get("truncated") is (True if has_kids else None),
                      "walk at %s --depth 0: children %r, truncated %r (it has %s)" % (
                          ascii(path), n.get("children"), n.get("truncated"),
                          "subdirectories" if has_kids else "none"))
                check_node(n, path, "walk at")
            if want_kind(path) == "device":
                d = js(tree, root, "--json", "--parents", fspath)
                chain = d.get("chain", []) if d else []
                check(chain and chain[0].get("path") == path,
                      "--parents %s: first %r" % (ascii(path), chain[:1]))
                for i, c in enumerate(chain):
                    if c.get("path") in H.EXPECTED:
                        c = dict(c, kind="device")
                        check_node(c, c["path"], "--parents %s [%d]" % (ascii(path), i))
                    else:
                        check(False, "--parents %s: %r is no directory" % (ascii(path), c))
                ups = [c.get("path") for c in chain[1:]]
                wp, want_ups = want_fields(path)["parent"], []
                while wp:
                    want_ups.append(wp)
                    wp = want_fields(wp)["parent"]
                check(ups == want_ups, "--parents %s: chain %r, by hand %r" % (ascii(path), ups,
                                                                             want_ups))
            else:
                r = run([tree, "--root", root, "--parents", fspath])
                check(r.returncode != 0 and r.stderr.count(b"\n") == 1,
                      "--parents %s (a %s): exit %d, stderr %r" % (ascii(path), want_kind(path),
                                                                   r.returncode, r.stderr))

        # DEVICE forms
        for spec, path in (("pci:0000:00:02.0", H.V),
                           ("platform:serial8250", "/devices/platform/serial8250"),
                           ("usbmisc:hiddev0", H.U + "/1-0:1.0/usbmisc/hiddev0"),
                           ("pci_bus:0000:00", H.PCI + "/pci_bus/0000:00"),
                           ("coll:coll0", "/devices/virtual/coll/coll0"),
                           ("coll:systemX", "/devices/systemX"),
                           ("/dev/vda1", H.V + "/block/vda/vda1"),
                           ("/dev/vda", H.V + "/block/vda"),
                           ("/dev/usb/hiddev0", H.U + "/1-0:1.0/usbmisc/hiddev0"),
                           ("/dev/ttyS0", "/devices/platform/serial8250/tty/ttyS0"),
                           ("/sys/devices/platform/odd0", "/devices/platform/odd0"),
                           (root + "/devices/system/cpu/cpu0", "/devices/system/cpu/cpu0")):
            d = js(tree, root, "--json", "--parents", spec)
            got = d["chain"][0].get("path") if d and d.get("chain") else None
            check(got == path, "--parents %s: %r, by hand %r" % (spec, got, path))
        for spec in ("pci:0000:00", "usb:hiddev0", "/dev/vda2", "nosuch:x"):
            r = run([tree, "--root", root, "--parents", spec])
            check(r.returncode != 0 and r.stderr.count(b"\n") == 1,
                  "--parents %s: exit %d, stderr %r" % (spec, r.returncode, r.stderr))

        # --subsystem NAME: exactly the devices written by hand
        for sub, want in sorted(H.BY_SUBSYSTEM.items()):
            d = js(tree, root, "--json", "--list", "--subsystem", sub)
            got = sorted(x["devpath"] for x in d.get("devices", [])) if d else None
            check(got == sorted(want), "--subsystem %s: %s, by hand %s" % (sub, got, sorted(want)))
            r = run([tree, "--root", root, "--subsystem", sub, "--raw", "--noheadings", "-o",
                     "DEVPATH"])
            lines = r.stdout.decode().splitlines()
            check(sorted(lines) == sorted(want), "--subsystem %s (text): %s" % (sub, lines))

        # --stats --json
        st = js(tree, root, "--stats", "--json")
        if st:
            check(st.get("bus_class_names") == H.STATS["bus_class_names"],
                  "--stats bus_class_names %r" % st.get("bus_class_names"))
            for side in ("class", "bus"):
                got = st.get("runtime_status", {}).get(side)
                check(got == H.STATS["runtime_status"][side],
                      "--stats runtime_status.%s %r, by hand %r" % (
                          side, got, H.STATS["runtime_status"][side]))
            kinds, subs = {}, {}
            for path in H.EXPECTED:
                kinds[want_kind(path)] = kinds.get(want_kind(path), 0) + 1
                f = want_fields(path)
                if f and f["subsystem"]:
                    subs[f["subsystem"]] = subs.get(f["subsystem"], 0) + 1
            got = {k: v for k, v in st.get("kinds", {}).items() if v}
            check(got == kinds, "--stats kinds %r, by hand %r" % (got, kinds))
            check(st.get("subsystems") == subs, "--stats subsystems %r, by hand %r" % (
                st.get("subsystems"), subs))

        # text output: U+2029, C1 controls and DEL are escaped, never raw
        raw = ("\u2029".encode(), "\u0085".encode(), "\u009b".encode(), b"\x7f")
        escaped = (b"par\\xe2\\x80\\xa9sep", b"c1\\xc2\\x85nel\\xc2\\x9bcsi", b"del\\x7fname")
        for args in (["/devices/virtual/misc"], ["--all"], ["--subsystem", "misc"],
                     ["--parents", "/devices/virtual/misc/" + H.PAR],
                     ["--parents", "/devices/virtual/misc/" + H.C1],
                     ["--explain", "/devices/virtual/misc/" + H.DEL]):
            r = run([tree, "--root", root] + [os.fsencode(a) for a in args])
            check(r.returncode == 0, "%s: exit %d" % (ascii(args), r.returncode))
            for b in raw:
                check(b not in r.stdout, "%s: raw %r in text output" % (ascii(args), b))
            if args[0] in ("--all", "--subsystem", "/devices/virtual/misc"):
                for e in escaped:
                    check(e in r.stdout, "%s: %r not shown escaped" % (ascii(args), e))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("hand-edges: %d directories checked; %d failure(s)" % (len(H.EXPECTED), len(FAILURES)))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
