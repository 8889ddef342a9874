#!/usr/bin/env python3
"""Columns, formats and filters of sysdev-tree (-o, -l, -r, -P, -J -l, -n, -i,
-s, --driver, --sysname, --match, --unlinked), each checked against the
files themselves: the tree is read here with Python (on a tree laid out by
hand, and on the committed fixtures unpacked), never through the tool.

usage: test_columns.py SYSDEV_TREE SYSDEV_FIXTURE FIXTURES_DIR
"""
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mktree  # noqa: E402

TOOL = os.path.abspath(sys.argv[1])
FIXTURE = os.path.abspath(sys.argv[2])
FIXTURES = os.path.abspath(sys.argv[3])
COLUMNS = ("DEVPATH NAME KIND SUBSYSTEM SUBSYSTEM_KIND DRIVER MODULE PARENT PARENT_DRIVER CLASS_DIR "
           "PLACEMENT DEVNUM DEVID DEVNAME DEVTYPE MODALIAS VENDOR MODEL RUNTIME_STATUS "
           "LATENCY_TOLERANCE").split()
HWDB = {}


def hwdb(key):
    """What udev's hardware database says for a key, asked of systemd-hwdb(8)."""
    if key not in HWDB:
        r = subprocess.run(["systemd-hwdb", "query", key], capture_output=True, timeout=60)
        if r.returncode != 0:
            raise SystemExit(f"Bail out! systemd-hwdb query {key!r} failed: {r.stderr!r}")
        HWDB[key] = dict(ln.split("=", 1) for ln in
                         r.stdout.decode("utf-8", "surrogateescape").splitlines() if "=" in ln)
    return HWDB[key]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402

C = T.Checker()
check = C.check


def run(*args, env=None):
    e = dict(os.environ, NO_COLOR="1", LC_ALL="C.UTF-8")
    e.update(env or {})
    return subprocess.run([TOOL, *args], capture_output=True, timeout=300, env=e)


# ---- the model: what the files say ----

def fs(p):
    return os.fsencode(p)


def read_value(path):
    """An attribute as the tool shows it: without one trailing newline; None if unreadable."""
    if os.path.islink(path) or not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if data.endswith(b"\n"):
        data = data[:-1]
    return data.split(b"\0")[0].decode("utf-8", "surrogateescape")


def uevent(path):
    props = {}
    v = read_value(os.path.join(path, "uevent"))
    for line in (v or "").split("\n"):
        if "=" in line:
            k, _, val = line.partition("=")
            props[k] = val
    return props


def link_name(path):
    try:
        return os.path.basename(os.readlink(path))
    except OSError:
        return None


def walk_key(devpath):
    return os.fsencode(devpath).replace(b"/", b"\0")


class Model:
    def __init__(self, root):
        self.root = os.path.realpath(root)
        self.classes = set(os.listdir(os.path.join(self.root, "class"))) \
            if os.path.isdir(os.path.join(self.root, "class")) else set()
        self.devs = {}
        for d, subdirs, files in os.walk(os.path.join(self.root, "devices")):
            subdirs[:] = [s for s in subdirs if not os.path.islink(os.path.join(d, s))]
            if os.path.isfile(os.path.join(d, "uevent")) and \
                    not os.path.islink(os.path.join(d, "uevent")):
                devpath = d[len(self.root):]
                self.devs[devpath] = self.fields(devpath)
        self.order = sorted(self.devs, key=walk_key)

    def is_dev(self, devpath):
        p = self.root + devpath
        return os.path.isfile(p + "/uevent") and not os.path.islink(p + "/uevent")

    def fields(self, devpath):
        p = self.root + devpath
        props = uevent(p)
        sub = link_name(p + "/subsystem")
        sk = None
        if sub:
            t = os.path.realpath(p + "/subsystem")
            sk = "bus" if t.startswith(self.root + "/bus/") else \
                "class" if t.startswith(self.root + "/class/") else None
        parent = None
        q = os.path.dirname(devpath)
        while q.startswith("/devices/"):
            if self.is_dev(q):
                parent = q
                break
            q = os.path.dirname(q)
        up = os.path.dirname(devpath)
        class_dir = None
        if not self.is_dev(up) and os.path.basename(up) in self.classes and \
                (self.is_dev(os.path.dirname(up)) or os.path.dirname(up) == "/devices/virtual"):
            class_dir = os.path.basename(up)
        has_dev = os.path.isfile(p + "/dev") and not os.path.islink(p + "/dev")
        devnum = "%s:%s" % (props["MAJOR"], props["MINOR"]) \
            if has_dev and "MAJOR" in props and "MINOR" in props else None
        placement = "virtual" if devpath.startswith("/devices/virtual/") else \
            "system" if devpath.startswith("/devices/system/") else "devices"
        modalias = read_value(p + "/modalias")
        if modalias is None:
            modalias = props.get("MODALIAS")
        driver = link_name(p + "/driver")
        module = link_name("%s/bus/%s/drivers/%s/module" % (self.root, sub, driver)) \
            if sub and driver else None
        # names: the database's, for the modalias (the property first, as udev);
        # a USB device without one is keyed by idVendor/idProduct: not compared here
        key = props.get("MODALIAS") or modalias
        names = hwdb(key) if key else {}
        usb_keyed = not key and props.get("DEVTYPE") == "usb_device"
        vendor, model = names.get("ID_VENDOR_FROM_DATABASE"), names.get("ID_MODEL_FROM_DATABASE")
        # none of its own (and not a USB device keyed otherwise): the nearest
        # ancestor's, as udev's ID_VENDOR_FROM_DATABASE of an interface is its card's
        if not (vendor or model) and not usb_keyed and parent in self.devs:
            pf = self.devs[parent]
            vendor, model, usb_keyed = pf["vendor"], pf["model"], pf["usb_keyed"]
        pdrv, q = None, parent
        while q in self.devs and pdrv is None:
            pdrv = self.devs[q]["driver"]
            q = self.devs[q]["parent"]
        return {
            "devpath": devpath, "name": os.path.basename(devpath), "kind": "device",
            "subsystem": sub, "subsystem_kind": sk, "driver": driver, "module": module,
            "vendor": vendor, "model": model, "usb_keyed": usb_keyed,
            "parent_driver": pdrv,
            "parent": parent, "class_dir": class_dir, "placement": placement,
            "devnum": devnum,
            "devid": (("b" if sub == "block" else "c") + devnum) if devnum else None,
            "devname": props.get("DEVNAME") if has_dev else None,
            "devtype": props.get("DEVTYPE"), "modalias": modalias,
            "runtime_status": read_value(p + "/power/runtime_status"),
            "latency_tolerance": read_value(p + "/power/pm_qos_latency_tolerance_us"),
            "props": props,
        }

    def linked(self):
        out = set()
        for top in ("class", "bus"):
            base = os.path.join(self.root, top)
            for s in sorted(os.listdir(base)) if os.path.isdir(base) else []:
                d = os.path.join(base, s) if top == "class" else os.path.join(base, s, "devices")
                if not os.path.isdir(d):
                    continue
                for e in os.listdir(d):
                    if os.path.islink(os.path.join(d, e)):
                        t = os.path.normpath(os.path.join(d, os.readlink(os.path.join(d, e))))
                        out.add(t[len(self.root):])
        return out

    def select(self, subsystems=(), drivers=(), sysnames=(), matches=(), unlinked=False):
        linked = self.linked() if unlinked else set()
        out = []
        for dp in self.order:
            f = self.devs[dp]
            if subsystems and f["subsystem"] not in subsystems:
                continue
            if drivers and not any(f["driver"] is not None and
                                   fnmatch.fnmatchcase(f["driver"], g) for g in drivers):
                continue
            if sysnames and not any(fnmatch.fnmatchcase(f["name"], g) for g in sysnames):
                continue
            ok = True
            for m in matches:
                k, _, g = m.partition("=")
                v = f["props"].get(k)
                if v is None:
                    v = read_value(self.root + dp + "/" + k)
                if v is None or not fnmatch.fnmatchcase(v, g):
                    ok = False
            if not ok or (unlinked and dp in linked):
                continue
            out.append(dp)
        return out


def ancestors(paths, top="/devices"):
    out = set()
    for p in paths:
        while len(p) >= len(top):
            out.add(p)
            p = os.path.dirname(p)
    return out


def tree_paths(text, top="/devices"):
    """The devpaths a drawn tree shows (the prefix is three columns per level)."""
    stack = []
    out = set()
    for i, line in enumerate(text.splitlines()):
        if i == 0:
            stack = [top]
            out.add(top)
            continue
        n = 0
        while line[n:n + 3] in ("│  ", "   ", "├─ ", "└─ ", "|  ", "|- ", "`- "):
            n += 3
        level = n // 3
        name = line[n:].split("  ")[0].rstrip("/")
        del stack[level:]
        path = stack[-1] + "/" + name
        stack.append(path)
        out.add(path)
    return out


# ---- escaping, as the lists promise ----

def hex_escape(value, also):
    b = os.fsencode(value) if isinstance(value, str) else value
    out, i = [], 0
    while i < len(b):
        c = b[i]
        if c < 0x80:
            if c < 0x20 or c == 0x7f or c == 0x5c or chr(c) in also:
                out.append("\\x%02x" % c)
            else:
                out.append(chr(c))
            i += 1
            continue
        n = 2 if 0xc2 <= c <= 0xdf else 3 if 0xe0 <= c <= 0xef else 4 if 0xf0 <= c <= 0xf4 else 0
        try:
            ch = b[i:i + n].decode("utf-8") if n else None
        except UnicodeDecodeError:
            ch = None
        if ch and len(ch) == 1 and not (0x80 <= ord(ch) <= 0x9f or ord(ch) in (0x2028, 0x2029)):
            out.append(ch)
            i += n
        else:
            out.append("\\x%02x" % c)
            i += 1
    return "".join(out)


def text_escape(value):
    """The tree's escaping (one line stays one line): C escapes, \\xHH for the rest."""
    s = hex_escape(value, "")
    return s.replace("\\x5c", "\\\\").replace("\\x0a", "\\n").replace("\\x09", "\\t")


def lines(r):
    return r.stdout.decode("utf-8", "surrogateescape").splitlines()


# ---- the checks ----

def check_columns(label, root, model, archive=None):
    """@archive: the same tree as an archive, given to the JSON list (the rest reads @root)."""
    r = run("--root", archive or root, "-J", "-l", "-o", ",".join(COLUMNS))
    check(f"{label}: -J -l exits 0", r.returncode == 0, r.stderr)
    got = json.loads(r.stdout)["devices"] if r.returncode == 0 else []
    check(f"{label}: -J -l keys are the lower-case column names",
          all(list(d) == [c.lower() for c in COLUMNS] for d in got), got[:1])
    check(f"{label}: -J -l lists every device once, in the walk's order",
          [d["devpath"] for d in got] == model.order,
          "%d vs %d devices" % (len(got), len(model.order)))
    for c in COLUMNS:
        key = c.lower()
        bad = [(d["devpath"], d[key], model.devs[d["devpath"]][key]) for d in got
               if d["devpath"] in model.devs and d[key] != model.devs[d["devpath"]][key]
               and not (key in ("vendor", "model") and model.devs[d["devpath"]]["usb_keyed"])]
        check(f"{label}: column {c} holds what the files (and systemd-hwdb) say", not bad,
              bad[:5])
    if label == "qemu-q35":
        n = sum(1 for d in got if d["vendor"])
        check(f"{label}: the database names some devices (VENDOR)", n > 5, n)
    # the default list columns, aligned, with a header
    r = run("--root", root, "-l")
    out = lines(r)
    head = out[0] if out else ""
    check(f"{label}: -l header is the default list columns",
          head.split() == ["DEVPATH", "SUBSYSTEM", "DRIVER", "DEVNAME"], head)
    starts = [head.find(c) for c in ("DEVPATH", "SUBSYSTEM", "DRIVER", "DEVNAME")] + [None]
    rows = [[ln[starts[i]:starts[i + 1]].rstrip() for i in range(4)] for ln in out[1:]]
    want = [[hex_escape(model.devs[dp][k] or "", "") for k in
             ("devpath", "subsystem", "driver", "devname")] for dp in model.order]
    check(f"{label}: -l aligns its columns under the header", rows == want,
          "\n".join(map(str, [x for x in zip(rows, want) if x[0] != x[1]][:3])))
    # -r: one space between values, the same rows, streamed
    r = run("--root", root, "-r", "-n", "-o", "DEVPATH,DRIVER,DEVNUM")
    want = [" ".join(hex_escape(model.devs[dp][k] or "", " \t")
                     for k in ("devpath", "driver", "devnum")) for dp in model.order]
    check(f"{label}: -r -n rows", lines(r) == want, lines(r)[:3])
    r = run("--root", root, "-P", "-o", "NAME,SUBSYSTEM")
    want = [" ".join('%s="%s"' % (k.upper(), hex_escape(model.devs[dp][k] or "", '"`$'))
                     for k in ("name", "subsystem")) for dp in model.order]
    check(f"{label}: -P pairs", lines(r) == want, lines(r)[:3])


def check_filters(label, root, model, cases):
    for args, sel in cases:
        want = model.select(**sel)
        r = run("--root", root, "-r", "-n", "-o", "DEVPATH", *args)
        if want:
            check(f"{label}: {' '.join(args)} -r lists the {len(want)} devices the files select",
                  r.returncode == 0 and lines(r) == [hex_escape(d, " \t") for d in want],
                  "rc %d; got %s\nwant %s" % (r.returncode, lines(r)[:5], want[:5]))
            r = run("--root", root, *args)
            shown = tree_paths(r.stdout.decode("utf-8", "surrogateescape"))
            wt = {text_escape(p) for p in ancestors(want)}
            check(f"{label}: {' '.join(args)} tree shows those devices and their ancestors",
                  r.returncode == 0 and shown == wt,
                  "rc %d; extra %s; missing %s" % (r.returncode, sorted(shown - wt)[:5],
                                                    sorted(wt - shown)[:5]))
            r = run("--root", root, "-J", *args)
            got = set()

            def collect(n):
                got.add(n["path"])
                for ch in n["children"]:
                    collect(ch)
            if r.returncode == 0:
                for n in json.loads(r.stdout)["nodes"]:
                    collect(n)
            check(f"{label}: {' '.join(args)} tree JSON holds the same nodes",
                  got == ancestors(want), sorted(got ^ ancestors(want))[:5])
        else:
            check(f"{label}: {' '.join(args)} selects nothing: exit 1, no output, one line",
                  r.returncode == 1 and r.stdout == b"" and r.stderr.count(b"\n") == 1,
                  (r.returncode, r.stdout[:200], r.stderr))


def hand_tree(root):
    mktree.article(root)
    c = "/devices/platform/omap_i2c.2/i2c-2/2-0045"
    mktree.file(root, c[1:] + "/modalias", "i2c:tca6507\n")
    mktree.file(root, "devices/platform/omap_i2c.2/modalias", "platform:omap_i2c\n")
    mktree.link(root, "bus/platform/drivers/omap_i2c/module", "../../../../module/omap_i2c")
    os.makedirs(os.path.join(root, "module/omap_i2c"))
    # a name with a space, a backslash, a control byte, quote, dollar, backquote, invalid
    # UTF-8 and valid UTF-8
    odd = b"/devices/platform/a b\\c\x01\"$`\xff\xc3\xa9"
    os.makedirs(fs(root) + odd)
    with open(fs(root) + odd + b"/uevent", "wb") as f:
        f.write(b"DRIVER=x\nFOO=bar baz\n")


def hwdb_opened_once(root):
    """The hwdb is opened once for a run, however many modaliases it looks up."""
    if not shutil.which("strace"):
        return C.fail("strace is installed (the hwdb's opens are counted with it)")
    with tempfile.NamedTemporaryFile(prefix="sysdev-strace.") as f:
        subprocess.run(["strace", "-f", "-e", "trace=open,openat", "-o", f.name, TOOL,
                        "--root", root, "-l", "-o", "DEVPATH,VENDOR,MODEL"],
                       capture_output=True, timeout=300)
        opened = [ln for ln in f.read().decode("utf-8", "replace").splitlines()
                  if 'hwdb.bin"' in ln and "= -1" not in ln]
    wanted = sum(1 for d, _, files in os.walk(root) if "modalias" in files)
    check("-o VENDOR,MODEL over %d modaliases opens the hwdb once" % wanted,
          wanted >= 2 and len(opened) == 1, opened)


def main():
    tmp = tempfile.mkdtemp(prefix="sysdev-cols.")
    root = os.path.join(tmp, "hand")
    hand_tree(root)
    model = Model(root)
    check_columns("hand", root, model)
    hwdb_opened_once(root)

    # escaping of every kind of byte, against the hand-made name
    odd = [d for d in model.order if "a b" in d][0]
    r = run("--root", root, "-r", "-n", "-o", "NAME", "--sysname", "a b*")
    want = hex_escape(os.path.basename(odd), " \t")
    check("-r writes space, control byte, backslash, invalid UTF-8 as \\xHH, keeps UTF-8",
          lines(r) == [want] and "\\x20" in want and "\\x5c" in want and "\\x01" in want
          and "\\xff" in want and "é" in want, (lines(r), want))
    r = run("--root", root, "-P", "-o", "NAME,DRIVER", "--sysname", "a b*")
    want = 'NAME="%s" DRIVER=""' % hex_escape(os.path.basename(odd), '"`$')
    check("-P quotes as lsblk -P: \" ` $ \\ and control bytes as \\xHH, a space kept",
          lines(r) == [want] and "\\x22" in want and "\\x24" in want and "\\x60" in want
          and "a b" in want, (lines(r), want))
    r = run("--root", root, "-J", "-l", "-o", "NAME", "--sysname", "a b*")
    check("-J -l keeps the name's bytes (invalid UTF-8 as \\udcff)",
          r.returncode == 0 and json.loads(r.stdout)["devices"][0]["name"] ==
          os.path.basename(odd), r.stdout)

    # headers, +LIST, --list-columns, unknown columns
    r = run("--root", root, "-r", "-o", "+MODALIAS")
    check("-o +LIST adds to the default list columns",
          lines(r)[0] == "DEVPATH SUBSYSTEM DRIVER DEVNAME MODALIAS", lines(r)[:1])
    r2 = run("--root", root, "-r", "-n", "-o", "+MODALIAS")
    check("-n drops the header line, nothing else", lines(r2) == lines(r)[1:])
    r = run("--root", root, "-l", "-n", "-o", "devpath")
    check("-l -n: no header; column names in any case",
          lines(r) == [hex_escape(d, "") for d in model.order], lines(r)[:3])
    r = run("--list-columns")
    names = [ln.split()[0] for ln in lines(r) if ln.strip()]
    check("--list-columns names every column with a description, exit 0",
          r.returncode == 0 and all(c in names for c in COLUMNS) and
          all(len(ln.split()) > 1 for ln in lines(r)), lines(r))
    r = run("--list-columns", "-J")
    try:
        cols = json.loads(r.stdout)["columns"]
    except (ValueError, KeyError, TypeError) as e:
        cols = [{"error": str(e)}]
    check("--list-columns -J: every column with its lower-case key and a description",
          r.returncode == 0 and [c.get("name") for c in cols] == names and
          all(c.get("key") == c.get("name", "").lower() and c.get("description")
              for c in cols) and set(COLUMNS) <= {c.get("name") for c in cols}, r.stdout[:300])
    r = run("--root", root, "-l", "-o", "DEVPATH,NOSUCH")
    check("an unknown column: exit 2, one line naming it",
          r.returncode == 2 and b"NOSUCH" in r.stderr and r.stderr.count(b"\n") == 1, r.stderr)
    r = run("--root", root, "--match", "nokey")
    check("--match without KEY=: exit 2", r.returncode == 2, r.stderr)
    r = run("--root", root, "-r", "-P")
    check("-r with -P: exit 2", r.returncode == 2, r.stderr)

    # tree columns: the default is today's annotation, -o adds KEY:VALUE
    c = "/devices/platform/omap_i2c.2/i2c-2/2-0045"
    r = run("--root", root, "-o", "+MODALIAS,LATENCY_TOLERANCE", "--sysname", "2-0045")
    last = lines(r)[-1]
    check("tree -o +LIST annotates with key:value after the default annotation",
          last.endswith("2-0045  bus:i2c  driver:leds-tca6507  modalias:i2c:tca6507"
                        "  latency_tolerance:auto"), last)
    r = run("--root", root, "-l", "-o", "DEVPATH", "b8:1")
    check("a DEVICE written b8:1 is the block device 8:1",
          lines(r)[1:] == [c + "/block/sda/sda1"], lines(r))
    r = run("--root", root, "-l", "b9:9")
    check("an unknown device id: exit 1, one line", r.returncode == 1 and
          r.stderr.count(b"\n") == 1, r.stderr)

    # ASCII drawing: -i, and a locale that is not UTF-8
    uni = run("--root", root).stdout.decode()
    asc = run("--root", root, "-i").stdout.decode()
    check("-i draws with ASCII only, the same tree",
          "├" not in asc and "|-" in asc and "`-" in asc and asc.replace("|- ", "├─ ").replace("`- ", "└─ ").replace("|  ", "│  ") == uni,
          asc[:300])
    cl = run("--root", root, env={"LC_ALL": "C"}).stdout.decode("utf-8", "replace")
    check("LC_ALL=C draws with ASCII by itself", cl == asc, cl[:300])
    check("a UTF-8 locale draws with box characters", "├─ " in uni and "└─ " in uni, uni[:300])

    check_filters("hand", root, model, [
        (["-s", "leds"], dict(subsystems=["leds"])),
        (["-s", "leds", "-s", "block"], dict(subsystems=["leds", "block"])),
        (["-s", "block", "--sysname", "sda1"], dict(subsystems=["block"], sysnames=["sda1"])),
        (["--driver", "omap*", "--driver", "leds-*"], dict(drivers=["omap*", "leds-*"])),
        (["--driver", "omap*", "--sysname", "2-*"], dict(drivers=["omap*"], sysnames=["2-*"])),
        (["--sysname", "sd*", "--sysname", "lo"], dict(sysnames=["sd*", "lo"])),
        (["--match", "DEVTYPE=disk"], dict(matches=["DEVTYPE=disk"])),
        (["--match", "name=tca*"], dict(matches=["name=tca*"])),
        (["--match", "DEVTYPE=*", "--match", "dev=8:*"], dict(matches=["DEVTYPE=*", "dev=8:*"])),
        (["--match", "FOO=bar baz"], dict(matches=["FOO=bar baz"])),
        (["--unlinked"], dict(unlinked=True)),
        (["--unlinked", "--sysname", "ep_*"], dict(unlinked=True, sysnames=["ep_*"])),
        (["-s", "net", "--driver", "nosuch"], dict(subsystems=["net"], drivers=["nosuch"])),
    ])
    r = run("--root", root, "-s", "nosuch")
    check("-s NAME that is neither bus nor class: warned by name, exit 1 (nothing selected)",
          r.returncode == 1 and b"nosuch" in r.stderr and b"neither a bus nor a class"
          in r.stderr and r.stdout == b"", r.stderr)
    r = run("--root", root, "-s", "nosuch", "-s", "leds", "-r", "-n", "-o", "NAME")
    check("-s nosuch -s leds: the warning, and the leds devices (exit 0)",
          r.returncode == 0 and b"nosuch" in r.stderr and
          lines(r) == ["gta04:green:power", "gta04:red:aux"], (r.stdout, r.stderr))
    r = run("--root", root, "-l", "-s", "leds", "/devices/virtual")
    check("START limits the selection: no device below it, exit 1",
          r.returncode == 1 and r.stdout == b"", r.stderr)

    # the committed fixtures: unpacked here to be read with Python, given as archives
    for name in ("article", "edges", "hand-edges", "old-system", "qemu-pc", "qemu-q35"):
        arch = os.path.join(FIXTURES, name + ".sysfs")
        if not os.path.exists(arch):
            check(f"fixture {name} exists", False, arch)
            continue
        d = os.path.join(tmp, name)
        subprocess.run([FIXTURE, "unpack", arch, d], check=True, capture_output=True)
        m = Model(d)
        # an archive is unpacked on each run: the small ones are given as archives
        check_columns(name, d, m, archive=arch if os.path.getsize(arch) < 2 << 20 else None)
        subs = sorted({f["subsystem"] for f in m.devs.values() if f["subsystem"]})
        drivers = sorted({f["driver"] for f in m.devs.values() if f["driver"]})
        cases = [(["--unlinked"], dict(unlinked=True))]
        if subs:
            cases.append((["-s", subs[0], "-s", subs[-1]], dict(subsystems=[subs[0], subs[-1]])))
        if drivers:
            cases.append((["--driver", drivers[0][:2] + "*", "-s", subs[0]],
                          dict(drivers=[drivers[0][:2] + "*"], subsystems=[subs[0]])))
        cases.append((["--match", "DEVTYPE=*"], dict(matches=["DEVTYPE=*"])))
        check_filters(name, d, m, cases)

    subprocess.run(["rm", "-rf", tmp])
    sys.exit(C.summary())


if __name__ == "__main__":
    main()
