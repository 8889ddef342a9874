#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""sysdev-fixture capture --sanitize: every kind of identifier goes (issue 18 item 9).

A fake tree, written by hand here, plants one of each identifier that used
to survive a sanitized capture: a 1-Wire ROM id (device name, bus/w1 link,
W1_SLAVE_ID, the master's slave list), a partition label (PARTNAME), NVMe
over fabrics addresses (NVME_TRADDR, NVME_HOST_TRADDR), a MAC followed by
"-b" in a name, the value of a uevent key 128 bytes or longer, HID_UNIQ of
a HID device whose only child is a hidraw node, serials that only names and
link targets carry, a learned serial inside a kept binary file (a SCSI
inquiry page), a learned value in another letter case, a serial padded with
blanks in front, an ATA IDENTIFY dump, an MMC CID, a TPM public
endorsement key, InfiniBand GUIDs and GIDs, a SAS enclosure identifier, a
SoC unique id, iSCSI initiator and target names, IPv4 and IPv6 addresses
(one the EUI-64 form of a MAC).

Each planted identifier must be in a capture without --sanitize (the plants
are real) and nowhere in the sanitized one, in any letter case: not in the
archive's text, nor in the names, link targets and contents of its
unpacked tree, with --full and without.  The all-zero and broadcast MACs
stay as they are; the summary line counts identifiers per kind (the counts
below are worked out by hand from the plants) in good English; the tree
walks as the original does.

Usage: test_sanitize_ids.py SYSDEV_TREE SYSDEV_FIXTURE
"""
import os
import re
import shutil
import sys
import tempfile

from common import C  # noqa: E402
import sysdevtest as T  # noqa: E402  (common.py puts tests/lib on the path)

TREE, FIXTURE = sys.argv[1:3]

PCI = "/devices/pci0000:00/0000:00:04.0"
W1_ID = "000005e2fdc3"
PARTNAME = "PlantedPartLabel"
TRADDR = "192.168.77.12"
HOST_TRADDR = "fd12:3456:789a::77"
BT_MAC = "c0:ff:ee:12:34:56"
LONG_KEY = "ID_VENDOR_SERIAL_" + "X" * 120
LONG_KEY_VALUE = "LongKeyValue9988"
HID_UNIQ = "HIDUNIQ5544XZ"
BATTERY_SERIAL = "FXA1234567B"
LINK_SERIAL = "ZX9988776655Q"
DIR_SERIAL = "FXB7654321C"
INQ_SERIAL = "INQSERIAL778899"
CASE_SERIAL = "CaseSerial7777X"
BLANK_SERIAL = "WD-WCC4N1234567"
ATA_ID_WORDS = "5744 2d57 4343 344e"
MMC_CID = "1b534d30303030301043a8b41500c8d3"
TPM_PUBEK = "C3 1F 8A 77 42 19 AA 5E"
NODE_GUID = "0002:c903:0010:1234"
SYS_IMAGE_GUID = "0002:c903:0010:1237"
GID = "fe80:0000:0000:0000:0002:c903:0010:1235"
GID_ROCE = "0000:0000:0000:0000:0000:ffff:c0a8:4d0c"
SAS_ENCLOSURE = "0x500605b0000272bf"
SOC_UID = "A1B2C3D4E5F60718"
TARGET_IQN = "iqn.2003-01.org.example.planted:target77"
INITIATOR_IQN = "iqn.1994-05.com.redhat:plantedhost1"
ISCSI_ADDR = "10.20.30.40"
ISCSI_HOST_ADDR = "10.20.30.41"
NET_MAC = "0a:1b:2c:3d:4e:5f"
# the EUI-64 interface id of NET_MAC (the universal/local bit flipped), as an
# IPv6 link-local address
LINK_LOCAL = "fe80::81b:2cff:fe3d:4e5f"

# name -> the texts whose presence, in any case, means it survived
PLANTED = {
    "1-Wire ROM id": [W1_ID],
    "PARTNAME": [PARTNAME],
    "NVME_TRADDR": [TRADDR],
    "NVME_HOST_TRADDR": [HOST_TRADDR, "789a::77"],
    "MAC before -b": [BT_MAC, BT_MAC.replace(":", "")],
    "value of a 137-byte uevent key": [LONG_KEY_VALUE],
    "HID_UNIQ with a hidraw child": [HID_UNIQ],
    "serial only in a name": [BATTERY_SERIAL],
    "serial only in a link target": [LINK_SERIAL],
    "serial only in a directory name no link names": [DIR_SERIAL],
    "learned serial in a binary inquiry": [INQ_SERIAL],
    "learned value in another case": [CASE_SERIAL],
    "serial learned with leading blanks": [BLANK_SERIAL, "WCC4N1234567"],
    "ATA id": [ATA_ID_WORDS],
    "MMC cid": [MMC_CID],
    "TPM pubek": [TPM_PUBEK],
    "InfiniBand node GUID": [NODE_GUID, NODE_GUID.replace(":", "")],
    "InfiniBand system image GUID": [SYS_IMAGE_GUID],
    "InfiniBand GID": [GID, "c903:0010:1235"],
    "RoCE GID": [GID_ROCE, "c0a8:4d0c"],
    "SAS enclosure_identifier": [SAS_ENCLOSURE, SAS_ENCLOSURE[2:]],
    "soc_uid": [SOC_UID],
    "iSCSI target name": [TARGET_IQN, "planted:target77"],
    "iSCSI initiator name": [INITIATOR_IQN, "plantedhost1"],
    "iSCSI IPv4 address": [ISCSI_ADDR],
    "iSCSI host IPv4 address": [ISCSI_HOST_ADDR],
    "MAC": [NET_MAC, NET_MAC.replace(":", "")],
    "IPv6 link-local from the MAC": [LINK_LOCAL, "2cff:fe3d:4e5f"],
}

# what only --full keeps (slim captures keep uevent, dev and power/ only)
FULL_ONLY = {"learned serial in a binary inquiry", "learned value in another case",
             "serial learned with leading blanks", "ATA id", "MMC cid", "TPM pubek",
             "InfiniBand node GUID", "InfiniBand system image GUID", "InfiniBand GID", "RoCE GID",
             "SAS enclosure_identifier", "soc_uid", "iSCSI target name", "iSCSI initiator name",
             "iSCSI IPv4 address", "iSCSI host IPv4 address", "MAC", "IPv6 link-local from the MAC"}

# the identifiers per kind a --full capture must count, by hand from the plants:
#   MAC: NET_MAC, BT_MAC
#   1-Wire: W1_ID (name, link, W1_SLAVE_ID and w1_master_slaves are one value)
#   InfiniBand GUID: NODE_GUID, SYS_IMAGE_GUID
#   IPv4: TRADDR, ISCSI_ADDR, ISCSI_HOST_ADDR
#   IPv6: HOST_TRADDR, GID, GID_ROCE, LINK_LOCAL
#   other: PARTNAME, the long key's value, HID_UNIQ, BATTERY_SERIAL, LINK_SERIAL, DIR_SERIAL,
#          INQ_SERIAL, CASE_SERIAL, BLANK_SERIAL, MMC_CID, SAS_ENCLOSURE, SOC_UID,
#          TARGET_IQN, INITIATOR_IQN, HID_PHYS, and the nvme address file's whole value
# (as the summary words them: plural but for one)
EXPECT_FULL = {"MAC addresses": 2, "1-Wire id": 1, "InfiniBand GUIDs": 2, "IPv4 addresses": 3,
               "IPv6 addresses": 4, "other identifiers": 16}


def plant(root):
    t = T.Tree(root)
    t.dirs("bus/pci/devices", "bus/w1/devices", "bus/w1/drivers", "bus/hid/devices",
           "bus/scsi/devices", "bus/soc/devices", "bus/usb/devices", "class/block", "class/nvme",
           "class/power_supply", "class/hidraw", "class/net", "class/tpm", "class/infiniband",
           "class/mmc_host", "class/ata_device", "class/iscsi_session", "class/iscsi_host",
           "class/sas_device", "class/misc")
    t.device("/devices/pci0000:00", None, None, "")
    t.device(PCI, "bus:pci", None, "PCI_ID=8086:100E\n")

    # 1-Wire: the ROM id in the slave's name, its bus/w1 link, W1_SLAVE_ID
    t.device("/devices/w1_bus_master1", "bus:w1", None, "W1_MASTER_NAME=w1_bus_master1\n")
    t.file("devices/w1_bus_master1/w1_master_slaves", "28-%s\n" % W1_ID)
    slave = "/devices/w1_bus_master1/28-" + W1_ID
    t.device(slave, "bus:w1", None, "W1_FID=28\nW1_SLAVE_ID=%024X\n" % int(W1_ID, 16))
    t.file(slave[1:] + "/name", "28-%s\n" % W1_ID)
    t.file(slave[1:] + "/id", b"\x28" + bytes.fromhex(W1_ID)[::-1] + b"\x00\xc1")

    # NVMe over fabrics, its namespace and a partition with a label
    nvme = "/devices/virtual/nvme-fabrics/ctl/nvme0"
    t.device(nvme, "class:nvme", None,
             "MAJOR=241\nMINOR=0\nDEVNAME=nvme0\nNVME_TRTYPE=tcp\nNVME_TRADDR=%s\n"
             "NVME_TRSVCID=4420\nNVME_HOST_TRADDR=%s\n" % (TRADDR, HOST_TRADDR))
    t.file(nvme[1:] + "/address", "traddr=%s,trsvcid=4420,host_traddr=%s\n" % (TRADDR, HOST_TRADDR))
    ns = nvme + "/nvme0n1"
    t.device(ns, "class:block", None, "MAJOR=259\nMINOR=0\nDEVNAME=nvme0n1\nDEVTYPE=disk\n")
    t.device(ns + "/nvme0n1p1", "class:block", None,
             "MAJOR=259\nMINOR=1\nDEVNAME=nvme0n1p1\nDEVTYPE=partition\nPARTN=1\n"
             "PARTNAME=%s\n" % PARTNAME)

    # a Bluetooth battery named after the MAC, "-b" after it
    bt = "/devices/virtual/misc/bt-%s-b" % BT_MAC
    t.device(bt, "class:misc", None, "MAJOR=10\nMINOR=60\n")

    # a 137-byte key holding SERIAL
    t.device(PCI + "/long0", None, None, "%s=%s\n" % (LONG_KEY, LONG_KEY_VALUE))

    # a HID device whose only child is hidraw (no input child with UNIQ)
    hid = PCI + "/usb1/1-1/1-1:1.0/0003:046D:C52B.0001"
    t.device(hid, "bus:hid", None, "HID_ID=0003:0000046D:0000C52B\nHID_NAME=Receiver\n"
             "HID_PHYS=usb-0000:00:04.0-1/input0\nHID_UNIQ=%s\n" % HID_UNIQ)
    t.device(hid + "/hidraw/hidraw0", "class:hidraw", None, "MAJOR=245\nMINOR=0\nDEVNAME=hidraw0\n")

    # a battery whose name carries a serial no key holds, and a link to one
    bat = hid + "/power_supply/steam-controller-%s-battery" % BATTERY_SERIAL
    t.device(bat, "class:power_supply", None,
             "POWER_SUPPLY_NAME=steam-controller-%s-battery\nPOWER_SUPPLY_TYPE=Battery\n"
             % BATTERY_SERIAL)
    t.link(hid[1:] + "/peer", "../../../../../platform/PEER-%s" % LINK_SERIAL)
    t.dir(hid[1:] + "/calibration-%s" % DIR_SERIAL)

    # SCSI: a serial learned from USB's serial file, inside the binary inquiry
    usb = PCI + "/usb1/1-2"
    t.device(usb, "bus:usb", None, "DEVTYPE=usb_device\nPRODUCT=781/5567/100\n")
    t.file(usb[1:] + "/serial", INQ_SERIAL.upper() + "\n")
    sd = usb + "/1-2:1.0/host0/target0:0:0/0:0:0:0"
    t.device(sd, "bus:scsi", None, "DEVTYPE=scsi_device\n")
    t.file(sd[1:] + "/inquiry",
           b"\x00\x80\x06\x02\x5b\x00\x00\x00SanDisk Cruzer Blade     1.00" + b"\x00" * 4
           + INQ_SERIAL.encode() + b"\x00" * 8)
    # a value learned in one case, found in another
    t.file(usb[1:] + "/product", "Reader %s\n" % CASE_SERIAL.lower())
    usb3 = PCI + "/usb1/1-3"
    t.device(usb3, "bus:usb", None, "DEVTYPE=usb_device\nPRODUCT=781/5567/100\n")
    t.file(usb3[1:] + "/serial", CASE_SERIAL + "\n")

    # ATA: a serial padded in front, found elsewhere without the blanks; the IDENTIFY dump
    ata = PCI + "/ata1/link1/dev1.0/ata_device/dev1.0"
    t.device(ata, "class:ata_device", None, "")
    t.file(ata[1:] + "/serial", "     %s\n" % BLANK_SERIAL)
    t.file(ata[1:] + "/model", "WDC WD10EZEX drive %s\n" % BLANK_SERIAL)
    t.file(ata[1:] + "/id", ("0040 3fff c837 0010 0000 0000 003f 0000\n0000 0000 2020 2020 "
                             "2020 %s\n" % ATA_ID_WORDS) * 4)

    # MMC CID, TPM endorsement key
    mmc = PCI + "/mmc_host/mmc0/mmc0:0001"
    t.device(mmc, None, None, "MMC_TYPE=SD\nMMC_NAME=SD32G\n")
    t.file(mmc[1:] + "/cid", MMC_CID + "\n")
    t.file(mmc[1:] + "/name", "SD32G\n")
    tpm = "/devices/platform/tpm_tis/tpm/tpm0"
    t.device(tpm, "class:tpm", None, "MAJOR=10\nMINOR=224\nDEVNAME=tpm0\n")
    t.file(tpm[1:] + "/pubek", "Algorithm: 0x1\nModulus length: 256\nModulus:\n%s\n" % TPM_PUBEK)

    # InfiniBand: GUIDs and GIDs
    ib = PCI + "/infiniband/mlx5_0"
    t.device(ib, "class:infiniband", None, "NAME=mlx5_0\n")
    t.file(ib[1:] + "/node_guid", NODE_GUID + "\n")
    t.file(ib[1:] + "/sys_image_guid", SYS_IMAGE_GUID + "\n")
    t.file(ib[1:] + "/ports/1/gids/0", GID + "\n")
    t.file(ib[1:] + "/ports/1/gids/1", GID_ROCE + "\n")

    # SAS enclosure, SoC
    sas = PCI + "/host1/port-1:0/end_device-1:0/sas_device/end_device-1:0"
    t.device(sas, "class:sas_device", None, "")
    t.file(sas[1:] + "/enclosure_identifier", SAS_ENCLOSURE + "\n")
    t.device("/devices/soc0", "bus:soc", None, "MACHINE=Planted Board\n")
    t.file("devices/soc0/soc_uid", SOC_UID + "\n")
    t.file("devices/soc0/family", "Freescale i.MX\n")

    # iSCSI: names and addresses
    host = "/devices/platform/host3"
    t.device(host + "/iscsi_host/host3", "class:iscsi_host", None, "")
    t.file(host[1:] + "/iscsi_host/host3/initiatorname", INITIATOR_IQN + "\n")
    t.file(host[1:] + "/iscsi_host/host3/ipaddress", ISCSI_HOST_ADDR + "\n")
    sess = host + "/session1/iscsi_session/session1"
    t.device(sess, "class:iscsi_session", None, "")
    t.file(sess[1:] + "/targetname", TARGET_IQN + "\n")
    t.file(host[1:] + "/session1/connection1:0/iscsi_connection/connection1:0/persistent_address",
           ISCSI_ADDR + "\n")

    # a net device: its MAC, a link-local address made from it, and lo's kept addresses
    net = PCI + "/net/eth0"
    t.device(net, "class:net", None, "INTERFACE=eth0\nIFINDEX=2\n")
    t.file(net[1:] + "/address", NET_MAC + "\n")
    t.file(net[1:] + "/broadcast", "ff:ff:ff:ff:ff:ff\n")
    t.file(net[1:] + "/bonding/ns_ip6_target", LINK_LOCAL + "\n")
    lo = "/devices/virtual/net/lo"
    t.device(lo, "class:net", None, "INTERFACE=lo\nIFINDEX=1\n")
    t.file(lo[1:] + "/address", "00:00:00:00:00:00\n")
    t.file(lo[1:] + "/broadcast", "00:00:00:00:00:00\n")


def items(root):
    """(what, path, bytes) for every name, link target and content below root."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            out.append(("name", p, os.fsencode(n)))
            if os.path.islink(p):
                out.append(("link target", p, os.fsencode(os.readlink(p))))
            elif os.path.isfile(p):
                with open(p, "rb") as f:
                    out.append(("content", p, f.read()))
    return out


def found(archive, tree, texts):
    """Where any of texts is, in any letter case, in the archive text or the tree."""
    where = []
    arch = archive.lower().encode("latin-1")
    for text in texts:
        needle = text.lower().encode()
        if needle in arch:
            where.append("archive")
        for what, p, data in items(tree):
            if needle in data.lower():
                where.append("%s of %s" % (what, os.path.relpath(p, tree)))
    return where


def kinds_of(summary):
    """{kind: count} of the summary's "sanitized N identifiers (K kind, ...)"."""
    m = re.search(r"sanitized (\d+) identifiers? \(([^)]*)\)", summary)
    if not m:
        return None, {}
    kinds = {}
    for part in m.group(2).split(", "):
        n, _, kind = part.partition(" ")
        kinds[kind] = int(n)
    return int(m.group(1)), kinds


def main():
    tmp = tempfile.mkdtemp(prefix="sysdev-sanitize-ids.")
    try:
        root = os.path.join(tmp, "root")
        plant(root)
        rc, out, err = T.run3([TREE, "--root", root, "--json", "--all"], timeout=300)
        C.check("the planted tree walks", rc == 0, err)
        orig = out

        for mode in (["--full"], []):
            label = "capture %s" % ("--full " if mode else "")
            plain = os.path.join(tmp, "plain%d.sysfs" % len(mode))
            rc, _, err = T.run3([FIXTURE, "capture", "--root", root, *mode, plain], timeout=300)
            C.check(label + "without --sanitize: exit 0", rc == 0, err)
            ptree = os.path.join(tmp, "ptree%d" % len(mode))
            rc, _, err = T.run3([FIXTURE, "unpack", plain, ptree], timeout=300)
            ptext = open(plain, encoding="latin-1").read()
            for name, texts in PLANTED.items():
                if mode or name not in FULL_ONLY:
                    C.check(label + "without --sanitize holds the %s (the plant is real)" % name,
                            found(ptext, ptree, texts[:1]) != [])

            arch = os.path.join(tmp, "san%d.sysfs" % len(mode))
            rc, _, err = T.run3([FIXTURE, "capture", "--root", root, *mode, "--sanitize", arch],
                                timeout=300)
            C.check(label + "--sanitize: exit 0", rc == 0, err)
            summary = err
            tree = os.path.join(tmp, "tree%d" % len(mode))
            rc, _, err = T.run3([FIXTURE, "unpack", arch, tree], timeout=300)
            C.check(label + "--sanitize: the archive unpacks", rc == 0, err)
            text = open(arch, encoding="latin-1").read()
            for name, texts in PLANTED.items():
                where = found(text, tree, texts)
                C.check(label + "--sanitize: the %s is gone (any case; contents, names, links)" % name,
                        not where, where[:6])
            rc, out, err = T.run3([TREE, "--root", tree, "--json", "--all"], timeout=300)
            strip = lambda s: re.sub(r'"[^"]*"', '""', s)
            C.check(label + "--sanitize: the tree walks to the same shape (kinds, nesting)",
                    rc == 0 and strip(out) == strip(orig), err)
            total, kinds = kinds_of(summary)
            C.check(label + "--sanitize: the summary counts identifiers per kind, adding up",
                    total is not None and sum(kinds.values()) == total, summary)
            if mode:
                C.check(label + "--sanitize: the counts per kind are those of the plants",
                        kinds == EXPECT_FULL, (kinds, EXPECT_FULL))
                lo = os.path.join(tree, "devices/virtual/net/lo")
                C.check(label + "--sanitize: lo's all-zero address and broadcast stay",
                        open(os.path.join(lo, "address")).read() == "00:00:00:00:00:00\n"
                        and open(os.path.join(lo, "broadcast")).read() == "00:00:00:00:00:00\n")
                eth = os.path.join(tree, PCI[1:], "net/eth0")
                C.check(label + "--sanitize: the broadcast address stays",
                        open(os.path.join(eth, "broadcast")).read() == "ff:ff:ff:ff:ff:ff\n")
                inq = os.path.join(tree, PCI[1:], "usb1/1-2/1-2:1.0/host0/target0:0:0/0:0:0:0/inquiry")
                C.check(label + "--sanitize: the binary inquiry keeps its length and its vendor",
                        os.path.getsize(inq) == os.path.getsize(
                            os.path.join(ptree, os.path.relpath(inq, tree)))
                        and b"SanDisk Cruzer Blade" in open(inq, "rb").read())
                w1 = [n for n in os.listdir(os.path.join(tree, "bus/w1/devices")) if n.startswith("28-")]
                C.check(label + "--sanitize: the 1-Wire slave keeps its family and its link",
                        len(w1) == 1 and re.fullmatch(r"28-[0-9a-f]{12}", w1[0]) is not None
                        and os.path.isdir(os.path.join(tree, "bus/w1/devices", w1[0])), w1)

        # the grammar of one identifier
        one = os.path.join(tmp, "one")
        t = T.Tree(one)
        t.dirs("bus/usb/devices")
        t.device("/devices/usb1", "bus:usb", None, "DEVTYPE=usb_device\n")
        t.file("devices/usb1/serial", "ONLYSERIAL42\n")
        rc, _, err = T.run3([FIXTURE, "capture", "--root", one, "--full", "--sanitize",
                             os.path.join(tmp, "one.sysfs")], timeout=300)
        C.check("one identifier: \"sanitized 1 identifier (1 other identifier): 1 file and 0 links "
                "rewritten\"", rc == 0 and "sanitized 1 identifier (1 other identifier): 1 file and "
                "0 links rewritten, 0 names replaced, 0 binary identifier files emptied" in err, err)
        # each kind's singular, as the summary words one of it (the plants above count more)
        for kind, word, make in (
                ("ipv4", "IPv4 address",
                 lambda t: (t.dirs("class/nvme"),
                            t.device("/devices/virtual/nvme-fabrics/ctl/nvme0", "class:nvme", None,
                                     "NVME_TRTYPE=tcp\nNVME_TRADDR=%s\n" % TRADDR))),
                ("ipv6", "IPv6 address",
                 lambda t: (t.dirs("class/nvme"),
                            t.device("/devices/virtual/nvme-fabrics/ctl/nvme0", "class:nvme", None,
                                     "NVME_TRTYPE=tcp\nNVME_HOST_TRADDR=%s\n" % HOST_TRADDR))),
                ("mac", "MAC address",
                 lambda t: (t.dirs("class/net"),
                            t.device("/devices/virtual/net/eth9", "class:net", None,
                                     "INTERFACE=eth9\nIFINDEX=9\n"),
                            t.file("devices/virtual/net/eth9/address", NET_MAC + "\n")))):
            root1 = os.path.join(tmp, "one-" + kind)
            t = T.Tree(root1)
            make(t)
            rc, _, err = T.run3([FIXTURE, "capture", "--root", root1, "--full", "--sanitize",
                                 os.path.join(tmp, "one-%s.sysfs" % kind)], timeout=300)
            C.check("one %s: \"sanitized 1 identifier (1 %s)\"" % (word, word),
                    rc == 0 and "sanitized 1 identifier (1 %s):" % word in err, err)
        learned_from_db(tmp)
        shapes(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    C.finish()


# 300 addresses: the first 254 fill the documentation network, the rest 10.0.0.0/8
ADDRS = ["172.16.%d.%d" % (i // 200, 1 + i % 200) for i in range(300)]
# 300 EUI-64s: 02:00:00:ff:fe and a counter in the last three octets, one up each time
EUIS = ["00:11:22:33:44:55:%02x:%02x" % (i // 256, i % 256) for i in range(300)]


def is_dotted_quad(a):
    parts = a.split(".")
    return len(parts) == 4 and all(p.isdigit() and int(p) <= 255 for p in parts)


def learned_from_db(tmp):
    """A serial that only udev's database names as one is replaced in sysfs files too."""
    serial = "DBONLY7Q4Z9X"
    root = os.path.join(tmp, "dbroot")
    t = T.Tree(root)
    t.dirs("bus/usb/devices")
    t.device("/devices/usb1", "bus:usb", None, "DEVTYPE=usb_device\n")
    t.file("devices/usb1/note", "made by %s\n" % serial)
    t.file("run/udev/data/+usb:usb1", "I:1000\nE:ID_SERIAL=%s\nG:systemd\n" % serial)
    arch = os.path.join(tmp, "dbroot.sysfs")
    rc, _, err = T.run3([FIXTURE, "capture", "--root", root, "--full", "--sanitize", arch],
                        timeout=300)
    text = open(arch, encoding="latin-1").read() if rc == 0 else ""
    C.check("a serial named only by udev's database (E:ID_SERIAL) is gone from the capture, "
            "sysfs files included", rc == 0 and serial in open(
                os.path.join(root, "devices/usb1/note")).read() and serial not in text
            and "udev" in text, err)


def shapes(tmp):
    """The placeholders' shapes as sysdev-fixture(1) gives them, checked one by one."""
    root = os.path.join(tmp, "shapes")
    t = T.Tree(root)
    t.dirs("bus/usb/devices", "class/block")
    t.device("/devices/usb1", "bus:usb", None, "DEVTYPE=usb_device\n")
    t.file("devices/usb1/addresses", "".join(a + "\n" for a in ADDRS))
    t.file("devices/usb1/eui64s", "".join(a + "\n" for a in EUIS))
    t.file("devices/usb1/enclosure_identifier", "0x500605b0000272bf\n")
    t.file("devices/usb1/wwid", "eui.0123456789abcdef\n")
    t.file("devices/usb1/targetname", "iqn.2003-01.org.example:shape1\n")
    t.device("/devices/usb2", "bus:usb", None, "DEVTYPE=usb_device\n")
    t.file("devices/usb2/wwid", "nvme.1b36-31323334-51454d55-00000001\n")
    # a GUID's shape whose first character is not a hex digit is no GUID: an all-zero
    # GUID says nothing and stays, this one is an identifier like any other
    t.file("devices/usb2/port_guid", "x000:0000:0000:0000\n")
    t.file("devices/usb2/node_guid", "0000:0000:0000:0000\n")
    # a serial of 4 characters, too short to be searched for in other files, is still
    # replaced where it is the whole of an identifier file
    t.file("devices/usb2/serial", "Q7X2\n")
    # one EUI-64 written in capitals in an identifier file and in small letters in a
    # text: one identifier, one placeholder (in each one's case)
    t.file("devices/usb2/eui", "0A:1B:2C:3D:4E:5F:60:71\n")
    t.file("devices/usb2/peers", "peer 0a:1b:2c:3d:4e:5f:60:71 up\n")
    # a serial in quotes: the quotes stay, the serial is replaced here and everywhere
    t.file("devices/usb2/serial_number", '"QX7ZK42PLM"\n')
    t.file("devices/usb2/description", "made as QX7ZK42PLM\n")
    # addresses that say nothing about a machine: kept as they are
    t.file("devices/usb1/nothing", "255.255.255.255 0.0.0.0 127.0.0.1\n")
    # a binary file that holds no identifier: kept as it is, and not counted
    t.file("devices/usb1/raw", "\x00\x01\x02 nothing to hide\x00")
    arch = os.path.join(tmp, "shapes.sysfs")
    rc, _, err = T.run3([FIXTURE, "capture", "--root", root, "--full", "--sanitize", arch],
                        timeout=300)
    C.check("shapes: capture --full --sanitize: exit 0", rc == 0, err)
    tree = os.path.join(tmp, "shapes-tree")
    rc, _, err2 = T.run3([FIXTURE, "unpack", arch, tree], timeout=300)
    usb = os.path.join(tree, "devices/usb1")
    got = open(os.path.join(usb, "addresses")).read().split()
    C.check("shapes: 300 addresses give 300 placeholders, all different",
            len(got) == 300 and len(set(got)) == 300, got[:3])
    C.check("shapes: every IPv4 placeholder is a dotted quad of numbers up to 255",
            all(is_dotted_quad(a) for a in got), [a for a in got if not is_dotted_quad(a)][:3])
    C.check("shapes: the first 254 are 192.0.2.1 to 192.0.2.254, in order",
            got[:254] == ["192.0.2.%d" % i for i in range(1, 255)], got[250:256])
    C.check("shapes: past 254 addresses, of 10.0.0.0/8",
            all(a.startswith("10.") for a in got[254:]), got[254:258])
    euis = open(os.path.join(usb, "eui64s")).read().split()
    counters = [int("".join(e.split(":")[5:]), 16) for e in euis
                if re.fullmatch(r"02:00:00:ff:fe(:[0-9a-f]{2}){3}", e)]
    C.check("shapes: 300 EUI-64s give 02:00:00:ff:fe and a counter that goes up by one",
            len(counters) == 300 and all(b - a == 1 for a, b in zip(counters, counters[1:])),
            euis[125:131])
    enc = open(os.path.join(usb, "enclosure_identifier")).read().strip()
    C.check("shapes: a 0x hex identifier keeps 0x and its 16 digits: zeros, then the counter",
            re.fullmatch(r"0x0+[1-9a-f][0-9a-f]*", enc) is not None and len(enc) == 18, enc)
    wwid = open(os.path.join(usb, "wwid")).read().strip()
    C.check("shapes: an eui. hex identifier keeps eui. and its 16 digits: zeros, then the counter",
            re.fullmatch(r"eui\.0+[1-9a-f][0-9a-f]*", wwid) is not None and len(wwid) == 20, wwid)
    nvme = open(os.path.join(tree, "devices/usb2/wwid")).read().strip()
    C.check("shapes: an nvme. name keeps nvme. and is SANITIZED with a counter",
            re.fullmatch(r"nvme\.SANITIZED\d{4}", nvme) is not None, nvme)
    iqn = open(os.path.join(usb, "targetname")).read().strip()
    C.check("shapes: an iqn. name keeps iqn. and is SANITIZED with a counter",
            re.fullmatch(r"iqn\.SANITIZED\d{4}", iqn) is not None, iqn)
    guid = open(os.path.join(tree, "devices/usb2/port_guid")).read().strip()
    C.check("shapes: x000:0000:0000:0000, not a GUID (x is no hex digit), is SANITIZED",
            re.fullmatch(r"SANITIZED\d{4}", guid) is not None, guid)
    serial = open(os.path.join(tree, "devices/usb2/serial")).read()
    C.check("shapes: a serial of 4 characters is SANITIZED as a whole file",
            re.fullmatch(r"SANITIZED\d{4}\n", serial) is not None, serial)
    eui = open(os.path.join(tree, "devices/usb2/eui")).read().split()
    peers = open(os.path.join(tree, "devices/usb2/peers")).read().split()
    C.check("shapes: one EUI-64 in capitals (identifier file) and in small letters (text) "
            "gets one placeholder", len(eui) == 1 and len(peers) == 3 and
            eui[0] != "0A:1B:2C:3D:4E:5F:60:71" and peers[1].lower() == eui[0].lower(),
            (eui, peers))
    quoted = open(os.path.join(tree, "devices/usb2/serial_number")).read()
    desc = open(os.path.join(tree, "devices/usb2/description")).read()
    C.check("shapes: a quoted serial keeps its quotes around the placeholder",
            re.fullmatch(r'"SANITIZED\d{4}"\n', quoted) is not None, quoted)
    C.check("shapes: the quoted serial is gone from a text too, as the same placeholder",
            "QX7ZK42PLM" not in desc and desc == "made as %s\n" % quoted.strip().strip('"'), desc)
    C.check("shapes: the all-zero GUID is kept",
            open(os.path.join(tree, "devices/usb2/node_guid")).read() == "0000:0000:0000:0000\n")
    C.check("shapes: the broadcast, unspecified and loopback addresses are kept",
            open(os.path.join(usb, "nothing")).read() == "255.255.255.255 0.0.0.0 127.0.0.1\n")
    C.check("shapes: the binary file without an identifier is kept byte for byte",
            open(os.path.join(usb, "raw"), "rb").read() == b"\x00\x01\x02 nothing to hide\x00")
    C.check("shapes: the summary counts the 12 rewritten files only (not the kept ones)",
            "12 files and 0 links rewritten" in err, err)


if __name__ == "__main__":
    main()
