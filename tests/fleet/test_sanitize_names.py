#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""sysdev-fixture capture --sanitize: every identifier file and key the manual names (issue 25).

test_sanitize_ids plants one identifier of each *kind*; a list of names
that lost a member (one file name, one uevent key) would still pass there.
Here every file name and every uevent key that sysdev-fixture(1) says is
replaced gets a value of its own, one that no shape (MAC, UUID, GUID,
address) matches: only the name can make it go.  The names are copied
from the manual by hand, not from the code.  Beside them, names that only
look alike keep their values (a key with UNIQ or PHYS not at its end, a
longer key than an exact one, a file named like none), the dump files are
emptied, an `id` of 65 text bytes is emptied and one of 64 stays, and a
binary PCI `config` of 300 bytes is cut to 256.

Each plant must be in a --full capture without --sanitize (the plant is
real) and nowhere in the sanitized one (its text and its unpacked tree);
each kept value must still be there.

Usage: test_sanitize_names.py SYSDEV_TREE SYSDEV_FIXTURE
"""
import os
import shutil
import sys
import tempfile

from common import C  # noqa: E402
import sysdevtest as T  # noqa: E402  (common.py puts tests/lib on the path)

TREE, FIXTURE = sys.argv[1:3]
DEV = "/devices/platform/plant"

# sysdev-fixture(1), "the contents of files that hold an identifier as their
# whole value" (address only when it holds a MAC: its shape, not its name,
# decides, so it is not here); asset tags are the DMI board's and chassis'
ID_FILES = ["serial", "serial_number", "product_serial", "board_serial", "chassis_serial",
            "iserial", "product_uuid", "uuid", "device_uuid", "wwid", "wwn", "eui", "nguid",
            "unique_id", "duid", "uniq", "port_name", "node_name", "fabric_name", "sas_address",
            "enclosure_identifier", "subsysnqn", "hostnqn", "perm_addr", "phys_port_id",
            "phys_switch_id", "cid", "node_guid", "sys_image_guid", "port_guid", "soc_uid",
            "initiatorname", "targetname", "ipaddress", "persistent_address",
            "board_asset_tag", "chassis_asset_tag"]
# "the values of such uevent properties": a key holding SERIAL, UUID, WWN,
# GUID or TRADDR anywhere, ending in UNIQ or PHYS, and seven keys whole
ID_KEYS = ["ID_SERIAL_SHORT", "SERIAL", "MD_UUID", "UUID_SUB", "ID_WWN", "WWN_X", "NODE_GUID",
           "GUIDX", "NVME_TRADDR", "TRADDR_Y", "HID_UNIQ", "UNIQ", "HID_PHYS", "PHYS",
           "ID_FS_LABEL", "ID_FS_LABEL_ENC", "ID_NET_NAME_MAC", "ID_PART_ENTRY_NAME", "PARTNAME",
           "DM_NAME", "W1_SLAVE_ID"]
# names that are none of these: their values stay
KEPT_KEYS = ["HID_UNIQUE_COUNT", "PHYS_SLOT", "ID_FS_LABEL_X", "XPARTNAME", "DM_NAMES",
             "W1_SLAVE", "ID_FS_TYPE", "SERIA", "UUI"]
KEPT_FILES = ["label", "serials", "uuid_type", "model", "name"]
# "files that hold identifiers in binary or as a dump ... are emptied"
DUMP_FILES = ["vpd_pg80", "vpd_pg83", "vpd_pg89", "vpd", "eeprom", "nvmem", "edid", "pubek"]


NAME_SERIAL_12 = "403912847561"
NAME_DIGITS_11 = "40391284756"


def value(i):
    """A value of its own for plant i: letters past f and digits, no shape of an id."""
    return "plantqz%03dw" % i


def plant(root):
    t = T.Tree(root)
    t.dirs("bus/platform/devices", "bus/pci/devices")
    t.device("/devices/platform", None, None, "")
    uevent = "".join("%s=%s\n" % (k, value(100 + i)) for i, k in enumerate(ID_KEYS))
    uevent += "".join("%s=%s\n" % (k, value(200 + i)) for i, k in enumerate(KEPT_KEYS))
    t.device(DEV, "bus:platform", None, uevent)
    for i, n in enumerate(ID_FILES):
        t.file(DEV[1:] + "/" + n, value(i) + "\n")
    for i, n in enumerate(KEPT_FILES):
        t.file(DEV[1:] + "/" + n, value(300 + i) + "\n")
    for i, n in enumerate(DUMP_FILES):
        t.file(DEV[1:] + "/" + n, b"dump " + value(400 + i).encode() + b"\0\1\2\n")
    # an id: emptied past 64 bytes of text, kept up to 64
    t.device(DEV + "/long", "bus:platform", None, "")
    t.file(DEV[1:] + "/long/id", "i" * 54 + value(500) + "\n")  # 54 + 11 + 1 = 66
    t.device(DEV + "/short", "bus:platform", None, "")
    t.file(DEV[1:] + "/short/id", "i" * 52 + value(501) + "\n")  # 64
    t.device(DEV + "/edge", "bus:platform", None, "")
    t.file(DEV[1:] + "/edge/id", "i" * 53 + value(502) + "\n")  # 65
    # serials that only a device's name carries: a run of 12 digits is one,
    # a run of 11 is not (a sysfs name holds counters and addresses that long)
    t.device(DEV + "/batt-" + NAME_SERIAL_12, "bus:platform", None, "")
    t.device(DEV + "/port-" + NAME_DIGITS_11, "bus:platform", None, "")
    # a PCI function's configuration space: 300 binary bytes are cut to 256
    pci = "/devices/pci0000:00/0000:00:01.0"
    t.device("/devices/pci0000:00", None, None, "")
    t.device(pci, "bus:pci", None, "PCI_ID=8086:1234\n")
    t.file(pci[1:] + "/config", bytes(range(256)) + b"\0" * 44)
    return pci


def tree_bytes(root):
    """Every name, link target and content below root, in one bytes value."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            out.append(os.fsencode(n))
            if os.path.islink(p):
                out.append(os.fsencode(os.readlink(p)))
            elif os.path.isfile(p):
                with open(p, "rb") as f:
                    out.append(f.read())
    return b"\n".join(out)


def capture(root, tmp, label, *extra):
    arch = os.path.join(tmp, label + ".sysfs")
    rc, _, err = T.run3([FIXTURE, "capture", "--root", root, "--full", *extra, arch], timeout=300)
    C.check("capture --full %s: exit 0" % " ".join(extra), rc == 0, err)
    tree = os.path.join(tmp, label)
    rc, _, err = T.run3([FIXTURE, "unpack", arch, tree], timeout=300)
    C.check("capture --full %s: the archive unpacks" % " ".join(extra), rc == 0, err)
    with open(arch, "rb") as f:
        return tree, (f.read() + b"\n" + tree_bytes(tree)).lower()


def main():
    tmp = tempfile.mkdtemp(prefix="sysdev-sanitize-names.")
    try:
        root = os.path.join(tmp, "root")
        pci = plant(root)
        _, plain = capture(root, tmp, "plain")
        tree, san = capture(root, tmp, "san", "--sanitize")
        d = os.path.join(tree, DEV[1:])

        for i, n in enumerate(ID_FILES):
            v = value(i).encode()
            C.check("file %s: the plant is real" % n, v in plain)
            C.check("file %s: its value is gone" % n, v not in san)
            C.check("file %s: the file stays, rewritten" % n,
                    os.path.isfile(os.path.join(d, n))
                    and open(os.path.join(d, n), "rb").read().strip() != b"")
        for i, k in enumerate(ID_KEYS):
            v = value(100 + i).encode()
            C.check("uevent %s: the plant is real" % k, v in plain)
            C.check("uevent %s: its value is gone, the key stays" % k,
                    v not in san and ("\n%s=" % k).encode() in
                    b"\n" + open(os.path.join(d, "uevent"), "rb").read())
        for i, k in enumerate(KEPT_KEYS):
            C.check("uevent %s is no identifier's key: its value stays" % k,
                    ("%s=%s\n" % (k, value(200 + i))).encode()
                    in open(os.path.join(d, "uevent"), "rb").read())
        for i, n in enumerate(KEPT_FILES):
            C.check("file %s is no identifier's file: its value stays" % n,
                    open(os.path.join(d, n)).read() == value(300 + i) + "\n")
        for i, n in enumerate(DUMP_FILES):
            v = value(400 + i).encode()
            C.check("dump %s: the plant is real" % n, v in plain)
            C.check("dump %s: emptied" % n, v not in san
                    and os.path.isfile(os.path.join(d, n))
                    and os.path.getsize(os.path.join(d, n)) == 0)
        C.check("an id of 66 text bytes is emptied",
                os.path.getsize(os.path.join(d, "long/id")) == 0 and value(500).encode() not in san)
        C.check("an id of 65 text bytes is emptied",
                os.path.getsize(os.path.join(d, "edge/id")) == 0 and value(502).encode() not in san)
        C.check("an id of 64 text bytes stays",
                open(os.path.join(d, "short/id")).read() == "i" * 52 + value(501) + "\n")
        C.check("a device name's run of 12 digits is a serial: replaced",
                NAME_SERIAL_12.encode() in plain and NAME_SERIAL_12.encode() not in san)
        C.check("a device name's run of 11 digits is not: kept",
                os.path.isdir(os.path.join(d, "port-" + NAME_DIGITS_11)))
        cfg = open(os.path.join(tree, pci[1:], "config"), "rb").read()
        C.check("a binary config of 300 bytes is cut to its first 256",
                cfg == bytes(range(256)), len(cfg))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    C.finish()


if __name__ == "__main__":
    main()
