#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The hand-edges fixture: edge cases of the rules, laid out and answered by hand.

    hand_edges.py --write FIXTURES_DIR   write hand-edges.sysfs and hand-edges.expected.json
    hand_edges.py --check FIXTURES_DIR   exit 1 unless the committed files are these
    hand_edges.py --tree DIR             lay the tree out in DIR (must not exist)

The tree (LAYOUT) and the answers (EXPECTED: the kind of every directory and
every field of every device) are both written out below, row by row; the
answers are not computed from the layout, nor taken from sysdev-tree.  The
archive is written here in the archive format (one line per entry), without
the project's packer.

What it holds (each for a rule or a field that one test alone guarded, or
none):
- subsystems whose names overlap: pci and pci_bus, usb and usbmisc
- names with U+2029 (paragraph separator), C1 controls (U+0085, U+009B) and DEL
- runtime_status files without a final newline: one in the middle of the
  class glob (cat joins it to the next file) and the very last one of the
  class and of the bus glob (uniq -c still counts it)
- /devices/systemX and /devices/virtualX: devices directly in /devices,
  placement "devices"; an empty /devices/net (class net exists): a container
- class-named directories: empty under a device (class-dir), empty under
  S/devices/virtual (class-dir), under a container (container), holding only
  attributes or only a non-device directory below a device (attr-group),
  under a directory of S/devices/virtual (container)
- a device named after a class (input) with a device below it
- uevent that is not a regular file: a directory, a link to a regular file
- a subsystem link that points neither into S/bus nor into S/class
- uevent values holding '=', devnum only from decimal MAJOR/MINOR, devnum and
  devname only with a dev attribute (a directory or a link named dev is none)
- latency tolerance on two devices (any, and a number)
- bus/class both named coll
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from sysdevtest import Tree  # noqa: E402

# ---- the layout ----------------------------------------------------------
# laid out with the tests' one builder (tests/lib/sysdevtest/tree.py), in
# memory: files are 0444 unless said otherwise, uevent 0644


PAR = "par\u2029sep"          # U+2029 PARAGRAPH SEPARATOR
C1 = "c1\u0085nel\u009bcsi"   # U+0085 NEL, U+009B CSI
DEL = "del\x7fname"


def layout():
    t = Tree(file_mode=0o444)
    for top in ("bus", "class", "dev", "dev/block", "dev/char", "devices"):
        t.dir(top)
    for b in ("pci", "usb", "platform", "cpu", "coll"):
        t.dir("bus/" + b)
        t.dir("bus/%s/devices" % b)
        t.dir("bus/%s/drivers" % b)
    for drv in ("pci/drivers/virtio-pci", "pci/drivers/xhci_hcd", "usb/drivers/usb",
                "usb/drivers/hub", "platform/drivers/serial8250"):
        t.dir("bus/" + drv)
    for c in ("block", "coll", "input", "leds", "misc", "net", "pci_bus", "tty", "usbmisc"):
        t.dir("class/" + c)

    # the PCI host bridge (no subsystem link) and its pci_bus class device
    t.device("devices/pci0000:00")
    t.device("devices/pci0000:00/pci_bus/0000:00", "class:pci_bus", status="active\n")
    # a virtio disk: class-dir block, disk, partition; DEVNAME holding '='
    p = "devices/pci0000:00/0000:00:02.0"
    t.device(p, "bus:pci", "virtio-pci", "DRIVER=virtio-pci\nPCI_SLOT_NAME=0000:00:02.0\n")
    # a class-named directory below a device holding only an attribute
    t.dir(p + "/net")
    t.file(p + "/net/carrier", "1\n")
    t.device(p + "/block/vda", "class:block", None,
        "MAJOR=254\nMINOR=0\nDEVNAME=vda\nDEVTYPE=disk\n", status="suspended")
    t.file(p + "/block/vda/dev", "254:0\n")
    t.device(p + "/block/vda/vda1", "class:block", None,
        "MAJOR=254\nMINOR=1\nDEVNAME=vda1\nDEVTYPE=partition\nPARTNAME=root=1\n")
    t.file(p + "/block/vda/vda1/dev", "254:1\n")
    t.link("dev/block/254:0", "../../" + p + "/block/vda")
    t.link("dev/block/254:1", "../../" + p + "/block/vda/vda1")
    # USB: controller, root hub (usb), interface (usb), usbmisc class device
    x = "devices/pci0000:00/0000:00:14.0"
    t.device(x, "bus:pci", "xhci_hcd", "DRIVER=xhci_hcd\n", status="active\n")
    t.file(x + "/power/pm_qos_latency_tolerance_us", "any\n", 0o644)
    # a class-named directory below a device holding a non-device directory
    t.dir(x + "/input")
    t.dir(x + "/input/junk")
    t.file(x + "/input/junk/value", "0\n")
    u = x + "/usb1"
    t.device(u, "bus:usb", "usb",
        "MAJOR=189\nMINOR=0\nDEVNAME=bus/usb/001/001\nDEVTYPE=usb_device\n", status="active\n")
    t.file(u + "/dev", "189:0\n")
    t.link("dev/char/189:0", "../../" + u)
    t.device(u + "/1-0:1.0", "bus:usb", "hub", "DEVTYPE=usb_interface\nINTERFACE=9/0/0\n",
        status="active\n")
    t.device(u + "/1-0:1.0/usbmisc/hiddev0", "class:usbmisc", None,
        "MAJOR=180\nMINOR=0\nDEVNAME=usb/hiddev0\n", status="suspended")  # last of the class glob
    t.file(u + "/1-0:1.0/usbmisc/hiddev0/dev", "180:0\n")
    t.link("dev/char/180:0", "../../" + u + "/1-0:1.0/usbmisc/hiddev0")
    t.device(u + "/ep_00", None, None, "DEVTYPE=usb_endpoint\n", status=None)
    # a MAJOR that is no number: no devnum (libudev agrees)
    t.device(x + "/oddnum", "bus:pci", None, "MAJOR=ten\nMINOR=1\n")

    # platform: serial port with a tty, an empty leds class-dir under a device
    t.device("devices/platform")
    s = "devices/platform/serial8250"
    t.device(s, "bus:platform", "serial8250", "DRIVER=serial8250\n")
    t.dir(s + "/leds")
    t.device(s + "/tty/ttyS0", "class:tty", None, "MAJOR=4\nMINOR=64\nDEVNAME=ttyS0\n")
    t.file(s + "/tty/ttyS0/dev", "4:64\n")
    t.link("dev/char/4:64", "../../" + s + "/tty/ttyS0")
    # a device named after a class, with a device below it
    t.device("devices/platform/input", "bus:platform")
    t.device("devices/platform/input/input5", "class:input", None, "NAME=\"kbd\"\n")
    # uevent is a directory: no device (attr-group below platform)
    t.dir("devices/platform/fakedir")
    t.dir("devices/platform/fakedir/uevent")
    # uevent is a link to a regular file: no device either
    t.dir("devices/platform/fakelink")
    t.link("devices/platform/fakelink/uevent", "../serial8250/uevent")
    # a subsystem link into neither S/bus nor S/class
    t.device("devices/platform/odd0")
    t.link("devices/platform/odd0/subsystem", "../../../module/odd")
    # "dev" that is no regular file: the device has no number (its uevent's
    # MAJOR/MINOR/DEVNAME are not believed without a dev attribute)
    t.device("devices/platform/devdir0", None, None, "MAJOR=7\nMINOR=3\nDEVNAME=loop3\n", status=None)
    t.dir("devices/platform/devdir0/dev")
    t.device("devices/platform/devlink0", None, None, "MAJOR=7\nMINOR=4\nDEVNAME=loop4\n", status=None)
    t.link("devices/platform/devlink0/dev", "../serial8250/tty/ttyS0/dev")
    # the last bus device in the glob: status without newline
    # (bus glob order: coll, cpu, pci, platform, usb; usb's last device is usb1)

    # system: cpu root and cpu0 with latency tolerance; an empty class-named dir
    t.dir("devices/system")
    t.device("devices/system/cpu")
    t.device("devices/system/cpu/cpu0", "bus:cpu", None, "", status="active")
    t.file("devices/system/cpu/cpu0/power/pm_qos_latency_tolerance_us", "100\n", 0o644)
    t.dir("devices/system/cpu/cpu0/cpuidle")
    t.dir("devices/system/cpu/cpu0/cpuidle/state0")
    t.file("devices/system/cpu/cpu0/cpuidle/state0/latency", "2\n")
    t.dir("devices/system/leds")

    # devices directly in /devices whose names start like the containers
    t.device("devices/systemX", "bus:coll", None, "DEVTYPE=sx\n")
    t.device("devices/virtualX", "bus:platform")
    # an empty directory named after a class directly in /devices
    t.dir("devices/net")

    # virtual: net/lo (class-dir net), nested attribute groups, misc names
    t.dir("devices/virtual")
    t.device("devices/virtual/net/lo", "class:net", None, "INTERFACE=lo\nIFINDEX=1\n",
        status="unsupported\n")
    t.dir("devices/virtual/net/lo/queues")
    t.dir("devices/virtual/net/lo/queues/rx-0")
    t.file("devices/virtual/net/lo/queues/rx-0/rps_cpus", "0\n")
    t.dir("devices/virtual/leds")
    # a class-named directory with only a non-device directory, under virtual
    t.dir("devices/virtual/input")
    t.dir("devices/virtual/input/mice-data")
    # a class-named directory under a plain directory of virtual
    t.dir("devices/virtual/foo")
    t.device("devices/virtual/foo/net/tap0", "class:net", None, "INTERFACE=tap0\n",
        status="suspended")  # no newline: cat joins it to the next file
    for name in (PAR, C1, DEL):
        t.device("devices/virtual/misc/" + name, "class:misc", None, "", status="unsupported\n")
    t.device("devices/virtual/coll/coll0", "class:coll", None, "", status="unsupported\n")

    # the last bus device of the glob (usb/devices/usb1, sorted after 1-0:1.0)
    # keeps its newline; make the last one without: bus usb, device zz-last
    t.device("devices/platform/zz-last", "bus:usb", None, "", status="suspended")
    return t


# ---- the answers, by hand --------------------------------------------------
# path: kind, or (kind, subsystem, subsystem_kind, driver, parent, class_dir,
#                 placement, devnum, devtype, devname) for devices

N = None
PCI = "/devices/pci0000:00"
X = PCI + "/0000:00:14.0"
U = X + "/usb1"
V = PCI + "/0000:00:02.0"
EXPECTED = {
    "/devices": "root",
    PCI: ("device", N, N, N, N, N, "devices", N, N, N),
    PCI + "/power": "attr-group",
    PCI + "/pci_bus": "class-dir",
    PCI + "/pci_bus/0000:00": ("device", "pci_bus", "class", N, PCI, "pci_bus", "devices", N, N, N),
    PCI + "/pci_bus/0000:00/power": "attr-group",
    V: ("device", "pci", "bus", "virtio-pci", PCI, N, "devices", N, N, N),
    V + "/power": "attr-group",
    V + "/net": "attr-group",
    V + "/block": "class-dir",
    V + "/block/vda": ("device", "block", "class", N, V, "block", "devices", "254:0", "disk", "vda"),
    V + "/block/vda/power": "attr-group",
    V + "/block/vda/vda1": ("device", "block", "class", N, V + "/block/vda", N, "devices",
                           "254:1", "partition", "vda1"),
    V + "/block/vda/vda1/power": "attr-group",
    X: ("device", "pci", "bus", "xhci_hcd", PCI, N, "devices", N, N, N),
    X + "/power": "attr-group",
    X + "/input": "attr-group",
    X + "/input/junk": "attr-group",
    X + "/oddnum": ("device", "pci", "bus", N, X, N, "devices", N, N, N),
    X + "/oddnum/power": "attr-group",
    U: ("device", "usb", "bus", "usb", X, N, "devices", "189:0", "usb_device", "bus/usb/001/001"),
    U + "/power": "attr-group",
    U + "/1-0:1.0": ("device", "usb", "bus", "hub", U, N, "devices", N, "usb_interface", N),
    U + "/1-0:1.0/power": "attr-group",
    U + "/1-0:1.0/usbmisc": "class-dir",
    U + "/1-0:1.0/usbmisc/hiddev0": ("device", "usbmisc", "class", N, U + "/1-0:1.0", "usbmisc",
                                     "devices", "180:0", N, "usb/hiddev0"),
    U + "/1-0:1.0/usbmisc/hiddev0/power": "attr-group",
    U + "/ep_00": ("device", N, N, N, U, N, "devices", N, "usb_endpoint", N),
    U + "/ep_00/power": "attr-group",
    "/devices/platform": ("device", N, N, N, N, N, "devices", N, N, N),
    "/devices/platform/power": "attr-group",
    "/devices/platform/serial8250": ("device", "platform", "bus", "serial8250", "/devices/platform",
                                     N, "devices", N, N, N),
    "/devices/platform/serial8250/power": "attr-group",
    "/devices/platform/serial8250/leds": "class-dir",
    "/devices/platform/serial8250/tty": "class-dir",
    "/devices/platform/serial8250/tty/ttyS0": ("device", "tty", "class", N,
                                               "/devices/platform/serial8250", "tty", "devices",
                                               "4:64", N, "ttyS0"),
    "/devices/platform/serial8250/tty/ttyS0/power": "attr-group",
    "/devices/platform/input": ("device", "platform", "bus", N, "/devices/platform", N, "devices",
                                N, N, N),
    "/devices/platform/input/power": "attr-group",
    "/devices/platform/input/input5": ("device", "input", "class", N, "/devices/platform/input", N,
                                       "devices", N, N, N),
    "/devices/platform/input/input5/power": "attr-group",
    "/devices/platform/devdir0": ("device", N, N, N, "/devices/platform", N, "devices", N, N, N),
    "/devices/platform/devdir0/power": "attr-group",
    "/devices/platform/devdir0/dev": "attr-group",
    "/devices/platform/devlink0": ("device", N, N, N, "/devices/platform", N, "devices", N, N,
                                   N),
    "/devices/platform/devlink0/power": "attr-group",
    "/devices/platform/fakedir": "attr-group",
    "/devices/platform/fakedir/uevent": "attr-group",
    "/devices/platform/fakelink": "attr-group",
    "/devices/platform/odd0": ("device", "odd", N, N, "/devices/platform", N, "devices", N, N, N),
    "/devices/platform/odd0/power": "attr-group",
    "/devices/platform/zz-last": ("device", "usb", "bus", N, "/devices/platform", N, "devices",
                                  N, N, N),
    "/devices/platform/zz-last/power": "attr-group",
    "/devices/system": "container",
    "/devices/system/cpu": ("device", N, N, N, N, N, "system", N, N, N),
    "/devices/system/cpu/power": "attr-group",
    "/devices/system/cpu/cpu0": ("device", "cpu", "bus", N, "/devices/system/cpu", N, "system",
                                 N, N, N),
    "/devices/system/cpu/cpu0/power": "attr-group",
    "/devices/system/cpu/cpu0/cpuidle": "attr-group",
    "/devices/system/cpu/cpu0/cpuidle/state0": "attr-group",
    "/devices/system/leds": "container",
    "/devices/systemX": ("device", "coll", "bus", N, N, N, "devices", N, "sx", N),
    "/devices/systemX/power": "attr-group",
    "/devices/virtualX": ("device", "platform", "bus", N, N, N, "devices", N, N, N),
    "/devices/virtualX/power": "attr-group",
    "/devices/net": "container",
    "/devices/virtual": "container",
    "/devices/virtual/net": "class-dir",
    "/devices/virtual/net/lo": ("device", "net", "class", N, N, "net", "virtual", N, N, N),
    "/devices/virtual/net/lo/power": "attr-group",
    "/devices/virtual/net/lo/queues": "attr-group",
    "/devices/virtual/net/lo/queues/rx-0": "attr-group",
    "/devices/virtual/leds": "class-dir",
    "/devices/virtual/input": "container",
    "/devices/virtual/input/mice-data": "container",
    "/devices/virtual/foo": "container",
    "/devices/virtual/foo/net": "container",
    "/devices/virtual/foo/net/tap0": ("device", "net", "class", N, N, N, "virtual", N, N, N),
    "/devices/virtual/foo/net/tap0/power": "attr-group",
    "/devices/virtual/misc": "class-dir",
    "/devices/virtual/coll": "class-dir",
    "/devices/virtual/coll/coll0": ("device", "coll", "class", N, N, "coll", "virtual", N, N, N),
    "/devices/virtual/coll/coll0/power": "attr-group",
}
for _name in (PAR, C1, DEL):
    EXPECTED["/devices/virtual/misc/" + _name] = ("device", "misc", "class", N, N, "misc",
                                                  "virtual", N, N, N)
    EXPECTED["/devices/virtual/misc/" + _name + "/power"] = "attr-group"

FIELDS = ("subsystem", "subsystem_kind", "driver", "parent", "class_dir", "placement", "devnum",
          "devtype", "devname")

# --subsystem NAME: the devices it selects, by hand
BY_SUBSYSTEM = {
    "pci": [V, X, X + "/oddnum"],
    "pci_bus": [PCI + "/pci_bus/0000:00"],
    "usb": [U, U + "/1-0:1.0", "/devices/platform/zz-last"],
    "usbmisc": [U + "/1-0:1.0/usbmisc/hiddev0"],
    "net": ["/devices/virtual/foo/net/tap0", "/devices/virtual/net/lo"],
    "coll": ["/devices/systemX", "/devices/virtual/coll/coll0"],
}

# --stats --json, by hand (runtime_status as cat | sort | uniq -c sees it)
STATS = {
    "bus_class_names": ["coll"],
    "runtime_status": {
        # class glob: block/vda "suspended" (no newline) + block/vda1, coll0, input5,
        # misc x3, lo, tap0 "suspended" (no newline) + pci_bus 0000:00 "active",
        # tty ttyS0, usbmisc hiddev0 "suspended" (no newline, last)
        "class": {"suspendedunsupported": 1, "unsupported": 7, "suspendedactive": 1,
                  "suspended": 1},
        # bus glob: coll/systemX, cpu/cpu0 "active" (no newline) + pci/0000:00:02.0,
        # pci 0000:00:14.0 active, oddnum, platform input, serial8250, virtualX,
        # usb 1-0:1.0 active, usb1 active, zz-last "suspended" (no newline, last)
        "bus": {"unsupported": 5, "activeunsupported": 1, "active": 3, "suspended": 1},
    },
    # kinds and subsystems: counted from EXPECTED
}


# ---- output ----------------------------------------------------------------

def archive_text():
    return layout().archive(
        ["hand-edges: written by tests/reference/hand_edges.py (see there); do not edit"])


def dirs_of_layout():
    return sorted("/" + e[2] for e in layout().entries if e[0] == "d" and
                  (e[2] == "devices" or e[2].startswith("devices/")))


def expected_doc():
    """EXPECTED as the nested document of --json --all (children by name, bytewise)."""
    paths = dirs_of_layout()
    if sorted(EXPECTED) != paths:
        missing = sorted(set(paths) - set(EXPECTED))
        extra = sorted(set(EXPECTED) - set(paths))
        raise SystemExit("hand_edges.py: EXPECTED does not match the layout: "
                         "unanswered %s, answered but absent %s" % (missing, extra))

    def node(path):
        w = EXPECTED[path]
        kind = w if isinstance(w, str) else w[0]
        n = {"path": path, "name": path.rsplit("/", 1)[1], "kind": kind}
        if not isinstance(w, str):
            n.update(zip(FIELDS, w[1:]))
        kids = sorted((p for p in EXPECTED if p.rsplit("/", 1)[0] == path and p != path),
                      key=lambda p: p.encode("utf-8"))
        n["children"] = [node(k) for k in kids]
        return n
    return {"nodes": [node("/devices")]}


def expected_json():
    doc = expected_doc()
    lines = ['{"nodes": [']

    def emit(n, depth):
        head = {k: v for k, v in n.items() if k != "children"}
        s = json.dumps(head, ensure_ascii=True)[:-1] + ', "children": ['
        if not n["children"]:
            lines.append(" " * depth + s + "]}")
            return
        lines.append(" " * depth + s)
        for i, c in enumerate(n["children"]):
            emit(c, depth + 1)
            if i + 1 < len(n["children"]):
                lines[-1] += ","
        lines[-1] += "]}"
    emit(doc["nodes"][0], 0)
    lines[-1] += "]}"
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", metavar="FIXTURES_DIR")
    g.add_argument("--check", metavar="FIXTURES_DIR")
    g.add_argument("--tree", metavar="DIR")
    a = ap.parse_args()
    arch, exp = archive_text(), expected_json()
    if a.tree:
        layout().materialize(a.tree)
        return 0
    d_ = a.write or a.check
    files = {"hand-edges.sysfs": arch, "hand-edges.expected.json": exp}
    bad = 0
    for name, text in files.items():
        path = os.path.join(d_, name)
        if a.write:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
        else:
            try:
                with open(path, encoding="utf-8") as fh:
                    same = fh.read() == text
            except OSError:
                same = False
            if not same:
                print("hand_edges.py: %s is not what tests/reference/hand_edges.py writes" % path)
                bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
