#!/usr/bin/env python3
"""Boot real (emulated) machines rich in hardware, check and capture them.

Interface
---------
    machines.py --machine NAME --build-dir DIR --cli SYSDEV_TREE
                --fixture-tool SYSDEV_FIXTURE [--fixture FILE] [--update]
                [--timeout SEC]

NAME is one of MACHINES below (q35, pc, virt-arm64).  Steps, all under DIR:

1. fetch_kernel.fetch(DIR/../qemu/cache): Debian's kernel, shared with the
   'qemu' suite so that one download serves both;
2. build_initramfs.build(): busybox, sysdev-tree, sysdev-fixture (with
   libsysdev and libudev, collected by ldd), the machine's image modules,
   guest/capture.sh as /guest.sh;
3. boot.boot(): qemu -accel tcg with the machine's devices (scratch disk
   images are sparse files in DIR/NAME/);
4. checks on the host, one line each (PASS: ... / FAIL: name: why):
   - the guest finished in time and every step in it ran;
   - `sysdev-tree --check-udev` exited 0 in the guest (its summary line is
     printed);
   - the guest's own read-back of its capture (`--root /tmp/cap --json
     --all`) equals its live `--json --all` apart from "sysfs";
   - the packed full capture and the walk-only fixture, unpacked on the host
     with `sysdev-fixture unpack`, read back with `--json --all` the same
     as the guest printed live (apart from "sysfs");
   - the expected hardware is there (EXPECT: subsystem:driver pairs and
     devices of a class);
   - the committed fixture FILE (fixtures/qemu-NAME.sysfs) against the fresh
     capture: `sysdev-tree --diff COMMITTED FRESH` must exit 0 (same devices,
     parents, subsystems, drivers and devnums; or the same up to the numbers
     in kernel-numbered names, which follow probe order: input3 or input4).
     When the guest's kernel is
     not the one the fixture was made with (recorded in
     tests/machines/fixtures.json), a difference is reported and the check
     is skipped, not failed: regenerate with --update.
   With --update (and every other check passed) the fresh capture replaces
   FILE and its record in fixtures.json (kernel, qemu, boot seconds, device
   count, check-udev summary, size): the full capture (every attribute's
   contents) when it is at most FIXTURE_MAX (2 MiB), else the walk-only
   one (contents kept for uevent, dev and power/ only).

Exit status: 0 all passed (skips allowed), 1 a check failed, 77 skipped
(no qemu and cannot install it).
"""

import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
QEMU_DIR = os.path.join(HERE, "..", "qemu")
sys.path.insert(0, QEMU_DIR)

sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import boot as bootmod  # noqa: E402
import sysdevtest as T  # noqa: E402
import build_initramfs  # noqa: E402
import fetch_kernel  # noqa: E402

RECORD = os.path.join(HERE, "fixtures.json")
FIXTURE_MAX = 2 << 20

COMMON_MODULES = [
    "virtio_pci", "virtio_blk",          # the out disk (and a virtio-blk device)
    "sd_mod", "sr_mod", "sg", "evdev", "psmouse", "usb_storage",
    "i2c_dev", "at24",
]


def mbr(size_mib, parts):
    """A sector 0 with an MBR partition table: parts = [(start_mib, mib, type)]."""
    sec = bytearray(512)
    for i, (start, length, ptype) in enumerate(parts):
        e = 446 + 16 * i
        sec[e + 4] = ptype
        sec[e + 8:e + 12] = (start * 2048).to_bytes(4, "little")
        sec[e + 12:e + 16] = (length * 2048).to_bytes(4, "little")
    sec[510:512] = b"\x55\xaa"
    return bytes(sec)


def disk(path, mib, parts=()):
    with open(path, "wb") as f:
        f.truncate(mib << 20)
        if parts:
            f.write(mbr(mib, parts))
    return path


def q35_args(d):
    return [
        "-M", "q35",
        # NVMe with one namespace, two partitions
        "-drive", "if=none,id=nvm,format=raw,file=" +
        disk(os.path.join(d, "nvme.img"), 64, [(1, 31, 0x83), (32, 31, 0x83)]),
        "-device", "nvme,serial=sdtnvme0,drive=nvm",
        # ICH9 AHCI (built into q35 at 00:1f.2): a disk and an empty CD-ROM
        "-drive", "if=none,id=sata0,format=raw,file=" +
        disk(os.path.join(d, "sata.img"), 64, [(1, 62, 0x83)]),
        "-device", "ide-hd,drive=sata0,bus=ide.0",
        "-drive", "if=none,id=cd0,media=cdrom",
        "-device", "ide-cd,drive=cd0,bus=ide.1",
        # xHCI: keyboard, tablet, USB stick
        "-device", "qemu-xhci,id=xhci",
        "-device", "usb-kbd,bus=xhci.0",
        "-device", "usb-tablet,bus=xhci.0",
        "-drive", "if=none,id=stick,format=raw,file=" +
        disk(os.path.join(d, "stick.img"), 16),
        "-device", "usb-storage,bus=xhci.0,drive=stick",
        # network
        "-device", "e1000e", "-device", "virtio-net-pci",
        # sound: ICH9 HD audio with a duplex codec
        "-audiodev", "none,id=snd0",
        "-device", "ich9-intel-hda", "-device", "hda-duplex,audiodev=snd0",
        # two ISA serial ports: COM1 the console, COM2 unconnected (naming
        # them; a bare -device isa-serial would replace the default console)
        "-serial", "mon:stdio", "-serial", "null",
    ]


def pc_args(d):
    return [
        "-M", "pc",
        # PIIX3 IDE: a disk (primary master) and a CD-ROM (secondary master)
        "-drive", "if=ide,index=0,format=raw,file=" +
        disk(os.path.join(d, "ide.img"), 64, [(1, 62, 0x83)]),
        "-drive", "if=ide,index=2,media=cdrom",
        # EHCI with a USB stick
        "-device", "usb-ehci,id=ehci",
        "-drive", "if=none,id=stick,format=raw,file=" +
        disk(os.path.join(d, "stick.img"), 16),
        "-device", "usb-storage,bus=ehci.0,drive=stick",
        "-device", "e1000",
    ]


def virt_arm64_args(d):
    return [
        "-M", "virt", "-cpu", "cortex-a57",
        # on virtio-mmio (a device-tree platform device): an entropy source
        "-device", "virtio-rng-device",
        # on the PCIe host bridge (pci-host-generic)
        "-drive", "if=none,id=nvm,format=raw,file=" +
        disk(os.path.join(d, "nvme.img"), 64, [(1, 62, 0x83)]),
        "-device", "nvme,serial=sdtnvme0,drive=nvm",
        "-device", "qemu-xhci,id=xhci",
        "-device", "usb-kbd,bus=xhci.0",
        "-drive", "if=none,id=stick,format=raw,file=" +
        disk(os.path.join(d, "stick.img"), 16),
        "-device", "usb-storage,bus=xhci.0,drive=stick",
        "-device", "virtio-net-pci",
    ]


MACHINES = {
    "q35": {
        "args": q35_args,
        "modules": COMMON_MODULES + [
            "nvme", "ahci", "xhci_pci", "usbhid", "hid_generic",
            "e1000e", "virtio_net", "snd_hda_intel", "snd_hda_codec_generic",
            "i2c_i801", "lpc_ich", "bochs"],
        # (subsystem, driver) pairs and class devices that must be present
        "expect_drivers": [
            ("pci", "nvme"), ("pci", "ahci"), ("pci", "xhci_hcd"),
            ("pci", "e1000e"), ("pci", "snd_hda_intel"), ("pci", "i801_smbus"),
            ("pci", "virtio-pci"), ("virtio", "virtio_net"),
            ("virtio", "virtio_blk"), ("usb", "usb-storage"),
            ("usb", "usbhid"), ("hid", "hid-generic"), ("i2c", "at24"),
            ("hdaudio", "snd_hda_codec_generic"), ("scsi", "sd"),
            ("scsi", "sr")],
        "expect_class": {"block": 6, "net": 3, "input": 2, "sound": 1,
                         "i2c-dev": 1, "nvme": 1, "tty": 2},
    },
    "pc": {
        "args": pc_args,
        "modules": COMMON_MODULES + [
            "ata_piix", "ehci_pci", "e1000", "i2c_piix4", "bochs"],
        "expect_drivers": [
            ("pci", "ata_piix"), ("pci", "ehci-pci"), ("pci", "e1000"),
            ("pci", "piix4_smbus"), ("usb", "usb-storage"), ("i2c", "at24"),
            ("scsi", "sd"), ("scsi", "sr")],
        "expect_class": {"block": 5, "net": 2, "i2c-dev": 1, "tty": 1},
    },
    "virt-arm64": {
        "arch": "arm64",
        "args": virt_arm64_args,
        "append": "console=ttyAMA0",
        "modules": [
            "virtio_pci", "virtio_blk", "virtio_mmio", "virtio_rng",
            "virtio_net", "nvme", "xhci_pci", "usb_storage", "sd_mod",
            "usbhid", "hid_generic", "evdev", "gpio_keys"],
        "expect_drivers": [
            ("pci", "nvme"), ("pci", "xhci_hcd"), ("pci", "virtio-pci"),
            ("platform", "virtio-mmio"), ("virtio", "virtio_rng"),
            ("virtio", "virtio_net"), ("virtio", "virtio_blk"),
            ("usb", "usb-storage"), ("usb", "usbhid"), ("hid", "hid-generic"),
            ("amba", "uart-pl011"), ("scsi", "sd")],
        "expect_class": {"block": 4, "net": 1, "input": 1, "tty": 1},
        # device-tree nodes the walk must see as of_node links
        "expect_of_node": 10,
    },
}


def read(path, default=None):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return default


def strip_sysfs(text):
    doc = json.loads(text)
    doc.pop("sysfs", None)
    return doc


def json_diff(a, b, limit=20):
    la = json.dumps(a, indent=1, sort_keys=True).splitlines()
    lb = json.dumps(b, indent=1, sort_keys=True).splitlines()
    return "\n".join(list(difflib.unified_diff(la, lb, lineterm=""))[:limit])


def devices(doc):
    """devpath -> node for every device node of a --json --all document."""
    res = {}
    stack = list(doc["nodes"])
    while stack:
        n = stack.pop()
        if n.get("kind") == "device":
            res[n["path"]] = n
        stack.extend(n.get("children", []))
    return res


def class_devices(devs, cls):
    return [p for p, n in devs.items()
            if n.get("subsystem") == cls and n.get("subsystem_kind") == "class"]


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw)


def unpack(tool, archive, dest):
    if os.path.exists(dest):
        shutil.rmtree(dest)
    return run([tool, "unpack", archive, dest])


def main():
    # The unpacked trees (about 10,000 entries each) go to a tmpfs when there
    # is one: on a busy disk unpacking takes 5-20 s instead of 0.2 s.
    shm = "/dev/shm"
    base = shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else None
    scratch = tempfile.mkdtemp(prefix="sdt-machines-", dir=base)
    try:
        return run_machine(scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


NUMBERED = re.compile(r"^([A-Za-z][A-Za-z0-9_]*?-?)[0-9]+$|^(.*:)[0-9a-fA-F]+$"
                      # an LED named after its input device, a HID device's counter
                      r"|^([A-Za-z]+)[0-9]+(?=::)|^([0-9A-F]{4}:[0-9A-F]{4}:[0-9A-F]{4}\.)[0-9A-F]{4}$")


def numbered_free(cli, root):
    """The tree's devices as a sorted list of (path, kind, subsystem, driver),
    each kernel-numbered path component (a word then digits, or anything then
    ':' and hex digits) with its number replaced by N."""
    r = subprocess.run([cli, "--root", root, "--json"], capture_output=True)
    if r.returncode != 0:
        return None
    out = []

    def norm(path):
        return "/".join(NUMBERED.sub(lambda m: next(g for g in m.groups() if g) + "N", comp)
                        for comp in path.split("/"))

    def walk(n):
        if n["kind"] == "device":
            out.append((norm(n["path"]), n.get("subsystem"), n.get("driver"),
                        norm(n.get("parent") or "")))
        for ch in n["children"]:
            walk(ch)
    for n in json.loads(r.stdout)["nodes"]:
        walk(n)
    return sorted(out, key=repr)


def run_machine(scratch):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--machine", required=True, choices=sorted(MACHINES))
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--fixture-tool", required=True)
    ap.add_argument("--fixture")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--timeout", type=int, default=300)
    args = ap.parse_args()
    m = MACHINES[args.machine]
    cli = os.path.abspath(args.cli)
    tool = os.path.abspath(args.fixture_tool)
    top = os.path.abspath(args.build_dir)
    work = os.path.join(top, args.machine)
    os.makedirs(work, exist_ok=True)
    c = T.Checker()

    try:
        kinfo = fetch_kernel.fetch(os.path.join(top, "..", "qemu", "cache"))
    except SystemExit as e:
        if not fetch_kernel.host_tools_present():
            print("SKIP: cannot fetch the kernel or qemu: %s" % e)
            return 77
        raise
    t0 = time.monotonic()
    initrd = os.path.join(work, "initrd.cpio.gz")
    guest = os.path.join(HERE, "guest", "capture.sh")
    if m.get("arch") == "arm64":
        import arm64
        miss = arm64.ensure_host_tools()
        if miss:
            print("SKIP: missing host packages: " + " ".join(miss))
            return 77
        host_busybox = kinfo["busybox"]
        kinfo = arm64.fetch(os.path.join(top, "..", "qemu", "cache"))
        gcli, gtool, glib = arm64.cross_build(os.path.join(HERE, "..", ".."),
                                              os.path.join(top, "arm64-cross"),
                                              kinfo["root"])
        print("cross build: %.1f s" % (time.monotonic() - t0))
        arm64.initramfs(kinfo, host_busybox, initrd, guest, m["modules"],
                        [gcli, gtool], glib)
    else:
        build_initramfs.build(kinfo, initrd, guest, modules=m["modules"],
                              binaries=[cli, tool])
    print("initramfs: %.1f s, %d KiB" % (time.monotonic() - t0,
                                          os.path.getsize(initrd) >> 10))
    res = bootmod.boot(kinfo["vmlinuz"], initrd, timeout=args.timeout,
                       out_dir=work, out_disk_mib=512, memory=1024,
                       append=m.get("append", ""), qemu_args=m["args"](work),
                       qemu=kinfo.get("qemu") or "qemu-system-x86_64")
    print("boot: %s" % json.dumps(res))
    out = res["out"]
    if not c.check("guest finished", res["done"] and not res["timed_out"] and out,
                "rc=%s timed_out=%s (console: %s)" % (res["rc"], res["timed_out"],
                                                      res["log"])):
        return 1
    # what the guest script said of its waits (settles, codecs, rebinds)
    for line in read(res["log"], "").splitlines():
        line = line.strip()
        if line.startswith("@@SDT-MACHINE"):
            print("guest: " + line[len("@@SDT-MACHINE "):])
    info = read(os.path.join(out, "info.txt"), "")
    print(info.split("modules")[0].strip())

    steps = {}
    for s in ("check-udev", "live", "capture", "full", "readback", "stats",
              "fixture"):
        rc = read(os.path.join(out, s + ".rc"), "").strip()
        steps[s] = int(rc) if rc.lstrip("-").isdigit() else None
        err = read(os.path.join(out, s + ".err"), "").strip()
        c.check("guest step %s exits 0" % s, steps[s] == 0,
             "rc=%s: %s" % (steps[s], err[-500:]))

    cu = read(os.path.join(out, "check-udev.out"), "")
    summary = cu.splitlines()[0] if cu else ""
    print("check-udev: " + summary)
    for line in cu.splitlines()[1:]:
        print("check-udev: " + line)
    c.check("check-udev agrees in the guest", steps["check-udev"] == 0 and
         " agree" in summary, summary)

    live_text = read(os.path.join(out, "live.out"), "")
    try:
        live = strip_sysfs(live_text)
    except ValueError as e:
        c.check("live JSON parses", False, str(e))
        return 1
    devs = devices(live)
    print("devices: %d (walk)" % len(devs))

    try:
        rb = strip_sysfs(read(os.path.join(out, "readback.out"), ""))
        c.check("guest read-back of its capture == live", rb == live,
             json_diff(live, rb))
    except ValueError as e:
        c.check("guest read-back JSON parses", False, str(e))

    for name in ("full", "fixture"):
        archive = os.path.join(out, name + ".out" if name == "full"
                               else "fixture.sysfs")
        if not os.path.exists(archive):
            c.check("%s archive present" % name, False, archive)
            continue
        dest = os.path.join(scratch, "unpacked-" + name)
        r = unpack(tool, archive, dest)
        if not c.check("sysdev-fixture unpack %s" % name, r.returncode == 0,
                    r.stderr.strip()):
            continue
        r = run([cli, "--root", dest, "--json", "--all"])
        try:
            back = strip_sysfs(r.stdout)
        except ValueError:
            back = None
        c.check("host read-back of the %s archive (%d KiB) == guest live" %
             (name, os.path.getsize(archive) >> 10),
             r.returncode == 0 and back == live,
             r.stderr.strip() or json_diff(live, back))

    # libudev on the capture sees what libudev in the guest saw
    full = os.path.join(scratch, "unpacked-full")
    if os.path.isdir(full):
        r = run([cli, "--root", full, "--check-udev"])
        first = r.stdout.splitlines()[0] if r.stdout else ""
        want = re.search(r"libudev lists (\d+) devices", summary)
        got = re.search(r"libudev lists (\d+) devices", first)
        c.check("--check-udev on the host's read-back agrees, same libudev count",
             r.returncode == 0 and want and got and want.group(1) == got.group(1),
             "exit %d: %s (guest: %s)" % (r.returncode, first or r.stderr.strip(),
                                          summary))

    if m.get("expect_of_node"):
        # device-tree machines: devices link their node (S/firmware/devicetree)
        full = os.path.join(scratch, "unpacked-full")
        n_of = sum(1 for p in devs
                   if os.path.islink(os.path.join(full, p.lstrip("/"), "of_node")))
        print("devices with an of_node link: %d" % n_of)
        c.check("at least %d devices with an of_node link" % m["expect_of_node"],
             n_of >= m["expect_of_node"], "found %d" % n_of)

    have = {(n.get("subsystem"), n.get("driver")) for n in devs.values()}
    for pair in m["expect_drivers"]:
        c.check("a %s device bound to %s" % pair, pair in have, "not in the tree")
    for cls, n in sorted(m["expect_class"].items()):
        got = len(class_devices(devs, cls))
        c.check("at least %d %s class devices" % (n, cls), got >= n, "found %d" % got)

    kver = kinfo["kver"]
    records = json.loads(read(RECORD, "{}"))
    # The committed fixture is the full capture (every attribute's content,
    # as --capture reads it) while that stays under FIXTURE_MAX; past that,
    # the walk-only capture (contents only for uevent, dev and power/).
    fresh, kind = os.path.join(out, "full.out"), "full"
    if not os.path.exists(fresh) or os.path.getsize(fresh) > FIXTURE_MAX:
        fresh, kind = os.path.join(out, "fixture.sysfs"), "fixture"
    if args.fixture and args.update and c.failed == 0:
        shutil.copyfile(fresh, args.fixture)
        qv = run([kinfo.get("qemu", "qemu-system-x86_64"), "--version"]).stdout
        records[args.machine] = {
            "fixture": os.path.relpath(args.fixture, os.path.join(HERE, "..", "..")),
            "kernel": kver,
            "qemu": qv.splitlines()[0] if qv else None,
            "boot_seconds": res["seconds"],
            "devices": len(devs),
            "check_udev": summary,
            "bytes": os.path.getsize(args.fixture),
            "contents": "all attributes" if kind == "full" else
                        "walk-only (uevent, dev, power/)",
        }
        with open(RECORD + ".tmp", "w") as f:
            json.dump(records, f, indent=1, sort_keys=True)
            f.write("\n")
        os.replace(RECORD + ".tmp", RECORD)
        print("updated %s (%d bytes) and %s" % (args.fixture,
              os.path.getsize(args.fixture), RECORD))
    elif args.fixture and os.path.exists(args.fixture):
        old = os.path.join(scratch, "committed")
        new = os.path.join(scratch, "unpacked-" + kind)
        r = unpack(tool, args.fixture, old)
        c.check("committed fixture unpacks", r.returncode == 0, r.stderr.strip())
        d = run([cli, "--diff", old, new])
        rec_kver = records.get(args.machine, {}).get("kernel")
        text = (d.stdout + d.stderr).strip()
        same = d.returncode == 0
        if not same and rec_kver == kver:
            # the kernel numbers some devices in probe order (input3 or input4,
            # as the USB keyboard and tablet race): equal up to those numbers
            # is the same machine, anything else is a difference
            a, b = numbered_free(cli, old), numbered_free(cli, new)
            same = a is not None and a == b
            if same:
                print("committed and fresh differ only in kernel-numbered names:\n%s"
                      % "\n".join(text.splitlines()[:20]))
        if same:
            c.check("--diff committed fixture, fresh capture: same devices", True)
        elif rec_kver != kver:
            print(text[:3000])
            c.skip("--diff committed fixture, fresh capture",
                   "fixture from kernel %s, guest runs %s: regenerate with "
                   "--update" % (rec_kver, kver))
        else:
            c.check("--diff committed fixture, fresh capture: same devices",
                 False, "exit %d:\n%s" % (d.returncode, text[:3000]))
    elif args.fixture:
        c.skip("committed fixture", "%s does not exist (--update makes it)"
               % args.fixture)

    print("boot %.1f s" % res["seconds"])
    # a check that was skipped makes the test a skip (77), never a pass: the
    # skip is visible, and CI refuses it unless tests/skip-allowlist names it
    return c.summary() or (T.SKIP if c.skipped else 0)


if __name__ == "__main__":
    sys.exit(main())
