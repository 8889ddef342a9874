#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The comparisons of --diff and --check-udev, with hand-written answers.

    test_compare.py diff SYSDEV_TREE HAND_EDGES_PY
    test_compare.py check-udev SYSDEV_TREE_FAKEUDEV HAND_EDGES_PY

Both start from the hand-edges tree (tests/reference/hand_edges.py), make
one change at a time and hold the output to what is written here.  No
privileges needed: --diff reads two roots; --check-udev runs in a copy of
sysdev-tree whose "libudev" reads the enumeration written below.
"""
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402

C = T.Checker(quiet=True)


def make_tree(gen, path):
    subprocess.run([sys.executable, gen, "--tree", path], check=True)


PCI = "/devices/pci0000:00"
V = PCI + "/0000:00:02.0"
X = PCI + "/0000:00:14.0"
U = X + "/usb1"


def relink(root, rel, target):
    p = os.path.join(root, rel)
    if os.path.lexists(p):
        os.remove(p)
    if target is not None:
        os.symlink(target, p)


def write(root, rel, text):
    with open(os.path.join(root, rel), "w") as f:
        f.write(text)


# ---- --diff ----------------------------------------------------------------

def case_diff(exe, gen):
    tmp = tempfile.mkdtemp(prefix="sysdev-compare-")
    a = os.path.join(tmp, "a")
    make_tree(gen, a)
    try:
        # (what, change of NEW, expected changed / removed / added, extra args)
        cases = [
            ("driver changed", lambda r: relink(r, V[1:] + "/driver",
                                                "../../../bus/pci/drivers/xhci_hcd"),
             [{"path": V, "field": "driver", "old": "virtio-pci", "new": "xhci_hcd"}], [], []),
            ("driver unbound", lambda r: relink(r, X[1:] + "/driver", None),
             [{"path": X, "field": "driver", "old": "xhci_hcd", "new": None}], [], []),
            ("driver bound", lambda r: relink(r, X[1:] + "/oddnum/driver",
                                              "../../../../bus/pci/drivers/xhci_hcd"),
             [{"path": X + "/oddnum", "field": "driver", "old": None, "new": "xhci_hcd"}], [], []),
            ("subsystem changed", lambda r: relink(r, "devices/platform/odd0/subsystem",
                                                   "../../../bus/platform"),
             [{"path": "/devices/platform/odd0", "field": "subsystem", "old": "odd",
               "new": "platform"}], [], []),
            ("devnum changed", lambda r: write(r, V[1:] + "/block/vda/uevent",
                                               "MAJOR=254\nMINOR=16\nDEVNAME=vda\nDEVTYPE=disk\n"),
             [{"path": V + "/block/vda", "field": "devnum", "old": "254:0", "new": "254:16"}],
             [], []),
            ("device removed", lambda r: shutil.rmtree(os.path.join(
                r, "devices/platform/serial8250/tty/ttyS0")),
             [], ["/devices/platform/serial8250/tty/ttyS0"], []),
            ("device added", lambda r: os.makedirs(os.path.join(r, "devices/platform/new0"))
             or write(r, "devices/platform/new0/uevent", ""),
             [], [], ["/devices/platform/new0"]),
        ]
        for what, change, changed, removed, added in cases:
            b = os.path.join(tmp, "b")
            shutil.rmtree(b, ignore_errors=True)
            make_tree(gen, b)
            change(b)
            rc, out, err = T.run3([exe, "--json", "--diff", a, b])
            C.check("--diff %s: exit %d (1 expected): %s" % (what, rc, err), rc == 1)
            try:
                doc = json.loads(out)
            except ValueError:
                C.check("--diff %s: not JSON: %r" % (what, out[:300]), False)
                continue
            got_changed = [{k: c.get(k) for k in ("path", "field", "old", "new")}
                           for c in doc.get("changed", [])]
            C.check("--diff %s: changed %r, by hand %r" % (
                what, got_changed, changed), got_changed == changed)
            got_removed = [c.get("path") for c in doc.get("removed", [])]
            got_added = [c.get("path") for c in doc.get("added", [])]
            C.check("--diff %s: removed %r, by hand %r" % (
                what, got_removed, removed), got_removed == removed)
            C.check("--diff %s: added %r, by hand %r" % (what, got_added, added), got_added == added)
            C.check("--diff %s: same %r" % (what, doc.get("same")), doc.get("same") is False)
            # text: one line per change, naming the device
            rc, out, err = T.run3([exe, "--diff", a, b])
            lines = out.splitlines()
            C.check("--diff %s (text): exit %d, %r" % (what, rc, lines),
                    rc == 1 and len(lines) == len(changed) + len(removed) + len(added))
            for c in changed:
                C.check("--diff %s (text): no line for %s %s" % (what, c["path"], c["field"]),
                        any(c["path"] in ln and c["field"] in ln for ln in lines))
            # and the other way round
            rc, out, err = T.run3([exe, "--json", "--diff", b, a])
            doc = json.loads(out) if rc == 1 else {}
            C.check("--diff %s reversed: exit %d, %r" % (what, rc, out[:300]),
                    [c.get("path") for c in doc.get("removed", [])] == added and
                    [c.get("path") for c in doc.get("added", [])] == removed)

        # a walk that could not read everything proves nothing: exit 2, a line a root
        # (out of file descriptors here: no privileges needed to provoke it)
        def few_fds():
            resource.setrlimit(resource.RLIMIT_NOFILE, (9, 9))
        for other in (a, b):
            r = subprocess.run([exe, "--diff", a, other], capture_output=True, timeout=60,
                               preexec_fn=few_fds)
            lines = r.stderr.splitlines()
            C.check("--diff with 9 descriptors (%s): exit %d, stderr %r" % (
                        "same trees" if other == a else "trees that differ", r.returncode,
                        r.stderr[-300:]),
                    r.returncode == 2 and 1 <= len(lines) <= 2 and  # a line per root read short
                    all(b"EMFILE" in ln for ln in lines))

        # no change: empty, exit 0
        b = os.path.join(tmp, "b")
        shutil.rmtree(b, ignore_errors=True)
        make_tree(gen, b)
        rc, out, err = T.run3([exe, "--diff", a, b])
        C.check("--diff of equal trees: exit %d, %r" % (rc, out), rc == 0 and out == "")
        # an attribute change: only with --attrs
        write(b, "devices/platform/serial8250/modalias", "platform:serial8250\n")
        write(a, "devices/platform/serial8250/modalias", "platform:serial8251\n")
        rc, out, err = T.run3([exe, "--diff", a, b])
        C.check("--diff without --attrs sees attributes: %d %r" % (rc, out), rc == 0 and out == "")
        rc, out, err = T.run3([exe, "--json", "--attrs", "--diff", a, b])
        doc = json.loads(out) if rc == 1 else {}
        got = [(c.get("path"), c.get("field"), c.get("name"), c.get("old"), c.get("new"))
               for c in doc.get("changed", [])]
        C.check("--diff --attrs modalias: exit %d, %r" % (rc, got),
                got == [("/devices/platform/serial8250", "attribute", "modalias",
                         "platform:serial8251", "platform:serial8250")])

        # a move needs the same modalias: read from the modalias attribute when the
        # uevent file has no MODALIAS (a widget under another hub is the same device
        # only when both say platform:kind1)
        roots = {}
        for side, hub, modalias in (("old", "hubA", "platform:kind1"),
                                    ("new", "hubB", "platform:kind2"),
                                    ("same", "hubB", "platform:kind1")):
            r = roots[side] = os.path.join(tmp, "move-" + side)
            t = T.Tree(r)
            t.dirs("bus/platform/devices", "class")
            for h in ("/devices/platform", "/devices/platform/hubA", "/devices/platform/hubB"):
                t.device(h)
            t.device("/devices/platform/%s/widget" % hub, "bus:platform")
            t.file("devices/platform/%s/widget/modalias" % hub, modalias + "\n")
        for new, want in (("new", (1, 1, 0)), ("same", (0, 0, 1))):
            rc, out, err = T.run3([exe, "--json", "--diff", roots["old"], roots[new]])
            counts = json.loads(out).get("counts", {}) if rc == 1 else {}
            got = tuple(counts.get(k) for k in ("removed", "added", "moved"))
            C.check("--diff: widget with modalias attribute %s: removed/added/moved %r, by hand %r"
                    % ("platform:kind2" if new == "new" else "platform:kind1", got, want),
                    got == want, (rc, out[-300:], err))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---- --check-udev ------------------------------------------------------------

MISC = ["par\u2029sep", "c1\u0085nel\u009bcsi", "del\x7fname"]
# libudev's view of the hand-edges tree, written by hand: every device an
# entry of S/bus/*/devices or S/class/*/* links to, with its fields
UDEV = [
    (V, "pci", "virtio-pci", None, None, PCI),
    (X, "pci", "xhci_hcd", None, None, PCI),
    (X + "/oddnum", "pci", None, None, None, X),
    (PCI + "/pci_bus/0000:00", "pci_bus", None, None, None, PCI),
    (V + "/block/vda", "block", None, "disk", "254:0", V),
    (V + "/block/vda/vda1", "block", None, "partition", "254:1", V + "/block/vda"),
    (U, "usb", "usb", "usb_device", "189:0", X),
    (U + "/1-0:1.0", "usb", "hub", "usb_interface", None, U),
    (U + "/1-0:1.0/usbmisc/hiddev0", "usbmisc", None, None, "180:0", U + "/1-0:1.0"),
    ("/devices/platform/zz-last", "usb", None, None, None, "/devices/platform"),
    ("/devices/platform/serial8250", "platform", "serial8250", None, None, "/devices/platform"),
    ("/devices/platform/input", "platform", None, None, None, "/devices/platform"),
    ("/devices/virtualX", "platform", None, None, None, None),
    ("/devices/platform/serial8250/tty/ttyS0", "tty", None, None, "4:64",
     "/devices/platform/serial8250"),
    ("/devices/platform/input/input5", "input", None, None, None, "/devices/platform/input"),
    ("/devices/system/cpu/cpu0", "cpu", None, None, None, "/devices/system/cpu"),
    ("/devices/systemX", "coll", None, "sx", None, None),
    ("/devices/virtual/coll/coll0", "coll", None, None, None, None),
    ("/devices/virtual/net/lo", "net", None, None, None, None),
    ("/devices/virtual/foo/net/tap0", "net", None, None, None, None),
] + [("/devices/virtual/misc/" + n, "misc", None, None, None, None) for n in MISC]
# what no list links to: the walk alone finds them
NOT_LINKED = [PCI, U + "/ep_00", "/devices/platform", "/devices/platform/devdir0",
              "/devices/platform/devlink0", "/devices/system/cpu"]
SUB_NOT_LISTED = ["/devices/platform/odd0"]


def udev_file(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write("\t".join("-" if v is None else v for v in r) + "\n")


def case_check_udev(exe, gen):
    tmp = tempfile.mkdtemp(prefix="sysdev-compare-")
    root = os.path.join(tmp, "root")
    make_tree(gen, root)
    lst = os.path.join(tmp, "udev.txt")
    env = dict(os.environ, FAKE_UDEV_DEVICES=lst)

    def check_udev(rows, what):
        udev_file(lst, rows)
        rc, out, err = T.run3([exe, "--root", root, "--json", "--check-udev"], env=env)
        try:
            return rc, json.loads(out), err
        except ValueError:
            C.check("--check-udev %s: exit %d, not JSON: %r %r" % (what, rc, out[:300], err), False)
            return rc, {}, err

    try:
        rc, doc, err = check_udev(UDEV, "agreeing")
        C.check("--check-udev on a view that agrees: exit %d, %r %s" % (rc, doc, err),
                rc == 0 and doc.get("agree") is True)
        counts = doc.get("counts", {})
        C.check("--check-udev counts %r (walk 30, udev/links/both %d)" % (counts, len(UDEV)),
                counts.get("walk") == 30 and counts.get("udev") == len(UDEV) and
                counts.get("both") == len(UDEV) and counts.get("links") == len(UDEV))
        C.check("--check-udev not_linked %r, by hand %r" % (doc.get("not_linked"), NOT_LINKED),
                sorted(doc.get("not_linked", [])) == sorted(NOT_LINKED))
        C.check("--check-udev with_subsystem_not_listed %r" % doc.get("with_subsystem_not_listed"),
                doc.get("with_subsystem_not_listed") == SUB_NOT_LISTED)

        # one field differs at a time: (row index, field index, libudev's value)
        names = ["path", "subsystem", "driver", "devtype", "devnum", "parent"]
        for i, k, val in ((0, 2, "virtio_pci_other"), (1, 2, None), (2, 2, "xhci_hcd"),
                          (0, 1, "pcie"), (4, 3, "partition"), (6, 3, None),
                          (4, 4, "254:9"), (13, 4, None), (3, 4, "1:1"),
                          (5, 5, V), (14, 5, None), (18, 5, PCI)):
            rows = [list(r) for r in UDEV]
            walk_value = rows[i][k]
            rows[i][k] = val
            what = "%s of %s differs" % (names[k], ascii(rows[i][0]))
            rc, doc, err = check_udev(rows, what)
            want = [{"path": rows[i][0], "field": names[k], "walk": walk_value, "udev": val}]
            C.check("--check-udev %s: exit %d, differences %r, by hand %r" % (
                        what, rc, doc.get("differences"), want),
                    rc == 1 and doc.get("agree") is False and doc.get("differences") == want)
            rc, out, err = T.run3([exe, "--root", root, "--check-udev"], env=env)
            C.check("--check-udev %s (text): exit %d %r" % (what, rc, out[-400:]),
                    rc == 1 and "DISAGREE" in out and
                    any(ln.startswith("differ") and names[k] in ln for ln in out.splitlines()))

        # libudev lists a device the walk does not find
        rows = UDEV + [("/devices/platform/ghost", "platform", None, None, None, None)]
        rc, doc, err = check_udev(rows, "udev-only")
        C.check("--check-udev with a device only libudev lists: exit %d %r" % (rc, doc),
                rc == 1 and doc.get("agree") is False and
                [x.get("path") for x in doc.get("udev_only", [])] == ["/devices/platform/ghost"])
        # an entry of S/bus links to a device libudev does not list
        rows = [r for r in UDEV if r[0] != "/devices/platform/zz-last"]
        rc, doc, err = check_udev(rows, "link udev misses")
        misses = [(x.get("link"), x.get("target")) for x in doc.get("links_udev_misses", [])]
        C.check("--check-udev with a linked device libudev does not list: exit %d %r" % (rc, misses),
                rc == 1 and doc.get("agree") is False and
                misses == [("/bus/usb/devices/zz-last", "/devices/platform/zz-last")])
        # a class entry too
        rows = [r for r in UDEV if r[0] != "/devices/virtual/net/lo"]
        rc, doc, err = check_udev(rows, "class link udev misses")
        misses = [(x.get("link"), x.get("target")) for x in doc.get("links_udev_misses", [])]
        C.check("--check-udev with a class device libudev does not list: exit %d %r" % (rc, misses),
                rc == 1 and misses == [("/class/net/lo", "/devices/virtual/net/lo")])
        # the lists in byte order of the link, whatever order the directories come in:
        # S/bus/usb is scanned before S/bus/usb-serial, but "-" sorts before "/"
        order = os.path.join(tmp, "order")
        t = T.Tree(order)
        t.dirs("bus/usb/devices", "bus/usb-serial/devices", "class/tty")
        t.device("/devices/platform/a1", "bus:usb")
        t.device("/devices/platform/a1/ttyUSB0", "bus:usb-serial")
        t.device("/devices/platform/a1/ttyUSB0/tty/ttyUSB0", "class:tty")
        # and an S/subsystem, which no kernel merged and libudev does not read: not a list
        t.dirs("subsystem/usb/devices")
        t.link("subsystem/usb/devices/a1", "../../../devices/platform/a1")
        udev_file(lst, [])
        rc, out, err = T.run3([exe, "--root", order, "--json", "--check-udev"], env=env)
        misses = [x.get("link") for x in json.loads(out).get("links_udev_misses", [])] \
            if out.startswith("{") else (rc, out, err)
        want = ["/bus/usb-serial/devices/ttyUSB0", "/bus/usb/devices/a1", "/class/tty/ttyUSB0"]
        C.check("--check-udev lists the links libudev misses in byte order, S/bus and S/class "
                "only: %r" % (misses,),
                misses == want)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    mode, exe, gen = sys.argv[1:4]
    if mode == "diff":
        case_diff(exe, gen)
    elif mode == "check-udev":
        case_check_udev(exe, gen)
    else:
        print("test_compare.py: unknown mode " + mode)
        return 2
    print("compare %s:" % mode)
    return C.summary()


if __name__ == "__main__":
    sys.exit(main())
