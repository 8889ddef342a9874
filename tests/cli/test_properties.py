#!/usr/bin/env python3
"""sysdev-tree --properties DEVICE [--export] [--json], and the names.

Checked against what the program did not produce: the uevent, modalias,
dev, idVendor/idProduct/product files and links read here by Python, udev's
hardware database through systemd-hwdb(8) (`systemd-hwdb query KEY`), and on
the live /sys (read only) `udevadm info -q property` and `udevadm info -x`.

usage: test_properties.py SYSDEV_TREE SYSDEV_FIXTURE FIXTURES_DIR
       test_properties.py --no-hwdb SYSDEV_TREE_FAKEUDEV
           (a sysdev-tree whose libudev has no hardware database)
       test_properties.py --live-usb SYSDEV_TREE
           (the USB devices of this machine; exit 77 when it has none)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mktree  # noqa: E402

MODE = "main"
args = sys.argv[1:]
if args and args[0] in ("--no-hwdb", "--live-usb"):
    MODE = args.pop(0)[2:]
TOOL = os.path.abspath(args[0])
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402

C = T.Checker()
check = C.check


def run(*a, tool=None, env=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([tool or TOOL, *a], capture_output=True, timeout=120, env=e)


def text(b):
    return b.decode("utf-8", "surrogateescape")


# --- the oracle: files and links, read here -------------------------------

def read(path):
    """A sysfs value as udev reads it: the bytes, one trailing newline cut."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    data = data.decode("utf-8", "surrogateescape")
    return data[:-1] if data.endswith("\n") else data


def parse_uevent(path):
    """KEY=VALUE lines in file order; a key's first line counts; lines without
    '=' or with an empty key are not properties."""
    props = []
    seen = set()
    for line in (read(path) or "").split("\n"):
        key, eq, value = line.partition("=")
        if not eq or not key or key in seen:
            continue
        seen.add(key)
        props.append((key, value))
    return props


def link_base(path):
    try:
        return os.path.basename(os.readlink(path).rstrip("/"))
    except OSError:
        return None


def usb_key(devdir):
    """udev's hwdb key for a usb_device without a modalias."""
    try:
        v = int(read(os.path.join(devdir, "idVendor")), 16)
        p = int(read(os.path.join(devdir, "idProduct")), 16)
    except (TypeError, ValueError):
        return None
    product = read(os.path.join(devdir, "product")) or ""
    return "usb:v%04Xp%04X:%s" % (v, p, product)


def modalias_of(devdir, uevent):
    d = dict(uevent)
    if d.get("MODALIAS"):
        return d["MODALIAS"]
    m = read(os.path.join(devdir, "modalias"))
    if m:
        return m
    sub = link_base(os.path.join(devdir, "subsystem"))
    if sub == "usb" and d.get("DEVTYPE") == "usb_device":
        return usb_key(devdir)
    return None


HWDB = {}


def hwdb(modalias):
    """What udev's database says for a key, asked of systemd-hwdb."""
    if modalias not in HWDB:
        r = subprocess.run(["systemd-hwdb", "query", modalias], capture_output=True,
                           timeout=60)
        if r.returncode != 0:
            raise SystemExit(f"Bail out! systemd-hwdb query failed: {r.stderr!r}")
        HWDB[modalias] = dict(line.split("=", 1) for line in text(r.stdout).splitlines()
                              if "=" in line)
    return HWDB[modalias]


def expected(root, devpath):
    """The properties --properties must print, from the files: the uevent ones in
    order (DEVNAME as /dev/NAME), then the computed ones (a dict)."""
    devdir = root + devpath
    uevent = parse_uevent(os.path.join(devdir, "uevent"))
    first = [(k, "/dev/" + v if k == "DEVNAME" and not v.startswith("/") else v)
             for k, v in uevent]
    more = {"DEVPATH": devpath}
    sub_target = None
    try:
        sub_target = os.path.normpath(os.path.join(devdir, os.readlink(devdir + "/subsystem")))
    except OSError:
        pass
    sub = link_base(devdir + "/subsystem")
    if sub:
        more["SUBSYSTEM"] = sub
    drv = link_base(devdir + "/driver")
    if drv:
        more["DRIVER"] = drv
    dev = read(devdir + "/dev")
    if dev and ":" in dev and "MAJOR" not in dict(uevent) and "MINOR" not in dict(uevent):
        more["MAJOR"], more["MINOR"] = dev.split(":", 1)
    more["SYSDEV_KIND"] = "device"
    if sub_target and sub_target.startswith(os.path.normpath(root) + "/bus/"):
        more["SYSDEV_SUBSYSTEM_KIND"] = "bus"
    elif sub_target and sub_target.startswith(os.path.normpath(root) + "/class/"):
        more["SYSDEV_SUBSYSTEM_KIND"] = "class"
    if devpath.startswith("/devices/virtual/"):
        more["SYSDEV_PLACEMENT"] = "virtual"
    elif devpath.startswith("/devices/system/"):
        more["SYSDEV_PLACEMENT"] = "system"
    else:
        more["SYSDEV_PLACEMENT"] = "devices"
    up = os.path.dirname(devpath)
    while up.startswith("/devices/"):
        if os.path.isfile(root + up + "/uevent") and not os.path.islink(root + up + "/uevent"):
            more["SYSDEV_PARENT"] = up
            break
        up = os.path.dirname(up)
    if drv and sub:
        mod = link_base(f"{root}/bus/{sub}/drivers/{drv}/module")
        if mod:
            more["SYSDEV_MODULE"] = mod
    alias = modalias_of(devdir, uevent)
    names = hwdb(alias) if alias else {}
    for key in ("ID_VENDOR_FROM_DATABASE", "ID_MODEL_FROM_DATABASE"):
        if names.get(key):
            more[key] = names[key]
    for k in dict(first):
        more.pop(k, None)
    return first, more, alias


def props(out):
    res = []
    for line in text(out).splitlines():
        key, eq, value = line.partition("=")
        res.append((key, value) if eq else (line, None))
    return res


def check_device(root, devpath, label, tool_root=None, names_expected=True):
    """One device: text, --json and --export against the files.  Returns the
    printed properties as a dict."""
    first, more, alias = expected(root, devpath)
    base = ["--root", tool_root or root]
    r = run(*base, "--properties", devpath)
    got = props(r.stdout)
    check(f"{label}: exit 0, nothing on stderr", r.returncode == 0 and not r.stderr,
          text(r.stderr))
    check(f"{label}: the uevent properties first, in file order",
          got[:len(first)] == first, f"want {first}\ngot  {got[:len(first)]}")
    rest = dict(got[len(first):])
    # SYSDEV_CLASS_DIR: the grouping directory the device sits in, checked apart
    class_dir = rest.pop("SYSDEV_CLASS_DIR", None)
    if class_dir is not None:
        parent_dir = root + os.path.dirname(devpath)
        check(f"{label}: SYSDEV_CLASS_DIR names the directory above, which is no device",
              os.path.basename(parent_dir) == class_dir and
              not os.path.exists(parent_dir + "/uevent"), class_dir)
    want = more if names_expected else {k: v for k, v in more.items()
                                         if not k.endswith("_FROM_DATABASE")}
    check(f"{label}: the computed properties (modalias {alias})", rest == want,
          f"want {want}\ngot  {rest}")
    keys = [k for k, _ in got]
    check(f"{label}: each key once", len(keys) == len(set(keys)), keys)

    r = run(*base, "--properties", devpath, "--json")
    try:
        doc = json.loads(r.stdout)
    except ValueError as e:
        doc = e
    check(f"{label}: --json is one object with the same properties in the same order",
          r.returncode == 0 and isinstance(doc, dict) and list(doc.items()) == got,
          text(r.stdout)[:2000])

    r = run(*base, "--export", "--properties", devpath)
    lines = text(r.stdout).splitlines()
    want_lines = [f"{k}='{v}'" for k, v in got]
    check(f"{label}: --export writes KEY='VALUE'", r.returncode == 0 and lines == want_lines,
          "\n".join(lines[:10]))
    return dict(got)


# --- the fixture, unpacked (and as an archive) -----------------------------

def devices_of(root, index):
    """devpaths of the entries of an index directory (S/bus/X/devices, S/class/X)."""
    res = []
    d = root + "/" + index
    for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        target = os.path.realpath(os.path.join(d, name))
        res.append(target[len(os.path.realpath(root)):])
    return res


def fixture_tests(fixture_tool, fixtures):
    tmp = tempfile.mkdtemp(prefix="props-")
    try:
        archive = os.path.join(fixtures, "qemu-q35.sysfs")
        root = os.path.join(tmp, "q35")
        r = run("unpack", archive, root, tool=fixture_tool)
        if r.returncode != 0:
            raise SystemExit(f"Bail out! cannot unpack {archive}: {text(r.stderr)}")
        pci = devices_of(root, "bus/pci/devices")
        usb = [d for d in devices_of(root, "bus/usb/devices")
               if dict(parse_uevent(root + d + "/uevent")).get("DEVTYPE") == "usb_device"]
        others = devices_of(root, "class/block")[:3] + devices_of(root, "class/net")
        check("q35 fixture: PCI devices and USB devices to look at", len(pci) >= 5 and
              len(usb) >= 3, f"pci {pci}\nusb {usb}")
        # the host's database must know what this fixture holds, or the check is empty
        for alias, key in (("pci:v00008086d000029C0*", "ID_VENDOR_FROM_DATABASE"),
                           ("pci:v00001AF4d00001041*", "ID_VENDOR_FROM_DATABASE"),
                           ("usb:v1D6Bp0002:x", "ID_MODEL_FROM_DATABASE")):
            check(f"the host's hwdb knows {alias} (systemd-hwdb)", key in hwdb(alias),
                  hwdb(alias))
        named = 0
        for devpath in pci + usb + others:
            got = check_device(root, devpath, f"q35 {devpath}")
            named += devpath in pci + usb and "ID_VENDOR_FROM_DATABASE" in got
        # the bochs card (1234:1111) is the one the database does not know
        check("q35: vendor names for all PCI and USB devices but one or two",
              named >= len(pci) + len(usb) - 2, f"{named} of {len(pci) + len(usb)}")

        # the archive itself as --root: the same output as the unpacked tree
        for devpath in pci[:1] + usb[:1]:
            a = run("--root", archive, "--properties", devpath)
            b = run("--root", root, "--properties", devpath)
            check(f"q35 archive {devpath}: the same as the unpacked tree",
                  a.returncode == 0 and a.stdout == b.stdout, text(a.stderr))

        # USB through a usb_device's ids: the key udev's builtin composes
        kbd = next((d for d in usb if read(root + d + "/idVendor") == "0627"), None)
        if kbd:
            got = dict(props(run("--root", root, "--properties", kbd).stdout))
            want = hwdb(usb_key(root + kbd))
            check(f"q35 {kbd}: a usb_device named from idVendor:idProduct:product",
                  "MODALIAS" not in got and got.get("ID_MODEL_FROM_DATABASE") ==
                  want.get("ID_MODEL_FROM_DATABASE") and want.get("ID_MODEL_FROM_DATABASE"),
                  f"{got}\n{want}")
        else:
            check("q35: the QEMU keyboard (usb 0627) is in the fixture", False, usb)

        # MODULE: the driver's module link (a capture keeps drivers as names only)
        drv = link_base(root + pci[2] + "/driver")
        os.symlink("../../../../module/my_mod", f"{root}/bus/pci/drivers/{drv}/module")
        for devpath in pci:
            got = dict(props(run("--root", root, "--properties", devpath).stdout))
            want = "my_mod" if link_base(root + devpath + "/driver") == drv else None
            check(f"q35 {devpath}: SYSDEV_MODULE from bus/pci/drivers/DRIVER/module",
                  got.get("SYSDEV_MODULE") == want, got.get("SYSDEV_MODULE"))
        check_device(root, pci[2], f"q35 {pci[2]} with a module link")
        # a usb_device's ids changed: a new key, a new name (the cache is per key)
        os.chmod(root + kbd + "/idProduct", 0o644)
        with open(root + kbd + "/idProduct", "w") as f:
            f.write("zz\n")
        got = dict(props(run("--root", root, "--properties", kbd).stdout))
        check("q35: a usb_device with an idProduct that is not hex has no names",
              "ID_MODEL_FROM_DATABASE" not in got and "ID_VENDOR_FROM_DATABASE" not in got, got)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# --- a hand-made tree: quoting, escaping, odd files ------------------------

def hand_tests():
    tmp = tempfile.mkdtemp(prefix="props-hand-")
    try:
        mktree.article(tmp)
        dev = "/devices/platform/odd"
        uevent = ("DRIVER=odd\nQUOTE=it's a \\ test $HOME `x`\nTAB=a\tb\nEMPTY=\n"
                  "noequals\n=nokey\nQUOTE=second\nDEVNAME=odd0\n")
        mktree.device(tmp, dev, "bus:platform", "odd", uevent)
        mktree.file(tmp, dev.lstrip("/") + "/dev", "240:7\n")
        r = run("--root", tmp, "--properties", dev)
        lines = text(r.stdout).splitlines()
        check("hand: exit 0", r.returncode == 0, text(r.stderr))
        check("hand: the uevent lines, first of a key, DEVNAME as /dev/NAME, then the rest",
              lines[:5] == ["DRIVER=odd", "QUOTE=it's a \\\\ test $HOME `x`", "TAB=a\\tb",
                            "EMPTY=", "DEVNAME=/dev/odd0"], lines)
        check("hand: MAJOR and MINOR from the dev attribute",
              "MAJOR=240" in lines and "MINOR=7" in lines, lines)
        r = run("--root", tmp, "--properties", dev, "--export")
        lines = text(r.stdout).splitlines()
        quote = next((x for x in lines if x.startswith("QUOTE=")), "")
        check("hand: --export writes ' as '\\''", quote == "QUOTE='it'\\''s a \\ test $HOME `x`'",
              quote)
        check("hand: --export keeps one line per property (a tab is written \\t)",
              "TAB='a\\tb'" in lines and len(lines) == len(set(x.split("=")[0] for x in lines)),
              lines)
        # the shell reads the quoted values back exactly
        script = text(r.stdout) + '\nprintf "%s|%s|%s" "$QUOTE" "$EMPTY" "$DEVNAME"\n'
        sh = subprocess.run(["sh", "-c", script], capture_output=True, timeout=30)
        check("hand: sh evaluates --export back to the values",
              text(sh.stdout) == "it's a \\ test $HOME `x`||/dev/odd0", sh.stdout)

        # bad input: one line, the right exit status
        for argv, status, what in (
                (["--properties", dev, "-s", "platform"], 2, "a DEVICE and a filter"),
                (["--export", dev], 2, "--export without --properties"),
                (["--properties", dev, "--export", "--json"], 2, "--export with --json"),
                (["--properties", dev, "--depth", "1"], 2, "--depth with --properties"),
                (["--properties", "/devices/platform/nothing"], 1, "a device that is not there"),
                (["--properties", "/devices/platform/odd/power"], 1, "an attribute group"),
                (["--properties", "nosuch:thing"], 1, "an unknown SUBSYSTEM:NAME")):
            r = run("--root", tmp, *argv)
            check(f"hand: {what}: exit {status}, one line on stderr, nothing on stdout",
                  r.returncode == status and text(r.stderr).count("\n") <= 2 and r.stderr
                  and not r.stdout, f"{r.returncode} {text(r.stderr)}")
        r = run("--root", tmp, f"--properties={dev}")
        check("hand: --properties=DEVICE", r.returncode == 0 and b"DRIVER=odd" in r.stdout,
              text(r.stderr))
        # several DEVICEs, a filter, nothing: one block per device, a blank line between
        one = text(run("--root", tmp, "--properties", dev).stdout)
        r = run("--root", tmp, "--properties", dev, dev)
        check("hand: two DEVICEs: two blocks separated by one blank line",
              r.returncode == 0 and text(r.stdout) == one + "\n" + one, text(r.stderr))
        r = run("--root", tmp, "--properties", dev, dev, "--json")
        check("hand: two DEVICEs with --json: an array of the two objects",
              r.returncode == 0 and json.loads(r.stdout) == [json.loads(
                  run("--root", tmp, "--properties", dev, "--json").stdout)] * 2, r.stdout)
        r = run("--root", tmp, "--properties", "--sysname", "odd")
        check("hand: a filter instead of DEVICE: the block of the device it selects",
              r.returncode == 0 and text(r.stdout) == one, text(r.stderr))
        devices = sorted(os.path.relpath(dp, tmp) for dp, _, files in os.walk(tmp + "/devices")
                         if "uevent" in files and os.path.isfile(os.path.join(dp, "uevent"))
                         and not os.path.islink(os.path.join(dp, "uevent")))
        r = run("--root", tmp, "--properties")
        blocks = text(r.stdout).split("\n\n")
        got = sorted(next(x[len("DEVPATH=/"):] for x in b.splitlines()
                          if x.startswith("DEVPATH=")) for b in blocks)
        check("hand: no DEVICE: a block for every directory with a uevent file",
              r.returncode == 0 and got == devices, (got, devices))
        r = run("--root", tmp, "--properties", "--sysname", "nothing-has-this")
        check("hand: a filter that selects nothing: exit 1, nothing printed",
              r.returncode == 1 and not r.stdout and r.stderr, text(r.stderr))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# --- the live tree, against udevadm ----------------------------------------

def udevadm(*a):
    r = subprocess.run(["udevadm", "info", *a], capture_output=True, timeout=60)
    return r.returncode, text(r.stdout)


def live_compare(devpath, label, uevent_keys):
    """udevadm's view of the device: every key both show must agree; the
    uevent keys must be in both."""
    rc, out = udevadm("-q", "property", "-p", devpath)
    theirs = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    r = run("--properties", devpath)
    ours = dict(props(r.stdout))
    shared = set(ours) & set(theirs)
    # names udev's rules took from a parent (a net device's PCI card) are not ours to compare
    if "MODALIAS" not in ours and "DEVTYPE" not in ours:
        shared -= {"ID_VENDOR_FROM_DATABASE", "ID_MODEL_FROM_DATABASE"}
    diff = {k: (ours[k], theirs[k]) for k in shared if ours[k] != theirs[k]}
    check(f"{label}: udevadm info -q property agrees on {len(shared)} keys",
          rc == 0 and not diff and set(uevent_keys) <= shared,
          f"rc {rc} differ {diff} missing {set(uevent_keys) - shared}")
    rc, out = udevadm("-x", "-q", "property", "-p", devpath)
    theirs_x = {line.split("=", 1)[0]: line for line in out.splitlines() if "=" in line}
    r = run("--properties", devpath, "--export")
    ours_x = {line.split("=", 1)[0]: line for line in text(r.stdout).splitlines()}
    bad = [k for k in shared if k not in diff and ours_x.get(k) != theirs_x.get(k)]
    check(f"{label}: --export lines are udevadm info -x's lines", rc == 0 and not bad,
          [(ours_x.get(k), theirs_x.get(k)) for k in bad][:5])


def live_tests():
    pci = devices_of("/sys", "bus/pci/devices")
    if not pci:
        check("live: this machine has PCI devices to compare (none found in /sys/bus/pci)",
              False)
    named = 0
    for devpath in pci:
        got = check_device("/sys", devpath, f"live {devpath}")
        named += "ID_VENDOR_FROM_DATABASE" in got
        live_compare(devpath, f"live {devpath}",
                     [k for k, _ in parse_uevent("/sys" + devpath + "/uevent")])
    check("live: the hwdb named the vendor of PCI devices", not pci or named > 0, named)
    extra = devices_of("/sys", "class/net")[:2] + devices_of("/sys", "class/block")[:2] + \
        devices_of("/sys", "class/tty")[:1]
    for devpath in extra:
        check_device("/sys", devpath, f"live {devpath}")
        live_compare(devpath, f"live {devpath}",
                     [k for k, _ in parse_uevent("/sys" + devpath + "/uevent")])


def live_usb_tests():
    usb = [d for d in devices_of("/sys", "bus/usb/devices")
           if dict(parse_uevent("/sys" + d + "/uevent")).get("DEVTYPE") == "usb_device"]
    if not usb:
        print("# SKIP: this machine has no USB device (the fixture part of cli/properties "
              "covers USB)")
        sys.exit(77)
    for devpath in usb:
        check_device("/sys", devpath, f"live usb {devpath}")
        live_compare(devpath, f"live usb {devpath}",
                     [k for k, _ in parse_uevent("/sys" + devpath + "/uevent")])


def no_hwdb_tests():
    tmp = tempfile.mkdtemp(prefix="props-nohwdb-")
    try:
        mktree.article(tmp)
        alias = "pci:v00008086d000029C0sv00001AF4sd00001100bc06sc00i00"
        mktree.device(tmp, "/devices/platform/card", "bus:platform", None,
                      f"MODALIAS={alias}\n")
        check("no hwdb: the host's database does know the key (so names are left out "
              "only for want of a database)", "ID_VENDOR_FROM_DATABASE" in hwdb(alias))
        r = run("--root", tmp, "--properties", "/devices/platform/card")
        got = dict(props(r.stdout))
        check("no hwdb: exit 0, the uevent properties still there",
              r.returncode == 0 and got.get("MODALIAS") == alias, text(r.stderr))
        check("no hwdb: no names", not any(k.endswith("_FROM_DATABASE") for k in got), got)
        check("no hwdb: one line on stderr says so",
              text(r.stderr).count("\n") == 1 and "hwdb" in text(r.stderr), text(r.stderr))
        r = run("--root", tmp, "--properties", "/devices/platform/omap_i2c.2")
        check("no hwdb: a device without a modalias draws no warning",
              r.returncode == 0 and b"DRIVER=omap_i2c\n" in r.stdout and not r.stderr,
              text(r.stderr))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if MODE == "no-hwdb":
    no_hwdb_tests()
elif MODE == "live-usb":
    live_usb_tests()
else:
    fixture_tests(os.path.abspath(args[1]), os.path.abspath(args[2]))
    hand_tests()
    live_tests()
sys.exit(C.summary())
