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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402

C = T.Checker(quiet=True)


def js(tree, root, *args):
    r = T.run([tree, "--root", root, *args])
    what = " ".join(ascii(a) if isinstance(a, bytes) else a for a in args)
    if not C.check("%s: exit %d: %s" % (what, r.returncode, r.stderr[-300:]), r.returncode == 0):
        return None
    try:
        return json.loads(r.stdout.decode("utf-8", "surrogateescape"))
    except ValueError as e:
        C.check("%s: not JSON: %s" % (what, e), False)
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
    C.check("%s %s: kind %r, by hand %r" %
            (how, ascii(path), n.get("kind"), want_kind(path)), n.get("kind") == want_kind(path))
    wf = want_fields(path)
    if wf:
        for k, v in wf.items():
            C.check("%s %s: %s = %r, by hand %r" %
                    (how, ascii(path), k, n.get(k, "<absent>"), v), n.get(k, "<absent>") == v)


def main():
    tree, fixtures = sys.argv[1], sys.argv[2]
    # the committed files are the generator's
    r = subprocess.run([sys.executable, os.path.join(HERE, "hand_edges.py"), "--check", fixtures],
                       capture_output=True, text=True)
    C.check("committed hand-edges files: " + r.stdout.strip(), r.returncode == 0)

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
        C.check("--json --all: not every directory once in bytewise "
                "pre-order: %d listed, %d distinct, %d by hand" % (len(order), len(set(order)),
                                                                  len(want_order)), order == want_order)
        C.check("--json --all lists %s, by hand %s" % (
                    sorted(set(map(ascii, nodes)) ^ set(map(ascii, H.EXPECTED))), "the rest"),
                sorted(nodes) == sorted(H.EXPECTED))
        for path in sorted(H.EXPECTED):
            if path in nodes:
                check_node(nodes[path], path, "--json --all")

        # each single-directory path
        for path in sorted(H.EXPECTED):
            fspath = os.fsencode(path)
            r = T.run([tree, "--root", root, "--explain", fspath])
            text = r.stdout.decode("utf-8", "surrogateescape")
            # "PATH: KIND: why" with PATH escaped: take the kind after the first ": "
            kind = text.split(": ", 2)[1] if text.count(": ") >= 2 else None
            C.check("--explain %s: exit %d, kind %r, by hand %r" % (ascii(path), r.returncode, kind,
                                                                   want_kind(path)),
                    r.returncode == 0 and kind == want_kind(path))
            d = js(tree, root, "--json", "--all", "--depth", "0", fspath)
            if d:
                n = d["nodes"][0] if d.get("nodes") else {}
                C.check("walk at %s: node %r" % (ascii(path), n.get("path")), n.get("path") == path)
                has_kids = any(p.rsplit("/", 1)[0] == path for p in H.EXPECTED if p != path)
                C.check("walk at %s --depth 0: children %r, truncated %r (it has %s)" % (
                            ascii(path), n.get("children"), n.get("truncated"),
                            "subdirectories" if has_kids else "none"),
                        n.get("children") == [] and n.get("truncated") is (True if has_kids else None))
                check_node(n, path, "walk at")
            if want_kind(path) == "device":
                d = js(tree, root, "--json", "--parents", fspath)
                chain = d.get("chain", []) if d else []
                C.check("--parents %s: first %r" % (ascii(path), chain[:1]),
                        chain and chain[0].get("path") == path)
                for i, c in enumerate(chain):
                    if c.get("path") in H.EXPECTED:
                        c = dict(c, kind="device")
                        check_node(c, c["path"], "--parents %s [%d]" % (ascii(path), i))
                    else:
                        C.check("--parents %s: %r is no directory" % (ascii(path), c), False)
                ups = [c.get("path") for c in chain[1:]]
                wp, want_ups = want_fields(path)["parent"], []
                while wp:
                    want_ups.append(wp)
                    wp = want_fields(wp)["parent"]
                C.check("--parents %s: chain %r, by hand %r" % (ascii(path), ups,
                                                                               want_ups), ups == want_ups)
            else:
                r = T.run([tree, "--root", root, "--parents", fspath])
                C.check("--parents %s (a %s): exit %d, stderr %r" % (ascii(path), want_kind(path),
                                                                     r.returncode, r.stderr),
                        r.returncode != 0 and r.stderr.count(b"\n") == 1)

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
            C.check("--parents %s: %r, by hand %r" % (spec, got, path), got == path)
        for spec in ("pci:0000:00", "usb:hiddev0", "/dev/vda2", "nosuch:x"):
            r = T.run([tree, "--root", root, "--parents", spec])
            C.check("--parents %s: exit %d, stderr %r" % (spec, r.returncode, r.stderr),
                    r.returncode != 0 and r.stderr.count(b"\n") == 1)

        # --subsystem NAME: exactly the devices written by hand
        for sub, want in sorted(H.BY_SUBSYSTEM.items()):
            d = js(tree, root, "--json", "--list", "--subsystem", sub)
            got = sorted(x["devpath"] for x in d.get("devices", [])) if d else None
            C.check("--subsystem %s: %s, by hand %s" % (sub, got, sorted(want)), got == sorted(want))
            r = T.run([tree, "--root", root, "--subsystem", sub, "--raw", "--noheadings", "-o",
                       "DEVPATH"])
            lines = r.stdout.decode().splitlines()
            C.check("--subsystem %s (text): %s" % (sub, lines), sorted(lines) == sorted(want))

        # --stats --json
        st = js(tree, root, "--stats", "--json")
        if st:
            C.check("--stats bus_class_names %r" % st.get("bus_class_names"),
                    st.get("bus_class_names") == H.STATS["bus_class_names"])
            for side in ("class", "bus"):
                got = st.get("runtime_status", {}).get(side)
                C.check("--stats runtime_status.%s %r, by hand %r" % (
                            side, got, H.STATS["runtime_status"][side]),
                        got == H.STATS["runtime_status"][side])
            kinds, subs = {}, {}
            for path in H.EXPECTED:
                kinds[want_kind(path)] = kinds.get(want_kind(path), 0) + 1
                f = want_fields(path)
                if f and f["subsystem"]:
                    subs[f["subsystem"]] = subs.get(f["subsystem"], 0) + 1
            got = {k: v for k, v in st.get("kinds", {}).items() if v}
            C.check("--stats kinds %r, by hand %r" % (got, kinds), got == kinds)
            C.check("--stats subsystems %r, by hand %r" % (
                st.get("subsystems"), subs), st.get("subsystems") == subs)

        # text output: U+2029, C1 controls and DEL are escaped, never raw
        raw = ("\u2029".encode(), "\u0085".encode(), "\u009b".encode(), b"\x7f")
        escaped = (b"par\\xe2\\x80\\xa9sep", b"c1\\xc2\\x85nel\\xc2\\x9bcsi", b"del\\x7fname")
        for args in (["/devices/virtual/misc"], ["--all"], ["--subsystem", "misc"],
                     ["--parents", "/devices/virtual/misc/" + H.PAR],
                     ["--parents", "/devices/virtual/misc/" + H.C1],
                     ["--explain", "/devices/virtual/misc/" + H.DEL]):
            r = T.run([tree, "--root", root] + [os.fsencode(a) for a in args])
            C.check("%s: exit %d" % (ascii(args), r.returncode), r.returncode == 0)
            for b in raw:
                C.check("%s: raw %r in text output" % (ascii(args), b), b not in r.stdout)
            if args[0] in ("--all", "--subsystem", "/devices/virtual/misc"):
                for e in escaped:
                    C.check("%s: %r not shown escaped" % (ascii(args), e), e in r.stdout)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("hand-edges: %d directories checked" % len(H.EXPECTED))
    return C.summary()


if __name__ == "__main__":
    sys.exit(main())
