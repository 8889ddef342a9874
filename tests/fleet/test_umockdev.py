#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""umockdev both ways, with the real umockdev package.

Export: every fixture is exported with `sysdev-fixture export --umockdev`;
the recording holds exactly the fixture's devices that have a subsystem
(counted from the filesystem by tests/fixtures/sysfs_oracle.py), never the
subsystem link nor the uevent file (umockdev makes both); replayed with
`umockdev-run -d FILE --`, libudev inside the testbed (udev-list.c) lists
every exported device with its subsystem, driver, device node and
properties, `sysdev-tree --check-udev` agrees with libudev there, and
`sysdev-tree --json --all` there shows the fixture's fields.

Import: recordings made by umockdev-record --all of this machine, and those
shipped in Debian's umockdev source package (apt-get source, cached in the
build directory), are laid out with `sysdev-fixture import`, walked, and
checked device by device and with --check-udev.  A fixture exported and
imported again keeps its devices' fields.  Bad recordings fail in one line.

Usage: test_umockdev.py SYSDEV_TREE SYSDEV_FIXTURE UDEV_LIST FIXTURES_DIR CACHE_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from common import C, sysfs_oracle
import sysdevtest as T  # noqa: E402  (common.py puts tests/lib on the path)

TREE, FIXTURE, UDEV_LIST, FIXTURES, CACHE = sys.argv[1:6]
# Under umockdev-run its preload library comes before an AddressSanitizer
# runtime (a sanitizer build): let ASan accept that, and leave leak checks of
# the preloaded testbed to umockdev (sysdev-tree's own are checked elsewhere).
UMOCK_ENV = dict(os.environ, ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") +
                                           ":verify_asan_link_order=0:detect_leaks=0").lstrip(":"))
CACHE = os.path.abspath(CACHE)


def parse_recording(text):
    """{devpath: {"E": {..}, "A": {..}, "H": {..}, "L": {..}, "N": name|None}} and the raw lines."""
    devs, cur = {}, None
    for line in text.split("\n"):
        if not line:
            cur = None
            continue
        t, rest = line[0], line[3:]
        if t == "P":
            cur = devs[rest] = {"E": {}, "A": {}, "H": {}, "L": {}, "N": None}
        elif t == "N":
            cur["N"] = rest.split("=", 1)[0]
        elif t in "EAHL":
            k, v = rest.split("=", 1)
            cur[t][k] = v
    return devs


def parse_udev_list(text):
    devs, cur = {}, None
    for line in text.splitlines():
        t, rest = line[0], line[2:]
        if t == "D":
            cur = devs[rest] = {"E": {}}
        elif t in "SRN":
            cur[t] = None if rest == "-" else rest
        elif t == "E":
            k, v = rest.split("=", 1)
            cur["E"][k] = v
    return devs


def tree_devices(root, env=None):
    rc, out, err = T.run3([TREE, *(["--root", root] if root else []), "--json", "--all"], env=env, timeout=300)
    if rc != 0:
        return None, err
    found = {}

    def walk(n):
        if n["kind"] == "device":
            found[n["path"]] = n
        for c in n["children"]:
            walk(c)
    for n in json.loads(out)["nodes"]:
        walk(n)
    return found, err


def base(target):
    return target.rstrip("/").rsplit("/", 1)[-1] if target else None


def debian_recordings():
    """The *.umockdev files of Debian's umockdev source package (apt-get source,
    cached by version).  Returns (list of paths, why-not)."""
    ver = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "umockdev"],
                         capture_output=True, text=True).stdout.strip()
    if not ver:
        return [], "the umockdev package is not installed"
    top = os.path.join(CACHE, "umockdev-source-" + ver)
    marker = os.path.join(top, ".done")
    if not os.path.exists(marker):
        shutil.rmtree(top, ignore_errors=True)
        for d in ("lists/partial", "cache/archives/partial", "dl", "src"):
            os.makedirs(os.path.join(top, d))
        srclist = os.path.join(top, "sources.list")
        with open(srclist, "w") as f:
            f.write("deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] "
                    "http://deb.debian.org/debian bookworm main\n")
        opts = ["-o", "Dir::Etc::SourceList=" + srclist, "-o", "Dir::Etc::SourceParts=/nonexistent",
                "-o", "Dir::State::Lists=" + os.path.join(top, "lists"),
                "-o", "Dir::Cache=" + os.path.join(top, "cache"), "-o", "Debug::NoLocking=1",
                "-o", "APT::Sandbox::User=root"]
        p = subprocess.run(["apt-get", "-qq", *opts, "update"], capture_output=True, text=True)
        if p.returncode != 0:
            return [], "apt-get update (deb-src) failed: " + p.stderr[-500:]
        p = subprocess.run(["apt-get", "-qq", *opts, "source", "--download-only", "umockdev=" + ver],
                           capture_output=True, text=True, cwd=os.path.join(top, "dl"))
        if p.returncode != 0:
            return [], "apt-get source umockdev failed: " + p.stderr[-500:]
        origs = [f for f in os.listdir(os.path.join(top, "dl")) if ".orig.tar" in f]
        if not origs:
            return [], "no orig tarball in " + os.path.join(top, "dl")
        subprocess.run(["tar", "-xf", os.path.join(top, "dl", origs[0]), "-C",
                        os.path.join(top, "src")], check=True)
        open(marker, "w").close()
    found = []
    for dirpath, _, files in os.walk(os.path.join(top, "src")):
        found += [os.path.join(dirpath, f) for f in files if f.endswith(".umockdev")]
    return sorted(found), None


def check_import(label, recording, tmp, live=None):
    """Import a recording, walk it, and check every recorded device."""
    dest = os.path.join(tmp, "imp-" + label.replace("/", "_"))
    rc, _, err = T.run3([FIXTURE, "import", recording, dest], timeout=300)
    if not C.check(label + ": import exits 0", rc == 0, err):
        return
    rec = parse_recording(open(recording, encoding="utf-8", errors="surrogateescape").read())
    found, err = tree_devices(dest)
    if not C.check(label + ": sysdev-tree walks the imported tree", found is not None, err):
        return
    bad = []
    for devpath, d in rec.items():
        n = found.get(devpath)
        want_driver = base(d["L"].get("driver")) or d["E"].get("DRIVER")
        if not n or n["subsystem"] != d["E"].get("SUBSYSTEM") or n["driver"] != want_driver:
            bad.append((devpath, n and (n["subsystem"], n["driver"]), (d["E"].get("SUBSYSTEM"), want_driver)))
        elif "dev" in d["A"] and d["E"].get("DEVNAME"):
            if n["devname"] != d["E"]["DEVNAME"].removeprefix("/dev/"):
                bad.append((devpath, n["devname"], d["E"]["DEVNAME"]))
        if live is not None and devpath in live and n and (
                n["subsystem"], n["driver"]) != (live[devpath]["subsystem"], live[devpath]["driver"]):
            bad.append((devpath, "live", live[devpath]["subsystem"], live[devpath]["driver"]))
    C.check(label + ": each of the %d recorded devices is a device with its subsystem, driver "
            "and node" % len(rec), not bad and len(rec) > 0, bad[:5])
    C.check(label + ": no other device with a subsystem appears",
            {p for p, n in found.items() if n["subsystem"]} == set(rec),
            {p for p, n in found.items() if n["subsystem"]} ^ set(rec))
    rc, out, err = T.run3([TREE, "--root", dest, "--check-udev"], timeout=300)
    C.check(label + ": --check-udev agrees with libudev on the imported tree", rc == 0,
            (out + err)[-800:])
    shutil.rmtree(dest, ignore_errors=True)


# Bus names the kernel registers (bus_register, subsys_system_register), written
# by hand from the kernel's sources, and class names: what sysdev-fixture(1) says
# import goes by when a recording holds no subsystem link.
KERNEL_BUSES = ["acpi", "amba", "auxiliary", "cpu", "gpio", "hid", "i2c", "iio", "mdio_bus", "mei",
                "memory", "mmc", "node", "nvmem", "pci", "platform", "pnp", "rpmsg", "scsi", "sdio",
                "serio", "soundwire", "spi", "spmi", "tee", "thunderbolt", "typec", "ulpi", "usb",
                "usb-serial", "virtio", "vmbus", "w1", "wmi", "workqueue", "xen"]
CLASSES = ["net", "block", "tty", "input", "leds", "sound", "hidraw", "power_supply"]


def check_kinds(tmp):
    """Bus or class: a recorded subsystem link into S/bus or S/class decides, else the
    kernel's bus names; the rest are classes."""
    # and what the running kernel registered: a name of /sys/bus alone is a bus, of
    # /sys/class alone a class (a name in both, as mei, needs the link)
    live_bus, live_class = (set(os.listdir(d)) if os.path.isdir(d) else set()
                            for d in ("/sys/bus", "/sys/class"))
    buses = sorted(set(KERNEL_BUSES) | (live_bus - live_class))
    classes = sorted((set(CLASSES) | (live_class - live_bus)) - set(buses))
    rec = "".join("P: /devices/platform/d-%s\nE: SUBSYSTEM=%s\n\n" % (n, n) for n in buses + classes)
    rec += ("P: /devices/platform/linked\nE: SUBSYSTEM=mine\n"
            "L: subsystem=../../../bus/mine/devices\n\n"
            "P: /devices/platform/classed\nE: SUBSYSTEM=pci\nL: subsystem=../../../class/pci\n\n"
            "P: /devices/.hidden\nE: SUBSYSTEM=pci\nA: .x=1\nH: blob=48656C6c6F00FF\n\n")
    f = os.path.join(tmp, "kinds.umockdev")
    with open(f, "w") as fh:
        fh.write(rec)
    dest = os.path.join(tmp, "kinds")
    rc, _, err = T.run3([FIXTURE, "import", f, dest], timeout=300)
    C.check("kinds: the recording imports (exit 0)", rc == 0, err)
    not_bus = [n for n in buses
               if not os.path.islink(os.path.join(dest, "bus", n, "devices", "d-" + n))]
    C.check("kinds: each kernel bus name (and /sys/bus's here) without a link is a bus (S/bus/NAME/devices/DEV)",
            not not_bus, not_bus)
    not_class = [n for n in classes if not os.path.islink(os.path.join(dest, "class", n, "d-" + n))]
    C.check("kinds: each other name is a class (S/class/NAME/DEV)", not not_class, not_class)
    C.check("kinds: a subsystem link anywhere into S/bus makes a bus of a name no kernel has",
            os.path.islink(os.path.join(dest, "bus/mine/devices/linked")))
    C.check("kinds: a subsystem link into S/class makes a class even of the name pci",
            os.path.islink(os.path.join(dest, "class/pci/classed")))
    C.check("kinds: names that start with a dot (.hidden, .x) are names like any other",
            open(os.path.join(dest, "devices/.hidden/.x")).read() == "1")
    # into a directory that is there already and empty (as mktemp -d makes one)
    made = os.path.join(tmp, "kinds-made")
    os.mkdir(made)
    rc, _, err = T.run3([FIXTURE, "import", f, made], timeout=300)
    C.check("kinds: the recording imports into an existing empty directory, links and all",
            rc == 0 and os.path.islink(os.path.join(made, "bus/mine/devices/linked"))
            and os.path.islink(os.path.join(made, "class/pci/classed")), err)
    # a recording that is not there: said in one line, nothing made
    gone = os.path.join(tmp, "kinds-gone")
    rc, _, err = T.run3([FIXTURE, "import", os.path.join(tmp, "no-such.umockdev"), gone])
    C.check("a missing recording: exit 1, 'cannot open' and ENOENT in one line, no tree made",
            rc == 1 and len(err.strip().splitlines()) == 1 and "cannot open" in err
            and "ENOENT" in err and not os.path.lexists(gone), err)
    blob = os.path.join(dest, "devices/.hidden/blob")
    C.check("kinds: an H: attribute is its hex digits' bytes (48656C6c6F00FF: Hello, NUL, 0xff)",
            os.path.isfile(blob) and open(blob, "rb").read() == b"Hello\x00\xff")


def main():
    os.makedirs(CACHE, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="sysdev-umockdev.")
    try:
        # ---------- export and replay, every fixture
        for name in sorted(f for f in os.listdir(FIXTURES) if f.endswith(".sysfs")):
            archive = os.path.join(FIXTURES, name)
            d = os.path.join(tmp, name[:-6])
            rc, _, err = T.run3([FIXTURE, "unpack", archive, d], timeout=300)
            C.check(name + ": unpacks", rc == 0, err)
            oracle = {p: n for p, n in sysfs_oracle.classify(d).items() if n["kind"] == "device"}
            rc, text, err = T.run3([FIXTURE, "export", "--umockdev", archive], timeout=300)
            C.check(name + ": export exits 0", rc == 0, err)
            rec_file = os.path.join(tmp, name[:-6] + ".umockdev")
            with open(rec_file, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(text)
            rec = parse_recording(text)
            # a path GLib would break into lines (a newline, NEL, U+2028, U+2029)
            # cannot stand in a recording: those devices are left out, and said so
            breaks = ("\n", "\u0085", "\u2028", "\u2029")
            with_sub = {p for p, n in oracle.items() if n["subsystem"] and
                        not any(b in p + (n["subsystem"] or "") + (n["devname"] or "")
                                for b in breaks)}
            C.check(name + ": the recording holds exactly the %d devices with a subsystem (and "
                    "a path umockdev can hold)" % len(with_sub),
                    set(rec) == with_sub, set(rec) ^ with_sub)
            C.check(name + ": no device lists its subsystem link or uevent file (umockdev makes them)",
                    not any("subsystem" in r["L"] or "uevent" in r["A"] for r in rec.values()))
            # as umockdev-record writes a device (checked on its own recording below): P: holds
            # the devpath, no E: DEVPATH line; one E: SUBSYSTEM line
            lines = text.split("\n")
            C.check(name + ": no E: DEVPATH line, one E: SUBSYSTEM line a device",
                    not any(ln.startswith("E: DEVPATH=") for ln in lines)
                    and sum(ln.startswith("E: SUBSYSTEM=") for ln in lines) == len(rec),
                    [ln for ln in lines if ln.startswith("E: DEVPATH=")][:3])
            # DRIVER as the uevent file says it, not from the driver link (udev computes that)
            def uevent_driver(p):
                try:
                    with open(os.path.join(d, p.lstrip("/"), "uevent"), "rb") as fh:
                        return any(ln.startswith(b"DRIVER=") for ln in fh.read().split(b"\n"))
                except OSError:
                    return False
            wrong = [p for p, r in rec.items() if ("DRIVER" in r["E"]) != uevent_driver(p)]
            C.check(name + ": an E: DRIVER line exactly where the uevent file holds DRIVER",
                    not wrong, wrong[:5])
            wrong = [p for p, r in rec.items() if p in oracle and (
                r["E"].get("SUBSYSTEM") != oracle[p]["subsystem"]
                or base(r["L"].get("driver")) != oracle[p]["driver"]
                or r["N"] != oracle[p]["devname"])]
            C.check(name + ": each device's SUBSYSTEM, driver link and node are the tree's", not wrong, wrong[:5])
            # one replay runs the three programs (a testbed takes seconds to build)
            outs = [os.path.join(tmp, x) for x in ("udev-list.out", "check.out", "json.out")]
            script = ('"$1" > "$3"; echo $? > "$3.rc"; "$2" --check-udev > "$4" 2>&1; echo $? > "$4.rc"; '
                      '"$2" --json --all > "$5"; echo $? > "$5.rc"')
            rc, _, err = T.run3(["umockdev-run", "-d", rec_file, "--", "sh", "-c", script, "sh",
                                 os.path.abspath(UDEV_LIST), os.path.abspath(TREE), *outs],
                                timeout=900, env=UMOCK_ENV)
            rcs = [open(o + ".rc").read().strip() if os.path.exists(o + ".rc") else "none" for o in outs]
            C.check(name + ": umockdev-run -d replays it", rc == 0 and rcs[0] == "0", (rc, rcs, err[-800:]))
            seen = parse_udev_list(open(outs[0]).read()) if rcs[0] == "0" else {}
            C.check(name + ": libudev in the testbed lists exactly the exported devices",
                    set(seen) == set(rec), set(seen) ^ set(rec))
            bad = []
            for p, r in rec.items():
                u = seen.get(p)
                if not u:
                    continue
                if u["S"] != r["E"]["SUBSYSTEM"]:
                    bad.append((p, "subsystem", u["S"], r["E"]["SUBSYSTEM"]))
                if u["R"] != base(r["L"].get("driver")):
                    bad.append((p, "driver", u["R"], base(r["L"].get("driver"))))
                if u["N"] != (r["N"] and "/dev/" + r["N"]):
                    bad.append((p, "devnode", u["N"], r["N"]))
                # libudev turns MAJOR and MINOR into the device number and keeps
                # them only when both are numbers (oddnum's MAJOR=ten is dropped)
                numbers = all(r["E"].get(k, "0").isdigit() for k in ("MAJOR", "MINOR"))
                for k, v in r["E"].items():
                    if k in ("MAJOR", "MINOR") and not numbers:
                        continue
                    if u["E"].get(k) != v:
                        bad.append((p, "property " + k, u["E"].get(k), v))
            C.check(name + ": libudev there shows each device's subsystem, driver, node and "
                    "properties", not bad, bad[:5])
            C.check(name + ": umockdev-run -d FILE -- sysdev-tree --check-udev agrees", rcs[1] == "0",
                    open(outs[1]).read()[-800:] if os.path.exists(outs[1]) else rcs)
            # class_dir is left out: a grouping directory below a device without a
            # subsystem, or of a name umockdev takes for a bus, does not survive (documented)
            fields = ("subsystem", "driver", "devnum", "devname", "devtype")
            if C.check(name + ": umockdev-run -d FILE -- sysdev-tree --json --all works", rcs[2] == "0", rcs):
                inside = {}

                def walk(n):
                    if n["kind"] == "device":
                        inside[n["path"]] = n
                    for c in n["children"]:
                        walk(c)
                for n in json.loads(open(outs[2]).read())["nodes"]:
                    walk(n)
                diff = [(p, f, inside.get(p, {}).get(f), oracle[p][f]) for p in rec for f in fields
                        if inside.get(p, {}).get(f) != oracle[p][f]]
                C.check(name + ": in the testbed sysdev-tree shows the fixture's fields", not diff, diff[:5])

            # round trip: import the export again
            back = os.path.join(tmp, name[:-6] + ".back")
            rc, _, err = T.run3([FIXTURE, "import", rec_file, back], timeout=300)
            C.check(name + ": import of the export exits 0", rc == 0, err)
            found, err = tree_devices(back)
            if C.check(name + ": the imported export walks", found is not None, err):
                diff = [(p, f, found.get(p, {}).get(f), oracle[p][f]) for p in rec for f in fields
                        if found.get(p, {}).get(f) != oracle[p][f]]
                C.check(name + ": export then import keeps each device's fields", not diff, diff[:5])
                same_attrs = []
                for p, r in list(rec.items())[:40]:
                    for a in r["A"]:
                        src = os.path.join(d, p.lstrip("/"), a)
                        dst = os.path.join(back, p.lstrip("/"), a)
                        if open(src, "rb").read() != open(dst, "rb").read():
                            same_attrs.append((p, a))
                C.check(name + ": attribute contents survive export and import", not same_attrs,
                        same_attrs[:5])
            shutil.rmtree(d, ignore_errors=True)
            shutil.rmtree(back, ignore_errors=True)

        # ---------- the recipe on a system root and a directory
        rc, out, err = T.run3(["umockdev-run", "-d", os.path.join(tmp, "article.umockdev"), "--", TREE], env=UMOCK_ENV, timeout=300)
        C.check("recipe: umockdev-run -d FILE -- sysdev-tree draws the tree",
                rc == 0 and out.startswith("/devices/") and "2-0045" in out, err)

        # ---------- a uevent file that names a DEVPATH and a SUBSYSTEM of its own: the
        # recording's P: line and subsystem link say them, as umockdev-record has it
        odd = os.path.join(tmp, "odd-uevent")
        t = T.Tree(odd)
        t.dirs("bus", "class")
        t.device("/devices/platform", power=False)
        t.device("/devices/platform/a", "bus:platform",
                 uevent="DEVPATH=/devices/elsewhere\nSUBSYSTEM=other\nMODALIAS=platform:a\n")
        rc, text, err = T.run3([FIXTURE, "export", "--umockdev", odd], timeout=300)
        C.check("odd uevent: P: /devices/platform/a, no E: DEVPATH, E: SUBSYSTEM=platform once",
                rc == 0 and text.split("\n")[:3] == ["P: /devices/platform/a", "E: MODALIAS=platform:a",
                                                     "E: SUBSYSTEM=platform"]
                and "DEVPATH" not in text and text.count("SUBSYSTEM") == 1, (rc, text, err))

        # ---------- udev's device ids name the database files an import writes: b/c
        # MAJOR:MINOR, n IFINDEX for an interface, +SUBSYSTEM:SYSNAME for the rest
        ids = os.path.join(tmp, "ids.umockdev")
        with open(ids, "w") as fh:
            fh.write("P: /devices/virtual/net/eth0\nE: INTERFACE=eth0\nE: IFINDEX=2\n"
                     "E: SUBSYSTEM=net\nE: TAGS=:systemd:\nE: USEC_INITIALIZED=123\n\n"
                     "P: /devices/virtual/tty/ttyX\nE: MAJOR=4\nE: MINOR=70\nE: DEVNAME=/dev/ttyX\n"
                     "E: SUBSYSTEM=tty\nE: TAGS=:seat:\n\n"
                     "P: /devices/platform/p\nE: SUBSYSTEM=platform\nE: TAGS=:x:\n")
        dest = os.path.join(tmp, "ids")
        rc, _, err = T.run3([FIXTURE, "import", ids, dest], timeout=300)
        made = sorted(os.path.relpath(os.path.join(dp, f), os.path.join(dest, "run/udev"))
                      for dp, _, fs in os.walk(os.path.join(dest, "run/udev")) for f in fs)
        C.check("import: the database files are named by udev's device ids",
                rc == 0 and made == ["data/+platform:p", "data/c4:70", "data/n2",
                                     "tags/seat/c4:70", "tags/systemd/n2", "tags/x/+platform:p"],
                (rc, made, err))
        rc, out, err = T.run3([TREE, "--root", dest, "--properties", "/devices/virtual/net/eth0"],
                              timeout=300)
        C.check("import: the interface's tags and initialization read back through n2",
                rc == 0 and "TAGS=:systemd:" in out.split("\n") and "USEC_INITIALIZED=123" in out.split("\n"),
                (rc, out, err))

        # ---------- import: this machine, recorded by umockdev-record --all
        host = os.path.join(tmp, "host.umockdev")
        with open(host, "w") as f:
            p = subprocess.run(["umockdev-record", "--all"], stdout=f, stderr=subprocess.PIPE)
        C.check("umockdev-record --all records this machine", p.returncode == 0 and os.path.getsize(host) > 0,
                p.stderr.decode(errors="replace")[-500:])
        hlines = open(host, encoding="utf-8", errors="surrogateescape").read().split("\n")
        C.check("umockdev-record writes no E: DEVPATH line, one E: SUBSYSTEM line a device "
                "(the rule the export follows)",
                not any(ln.startswith("E: DEVPATH=") for ln in hlines)
                and sum(ln.startswith("E: SUBSYSTEM=") for ln in hlines)
                == sum(ln.startswith("P: ") for ln in hlines))
        live, err = tree_devices("/sys")
        check_import("umockdev-record --all", host, tmp, live=live)

        # ---------- import: the recordings Debian's umockdev source ships
        recs, why = debian_recordings()
        C.check("Debian's umockdev source package ships recordings (apt-get source)", len(recs) >= 5,
                why or recs)
        for r in recs:
            check_import("debian:" + os.path.basename(r), r, tmp)

        # ---------- bad recordings: one line, exit 1, nothing left behind
        cases = [
            ("A: x=1\n", "no P: line first"),
            ("P: /etc/passwd\nE: SUBSYSTEM=x\n", "a devpath outside /devices"),
            ("P: /devices/a/../../etc\nE: SUBSYSTEM=x\n", "a devpath with .."),
            ("P: /devices/a\nE: SUBSYSTEM=x\nA: ../../etc/x=1\n", "an attribute name with .."),
            ("P: /devices/a\nA: x=1\n", "a device without SUBSYSTEM"),
            ("P: /devices/a\nE: SUBSYSTEM=x\nA: b=1\nA: b/c=2\n", "a name both file and directory"),
            ("P: /devices/a\nE: SUBSYSTEM=x\nH: b=1G\n", "H: that is not hex"),
            ("P: /devices/a\nE: SUBSYSTEM=x\nQ: b=1\n", "an unknown line type"),
            ("P: /devices/a\nE: SUBSYSTEM=x\nE: SUBSYSTEM=y\n", "SUBSYSTEM twice"),
            ("P: /devices/./a\nE: SUBSYSTEM=x\n", "a devpath with a . component"),
            ("P: /devices/a\nE: SUBSYSTEM=x\nA: ./b=1\n", "an attribute name with a . component"),
            ("P: /devices/a\nE: SUBSYSTEM=x\nA: driver/b=1\nL: driver=../../bus/x/drivers/d\n",
             "a driver link where a directory is"),
            ("P: /devices/a\nE: SUBSYSTEM=x\nA: subsystem/b=1\nL: subsystem=../../bus/x\n",
             "a subsystem link where a directory is"),
        ]
        for text, why in cases:
            f = os.path.join(tmp, "bad.umockdev")
            with open(f, "w") as fh:
                fh.write(text)
            dest = os.path.join(tmp, "bad-dest")
            rc, out, err = T.run3([FIXTURE, "import", f, dest], timeout=300)
            C.check("import refuses " + why + ": exit 1, one line",
                    rc == 1 and err.count("\n") == 1 and "bad.umockdev" in err, (rc, err))
            C.check("import refuses " + why + ": no directory left", not os.path.exists(dest))
        f = os.path.join(tmp, "abs.umockdev")
        with open(f, "w") as fh:
            fh.write("P: /devices/a\nE: SUBSYSTEM=x\nL: firmware_node=/etc\nL: of_node=../../../x\n"
                     "A: name=a\\nb\\101\n")
        dest = os.path.join(tmp, "abs")
        rc, out, err = T.run3([FIXTURE, "import", f, dest], timeout=300)
        C.check("links pointing outside the tree are left out, and said so",
                rc == 0 and "2 links" in err and not os.path.lexists(os.path.join(dest, "devices/a/of_node")),
                err)
        C.check("A: values are unescaped as umockdev does (\\n, octal)",
                rc == 0 and open(os.path.join(dest, "devices/a/name"), "rb").read() == b"a\nbA")
        rc, out, err = T.run3([FIXTURE, "import", f, dest], timeout=300)
        C.check("import into a directory that is not empty: exit 1", rc == 1 and "not empty" in err, err)
        check_kinds(tmp)
        for args in (["export", FIXTURES + "/article.sysfs"], ["export", "--umockdev"],
                     ["import", f], ["export", "--json", FIXTURES + "/article.sysfs"],
                     ["import", "--sanitize", f], ["import", f, "--full"],
                     ["export", "--umockdev", "--all"]):
            rc, out, err = T.run3([FIXTURE, *args], timeout=300)
            C.check("usage error: sysdev-fixture %s: exit 2" % " ".join(args[:2]), rc == 2 and out == "", (rc, err))
        rc, out, err = T.run3([FIXTURE, "export", "--umockdev", os.path.join(tmp, "nonexistent")], timeout=300)
        C.check("export of a root that is not there: exit 1, one line", rc == 1 and err.count("\n") == 1, err)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    C.finish()


if __name__ == "__main__":
    main()
