#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""umockdev recordings from and of hostile trees (issue 18 items 3 and 8, issue 19 item 9).

Export: a tree planted with a device node name that climbs out of /dev
(`DEVNAME=../../...` to a file of the test), an absolute one, one with `=`, link targets
that are absolute or climb out of the tree, and names, a property value
and a link target that are not valid UTF-8.  `export --umockdev` must leave
each out and count it (the counts are written here by hand), write valid
UTF-8 only, and the recording must replay with the real `umockdev-run`:
the test's file outside the testbed is untouched, libudev in the testbed
lists exactly the devices written here, and a value that is not UTF-8
survives (escaped, not left out).

Export of attribute groups nested 64 deep (written) and 65 (bounded).

Import: the recording of four devices 4,000 components deep (240 KB, like
the 245 KB one of the report that took 2.3 GB when every prefix of every
path was copied).  The work is counted, not timed: the peak memory of the
import (from wait4, by hostile-rusage), and its mkdir calls (strace),
exactly one per directory of the tree, counted here from the recording;
the tree on disk is walked from the top, one component at a time, and
checked against the recording.

Usage: test_umockdev_hostile.py SYSDEV_FIXTURE UDEV_LIST RUSAGE
"""
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "bench"))
from common import C  # noqa: E402
import sysdevtest as T  # noqa: E402  (common.py puts tests/lib on the path)
from gen_umockdev import chain, deep_recording  # noqa: E402

FIXTURE, UDEV_LIST, RUSAGE = (os.path.abspath(a) for a in sys.argv[1:4])
UMOCK_ENV = dict(os.environ, ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") +
                                           ":verify_asan_link_order=0:detect_leaks=0").lstrip(":"))
# the import of the deep recording must stay far below the 2.3 GB it took:
# a few MB of nodes for 245 KB of input, and the program itself
IMPORT_PEAK_KIB = 64 * 1024


def parse_recording(text):
    """[(devpath, [(type, rest)])] in order."""
    devs, cur = [], None
    for line in text.split("\n"):
        if not line:
            cur = None
        elif line.startswith("P: "):
            cur = (line[3:], [])
            devs.append(cur)
        elif cur is not None:
            cur[1].append((line[0], line[3:]))
    return devs


def outside_tree(root, victim):
    """Item 3: node names and link targets that point out of the testbed."""
    t = T.Tree(root)
    t.buses("platform")
    t.classes("misc", "block")
    # kept: a device with a node and a driver
    t.device("/devices/platform/good", "bus:platform", "gooddrv",
             "DRIVER=gooddrv\nMAJOR=10\nMINOR=1\nDEVNAME=good\n")
    t.file("devices/platform/good/dev", "10:1\n")
    t.link("devices/platform/good/firmware_node", "/sys/firmware")          # absolute
    t.link("devices/platform/good/escape", "../../../../../../../../tmp")   # climbs out
    t.link("devices/platform/good/power/escape", "../../../../../x")        # climbs out of a group
    # kept: a node name with a directory, as USB's bus/usb/001/002
    t.device("/devices/virtual/misc/nested", "class:misc", None,
             "MAJOR=10\nMINOR=2\nDEVNAME=bus/usb/001/002\n")
    t.file("devices/virtual/misc/nested/dev", "10:2\n")
    # left out: node names outside the testbed's /dev
    # (a block device: umockdev-run makes its node a file, truncated and chmod'ed)
    t.device("/devices/virtual/block/climb", "class:block", None,
             "MAJOR=7\nMINOR=9\nDEVNAME=" + "../" * 16 + victim.lstrip("/") + "\n")
    t.file("devices/virtual/block/climb/dev", "7:9\n")
    t.device("/devices/virtual/misc/rooted", "class:misc", None,
             "MAJOR=10\nMINOR=4\nDEVNAME=" + victim + "\n")
    t.file("devices/virtual/misc/rooted/dev", "10:4\n")
    # left out: a node name with '=' (umockdev reads what follows as the node's contents)
    t.device("/devices/virtual/misc/equals", "class:misc", None,
             "MAJOR=10\nMINOR=6\nDEVNAME=x=4142\n")
    t.file("devices/virtual/misc/equals/dev", "10:6\n")


def not_utf8_tree(root):
    """Issue 19 item 9: names, a value and a target that are not valid UTF-8."""
    t = T.Tree(root)
    t.buses("platform")
    t.classes("misc")
    t.device("/devices/platform/good", "bus:platform", "gooddrv",
             b"DRIVER=gooddrv\nMAJOR=10\nMINOR=1\nDEVNAME=good\nBADVAL=\xff\xfe\n")
    t.file("devices/platform/good/dev", "10:1\n")
    t.file("devices/platform/good/binval", b"\xff\n")           # a value: kept, escaped
    t.file(b"devices/platform/good/attr\xfe", "1\n")            # a name
    t.link(b"devices/platform/good/badlink", b"../\xff")         # a link target
    t.device("/devices/virtual/misc/nested", "class:misc", None,
             "MAJOR=10\nMINOR=2\nDEVNAME=bus/usb/001/002\n")
    t.file("devices/virtual/misc/nested/dev", "10:2\n")
    t.device(b"/devices/virtual/misc/bad\xff", None, None, "MAJOR=10\nMINOR=5\n",   # a devpath
             subsystem_link="../../../../class/misc")
    t.link(b"class/misc/bad\xff", b"../../devices/virtual/misc/bad\xff")


KEPT = ["/devices/platform/good", "/devices/virtual/misc/nested"]


def export(label, root):
    """export --umockdev: (recording bytes, its text, its devices, stderr) or None."""
    p = T.run([FIXTURE, "export", "--umockdev", root], timeout=300)
    err = p.stderr.decode("utf-8", "replace")
    if not C.check(label + ": export --umockdev exits 0", p.returncode == 0, err):
        return None
    try:
        text, utf8 = p.stdout.decode("utf-8"), True
    except UnicodeDecodeError as e:
        text, utf8 = p.stdout.decode("utf-8", "surrogateescape"), str(e)
    C.check(label + ": the recording is valid UTF-8 (umockdev-run refuses a file with one bad byte)",
            utf8 is True, utf8)
    devs = parse_recording(text)
    C.check(label + ": the recording holds exactly the two devices whose names umockdev can hold",
            [d for d, _ in devs] == KEPT, [d for d, _ in devs])
    return p.stdout, devs, err


def replay(label, tmp, recording):
    """umockdev-run -d: (exit status, devpaths libudev lists, binval's bytes)."""
    rec = os.path.join(tmp, label + ".umockdev")
    with open(rec, "wb") as f:
        f.write(recording)
    outs = [os.path.join(tmp, label + x) for x in (".udev-list", ".binval")]
    script = '"$1" > "$2"; cat /sys/devices/platform/good/binval > "$3" 2>/dev/null; exit 0'
    rc, _, err = T.run3(["umockdev-run", "-d", rec, "--", "sh", "-c", script, "sh", UDEV_LIST,
                         *outs], timeout=300, env=UMOCK_ENV)
    C.check(label + ": umockdev-run -d replays the recording", rc == 0, err[-800:])
    seen = []
    if os.path.exists(outs[0]):
        seen = sorted(line[2:].rstrip("\n") for line in
                      open(outs[0], encoding="utf-8", errors="replace") if line.startswith("D "))
    C.check(label + ": libudev in the testbed lists exactly the two exported devices",
            seen == KEPT, seen)
    return open(outs[1], "rb").read() if os.path.exists(outs[1]) else None


def check_outside(tmp):
    victim = os.path.join(tmp, "victim")
    with open(victim, "w") as f:
        f.write("precious\n")
    os.chmod(victim, 0o600)
    root = os.path.join(tmp, "outside")
    outside_tree(root, victim)
    got = export("outside", root)
    if got is None:
        return
    recording, devs, err = got
    names = [rest for _, lines in devs for t, rest in lines if t == "N"]
    C.check("outside: N: lines: the two names, none absolute or with a .. component",
            names == ["good", "bus/usb/001/002"], names)
    links = {rest.split("=", 1)[0]: rest.split("=", 1)[1]
             for d, lines in devs if d == KEPT[0] for t, rest in lines if t == "L"}
    C.check("outside: L: lines of the good device: only the driver link (absolute and "
            "climbing targets left out)",
            links == {"driver": "../../../bus/platform/drivers/gooddrv"}, links)
    m = re.search(r"(\d+) names or values umockdev cannot hold.*?(\d+) links that point outside", err)
    # by hand: the three node names; firmware_node, escape, power/escape
    C.check("outside: stderr counts the 3 node names and the 3 links left out",
            m is not None and (m.group(1), m.group(2)) == ("3", "3"), err)
    replay("outside", tmp, recording)
    st = os.lstat(victim)
    C.check("outside: the file a node name pointed at, outside the testbed, is untouched",
            open(victim).read() == "precious\n" and stat.S_IMODE(st.st_mode) == 0o600,
            (open(victim).read(), oct(st.st_mode)))


def check_not_utf8(tmp):
    root = os.path.join(tmp, "not-utf8")
    not_utf8_tree(root)
    got = export("not-utf8", root)
    if got is None:
        return
    recording, devs, err = got
    props = [rest for d, lines in devs if d == KEPT[0] for t, rest in lines if t == "E"]
    C.check("not-utf8: the property value that is not UTF-8 is left out, the others kept",
            not any(p.startswith("BADVAL") for p in props) and "DRIVER=gooddrv" in props, props)
    keys = sorted(rest.split("=", 1)[0] for d, lines in devs if d == KEPT[0]
                  for t, rest in lines if t in "AHL")
    C.check("not-utf8: the attribute name and the link target that are not UTF-8 are left out",
            keys == ["binval", "dev", "driver", "power/runtime_status"], keys)
    m = re.search(r"(\d+) names or values umockdev cannot hold", err)
    # by hand: the devpath bad\xff, the attribute attr\xfe, BADVAL, badlink
    C.check("not-utf8: stderr counts the 4 names or values left out",
            m is not None and m.group(1) == "4", err)
    binval = replay("not-utf8", tmp, recording)
    C.check("not-utf8: a value that is not UTF-8 survives the replay (escaped, not left out)",
            binval == b"\xff\n", binval)


def walk_chain(top, devpath):
    """Open devpath below top one component at a time (never a long path); its fd or None."""
    try:
        fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return None
    for comp in devpath.strip("/").split("/"):
        try:
            nfd = os.open(comp, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
        except OSError:
            nfd = None
        os.close(fd)
        if nfd is None:
            return None
        fd = nfd
    return fd


def read_at(fd, name):
    f = os.open(name, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=fd)
    try:
        return os.read(f, 4096)
    finally:
        os.close(f)


def check_import_work(tmp):
    text = deep_recording(4, 4000)
    rec = os.path.join(tmp, "deep.umockdev")
    with open(rec, "w") as f:
        f.write(text)
    place = "/dev/shm" if os.access("/dev/shm", os.W_OK) else tmp
    work = tempfile.mkdtemp(prefix="sysdev-umock-deep.", dir=place)
    try:
        dest = os.path.join(work, "tree")
        stats = os.path.join(work, "rusage")
        rc, _, err = T.run3([RUSAGE, stats, FIXTURE, "import", rec, dest], timeout=900)
        status, peak = (int(x) for x in open(stats).read().split())
        C.check("import of the 240 KB recording of four 4,000-deep paths exits 0",
                rc == 0 and status == 0, (rc, status, err[-800:]))
        C.check("its peak memory stays below %d MiB (it was 2.3 GB)" % (IMPORT_PEAK_KIB // 1024),
                peak < IMPORT_PEAK_KIB, "%d KiB" % peak)
        # the subsystem link and the class entry of each device hold targets longer than a
        # symbolic link can (4,000 components): 8 links left out, and said so
        C.check("stderr says the 8 links longer than a symbolic link takes are left out",
                re.search(r"\b8 links left out", err) is not None, err)
        # by hand: devices, class, bus, and each chain's 4,000 directories (class/deep
        # would hold only the class entries, left out)
        want_dirs = 3 + 4 * 4000
        if C.check("strace is there to count the system calls (.ci/run installs it)",
                   shutil.which("strace") is not None):
            trace = os.path.join(work, "strace")
            # LeakSanitizer cannot run under ptrace (a sanitizer build): no leak check here
            env = dict(os.environ)
            env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
            rc, _, err = T.run3(["strace", "-f", "-qq", "-e", "trace=mkdirat,mkdir", "-o", trace,
                                 FIXTURE, "import", rec, os.path.join(work, "traced")],
                                timeout=900, env=env)
            calls = [line for line in open(trace) if re.match(r"(\d+ +)?mkdir(at)?\(", line)]
            C.check("each directory is made once: %d mkdir calls (the destination and %d "
                    "directories)" % (want_dirs + 1, want_dirs),
                    rc == 0 and len(calls) == want_dirs + 1, (rc, len(calls), err[-300:]))
        bad = []
        for k in range(4):
            fd = walk_chain(dest, chain(k, 4000))
            if fd is None:
                bad.append((k, "chain missing"))
                continue
            try:
                # SUBSYSTEM is the subsystem link's, never a line of the uevent file
                if read_at(fd, "uevent") != b"" or read_at(fd, "name") != b"deep%d" % k:
                    bad.append((k, read_at(fd, "uevent"), read_at(fd, "name")))
            finally:
                os.close(fd)
        C.check("each 4,000-deep device is laid out with its uevent and attribute", not bad, bad)
    finally:
        # rm, not shutil.rmtree: Python's recursion stops at 1,000 levels
        subprocess.run(["rm", "-rf", "--", work])


def check_deep_groups(tmp):
    """Attribute groups nested 64 deep are written, one more level is not: a
    bound on the recursion that a hostile tree cannot push (sysdev-fixture(1))."""
    root = os.path.join(tmp, "deep-groups")
    t = T.Tree(root)
    t.buses("platform")
    t.device("/devices/platform/dg", "bus:platform", None, "")
    kept, cut = "/".join(["g"] * 64), "/".join(["h"] * 65)
    t.file("devices/platform/dg/%s/deep" % kept, "64\n")
    t.file("devices/platform/dg/%s/deeper" % cut, "65\n")
    p = T.run([FIXTURE, "export", "--umockdev", root], timeout=300)
    devs = parse_recording(p.stdout.decode("utf-8", "replace"))
    attrs = [rest for _, lines in devs for kind, rest in lines if kind == "A"]
    C.check("deep groups: export exits 0", p.returncode == 0, p.stderr)
    C.check("deep groups: a file in the 64th nested group is written",
            "%s/deep=64\\n" % kept in attrs, attrs)
    C.check("deep groups: nothing below the 65th", not any("deeper" in a for a in attrs), attrs)


def check_conflict_line(tmp):
    """A path that one line makes a directory and another a file: the import
    stops and names the later of the two lines.  Here the directory x/uevent
    comes first (line 1, below x/uevent/z), the device x (line 4) then has
    a file there, and line 6 uses the directory again: line 6 is named."""
    rec = os.path.join(tmp, "conflict.umockdev")
    with open(rec, "w") as f:
        f.write("P: /devices/x/uevent/z\nE: SUBSYSTEM=foo\n\n"
                "P: /devices/x\nE: SUBSYSTEM=foo\nA: uevent/q=1\n\n")
    p = T.run([FIXTURE, "import", rec, os.path.join(tmp, "conflict")], timeout=60)
    err = p.stderr.decode("utf-8", "replace")
    C.check("conflict: import exits 1 naming line 6, the later use of the path",
            p.returncode == 1 and "conflict.umockdev:6: " in err
            and "both a file and a directory" in err, err)
    C.check("conflict: nothing is left where the tree was to be",
            not os.path.exists(os.path.join(tmp, "conflict")))


def check_link_targets(tmp):
    """import keeps a recorded link only when its target is a plain relative path
    inside the tree: an empty component, a "." component, a name longer than 255
    bytes and a ".." after a name are left out and counted with the climbing ones."""
    rec = os.path.join(tmp, "links.umockdev")
    with open(rec, "w") as f:
        f.write("P: /devices/platform/x\nE: SUBSYSTEM=platform\n"
                "L: subsystem=../../../bus/platform\n"
                "L: empty=../../bus//platform\nL: dot=./x\nL: long=../../%s\n"
                "L: late=../../bus/../platform\nL: up=../../../../../etc\n"
                "L: driver=../../../bus/platform/drivers/x\n\n" % ("z" * 256))
    dest = os.path.join(tmp, "links")
    p = T.run([FIXTURE, "import", rec, dest], timeout=60)
    err = p.stderr.decode("utf-8", "replace")
    d = os.path.join(dest, "devices/platform/x")
    made = sorted(n for n in os.listdir(d) if os.path.islink(os.path.join(d, n))) \
        if os.path.isdir(d) else None
    C.check("link targets: import exits 0 and lays out only subsystem and driver",
            p.returncode == 0 and made == ["driver", "subsystem"], (p.returncode, made, err))
    C.check("link targets: stderr counts the 5 left out",
            err == "sysdev-fixture: %s: 5 links that point outside the tree left out\n" % rec,
            err)


# kernel buses (bus_register() in drivers/: drm_mipi_dsi.c, i2c-core-base.c, spi.c,
# usb/core/driver.c, pci-driver.c, platform.c, serio.c, hid-core.c, scsi_sysfs.c,
# virtio.c, mdio_bus.c, mmc/core/bus.c and sdio_bus.c) and classes (class_register())
BUSES = ["mipi-dsi", "i2c", "spi", "usb", "pci", "platform", "serio", "hid", "scsi", "virtio",
         "mdio_bus", "mmc", "sdio"]
CLASSES = ["leds", "net", "block", "input", "tty", "drm"]


def check_subsystem_kind(tmp):
    """A recorded device without a subsystem link: import makes the link into
    bus/ for a kernel bus and into class/ for anything else."""
    rec = os.path.join(tmp, "kinds.umockdev")
    with open(rec, "w") as f:
        for name in BUSES + CLASSES:
            f.write("P: /devices/virtual/k/%s-dev\nE: SUBSYSTEM=%s\n\n" % (name, name))
    dest = os.path.join(tmp, "kinds")
    p = T.run([FIXTURE, "import", rec, dest], timeout=60)
    C.check("subsystem kinds: import exits 0", p.returncode == 0, p.stderr)
    bad = []
    for name in BUSES + CLASSES:
        link = os.path.join(dest, "devices/virtual/k/%s-dev/subsystem" % name)
        want = os.path.join(dest, ("bus/%s" if name in BUSES else "class/%s") % name)
        got = os.path.realpath(link) if os.path.islink(link) else None
        if got != os.path.realpath(want):
            bad.append((name, got))
    C.check("subsystem kinds: the %d buses link into bus/, the %d classes into class/"
            % (len(BUSES), len(CLASSES)), not bad, bad)


def main():
    tmp = tempfile.mkdtemp(prefix="sysdev-umock-hostile.")
    try:
        check_conflict_line(tmp)
        check_link_targets(tmp)
        check_subsystem_kind(tmp)
        check_deep_groups(tmp)
        check_outside(tmp)
        check_not_utf8(tmp)
        check_import_work(tmp)
    finally:
        subprocess.run(["rm", "-rf", "--", tmp])
    C.finish()


if __name__ == "__main__":
    main()
