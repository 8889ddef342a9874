#!/usr/bin/env python3
"""The enumerator's property and attribute matches, its default set, and
sysdev_device_new()'s device ids, against libudev on the live /sys and
against expectations written by hand on a tree laid out here.

- property matches see the properties as udev holds them (and as
  `sysdev-tree --properties` prints them): DEVNAME as /dev/NAME, DEVPATH,
  SUBSYSTEM, DRIVER, MAJOR, MINOR; in the library and through --match;
- the links driver, subsystem and module read as attributes give the last
  component of their text, as udev_device_get_sysattr_value() does;
- with no match the scan finds libudev's set (devices with a subsystem
  link); sysdev_enumerator_allow_no_subsystem() adds the others, and the
  command line shows every device;
- sysdev_device_new() takes udev's device ids (b254:0, c1:3, n1, +net:lo).

usage: test_match_udev.py ENUMTOOL SYSDEV_TREE
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import sysdevtest as T  # noqa: E402
from sysdevtest.tree import Tree  # noqa: E402

TOOL, TREE = (os.path.abspath(a) for a in sys.argv[1:3])
C = T.Checker()


def lines(args, tool=TOOL):
    r = subprocess.run([tool, *args], capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout.splitlines(), r.stderr


def listed(root, *matches):
    rc, out, err = lines(["list", root, *matches])
    return [ln.split(" ")[0] for ln in out] if rc == 0 else ["error: " + err]


def cli_list(root, *args):
    rc, out, err = lines(["--root", root, "-r", "-n", "-o", "DEVPATH", *args], tool=TREE)
    return out if rc == 0 else ["exit %d: %s" % (rc, err)]


def fixture(root):
    """Three devices written by hand: a disk with its driver-bound parent, a
    net device, and a bridge without a subsystem link."""
    t = Tree(root)
    t.classes("block", "net")
    t.buses("pci", "virtio")
    t.device("/devices/pci0000:00")  # no subsystem link: libudev never lists it
    t.device("/devices/pci0000:00/0000:00:02.0", "bus:pci", "virtio-pci",
             "DRIVER=virtio-pci\nPCI_SLOT_NAME=0000:00:02.0\n")
    t.dir("module/virtio_pci")
    t.link("devices/pci0000:00/0000:00:02.0/driver/module", "../../../../module/virtio_pci")
    t.device("/devices/pci0000:00/0000:00:02.0/virtio1", "bus:virtio", "virtio_blk")
    disk = t.device("/devices/pci0000:00/0000:00:02.0/virtio1/block/vda", "class:block", None,
                    "MAJOR=254\nMINOR=0\nDEVNAME=vda\nDEVTYPE=disk\n")
    t.file(disk + "/dev", "254:0\n")
    t.dir("dev/block")
    t.link("dev/block/254:0", "../../devices/pci0000:00/0000:00:02.0/virtio1/block/vda")
    # a partition whose uevent lacks MAJOR/MINOR: they come from its dev attribute
    part = t.device("/devices/pci0000:00/0000:00:02.0/virtio1/block/vda/vda1", "class:block",
                    None, "DEVNAME=vda1\nDEVTYPE=partition\n")
    t.file(part + "/dev", "254:1\n")
    t.link("dev/block/254:1", "../../devices/pci0000:00/0000:00:02.0/virtio1/block/vda/vda1")
    net = t.device("/devices/virtual/net/lo", "class:net", None, "INTERFACE=lo\nIFINDEX=1\n")
    t.file(net + "/ifindex", "1\n")
    net2 = t.device("/devices/virtual/net/eth0", "class:net", None, "INTERFACE=eth0\nIFINDEX=2\n")
    t.file(net2 + "/ifindex", "2\n")
    return t


PCI = "/devices/pci0000:00/0000:00:02.0"
VIRTIO = PCI + "/virtio1"
VDA = VIRTIO + "/block/vda"
VDA1 = VDA + "/vda1"
LO = "/devices/virtual/net/lo"
ETH0 = "/devices/virtual/net/eth0"


def check_fixture(root):
    # hand-written answers: each match and the devices it must find, walk order
    cases = [
        ((), [PCI, VIRTIO, VDA, VDA1, ETH0, LO]),
        (("--no-subsystem",), ["/devices/pci0000:00", PCI, VIRTIO, VDA, VDA1, ETH0, LO]),
        (("property=SUBSYSTEM=block",), [VDA, VDA1]),
        (("property=DEVNAME=/dev/vda",), [VDA]),
        (("property=DEVNAME=/dev/vd?*",), [VDA, VDA1]),
        (("property=DEVNAME=vda",), []),
        (("property=DEVPATH=*vda",), [VDA]),
        (("property=DRIVER=virtio_blk",), [VIRTIO]),
        (("property=DRIVER=virtio-pci",), [PCI]),
        (("property=MAJOR=254", "property=MINOR=1"), [VDA, VDA1]),
        (("property=MINOR=1",), [VDA1]),
        (("value=SUBSYSTEM=net",), [ETH0, LO]),
        (("value=DEVNAME=/dev/vda1",), [VDA1]),
        (("sysattr=driver=virtio*",), [PCI, VIRTIO]),
        (("sysattr=subsystem=block",), [VDA, VDA1]),
        (("sysattr=driver",), [PCI, VIRTIO]),
        (("value=driver=virtio_blk",), [VIRTIO]),
    ]
    for matches, want in cases:
        got = listed(root, *matches)
        C.check(f"fixture: {' '.join(matches) or 'no match'}: finds {len(want)} devices "
                "written by hand", got == want, f"got {got}\nwant {want}")
    # the command line: --match sees the same properties; every device without filters
    for args, want in (
        (("--match", "SUBSYSTEM=block"), [VDA, VDA1]),
        (("--match", "DEVNAME=/dev/vda"), [VDA]),
        (("--match", "DEVPATH=*vda"), [VDA]),
        (("--match", "MAJOR=254", "--match", "MINOR=0"), [VDA]),
        (("--match", "driver=virtio-pci"), [PCI]),
        ((), ["/devices/pci0000:00", PCI, VIRTIO, VDA, VDA1, ETH0, LO]),
    ):
        got = cli_list(root, *args)
        C.check(f"fixture: sysdev-tree {' '.join(args) or '(no filter)'}: the devices written "
                "by hand", got == want, f"got {got}\nwant {want}")
    # link attributes: the last component of the link's text
    rc, out, _ = lines(["attr", root, PCI, "driver", "subsystem", "module"])
    C.check("fixture: driver and subsystem read as the links' names, as libudev reads them",
            out == ["driver virtio-pci", "subsystem pci", "module -ENOENT"], out)
    t = Tree(root)
    t.link(VDA[1:] + "/device", "../../../virtio1")
    t.link(VIRTIO[1:] + "/module", "../../../module/virtio_pci")
    rc, out, _ = lines(["attr", root, VDA, "device"])
    C.check("fixture: a link that is not driver, subsystem or module stays refused: no regular file",
            out == ["device -EBADFD"], out)
    rc, out, _ = lines(["attr", root, VIRTIO, "module"])
    C.check("fixture: module reads as the link's name", out == ["module virtio_pci"], out)
    # device ids
    rc, out, _ = lines(["new", root, "b254:0", "b254:1", "n1", "n2", "n3", "+net:lo",
                        "+pci:0000:00:02.0", "+block:vda1", "c1:3"])
    want = ["b254:0 " + VDA, "b254:1 " + VDA1, "n1 " + LO, "n2 " + ETH0, "n3 -ENOENT",
            "+net:lo " + LO, "+pci:0000:00:02.0 " + PCI, "+block:vda1 " + VDA1, "c1:3 -ENOENT"]
    C.check("fixture: sysdev_device_new() takes udev's device ids", out == want,
            f"got {out}\nwant {want}")
    for spec, want in (("n2", ETH0), ("+net:lo", LO), ("b254:1", VDA1)):
        rc, out, err = lines(["--root", root, "--properties", spec], tool=TREE)
        C.check(f"fixture: sysdev-tree --properties {spec} finds {want}",
                rc == 0 and "DEVPATH=" + want in out, err or out)


def check_live():
    if not os.path.isdir("/sys/class/block"):
        C.skip("live", "no /sys")
        return
    # the default set: libudev's
    u = lines(["udev-match"])[1]
    mine = listed("/sys")
    C.check("live: no match: the same devices as libudev", sorted(mine) == sorted(u),
            f"{len(mine)} vs {len(u)}; only libsysdev {sorted(set(mine) - set(u))[:5]} "
            f"only libudev {sorted(set(u) - set(mine))[:5]}")
    allow = listed("/sys", "--no-subsystem")
    C.check("live: allow_no_subsystem adds exactly the devices without a subsystem link",
            set(allow) - set(mine) == {p for p in allow if not os.path.islink(
                "/sys" + p + "/subsystem")} and set(mine) <= set(allow), len(allow))
    # property and attribute matches: what libudev finds
    nodes = sorted(os.listdir("/sys/class/block"))
    queries = [("property=SUBSYSTEM=block",), ("property=SUBSYSTEM=net",),
               ("property=DEVTYPE=disk",), ("property=DRIVER=*",),
               ("property=DEVNAME=/dev/*",), ("property=MAJOR=1",)]
    if nodes:
        queries += [("property=DEVNAME=/dev/%s" % nodes[0],),
                    ("property=DEVNAME=/dev/%s?" % nodes[0][:-1],),
                    ("property=DEVPATH=*/%s" % nodes[0],)]
    queries += [("sysattr=driver=*",), ("sysattr=subsystem=pci",), ("sysattr=driver",),
                ("nosysattr=driver",), ("nosysattr=subsystem=pci",),
                ("sysattr=driver", "nosysattr=driver=*virtio*", "nosysattr=dev=*:0")]
    for q in queries:
        u = lines(["udev-match", *q])[1]
        mine = listed("/sys", *q)
        C.check(f"live: {' '.join(q)}: the same devices as libudev ({len(u)})",
                sorted(mine) == sorted(u) and (len(u) > 0 or "MAJOR" in q[0]),
                f"only libsysdev {sorted(set(mine) - set(u))[:5]} "
                f"only libudev {sorted(set(u) - set(mine))[:5]}")
    # link attributes read as libudev reads them, on every device that has a driver
    n = 0
    for p in listed("/sys", "sysattr=driver"):
        names = ["driver", "subsystem", "module", "vendor"]
        a = lines(["attr", "/sys", p, *names])[1]
        b = lines(["udev-attr", "/sys" + p, *names])[1]
        a = [x if not x.split(" ", 1)[1].startswith("-E") else x.split(" ")[0] + " -" for x in a]
        C.check(f"live: {p}: driver, subsystem, module read as libudev reads them", a == b,
                f"{a} vs {b}")
        n += 1
    C.check("live: some device has a driver", n > 0)


def main():
    tmp = tempfile.mkdtemp(prefix="sysdev-match-")
    try:
        root = os.path.join(tmp, "tree")
        fixture(root)
        check_fixture(root)
        check_live()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return C.summary()


if __name__ == "__main__":
    sys.exit(main())
