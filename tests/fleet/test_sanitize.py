#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""sysdev-fixture capture --sanitize: planted identifiers do not survive.

A tree (the article's, tests/lib/sysdevtest) gets identifiers planted where
real machines keep them: a MAC in a net device's address and in its enx
name (directory, class link, INTERFACE property), serial numbers, WWN/EUI
ids, NVMe and DMI UUIDs, an input device's UNIQ property, a WMI GUID as a
device name, binary VPD pages.  The capture with --sanitize (with --full
and without) must hold none of them anywhere (names, link targets,
contents, in any case and with or without separators), while a capture
without --sanitize holds them all (so the plants are real).  The sanitized
tree must walk as the original does (same kinds, same device count), pass
--check-udev, keep links consistent (the renamed net device is still found
through class/net), map the same value to the same placeholder, and give
the same archive twice.

Usage: test_sanitize.py SYSDEV_TREE SYSDEV_FIXTURE
"""
import json
import os
import re
import shutil
import sys
import tempfile

from common import C  # noqa: E402
import sysdevtest as T  # noqa: E402  (common.py puts tests/lib on the path)

TREE, FIXTURE = sys.argv[1:3]

MAC = "0a:1b:2c:3d:4e:5f"
MAC2 = "AA:BB:CC:11:22:33"
MAC_WLAN = "00:1e:c2:aa:bb:cc"  # in a wlx name (a Wi-Fi adapter's, named from its MAC)
MAC_WWAN = "00:21:6a:11:22:33"  # in a wwx name (a modem's)
# a name of the same shape that holds no MAC (tap + 12 hex digits): kept
TAP = "tap0123456789ab"
SERIAL = "SN4711PLANTEDXYZ"
SHORT_SERIAL = "K7Q2X9"  # a serial shorter than a MAC's 17 bytes: an identifier all the same
DMI_SERIAL = "PLANTED-DMI-SERIAL-99"
NVME_EUI = "eui.0025388b91c4e6a2"
NGUID = "002538b9a1b2c3d4e5f6a7b8c9d0e1f2"
NVME_UUID = "6ba7b810-9dad-11d1-80b4-00c04fd430c8"
DMI_UUID = "4C4C4544-0042-3510-8052-B4C04F4E3532"
WWID = "naa.5000c500a1b2c3d4"
PORT_NAME = "0x21000024ff3a1b2c"
UNIQ = "de:ad:be:ef:00:42"
WMI_GUID = "05901221-D566-11D1-B2F0-00A0C9062910"
VPD_SERIAL = "VPDPLANTED123"
EUI64 = "00:25:38:8b:91:c4:e6:a3"


def forms(value):
    """The spellings an identifier may survive in."""
    out = {value, value.lower(), value.upper()}
    for v in list(out):
        out.add(v.replace(":", "").replace("-", ""))
    return {f for f in out if len(f) >= 6}


PLANTED = [MAC, MAC2, MAC_WLAN, MAC_WWAN, SERIAL, SHORT_SERIAL, DMI_SERIAL, NVME_EUI, NGUID, NVME_UUID, DMI_UUID, WWID, PORT_NAME,
           UNIQ, WMI_GUID, VPD_SERIAL, EUI64]


def plant(root):
    T.article(root)
    for d in ("class/net", "class/nvme", "class/input", "class/dmi", "class/fc_host", "bus/usb",
              "bus/pci", "bus/wmi", "bus/scsi", "class/bluetooth"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    pci = "/devices/pci0000:00/0000:00:03.0"
    T.Tree(root).device(pci, "bus:pci", None, "PCI_ID=8086:100E\n")
    enx = "enx" + MAC.replace(":", "")
    net = pci + "/net/" + enx
    T.Tree(root).device(net, "class:net", None, "INTERFACE=%s\nIFINDEX=2\n" % enx)
    T.Tree(root).file(net[1:] + "/address", MAC + "\n")
    T.Tree(root).file(net[1:] + "/perm_addr", MAC.upper() + "\n")
    T.Tree(root).file(net[1:] + "/broadcast", "ff:ff:ff:ff:ff:ff\n")
    for prefix, mac, idx in (("wlx", MAC_WLAN, 3), ("wwx", MAC_WWAN, 4)):
        name = prefix + mac.replace(":", "")
        T.Tree(root).device(pci + "/net/" + name, "class:net", None,
                            "INTERFACE=%s\nIFINDEX=%d\n" % (name, idx))
    T.Tree(root).device("/devices/virtual/net/" + TAP, "class:net", None,
                        "INTERFACE=%s\nIFINDEX=5\n" % TAP)
    bt = "/devices/virtual/bluetooth/hci0"
    T.Tree(root).device(bt, "class:bluetooth", None, "DEVTYPE=host\n")
    T.Tree(root).file(bt[1:] + "/address", MAC2 + "\n")
    usb = pci + "/usb1/1-1"
    T.Tree(root).device(usb, "bus:usb", "usb", "PRODUCT=46d/c52b/1201\nDEVTYPE=usb_device\n")
    T.Tree(root).file(usb[1:] + "/serial", SERIAL + "\n")
    T.Tree(root).file(usb[1:] + "/product", "Widget " + SERIAL + "\n")  # the serial inside other text
    usb2 = pci + "/usb1/1-2"
    T.Tree(root).device(usb2, "bus:usb", "usb", "PRODUCT=1d50/6089/100\nDEVTYPE=usb_device\n")
    T.Tree(root).file(usb2[1:] + "/serial", SHORT_SERIAL + "\n")
    inp = usb + "/input/input7"
    T.Tree(root).device(inp, "class:input", None,
                  'PRODUCT=3/46d/c52b/111\nNAME="Widget"\nPHYS="usb-0000:00:03.0-1/input0"\n'
                  'UNIQ="%s"\n' % UNIQ)
    T.Tree(root).file(inp[1:] + "/uniq", UNIQ + "\n")
    nvme = pci + "/nvme/nvme0"
    T.Tree(root).device(nvme, "class:nvme", None, "MAJOR=241\nMINOR=0\nDEVNAME=nvme0\n")
    T.Tree(root).file(nvme[1:] + "/serial", "S4EWNX0R" + "123456\n")
    T.Tree(root).file(nvme[1:] + "/dev", "241:0\n")
    T.Tree(root).link("dev/char/241:0", "../.." + nvme)
    ns = nvme + "/nvme0n1"
    T.Tree(root).device(ns, "class:block", None,
                  "MAJOR=259\nMINOR=0\nDEVNAME=nvme0n1\nDEVTYPE=disk\n")
    T.Tree(root).file(ns[1:] + "/dev", "259:0\n")
    T.Tree(root).link("dev/block/259:0", "../.." + ns)
    T.Tree(root).file(ns[1:] + "/wwid", NVME_EUI + "\n")
    T.Tree(root).file(ns[1:] + "/nguid", NGUID + "\n")
    T.Tree(root).file(ns[1:] + "/uuid", NVME_UUID + "\n")
    T.Tree(root).file(ns[1:] + "/eui", EUI64 + "\n")
    sd = pci + "/host0/target0:0:0/0:0:0:0"
    T.Tree(root).device(sd, "bus:scsi", None, "DEVTYPE=scsi_device\n")
    T.Tree(root).file(sd[1:] + "/wwid", WWID + "\n")
    with open(os.path.join(root, sd[1:], "vpd_pg80"), "wb") as f:
        f.write(b"\x00\x80\x00\x0d" + VPD_SERIAL.encode())
    fc = pci + "/host0/fc_host/host0"
    T.Tree(root).device(fc, "class:fc_host", None)
    T.Tree(root).file(fc[1:] + "/port_name", PORT_NAME + "\n")
    dmi = "/devices/virtual/dmi/id"
    T.Tree(root).device(dmi, "class:dmi", None, "MODALIAS=dmi:bvnSeaBIOS:pnStandardPC\n")
    T.Tree(root).file(dmi[1:] + "/product_serial", DMI_SERIAL + "\n")
    T.Tree(root).file(dmi[1:] + "/product_uuid", DMI_UUID + "\n")
    T.Tree(root).file(dmi[1:] + "/product_name", "Standard PC\n")
    wmi = "/devices/platform/PNP0C14:00/wmi_bus/wmi_bus-PNP0C14:00/" + WMI_GUID
    T.Tree(root).device("/devices/platform/PNP0C14:00", "bus:platform")
    T.Tree(root).device(wmi, "bus:wmi", None, "MODALIAS=wmi:%s\n" % WMI_GUID)
    T.Tree(root).file(wmi[1:] + "/guid", WMI_GUID + "\n")


def all_bytes(root):
    """Every name, link target and file content below root, as one bytes blob per item."""
    items = []
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            items.append(("name", p, os.fsencode(n)))
            if os.path.islink(p):
                items.append(("link", p, os.fsencode(os.readlink(p))))
            elif os.path.isfile(p):
                with open(p, "rb") as f:
                    items.append(("content", p, f.read()))
    return items


def survivors(archive_text, tree):
    found = []
    for v in PLANTED:
        for f in forms(v):
            if f in archive_text:
                found.append((v, f, "archive"))
            for kind, p, data in all_bytes(tree):
                if f.encode() in data:
                    found.append((v, f, kind, p))
    return found


def devices(root):
    rc, out, err = T.run3([TREE, "--root", root, "--json", "--all"], timeout=300)
    if rc != 0:
        return None
    kinds, devs = {}, {}

    def walk(n):
        kinds[n["kind"]] = kinds.get(n["kind"], 0) + 1
        if n["kind"] == "device":
            devs[n["path"]] = n
        for c in n["children"]:
            walk(c)
    for n in json.loads(out)["nodes"]:
        walk(n)
    return kinds, devs


def main():
    tmp = tempfile.mkdtemp(prefix="sysdev-sanitize.")
    try:
        root = os.path.join(tmp, "root")
        plant(root)
        rc, out, err = T.run3([TREE, "--root", root, "--check-udev"], timeout=300)
        C.check("the planted tree passes --check-udev", rc == 0, out + err)
        orig = devices(root)

        plain = os.path.join(tmp, "plain.sysfs")
        rc, _, err = T.run3([FIXTURE, "capture", "--root", root, "--full", plain], timeout=300)
        C.check("capture --full without --sanitize: exit 0", rc == 0, err)
        text = open(plain, encoding="latin-1").read()
        missing = [v for v in PLANTED if not any(f in text for f in forms(v))]
        C.check("without --sanitize every planted identifier is in the archive", not missing, missing)

        for mode in (["--full"], []):
            label = "capture %s--sanitize" % ("--full " if mode else "")
            arch = os.path.join(tmp, "san%s.sysfs" % len(mode))
            rc, _, err = T.run3([FIXTURE, "capture", "--root", root, *mode, "--sanitize", arch], timeout=300)
            C.check(label + ": exit 0", rc == 0, err)
            C.check(label + ": says what it replaced", "sanitized" in err, err)
            text = open(arch, encoding="latin-1").read()
            tree = os.path.join(tmp, "tree%d" % len(mode))
            rc, _, err = T.run3([FIXTURE, "unpack", arch, tree], timeout=300)
            C.check(label + ": the archive unpacks", rc == 0, err)
            left = survivors(text, tree)
            C.check(label + ": no planted identifier survives anywhere (names, links, contents)",
                    not left, left[:8])
            san = devices(tree)
            C.check(label + ": the tree walks with the same kinds and device count",
                    san is not None and orig is not None and san[0] == orig[0]
                    and len(san[1]) == len(orig[1]), (san and san[0], orig and orig[0]))
            rc, out, err = T.run3([TREE, "--root", tree, "--check-udev"], timeout=300)
            C.check(label + ": --check-udev agrees on the sanitized tree", rc == 0, (out + err)[-600:])
            nets = [p for p in (san[1] if san else {}) if "/net/enx" in p]
            rc, out, err = T.run3([TREE, "--root", tree, "--parents",
                                   "net:" + (nets[0].rsplit("/", 1)[1] if nets else "none")],
                                  timeout=300)
            C.check(label + ": the renamed net device is found through class/net (links consistent)",
                    rc == 0 and len(nets) == 1 and nets[0] in out, (nets, out, err))
            rc2, again, _ = T.run3([FIXTURE, "capture", "--root", root, *mode, "--sanitize",
                                    arch + ".2"], timeout=300)
            C.check(label + ": the same tree gives the same archive twice",
                    rc2 == 0 and open(arch + ".2", "rb").read() == open(arch, "rb").read())
            if mode:
                netdir = os.path.join(tree, nets[0].lstrip("/")) if nets else None
                addr = open(os.path.join(netdir, "address")).read().strip() if netdir else ""
                perm = open(os.path.join(netdir, "perm_addr")).read().strip() if netdir else ""
                C.check(label + ": the MAC's placeholder is an address, the same in the file and the "
                        "interface name", re.fullmatch(r"02(:[0-9a-f]{2}){5}", addr) is not None
                        and netdir.endswith("enx" + addr.replace(":", "")), (addr, netdir))
                C.check(label + ": the same value in another case is the same placeholder",
                        perm.lower() == addr, (perm, addr))
                bt = open(os.path.join(tree, "devices/virtual/bluetooth/hci0/address")).read().strip()
                C.check(label + ": another MAC gets another placeholder", bt != addr and
                        re.fullmatch(r"02(:[0-9A-Fa-f]{2}){5}", bt) is not None, bt)
                usb = os.path.join(tree, "devices/pci0000:00/0000:00:03.0/usb1/1-1")
                serial = open(os.path.join(usb, "serial")).read().strip()
                product = open(os.path.join(usb, "product")).read().strip()
                C.check(label + ": a serial inside other text becomes the serial's placeholder",
                        product == "Widget " + serial and serial != SERIAL, (serial, product))
                C.check(label + ": a name shaped like enx<MAC> that is none (%s) is kept" % TAP,
                        os.path.isdir(os.path.join(tree, "devices/virtual/net", TAP)),
                        sorted(os.listdir(os.path.join(tree, "devices/virtual/net")))
                        if os.path.isdir(os.path.join(tree, "devices/virtual/net")) else None)
                C.check(label + ": files without identifiers are kept",
                        open(os.path.join(tree, "devices/virtual/dmi/id/product_name")).read()
                        == "Standard PC\n"
                        and open(os.path.join(netdir, "broadcast")).read() == "ff:ff:ff:ff:ff:ff\n")
                vpd = os.path.join(tree, "devices/pci0000:00/0000:00:03.0/host0/target0:0:0/0:0:0:0/vpd_pg80")
                C.check(label + ": a binary VPD page is emptied", os.path.getsize(vpd) == 0)
                uuid = open(os.path.join(tree, "devices/virtual/dmi/id/product_uuid")).read().strip()
                C.check(label + ": a UUID's placeholder is a UUID (case kept)",
                        re.fullmatch(r"[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-8[0-9A-F]{3}-[0-9A-F]{12}",
                                     uuid) is not None, uuid)

        # sanitizing a fixture of a real machine keeps it walkable and udev-consistent
        fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures")
        for name in ("qemu-q35.sysfs",):
            arch = os.path.join(tmp, "fx-" + name)
            rc, _, err = T.run3([FIXTURE, "capture", "--root", os.path.join(fixtures, name),
                                 "--full", "--sanitize", arch], timeout=300)
            C.check(name + ": capture --root ARCHIVE --full --sanitize: exit 0", rc == 0, err)
            rc, out, err = T.run3([TREE, "--root", arch, "--check-udev"], timeout=300)
            C.check(name + ": the sanitized capture passes --check-udev", rc == 0, (out + err)[-600:])
            rc, a, _ = T.run3([TREE, "--root", os.path.join(fixtures, name), "--stats", "--json"], timeout=300)
            rc2, b, _ = T.run3([TREE, "--root", arch, "--stats", "--json"], timeout=300)
            strip = lambda t: {k: v for k, v in json.loads(t).items() if k != "sysfs"}
            C.check(name + ": the sanitized capture has the same statistics",
                    rc == 0 and rc2 == 0 and strip(a) == strip(b))

        # usage
        for args in (["pack", "--sanitize", root], ["capture", "--sanitise", "x.sysfs"]):
            rc, out, err = T.run3([FIXTURE, *args], timeout=300)
            C.check("refused with exit 2: sysdev-fixture " + " ".join(args[:2]), rc == 2, (rc, err))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    C.finish()


if __name__ == "__main__":
    main()
