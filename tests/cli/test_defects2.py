#!/usr/bin/env python3
"""More defects a new user met (issue 19: output paths and option parsing),
one group of checks per report, each against an expectation written here
(the fixture's files read in Python, getopt's and lsblk's conventions), never
against the tool's own earlier output.

usage: test_defects2.py SYSDEV_TREE SYSDEV_FIXTURE SOURCE_ROOT
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import sysdevtest as T  # noqa: E402

TOOL = os.path.abspath(sys.argv[1])
FIXTURE = os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
FIXTURES = os.path.join(SRC, "fixtures")
ARTICLE = os.path.join(FIXTURES, "article.sysfs")
CLIENT = "/devices/platform/omap_i2c.2/i2c-2/2-0045"
C = T.Checker()


def run(*args, tool=None, env=None, **kw):
    return T.run([tool or TOOL, *args], env=env or T.environ(NO_COLOR="1", LC_ALL="C.UTF-8"),
                 **kw)


def run_to(stdout, *args, tool=None):
    """Run with stdout on an open file; (exit status, stderr as text)."""
    p = subprocess.run([tool or TOOL, *args], stdout=stdout, stderr=subprocess.PIPE, timeout=120,
                       env=T.environ(NO_COLOR="1"))
    return p.returncode, p.stderr.decode("utf-8", "surrogateescape")


# 1 -------------------------------------------------------------------------
def big_tree(root, n=500):
    """A tree whose every listing is larger than stdio's buffer (64 KiB):
    a write fails in the middle of the output, not only at the last flush."""
    t = T.Tree(root)
    t.classes("leds")
    t.dirs("bus/platform")
    t.device("/devices/platform")
    for i in range(n):
        name = "a-platform-device-with-a-long-name-so-that-the-output-is-large-" \
               "and-larger-than-the-buffer-of-stdio.%04d" % i
        d = t.device("/devices/platform/" + name, "bus:platform", "big-driver",
                     "DRIVER=big-driver\nMODALIAS=platform:big\n")
        t.file(d + "/modalias", "platform:big\n")
    t.file(d + "/power/pm_qos_latency_tolerance_us", "auto\n")
    t.device(d + "/leds/big:green", "class:leds")
    return "/" + d


def write_errors(tmp):
    """Every mode that prints, into /dev/full: one line naming the error, exit 1
    (2 for --diff, whose 1 means "different"), as lsblk > /dev/full; into a
    pipe whose reader has gone: nothing said, exit 0."""
    unpacked = os.path.join(tmp, "big")
    CLIENT = big_tree(unpacked)
    archive = os.path.join(tmp, "big.sysfs")
    with open(archive, "wb") as f:
        r = subprocess.run([FIXTURE, "pack", unpacked], stdout=f, stderr=subprocess.PIPE)
    if not C.check("the big tree packs", r.returncode == 0, r.stderr):
        return
    big = run("--root", unpacked, "-r").stdout
    C.check("the big tree's -r is larger than 64 KiB", len(big) > 65536, len(big))
    R = ["--root", unpacked]
    modes = [
        [], ["-a"], ["-A"], ["-p"], ["-i", "-o", "+MODULE"], ["-J"], ["--json", "--all"],
        ["-J", "-A", "-p"], ["-l"], ["-r"], ["-P"], ["-J", "-l"], ["-s", "leds"], ["-l", "-n"],
        ["--list-columns"], ["--list-columns", "-J"],
        ["--parents", CLIENT], ["--parents", "-J", CLIENT], ["--parents", "-A", CLIENT],
        ["--explain", CLIENT], ["-J", "-E", CLIENT],
        ["--properties", CLIENT], ["--properties", "--export", CLIENT],
        ["--properties", "-J", CLIENT],
        ["-S"], ["-S", "-J"], ["-S", "--format=openmetrics"],
        ["--get-latency-tolerance", CLIENT], ["--get-latency-tolerance", "-J", CLIENT],
        ["--check-udev"], ["--check-udev", "-J"],
        ["--help"], ["--version"],
    ]
    cases = [(R + m, 1) for m in modes]
    # the same tree as an archive root, written by a worker under a guard process
    cases += [(["--root", archive] + m, 1) for m in ([], ["-J", "-a"], ["-r"])]
    for f in ([], ["-J"], ["--format=jsonl"], ["-A"]):
        cases.append((["--diff"] + f + [ARTICLE, unpacked], 2))
    with open("/dev/full", "w") as full:
        for args, want in cases:
            rc, err = run_to(full, *args)
            name = " ".join(a.replace(SRC + "/", "").replace(tmp, "TMP") for a in args)
            C.check("%s > /dev/full: exit %d and one line naming the error" % (name, want),
                    rc == want and err.count("\n") == 1 and "write error" in err
                    and "No space left on device" in err, "exit %d, stderr %r" % (rc, err))
    fx = [["--help"], ["--version"], ["pack", unpacked], ["export", "--umockdev", unpacked]]
    with open("/dev/full", "w") as full:
        for args in fx:
            rc, err = run_to(full, *args, tool=FIXTURE)
            name = "sysdev-fixture " + " ".join(a.replace(SRC + "/", "").replace(tmp, "TMP")
                                                for a in args)
            lines = [l for l in err.splitlines() if "No space left on device" in l]
            C.check("%s > /dev/full: exit 1 and a line naming the error" % name,
                    rc == 1 and len(lines) == 1, "exit %d, stderr %r" % (rc, err))
    # a reader that has gone is no error: exit 0, nothing said (as lsblk | head)
    for args in (R + ["-J", "-a"], R + ["-A"], R + ["-l"], R + ["--parents", "-J", CLIENT]):
        rd, wr = os.pipe()
        os.close(rd)
        with os.fdopen(wr, "w") as pipe:
            rc, err = run_to(pipe, *args)
        C.check("%s into a closed pipe: exit 0, nothing said" % " ".join(args[2:]).replace(tmp, "TMP"),
                rc == 0 and err == "", "exit %d, stderr %r" % (rc, err))


# 17 ------------------------------------------------------------------------
def format_without_mode():
    """--format=json with no mode is the tree's --json (decided: as --json is
    in every mode that has it); no message ever names "(null)"."""
    R = ["--root", ARTICLE]
    def doc(r):
        d = json.loads(r.stdout)
        d.pop("sysfs")  # the archive's private unpacking, a new one each run
        return d
    want = run(*R, "--json")
    got = run(*R, "--format=json")
    C.check("--format=json is the tree's --json",
            got.returncode == 0 and got.stdout.startswith(b"{") and doc(got) == doc(want),
            got.stderr)
    got = run(*R, "--format=text")
    C.check("--format=text is the plain tree",
            got.returncode == 0 and got.stdout == run(*R).stdout, got.stderr)
    want = run(*R, "-l", "--json")
    got = run(*R, "-l", "--format=json")
    C.check("-l --format=json is -l --json", got.returncode == 0 and got.stdout == want.stdout,
            got.stderr)
    for args, names in ((["--format=jsonl"], "the tree"), (["--format=openmetrics"], "the tree"),
                        (["--capture", "/nonexistent/x", "--format=json"], "--capture"),
                        (["--parents", CLIENT, "--format=yaml"], "--parents")):
        r = run(*R, *args)
        err = r.stderr.decode()
        C.check("%s: exit 2, one line naming %s, never (null)" % (" ".join(args), names),
                r.returncode == 2 and "(null)" not in err and names in err.splitlines()[0]
                and r.stdout == b"", "exit %d, %r" % (r.returncode, err))


# 20 ------------------------------------------------------------------------
def ambiguous_options():
    """A prefix of two options is ambiguous (getopt's words), a prefix of one
    is that option, an unknown one stays unknown."""
    for arg, want in (("--ex", ["--explain", "--export"]), ("--exp=x", ["--explain", "--export"]),
                      ("--pa", ["--pairs", "--parents"])):
        r = run(arg)
        err = r.stderr.decode()
        first = err.splitlines()[0] if err else ""
        head = "sysdev-tree: option '%s' is ambiguous; possibilities:" % arg.split("=")[0]
        C.check("%s: ambiguous, naming %s, exit 2" % (arg, " ".join(want)),
                r.returncode == 2 and first.startswith(head)
                and sorted(first[len(head):].split()) == sorted("'%s'" % w for w in want),
                "exit %d, %r" % (r.returncode, err))
    r = run("--root", ARTICLE, "--expl", CLIENT)
    C.check("--expl is --explain", r.returncode == 0
            and r.stdout == run("--root", ARTICLE, "--explain", CLIENT).stdout, r.stderr)
    r = run("--root", ARTICLE, "--col=never")
    C.check("--col (--color and --colour, one option) is not ambiguous", r.returncode == 0,
            r.stderr)
    r = run("--bogus")
    C.check("--bogus is unknown", r.returncode == 2 and b"unknown option" in r.stderr,
            r.stderr)
    # an unknown letter in a bundle is named alone, as getopt names it
    r = run("-lZ")
    C.check("-lZ: the unknown option is -Z", r.returncode == 2 and r.stderr.decode().startswith(
        "sysdev-tree: -Z: unknown option"), r.stderr)


def capture_dir_cannot_be_made(tmp):
    """--capture into a directory whose parent is not there: one line, exit 1."""
    where = os.path.join(tmp, "no-such-parent", "cap")
    r = run("--root", ARTICLE, "--capture", where)
    C.check("--capture DIR without its parent: exit 1, 'cannot create the directory' and ENOENT",
            r.returncode == 1 and r.stderr.decode().splitlines() ==
            ["sysdev-tree: %s: cannot create the directory: no such file or directory (ENOENT)"
             % where], r.stderr)


def start_is_a_file(tmp):
    """A START that is a file says so, and where a directory was expected."""
    root = os.path.join(tmp, "start-file")
    r = subprocess.run([FIXTURE, "unpack", ARTICLE, root], capture_output=True)
    C.check("the article unpacks", r.returncode == 0, r.stderr)
    start = CLIENT + "/uevent"
    r = run("--root", root, start)
    C.check("START a file: exit 1 and one line naming it and the root's devices/",
            r.returncode == 1 and r.stderr.decode().splitlines() ==
            ["sysdev-tree: %s: a file, not a directory: expected a directory under "
             "%s/devices (ENOTDIR)" % (start, root)], r.stderr)


def refused_as_spelled():
    """An option the mode does not take is refused under the name it was
    given: several options share one flag inside (the four --*-nomatch,
    --initialized-match and -nomatch, -o and -O), and a message that named
    another would send the user looking for an option they never typed."""
    for given, named in ((["--subsystem-nomatch", "block"], "--subsystem-nomatch"),
                         (["--driver-nomatch", "x"], "--driver-nomatch"),
                         (["--sysname-nomatch", "x"], "--sysname-nomatch"),
                         (["--nomatch", "A=B"], "--nomatch"),
                         (["--initialized-nomatch"], "--initialized-nomatch"),
                         (["--initialized-match"], "--initialized-match"),
                         (["-s", "block"], "-s"), (["--subsystem=block"], "--subsystem"),
                         (["-O"], "-O"), (["--output-all"], "--output-all"),
                         (["-o", "DEVPATH"], "-o"), (["-x", "DEVPATH"], "-x"),
                         (["--export"], "--export"), (["--value"], "--value"),
                         (["--property", "X"], "--property"), (["--unlinked"], "--unlinked"),
                         (["--all", "--attrs"], "--all")):
        r = run("--list-columns", *given)
        err = r.stderr.decode()
        first = err.splitlines()[0] if err else ""
        C.check("--list-columns %s: refused as %s" % (" ".join(given), named),
                r.returncode == 2 and first == "sysdev-tree: %s: cannot be used with "
                "--list-columns" % named, "exit %d, %r" % (r.returncode, err))


# 23 ------------------------------------------------------------------------
def grammar(tmp):
    """One of a thing is singular, a kind that begins with a vowel takes "an":
    a tree laid out here with exactly one of each thing counted."""
    root = os.path.join(tmp, "one")
    t = T.Tree(root)
    t.classes("leds")
    t.dirs("bus/platform")
    t.device("/devices/platform")
    t.device("/devices/platform/one", "bus:platform")
    t.group("devices/platform/one/stats", {"reads": "1\n"})
    r = run("--root", root, "--parents", "/devices/platform/one/stats")
    err = r.stderr.decode()
    C.check("an attr-group, not 'a attr-group'",
            r.returncode == 1 and "is an attr-group, not a device" in err, err)
    p = subprocess.run([FIXTURE, "export", "--umockdev", root], capture_output=True)
    err = p.stderr.decode()
    C.check("export: 'exported 1 device; left out 1 device without a subsystem'",
            p.returncode == 0 and "exported 1 device; left out 1 device without a subsystem, "
            "0 names or values" in err and "0 unreadable files" in err, err)
    cap = os.path.join(tmp, "one-capture")
    root2 = os.path.join(tmp, "one-link")
    t = T.Tree(root2)
    t.dirs("bus/platform/drivers/drv")
    t.device("/devices/platform")
    t.device("/devices/platform/two", driver_link="../../../bus/platform/drivers/drv")
    r = run("--root", root2, "--capture", cap, "/devices/platform/two")
    err = r.stderr.decode()
    # the walk's own files and links: counted here from what was written
    links = sum(1 for d, ds, fs in os.walk(cap) for n in ds + fs
                if os.path.islink(os.path.join(d, n)))
    C.check("capture: one link is '1 link'", r.returncode == 0 and links == 1
            and ", 1 link, " in err, "links on disk %d, %r" % (links, err))
    r = run("--root", root, "--check-udev")
    out = r.stdout.decode()
    if r.returncode == 2:
        C.skip("check-udev: '1 device', '1 entry'", "--check-udev cannot run here: %r"
               % r.stderr.decode())
    else:
        C.check("check-udev: 'libudev lists 1 device', '1 entry', '--all lists it'",
                "libudev lists 1 device," in out and "libudev: 1 device;" in out
                and "S/class: 1 entry\n" in out and "1 device (no subsystem link" in out
                and "; --all lists it\n" in out, out + r.stderr.decode())


# 11 ------------------------------------------------------------------------
def diff_all(tmp):
    """--diff --all shows the moves a moved parent carried, as the man page
    says; without it they are counted on the parent's line."""
    roots = []
    for host in ("bus.0", "bus.1"):
        root = os.path.join(tmp, "diff-" + host)
        t = T.Tree(root)
        t.dirs("bus/scsi")
        t.device("/devices/platform")
        t.device("/devices/platform/" + host)
        t.device("/devices/platform/%s/ctrl" % host, "bus:scsi", None, "MODALIAS=scsi:ctrl\n")
        t.device("/devices/platform/%s/ctrl/disk" % host, "bus:scsi", None,
                 "MODALIAS=scsi:disk\n")
        roots.append(root)
    parent = "> /devices/platform/bus.0/ctrl -> /devices/platform/bus.1/ctrl"
    child = ("> /devices/platform/bus.0/ctrl/disk -> /devices/platform/bus.1/ctrl/disk "
             "(with /devices/platform/bus.0/ctrl)")
    r = run("--diff", *roots)
    out = r.stdout.decode()
    C.check("--diff: the carried move is counted on its parent's line",
            r.returncode == 1 and parent + " (and 1 device below)" in out.splitlines()
            and "ctrl/disk ->" not in out, out + r.stderr.decode())
    for args in (["--diff", "--all"], ["--all", "--diff"], ["--diff", "-a"]):
        r = run(*args, *roots)
        out = r.stdout.decode()
        C.check("%s: the carried move has its own line" % " ".join(args),
                r.returncode == 1 and child in out.splitlines()
                and parent + " (and 1 device below)" in out.splitlines(),
                "exit %d\n%s%s" % (r.returncode, out, r.stderr.decode()))


# 12 ------------------------------------------------------------------------
def parents_module(tmp):
    """--parents shows each parent's module (the driver's module link), as the
    first EXAMPLE promises: text and JSON; none for a built-in driver."""
    root = os.path.join(tmp, "modules")
    t = T.Tree(root)
    t.classes("block")
    t.dirs("bus/pci", "bus/virtio", "module/virtio_pci")
    t.device("/devices/pci0000:00")
    t.device("/devices/pci0000:00/0000:00:02.0", "bus:pci", "virtio-pci")
    t.link("bus/pci/drivers/virtio-pci/module", "../../../../module/virtio_pci")
    t.device("/devices/pci0000:00/0000:00:02.0/virtio1", "bus:virtio", "virtio_blk")  # built in
    disk = "/devices/pci0000:00/0000:00:02.0/virtio1/block/vda"
    t.device(disk, "class:block", None, "DEVNAME=vda\nMAJOR=254\nMINOR=0\n")
    want = {disk: None, "/devices/pci0000:00/0000:00:02.0/virtio1": None,
            "/devices/pci0000:00/0000:00:02.0": "virtio_pci", "/devices/pci0000:00": None}
    r = run("--root", root, "--parents", disk)
    lines = r.stdout.decode().splitlines()
    got = {}
    for i, line in enumerate(lines):
        if line.startswith(("  device  ", "  parent  ")):
            path = line.split()[1]
            rest = lines[i + 1] if i + 1 < len(lines) else ""
            got[path] = rest.split("module: ")[1].split()[0] if "module: " in rest else None
    C.check("--parents: the module of each level's driver, in text", r.returncode == 0
            and got == want, "%r\n%s" % (got, r.stdout.decode()))
    r = run("--root", root, "--parents", "--json", disk)
    try:
        chain = json.loads(r.stdout)["chain"]
        got = {d["path"]: d["module"] for d in chain}
    except (ValueError, KeyError) as e:
        got = repr(e)
    C.check("--parents --json: a module member on every level, null when none",
            r.returncode == 0 and got == want, "%r\n%s" % (got, r.stdout.decode()))


# 16 ------------------------------------------------------------------------
def as_reader(args):
    """args run so that file modes count: as nobody when we are root."""
    if os.geteuid() != 0:
        return list(args)
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] + list(args)


def attrs_page(tmp):
    """--attrs: a value over a page shows its first page, marked truncated; an
    unreadable one says why, in JSON too; others stay strings."""
    root = os.path.join(tmp, "attrs")
    os.makedirs(root)
    os.chmod(tmp, 0o755)
    t = T.Tree(root)
    t.dirs("bus/platform")
    t.device("/devices/platform")
    dev = "/devices/platform/big"
    t.device(dev, "bus:platform", power=False)
    page = bytes((0x41 + i % 26) for i in range(4096))
    t.file(dev[1:] + "/huge", page + b"tail beyond the first page\n")
    t.file(dev[1:] + "/exact", page[:4095] + b"\n")  # a page with its newline: whole
    t.file(dev[1:] + "/secret", "s\n", mode=0)
    t.file(dev[1:] + "/plain", "plain value\n")
    for d, _, files in os.walk(root):
        os.chmod(d, 0o755)
        for f in files:
            p = os.path.join(d, f)
            if not p.endswith("secret"):
                os.chmod(p, 0o644)
    if os.geteuid() == 0 and not shutil.which("setpriv"):
        C.skip("--attrs unreadable and truncated", "root without setpriv to drop privileges")
        return
    page_text = page.decode()
    r = T.run(as_reader([TOOL, "--root", root, "--attrs", "--depth", "0", dev]),
              env=T.environ(NO_COLOR="1"))
    lines = {l.strip().split(" ", 1)[0]: l.strip() for l in r.stdout.decode().splitlines()
             if l.strip().startswith("@")}
    C.check("text: @huge shows its first page, then a truncated mark",
            lines.get("@huge") == "@huge = " + page_text + "  [truncated: larger than a page]",
            repr(lines.get("@huge"))[:200] + " " + r.stderr.decode())
    C.check("text: a page with its newline is whole, unmarked",
            lines.get("@exact") == "@exact = " + page_text[:4095], repr(lines.get("@exact"))[:200])
    C.check("text: @secret says why it could not be read",
            lines.get("@secret") == "@secret (permission denied (EACCES))", lines.get("@secret"))
    C.check("text: @plain = plain value", lines.get("@plain") == "@plain = plain value",
            lines.get("@plain"))
    want = {"huge": {"value": page_text, "truncated": True}, "exact": page_text[:4095],
            "secret": {"error": "permission denied (EACCES)"}, "plain": "plain value"}
    for name, args in (("--json", ["--json", "--attrs", "--depth", "0", dev]),
                       ("--parents --json", ["--parents", "--json", "--attrs", dev])):
        r = T.run(as_reader([TOOL, "--root", root] + args), env=T.environ(NO_COLOR="1"))
        try:
            doc = json.loads(r.stdout)
            node = doc["nodes"][0] if "nodes" in doc else doc["chain"][0]
            got = node["attributes"]
        except (ValueError, KeyError, IndexError) as e:
            got = repr(e)
        C.check("%s --attrs: truncated and unreadable values are objects, others strings"
                % name, r.returncode == 0 and got == want,
                str(got)[:300] + " " + r.stderr.decode())
    r = T.run(as_reader([TOOL, "--root", root, "--parents", "--attrs", dev]),
              env=T.environ(NO_COLOR="1"))
    out = r.stdout.decode()
    C.check("--parents --attrs: the first page and the mark in text",
            "@huge = " + page_text + "  [truncated: larger than a page]\n" in out, out[:300])


# 18 ------------------------------------------------------------------------
# The article's tree, written by hand from its archive, with the columns in
# the order -o gives and NAME and KIND only where asked for.
TREE_DRIVER_NAME = """\
/devices/
├─ platform
│  └─ driver:omap_i2c  omap_i2c.2
│     └─ i2c-2
│        ├─ driver:leds-tca6507  2-0045
│        │  └─ leds/
│        │     ├─ gta04:green:power
│        │     └─ gta04:red:power
│        └─ i2c-dev/
│           └─ i2c-2
└─ virtual/
"""
TREE_KIND_SUBSYSTEM = """\
[root]
├─ (no subsystem)
│  └─ bus:platform
│     └─ bus:i2c
│        ├─ bus:i2c
│        │  └─ [class-dir]
│        │     ├─ class:leds
│        │     └─ class:leds
│        └─ [class-dir]
│           └─ class:i2c-dev
└─ [container]
"""
TREE_DEVNAME_KIND_NAME = """\
[root]  /devices/
├─ platform
│  └─ omap_i2c.2
│     └─ i2c-2
│        ├─ 2-0045
│        │  └─ [class-dir]  leds/
│        │     ├─ gta04:green:power
│        │     └─ gta04:red:power
│        └─ [class-dir]  i2c-dev/
│           └─ /dev/i2c-2 (89:2)  i2c-2
└─ [container]  virtual/
"""


def tree_columns():
    """-o in the tree: the columns in the order given, NAME and KIND only
    when listed; the default stays as it was."""
    for cols, want in (("DRIVER,NAME", TREE_DRIVER_NAME), ("KIND,SUBSYSTEM", TREE_KIND_SUBSYSTEM),
                       ("DEVNAME,KIND,NAME", TREE_DEVNAME_KIND_NAME)):
        r = run("--root", ARTICLE, "-o", cols)
        out = r.stdout.decode()
        C.check("tree -o %s: in that order, nothing else" % cols,
                r.returncode == 0 and out == want, out)


# 19 ------------------------------------------------------------------------
def list_widths(tmp):
    """-l pads by display width, as lsblk: 设备 is four columns wide (two
    characters), e + a combining acute one (two code points); the same under
    the C locale (the values are UTF-8 whatever the locale)."""
    root = os.path.join(tmp, "wide")
    t = T.Tree(root)
    t.dirs("bus/platform")
    t.device("/devices/platform")
    # name -> its display width, by hand (East Asian Wide: 2; combining: 0)
    names = {"设备": 4, "e\u0301te\u0301": 3, "plain": 5, "x设": 3}
    for n in names:
        t.device("/devices/platform/" + n, "bus:platform")
    for loc in ("C.UTF-8", "C"):
        r = run("--root", root, "-l", "-o", "NAME,SUBSYSTEM", env=T.environ(LC_ALL=loc))
        lines = r.stdout.decode().splitlines()
        # where SUBSYSTEM's text starts, in display columns: the first cell's width + padding
        starts = set()
        for line in lines[1:]:
            cell = line.split(" ", 1)[0]
            pad = len(line) - len(cell) - len(line[len(cell):].lstrip(" "))
            width = names.get(cell, len(cell))
            starts.add(width + pad)
        header = lines[0] if lines else ""
        starts.add(header.index("SUBSYSTEM") if "SUBSYSTEM" in header else -1)
        C.check("-l under %s: the second column starts at one display column on every line"
                % loc, r.returncode == 0 and len(lines) == 6 and starts == {len("platform") + 1},
                "starts %r\n%s" % (starts, r.stdout.decode()))


# 25 ------------------------------------------------------------------------
def synopsis_modes():
    """sysdev-tree(1)'s SYNOPSIS has a line for every mode --help lists."""
    with open(os.path.join(SRC, "man", "sysdev-tree.1"), encoding="utf-8") as f:
        page = f.read()
    synopsis = page[page.index(".SH SYNOPSIS"):page.index(".SH DESCRIPTION")]
    starts = [l[len(".B sysdev-tree "):].split()[0].replace("\\-", "-")
              for l in synopsis.splitlines() if l.startswith(".B sysdev-tree \\-")]
    modes = ["--parents", "--explain", "--properties", "--stats", "--get-latency-tolerance",
             "--set-latency-tolerance", "--capture", "--diff", "--check-udev", "--watch",
             "--list-columns"]
    help_text = run("--help").stdout.decode()
    for m in modes:
        C.check("SYNOPSIS: a line for %s (which --help lists)" % m,
                m in starts and m in help_text, starts)


CHECKS = [synopsis_modes, list_widths, tree_columns, attrs_page, parents_module, diff_all, write_errors, grammar, format_without_mode, ambiguous_options, refused_as_spelled, start_is_a_file, capture_dir_cannot_be_made]


def main():
    # ONLY=name,name runs those groups alone (while working on one)
    only = os.environ.get("ONLY", "").split(",") if os.environ.get("ONLY") else None
    with tempfile.TemporaryDirectory(prefix="sysdev-defects2-") as tmp:
        for check in CHECKS:
            if only and check.__name__ not in only:
                continue
            if check.__code__.co_argcount:
                check(tmp)
            else:
                check()
    C.finish()


if __name__ == "__main__":
    main()
