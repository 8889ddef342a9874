#!/usr/bin/env python3
"""sysdev-tree's lists through the kernel's indexes, and more of lsblk's and
udevadm's dialect (negations, -s NAME/DEVTYPE, ...), each checked against the
files read here with Python (the live /sys and the committed fixtures,
unpacked), against strace's count of the work done, or against answers
written by hand.

usage: test_dialect.py SYSDEV_TREE SYSDEV_FIXTURE FIXTURES_DIR
"""
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402

TOOL = os.path.abspath(sys.argv[1])
FIXTURE = os.path.abspath(sys.argv[2])
FIXTURES = os.path.abspath(sys.argv[3])
C = T.Checker()
check = C.check


def run(*args, env=None):
    e = dict(os.environ, NO_COLOR="1", LC_ALL="C.UTF-8")
    e.update(env or {})
    return subprocess.run([TOOL, *args], capture_output=True, timeout=300, env=e)


def lines(r):
    return r.stdout.decode("utf-8", "surrogateescape").splitlines()


def walk_key(devpath):
    return os.fsencode(devpath).replace(b"/", b"\0")


def link_name(path):
    try:
        return os.path.basename(os.readlink(path))
    except OSError:
        return None


def read_value(path):
    if os.path.islink(path) or not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if data.endswith(b"\n"):
        data = data[:-1]
    return data.decode("utf-8", "surrogateescape")


class Model:
    """The devices of a tree, read from the files: a directory under devices/
    with a regular uevent file; its subsystem and driver links' last
    components, its uevent properties."""

    def __init__(self, root):
        self.root = os.path.realpath(root)
        self.devs = {}
        for d, subdirs, files in os.walk(os.path.join(self.root, "devices")):
            subdirs[:] = [s for s in subdirs if not os.path.islink(os.path.join(d, s))]
            u = os.path.join(d, "uevent")
            if "uevent" in files and os.path.isfile(u) and not os.path.islink(u):
                props = {}
                for ln in (read_value(u) or "").split("\n"):
                    if "=" in ln:
                        k, _, v = ln.partition("=")
                        props[k] = v
                self.devs[d[len(self.root):]] = {
                    "subsystem": link_name(d + "/subsystem"),
                    "driver": link_name(d + "/driver"),
                    "props": props,
                }
        self.order = sorted(self.devs, key=walk_key)

    def select(self, pred):
        return [p for p in self.order if pred(p, self.devs[p])]


def ancestors(paths, top="/devices"):
    out = set()
    for p in paths:
        while True:
            out.add(p)
            if p == top or len(p) <= len(top):
                break
            p = os.path.dirname(p)
    return out


def json_nodes(r):
    got = set()

    def collect(n):
        got.add(n["path"])
        for ch in n["children"]:
            collect(ch)
    for n in json.loads(r.stdout)["nodes"]:
        collect(n)
    return got


def raw_paths(r):
    """-r -n -o DEVPATH: the devpaths, \\xHH undone."""
    return [ln.encode("utf-8", "surrogateescape").decode("unicode_escape").encode(
        "latin-1").decode("utf-8", "surrogateescape") for ln in lines(r)]


def check_selection(label, root, model, args, pred, tree=True):
    """-r lists, and the tree JSON shows (with ancestors), what pred selects."""
    want = model.select(pred)
    r = run("--root", root, "-r", "-n", "-o", "DEVPATH", *args)
    if not want:
        return check(f"{label}: {' '.join(args)} selects nothing: exit 1, nothing printed",
                     r.returncode == 1 and r.stdout == b"", (r.returncode, r.stderr))
    ok = check(f"{label}: {' '.join(args)} -r lists the {len(want)} devices the files select",
               r.returncode == 0 and raw_paths(r) == want,
               "rc %d\ngot  %s\nwant %s" % (r.returncode, raw_paths(r)[:6], want[:6]))
    if tree:
        r = run("--root", root, "-J", *args)
        got = json_nodes(r) if r.returncode == 0 else set()
        ok &= check(f"{label}: {' '.join(args)} tree JSON: those devices and their ancestors",
                    got == ancestors(want), sorted(got ^ ancestors(want))[:6])
    return ok


def strace_count(argv, call):
    """How many times the program makes system call @call (strace -c)."""
    with tempfile.NamedTemporaryFile(prefix="sysdev-strace.") as f:
        subprocess.run(["strace", "-f", "-c", "-e", "trace=" + call, "-o", f.name, *argv],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
        for ln in open(f.name).read().splitlines():
            w = ln.split()
            if w and w[-1] == call:
                return int(w[3])
    return 0


# ---- 1. lists with a subsystem filter read the kernel's indexes ----

def indexed(trees):
    for label, root in trees.items():
        m = Model(root)
        subs = sorted({f["subsystem"] for f in m.devs.values() if f["subsystem"]})
        bad = []
        for s in subs:
            want = m.select(lambda p, f: f["subsystem"] == s)
            r = run("--root", root, "-r", "-n", "-o", "DEVPATH", "-s", s)
            if r.returncode != 0 or raw_paths(r) != want:
                bad.append((s, raw_paths(r)[:3], want[:3]))
        check(f"{label}: -s NAME lists what the subsystem links name, for each of "
              f"{len(subs)} subsystems", subs and not bad, bad[:5])
        # a few in tree mode (ancestors kept) and two names at once
        for s in subs[:3] + subs[-2:]:
            check_selection(label, root, m, ["-s", s], lambda p, f: f["subsystem"] == s)
        if len(subs) > 1:
            two = {subs[0], subs[-1]}
            check_selection(label, root, m, ["-s", subs[0], "-s", subs[-1]],
                            lambda p, f: f["subsystem"] in two)
    # the work: an indexed list lists a few directories, the walk every one
    if not shutil.which("strace"):
        return C.fail("strace is installed (the work is counted with it)")
    full = strace_count([TOOL, "-r", "-n", "-o", "DEVPATH"], "getdents64")
    for s in ("block", "net"):
        n = strace_count([TOOL, "-r", "-n", "-o", "DEVPATH", "-s", s], "getdents64")
        check(f"live: -r -s {s} lists directories through the indexes: {n} getdents64 "
              f"calls against {full} for the walk", 0 < n <= 12 and full > 5 * n, (n, full))
        n = strace_count([TOOL, "-s", s], "getdents64")
        check(f"live: the tree -s {s} walks only the selected devices' ancestors: {n} "
              f"getdents64 calls against {full}", 0 < n < full // 2, (n, full))


# ---- 2. negations in udevadm's style, -s NAME/DEVTYPE ----

def value_of(root, path, f, key):
    """--match/--nomatch KEY: the uevent property, else the attribute; None if neither."""
    if key in f["props"]:
        return f["props"][key]
    return read_value(root + path + "/" + key)


def negations(trees):
    for label in ("qemu-q35", "edges", "live"):
        root = trees[label]
        m = Model(root)
        subs = sorted({f["subsystem"] for f in m.devs.values() if f["subsystem"]})
        drivers = sorted({f["driver"] for f in m.devs.values() if f["driver"]})
        cases = [
            (["--subsystem-nomatch", "block"], lambda p, f: f["subsystem"] != "block"),
            (["--subsystem-nomatch", "block", "--subsystem-nomatch", subs[0]],
             lambda p, f: f["subsystem"] not in ("block", subs[0])),
            (["--sysname-nomatch", "*[0-9]"],
             lambda p, f: not fnmatch.fnmatchcase(os.path.basename(p), "*[0-9]")),
            (["--driver-nomatch", drivers[0][:3] + "*"],
             lambda p, f: not (f["driver"] and fnmatch.fnmatchcase(f["driver"],
                                                                   drivers[0][:3] + "*"))),
            (["--nomatch", "DEVTYPE=disk"], lambda p, f: f["props"].get("DEVTYPE") != "disk"),
            (["--nomatch", "removable=0"],
             lambda p, f: value_of(m.root, p, f, "removable") != "0"),
            (["-s", "block", "--nomatch", "DEVTYPE=partition"],
             lambda p, f: f["subsystem"] == "block" and
             f["props"].get("DEVTYPE") != "partition"),
            (["-s", "block/disk"],
             lambda p, f: f["subsystem"] == "block" and f["props"].get("DEVTYPE") == "disk"),
            (["-s", "block/partition", "-s", "net"],
             lambda p, f: f["subsystem"] == "net" or
             (f["subsystem"] == "block" and f["props"].get("DEVTYPE") == "partition")),
            (["-s", "net/wlan"], lambda p, f: f["subsystem"] == "net" and
             f["props"].get("DEVTYPE") == "wlan"),
            (["--driver", "*", "--driver-nomatch", "pcieport"],
             lambda p, f: f["driver"] is not None and f["driver"] != "pcieport"),
        ]
        for args, pred in cases:
            check_selection(label, root, m, args, pred, tree=label != "live")
    # by hand: a block device without DEVTYPE passes -s block, never -s block/disk;
    # a device without a driver is kept by --driver-nomatch
    with tempfile.TemporaryDirectory(prefix="sysdev-dialect-hand.") as d:
        t = T.Tree(d)
        t.classes("block", "net")
        t.device("devices/virtual/block/plain", "class:block", None, "MAJOR=7\nMINOR=9\n")
        t.device("devices/virtual/block/disk0", "class:block", None,
                 "MAJOR=7\nMINOR=8\nDEVTYPE=disk\n")
        for args, want in (
                (["-s", "block"], ["disk0", "plain"]),
                (["-s", "block/disk"], ["disk0"]),
                (["-s", "block/"], []),
                (["--nomatch", "DEVTYPE=*"], ["plain"]),
                (["--subsystem-nomatch", "net", "--driver-nomatch", "*"], ["disk0", "plain"]),
                (["--sysname-nomatch", "d*"], ["plain"]),
                (["--nomatch", "nosuchattr=*"], ["disk0", "plain"])):
            r = run("--root", d, "-r", "-n", "-o", "NAME", *args)
            check(f"hand: {' '.join(args)} keeps {want or 'nothing'}",
                  lines(r) == want and r.returncode == (0 if want else 1),
                  (r.returncode, lines(r), r.stderr))
    r = run("--root", "/sys", "-r", "--nomatch", "novalue")
    check("--nomatch without KEY=: exit 2, one line naming it",
          r.returncode == 2 and b"--nomatch" in r.stderr and r.stderr.count(b"\n") == 1,
          r.stderr)
    r = run("--parents", "--subsystem-nomatch", "net", "/devices")
    check("a negation with a mode that takes no filter: exit 2", r.returncode == 2, r.stderr)


# ---- 3. -x, -O, -w, ATTR:NAME and PROP:KEY ----

def width(text):
    """Display width as wcwidth counts it, for the characters the tests use."""
    import unicodedata
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def columns_and_sort(trees):
    for label in ("live", "qemu-q35"):
        root = trees[label]
        m = Model(root)
        blocks = m.select(lambda p, f: f["subsystem"] == "block")
        want = [{"devpath": p, "ATTR:size": read_value(m.root + p + "/size"),
                 "ATTR:queue/rotational": read_value(m.root + p + "/queue/rotational"),
                 "PROP:DEVTYPE": m.devs[p]["props"].get("DEVTYPE")} for p in blocks]
        r = run("--root", root, "-J", "-l", "-s", "block", "-o",
                "DEVPATH,ATTR:size,ATTR:queue/rotational,PROP:DEVTYPE")
        got = json.loads(r.stdout)["devices"] if r.returncode == 0 else None
        check(f"{label}: -J -l ATTR:size, ATTR:queue/rotational, PROP:DEVTYPE: the files' "
              "values, keyed by the names as given", got == want,
              (got or r.stderr)[:3] if got != want else "")
        r = run("--root", root, "-P", "-s", "block", "-o", "ATTR:queue/rotational,PROP:DEVTYPE")
        check(f"{label}: -P names a generic column with _ for each byte outside "
              "[A-Za-z0-9_]",
              lines(r) == ['ATTR_queue_rotational="%s" PROP_DEVTYPE="%s"' %
                           (w["ATTR:queue/rotational"] or "", w["PROP:DEVTYPE"] or "")
                           for w in want], lines(r)[:3])
        # -x: numbers by value, others bytewise, absent first, ties in walk order
        def key(v):
            return (0, 0, "") if v is None else \
                (1, int(v), "") if v.isdigit() else (2, 0, v)
        for col, get in (("ATTR:size", lambda p: read_value(m.root + p + "/size")),
                         ("NAME", lambda p: os.path.basename(p)),
                         ("DRIVER", lambda p: m.devs[p]["driver"])):
            sel = m.select(lambda p, f: f["subsystem"] in ("block", "pci", "net"))
            want_order = sorted(sel, key=lambda p: key(get(p)))
            r = run("--root", root, "-r", "-n", "-o", "DEVPATH", "-s", "block", "-s", "pci",
                    "-s", "net", "-x", col)
            check(f"{label}: -x {col} sorts the list (numbers by value, absent first, "
                  "ties in the walk's order)", raw_paths(r) == want_order,
                  (raw_paths(r)[:5], want_order[:5]))
    # -O: every column of --list-columns, in its order
    names = [ln.split()[0] for ln in lines(run("--list-columns")) if ln.strip()]
    r = run("-l", "-O", "-s", "net")
    check("-O: the header names every column of --list-columns, in order",
          r.returncode == 0 and lines(r)[0].split() == names, lines(r)[:1])
    for bad in (["-o", "dev"], ["-o", "DEV"], ["-o", "devpat"], ["-o", "ATTR:"],
                ["-x", "dev"], ["-O", "-o", "NAME"], ["-x", "NAME,DEVPATH"], ["-w", "0"],
                ["-w", "x"], ["-J", "-x", "NAME", "/devices"],
                ["--format=dot", "-x", "NAME", "/devices"]):
        args = (["-l"] + bad) if bad[-1] != "/devices" else bad
        r = run(*args)
        check(f"{' '.join(args)}: refused, exit 2, one line",
              r.returncode == 2 and r.stderr.count(b"\n") <= 2 and r.stdout == b"",
              (r.returncode, r.stderr))
    # -w: a hand-made tree with a long name and wide characters
    with tempfile.TemporaryDirectory(prefix="sysdev-dialect-w.") as d:
        t = T.Tree(d)
        t.classes("block")
        long = "devices/virtual/block/" + "d" * 40
        wide = "devices/virtual/block/设备设备"
        t.device(long, "class:block", None, "DEVTYPE=disk\n")
        t.device(wide, "class:block", None, "DEVTYPE=disk\n")
        full = lines(run("--root", d, "-l", "-o", "DEVPATH,NAME,DEVTYPE"))
        for n in (70, 50, 40, 30):
            r = run("--root", d, "-l", "-o", "DEVPATH,NAME,DEVTYPE", "-w", str(n))
            got = lines(r)
            widths = [width(x) for x in got]
            # DEVPATH is the widest: it alone is cut, the others keep their values
            check(f"-l -w {n}: every line at most {n} display columns, the widest column "
                  "cut, the others whole",
                  r.returncode == 0 and max(widths) <= n and len(got) == 3 and
                  all(g.split()[-1] == f.split()[-1] for g, f in zip(got[1:], full[1:])) and
                  "/devices/virtual/block/"[:10] in got[1], (widths, got))
        r = run("--root", d, "-l", "-o", "NAME", "-w", "3", "-n")
        check("-l -w 3: a wide character is never split: 设 counts two columns",
              lines(r) == ["ddd", "设"], lines(r))
        r = run("--root", d, "-l", "-o", "NAME", "-w", "1", "-n")
        check("-l -w 1, the smallest width: each name cut to one column (设, two columns "
              "wide, is never split: nothing of it fits)",
              r.returncode == 0 and lines(r) == ["d", ""], lines(r))
        r = run("--root", d, "-l", "-o", "NAME,DEVTYPE", "-n")
        check("-l without -w on a pipe: no limit", lines(r) == [
            "d" * 40 + " disk", "设备设备" + " " * 33 + "disk"], lines(r))


# ---- 4. --format=dot, rendered by Graphviz ----

MAN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "man")


def svg_count(svg, what):
    return svg.count('<g id="%s' % what)


def linked(root):
    """The devices some S/bus/*/devices or S/class/* entry links to."""
    out = set()
    for top, sub in (("class", ""), ("bus", "devices")):
        t = os.path.join(root, top)
        for s in (os.listdir(t) if os.path.isdir(t) else []):
            d = os.path.join(t, s, sub)
            for e in (os.listdir(d) if os.path.isdir(d) else []):
                p = os.path.join(d, e)
                if os.path.islink(p):
                    out.add(os.path.realpath(p)[len(os.path.realpath(root)):])
    return out


def dot(trees):
    if not shutil.which("dot"):
        return C.fail("Graphviz's dot is installed (apt-get install graphviz)")
    for label, args in (("article", []), ("article", ["--all"]), ("article", ["--unlinked"]),
                        ("article", ["-d", "2"]), ("qemu-q35", []),
                        ("qemu-q35", ["-s", "block", "-s", "net"]),
                        ("qemu-q35", ["--all", "--depth", "4"]),
                        ("edges", ["--all"]), ("hand-edges", ["--all"]),
                        ("qemu-q35", ["--unlinked"]), ("live", ["-s", "net"])):
        root = trees[label]
        r = run("--root", root, "--format=dot", *args)
        j = run("--root", root, "-J", *args)
        nodes = json_nodes(j) if j.returncode == 0 else set()
        g = subprocess.run(["dot", "-Tsvg"], input=r.stdout, capture_output=True, timeout=300)
        svg = g.stdout.decode("utf-8", "replace")
        check(f"{label} {' '.join(args)}: dot -Tsvg draws one node per node of the walk "
              f"({len(nodes)}) and one edge to each but the first",
              r.returncode == 0 and g.returncode == 0 and nodes and
              svg_count(svg, "node") == len(nodes) and svg_count(svg, "edge") == len(nodes) - 1,
              (r.returncode, g.stderr[:300], svg_count(svg, "node"), len(nodes)))
        if "--unlinked" in args:
            m = Model(root)
            want = len(set(m.devs) - linked(root))
            check(f"{label} --unlinked: the {want} unlinked devices are marked (red), their "
                  "ancestors not", svg.count("unlinked</text>") == want and want > 0,
                  (svg.count("unlinked</text>"), want))
    # kinds are drawn differently: each kind of the --all walk has its own shape
    r = run("--root", trees["article"], "--format=dot", "--all")
    shapes = {}
    for ln in r.stdout.decode().splitlines():
        if "label=" in ln and "shape=" in ln:
            kind = ln.split("label=")[1]
            shapes.setdefault(ln.split("shape=")[1].split(",")[0], set()).add(
                "[attr-group]" in kind and "attr-group" or "[class-dir]" in kind and
                "class-dir" or "[container]" in kind and "container" or "[root]" in kind and
                "root" or "device")
    check("--format=dot: root, container, class-dir, attr-group and device each have a shape of "
          "their own", len(shapes) == 5 and all(len(v) == 1 for v in shapes.values()), shapes)
    # a hostile name is text inside the graph, never syntax
    with tempfile.TemporaryDirectory(prefix="sysdev-dialect-dot.") as d:
        t = T.Tree(d)
        t.classes("block")
        t.device(b"devices/virtual/block/a\"];x->y;\\\x01\xff\xc3\xa9", None, None,
                 "DEVTYPE=disk\n")
        r = run("--root", d, "--format=dot")
        g = subprocess.run(["dot", "-Tsvg"], input=r.stdout, capture_output=True, timeout=60)
        svg = g.stdout.decode("utf-8", "replace")
        check("--format=dot: a name with \", ], ->, \\, a control byte and invalid UTF-8 "
              "stays one node's label", g.returncode == 0 and svg_count(svg, "node") == 4 and
              "<title>x</title>" not in svg and "é" in svg, (g.stderr, svg[-800:]))
        check("--format=dot: the control byte and the invalid byte are written as visible "
              "text (\\\\x01, \\\\xff), never as themselves",
              b"\x01" not in r.stdout and b"\\\\x01" in r.stdout and b"\\\\xff" in r.stdout,
              r.stdout[-400:])
    for bad in (["-l", "--format=dot"], ["--stats", "--format=dot"], ["-J", "--format=dot"]):
        r = run(*bad)
        check(f"{' '.join(bad)}: refused, exit 2", r.returncode == 2 and r.stdout == b"",
              r.stderr)
    # the article's tree as a picture: man/article-tree.dot is what the program
    # writes today, and man/article-tree.svg its rendering
    art = os.path.join(FIXTURES, "article.sysfs")
    r = run("--root", art, "--format=dot", "--all")
    committed = open(os.path.join(MAN, "article-tree.dot"), "rb").read()
    check("man/article-tree.dot is what --format=dot --all writes for fixtures/article.sysfs "
          "(regenerate: sysdev-tree --root fixtures/article.sysfs --format=dot --all "
          "> man/article-tree.dot; dot -Tsvg man/article-tree.dot > man/article-tree.svg)",
          r.stdout == committed)
    g = subprocess.run(["dot", "-Tsvg", os.path.join(MAN, "article-tree.dot")],
                       capture_output=True, timeout=60)
    fresh = g.stdout.decode()
    old = open(os.path.join(MAN, "article-tree.svg")).read()

    def titles(svg):
        import re
        return sorted(re.findall(r"<title>([^<]*)</title>", svg)), \
            sorted(re.findall(r"<text[^>]*>([^<]*)</text>", svg))
    check("man/article-tree.svg is the rendering of man/article-tree.dot (same nodes, edges "
          "and labels)", g.returncode == 0 and titles(fresh) == titles(old), titles(old)[0][:5])


# ---- 5. several devices, --property/--value, MODULES, PARENT_DRIVER, --power ----

def power_resume():
    with tempfile.TemporaryDirectory(prefix="sysdev-dialect-pm.") as d:
        t = T.Tree(d)
        t.buses("platform")
        for name, value in (("a", "100\n"), ("b", "n/a\n"), ("c", "0\n"), ("d", None)):
            t.device("devices/platform/" + name, "bus:platform")
            if value is not None:
                t.file("devices/platform/%s/power/pm_qos_resume_latency_us" % name, value)
        r = run("--root", d, "-p", "-s", "platform")
        got = {ln.split()[1]: ln for ln in lines(r)[1:]}
        check("--power: resume-latency beside the tolerance (100us, n/a, 0us, absent)",
              "resume-latency:100us" in got["a"] and "resume-latency:n/a" in got["b"] and
              "resume-latency:0us" in got["c"] and "resume-latency" not in got["d"], got)
        r = run("--root", d, "-J", "-p", "-s", "platform")

        def power(n, out={}):
            if "power" in n and n["name"] in "abcd":
                out[n["name"]] = n["power"]["pm_qos_resume_latency_us"]
            for ch in n["children"]:
                power(ch, out)
            return out
        got = power(json.loads(r.stdout)["nodes"][0]) if r.returncode == 0 else {}
        check("--power -J: pm_qos_resume_latency_us 100, \"n/a\", 0, null",
              got == {"a": 100, "b": "n/a", "c": 0, "d": None}, got)


def several_and_property(trees):
    # --explain -J: the rule and the facts, against the files of the article's tree
    root = trees["article"]
    rule_of = {"root": "root", "device": "uevent", "class-dir": "class-dir",
               "attr-group": "below-device", "container": "no-device-above"}
    classes = set(os.listdir(os.path.join(root, "class")))
    dirs = []
    for d, subdirs, _ in os.walk(os.path.join(root, "devices")):
        subdirs[:] = [x for x in subdirs if not os.path.islink(os.path.join(d, x))]
        dirs.append(d[len(os.path.realpath(root)):] if d.startswith(os.path.realpath(root))
                    else d[len(root):])
    dirs = sorted(dirs, key=walk_key)

    def is_dev(p):
        u = root + p + "/uevent"
        return os.path.isfile(u) and not os.path.islink(u)

    def nearest_dev(p):
        q = os.path.dirname(p)
        while q.startswith("/devices/"):
            if is_dev(q):
                return q
            q = os.path.dirname(q)
        return None
    r = run("--root", root, "--explain", "-J", *dirs)
    got = [json.loads(x) for x in lines(r)] if r.returncode == 0 else []
    bad = []
    for p, g in zip(dirs, got):
        f = g.get("facts", {})
        want = {"has_uevent": is_dev(p), "name_is_class": os.path.basename(p) in classes,
                "parent_is_device": is_dev(os.path.dirname(p)),
                "parent_is_virtual": os.path.dirname(p) == "/devices/virtual",
                "below_device": nearest_dev(p) is not None}
        if p == "/devices":
            want = {"has_uevent": False}
        # the eight facts the man page names, no other key
        named = ["has_uevent", "name_is_class", "parent_is_device", "parent_is_virtual",
                 "below_device", "empty", "has_device_child", "unreadable"]
        if g["path"] != p or g["rule"] != rule_of[g["kind"]] or list(f) != named or \
                any(f.get(k) != v for k, v in want.items()) or \
                g["parent"] != (nearest_dev(p) if p != "/devices" else None):
            bad.append((p, g, want))
    check(f"--explain -J with {len(dirs)} DIRs: one object each, in order, with the rule, the "
          "facts and the nearest device above as the files say",
          len(got) == len(dirs) and not bad, bad[:2])
    # several DEVICEs: each in turn; one that cannot be found is said, the others shown
    r = run("--root", root, "--parents", "leds:gta04:red:power", "/devices/nosuch",
            "i2c-dev:i2c-2")
    blocks = r.stdout.decode().split("\n\n")
    check("--parents A NOSUCH B: A's chain, then B's, separated by an empty line; exit 1 and "
          "one line for NOSUCH", r.returncode == 1 and len(blocks) == 2 and
          "gta04:red:power" in blocks[0].splitlines()[0] and
          "i2c-dev/i2c-2" in blocks[1].splitlines()[0] and r.stderr.count(b"\n") == 1,
          (r.returncode, blocks, r.stderr))
    r1 = run("--root", root, "--parents", "-J", "leds:gta04:red:power")
    r2 = run("--root", root, "--parents", "-J", "i2c-dev:i2c-2")
    r = run("--root", root, "--parents", "-J", "leds:gta04:red:power", "i2c-dev:i2c-2")
    check("--parents -J A B: A's document, then B's", r.returncode == 0 and
          r.stdout == r1.stdout + r2.stdout, r.stdout[:200])
    # --property and --value against udevadm info -q property on the live /sys
    if not shutil.which("udevadm"):
        return C.fail("udevadm is installed")
    for dev, keys in (("/sys/class/net/lo", "INTERFACE,IFINDEX"),
                      ("/sys/class/block/vda", "DEVNAME,MAJOR,DEVTYPE"),
                      ("/sys/class/block/vda", "NOSUCH")):
        if not os.path.exists(dev):
            continue
        for extra in ([], ["--value"]):
            u = subprocess.run(["udevadm", "info", "-q", "property", "--property=" + keys,
                                *extra, dev], capture_output=True, text=True)
            r = run("--properties", dev, "--property", keys, *extra)
            check(f"--properties {dev} --property {keys} {' '.join(extra)}: as udevadm info",
                  r.returncode == 0 and sorted(lines(r)) == sorted(u.stdout.splitlines()),
                  (lines(r), u.stdout))
    r = run("--properties", "/sys/class/net/lo", "--property", "IFINDEX", "--property",
            "INTERFACE", "-J")
    check("--property twice: either key; -J: an object of those",
          r.returncode == 0 and json.loads(r.stdout) == {"INTERFACE": "lo", "IFINDEX": "1"},
          r.stdout)
    for bad in (["--value", "-J"], ["--value", "--export"]):
        r = run("--properties", "/sys/class/net/lo", *bad)
        check(f"--properties {' '.join(bad)}: refused, exit 2", r.returncode == 2, r.stderr)
    r = run("--property", "X")
    check("--property without --properties: exit 2", r.returncode == 2, r.stderr)


def parents_attr_groups():
    """--parents --attrs: every attribute group's files, checked against the live /sys."""
    dev = "/sys/class/block/vda" if os.path.exists("/sys/class/block/vda") else \
        "/sys/class/net/lo"
    real = os.path.realpath(dev)
    r = run("--parents", "--attrs", "-J", dev)
    chain = json.loads(r.stdout)["chain"] if r.returncode == 0 else []
    want = {}
    for d, subdirs, files in os.walk(real):
        keep = []
        for s in subdirs:
            p = os.path.join(d, s)
            if os.path.islink(p) or os.path.isfile(os.path.join(p, "uevent")):
                continue
            if s in os.listdir("/sys/class") and any(
                    os.path.isfile(os.path.join(p, x, "uevent")) for x in os.listdir(p)):
                continue  # a class grouping directory
            keep.append(s)
        subdirs[:] = keep
        if d != real:
            want[d[len(real) + 1:]] = sorted(f for f in files
                                             if os.path.isfile(os.path.join(d, f)) and
                                             not os.path.islink(os.path.join(d, f)))
    got = {g: sorted(v) for g, v in chain[0].get("attribute_groups", {}).items()} \
        if chain else None
    check(f"--parents --attrs -J {dev}: attribute_groups holds every group below the device "
          "and each group's files, as os.walk finds them", got == want,
          sorted(set(got or {}) ^ set(want))[:5])
    r = run("--parents", "--attrs", dev)
    text = r.stdout.decode()
    import re
    check("--parents --attrs: power/runtime_status shown under its group power/",
          re.search(r"\n          power/\n(            @.*\n)*            @runtime_status = ",
                    text) is not None, text[:300])


def modules_hand():
    """MODULES against a hand-written modules.alias and the answers kmod's rules give:
    '-' and '_' are one byte outside brackets (in the pattern and the modalias), brackets
    and '?' and '*' are fnmatch's, a module is named once, the names sorted."""
    aliases = ("alias platform:efi_framebuffer efifb\n"
               "alias platform:simple-framebuffer simplefb\n"
               "alias pci:v00008086d*sv*sd*bc02sc00i* e1000e\n"
               "alias pci:v00008086d000010D3sv*sd*bc*sc*i* e1000e\n"
               "alias usb:v046Dp[!0]*d* hid_logitech\n"
               "alias usb:v046Dp?52B* logi_receiver\n"
               "alias acpi*:PNP0A0[38]:* pci_root\n"
               "alias platform:x-[a-c]_z bracket_dash\n")
    want = {"platform:efi-framebuffer": ["efifb"],
            "platform:efi_framebuffer": ["efifb"],
            "platform:simple_framebuffer": ["simplefb"],
            "pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00": ["e1000e"],
            "usb:v046DpC52Bd1200dc00": ["hid_logitech", "logi_receiver"],
            "usb:v046Dp052Bd1200dc00": ["logi_receiver"],
            "acpi:PNP0A08:": ["pci_root"],
            "acpi:PNP0A05:": [],
            "platform:x_b-z": ["bracket_dash"],
            "platform:x_d_z": []}
    with tempfile.TemporaryDirectory(prefix="sysdev-dialect-mod.") as d:
        moddir = os.path.join(d, "lib", "modules", "6.1.0-99-amd64")
        os.makedirs(moddir)
        with open(os.path.join(moddir, "modules.alias"), "w") as f:
            f.write("# Aliases extracted from modules themselves.\n" + aliases)
        t = T.Tree(os.path.join(d, "sys"))
        t.buses("platform")
        order = sorted(want)
        for i, m in enumerate(order):
            t.device("devices/platform/hand.%d" % i, "bus:platform", uevent="MODALIAS=%s\n" % m)
        r = run("--root", os.path.join(d, "sys"), "-J", "-l", "-o", "DEVPATH,MODALIAS,MODULES")
        rows = json.loads(r.stdout)["devices"] if r.returncode == 0 else []
        got = {row["modalias"]: row["modules"] for row in rows if row["modalias"]}
        check(f"MODULES of {len(want)} modaliases against a hand-written modules.alias: '-' as "
              "'_' both ways, brackets, '?', '*', each module once, sorted",
              got == want and r.stderr == b"",
              ({k: (got.get(k), v) for k, v in want.items() if got.get(k) != v}, r.stderr))
        r = run("--root", os.path.join(d, "sys"), "-l", "-o", "MODALIAS,MODULES", "-n")
        text = {ln.split()[0]: ln.split()[1:] for ln in lines(r) if ln.split()}
        check("MODULES in text: the names separated by spaces (efi-framebuffer: efifb)",
              text.get("platform:efi-framebuffer") == ["efifb"] and
              text.get("usb:v046DpC52Bd1200dc00") == ["hid_logitech", "logi_receiver"], text)


def modules_newest():
    """Of several lib/modules/VERSION directories, MODULES reads the newest in version
    order that holds a modules.alias (6.12 after 6.2, which byte order would put last;
    a newer one without the file does not count)."""
    with tempfile.TemporaryDirectory(prefix="sysdev-dialect-ver.") as d:
        for ver, module in (("6.1.0-9-amd64", "old_a"), ("6.12.0-1-amd64", "newest_b"),
                            ("6.2.0", "mid_c"), ("6.13.0", None)):
            moddir = os.path.join(d, "lib", "modules", ver)
            os.makedirs(moddir)
            if module:
                with open(os.path.join(moddir, "modules.alias"), "w") as f:
                    f.write("alias platform:vt %s\n" % module)
        t = T.Tree(os.path.join(d, "sys"))
        t.buses("platform")
        t.device("devices/platform/vt0", "bus:platform", uevent="MODALIAS=platform:vt\n")
        r = run("--root", os.path.join(d, "sys"), "-J", "-l", "-o", "DEVPATH,MODULES")
        rows = json.loads(r.stdout)["devices"] if r.returncode == 0 else []
        got = [row["modules"] for row in rows if row["devpath"] == "/devices/platform/vt0"]
        check("MODULES from the newest lib/modules version with a modules.alias (6.12.0-1-amd64)",
              got == [["newest_b"]], (got, r.stderr))


def tree_structure(r):
    """--ascii -o NAME tree output: [(path, parent path)] in the order drawn."""
    out, stack = [], []
    for ln in lines(r):
        if ln.startswith("/"):
            stack = [ln.rstrip("/").split("  ")[0].rstrip("/")]
            out.append((stack[0], None))
            continue
        i = 0
        while ln[i:i + 3] in ("|  ", "   "):
            i += 3
        level = i // 3 + 1
        name = ln[i + 3:].split("  ")[0].rstrip("/")
        stack = stack[:level] + [stack[level - 1] + "/" + name]
        out.append((stack[level], stack[level - 1]))
    return out


def tree_sort(trees):
    """-x in the tree: each node's children in the column's order (numbers by value,
    absent first, ties in the walk's order), the nodes and parents unchanged; checked
    against the files."""
    def key(v):
        return (0, 0, "") if v is None else (1, int(v), "") if v.isdigit() else (2, 0, v)

    def is_dev(root, p):
        u = root + p + "/uevent"
        return os.path.isfile(u) and not os.path.islink(u)

    def subsystem(root, p):
        return link_name(root + p + "/subsystem") if is_dev(root, p) else None

    def devname(root, p):
        if not is_dev(root, p):
            return None
        v = dict(x.split("=", 1) for x in (read_value(root + p + "/uevent") or "").splitlines()
                 if "=" in x).get("DEVNAME")
        return v

    def size(root, p):
        return read_value(root + p + "/size") if is_dev(root, p) else None

    for label in ("qemu-q35", "article", "live"):
        root = trees[label]
        base = run("--root", root, "--ascii", "-o", "NAME")
        walked = tree_structure(base)
        order = {p: i for i, (p, _) in enumerate(walked)}
        for col, get in (("SUBSYSTEM", subsystem), ("DEVNAME", devname),
                         ("ATTR:size", size), ("NAME", lambda root, p: os.path.basename(p))):
            r = run("--root", root, "--ascii", "-o", "NAME", "-x", col)
            got = tree_structure(r)
            kids = {}
            for p, parent in got:
                kids.setdefault(parent, []).append(p)
            bad = [(parent, ks) for parent, ks in kids.items()
                   if ks != sorted(ks, key=lambda p: (key(get(root, p)), order.get(p, -1)))]
            check(f"{label}: -x {col} in the tree: the same {len(walked)} nodes under the same "
                  "parents, each node's children in the column's order", r.returncode == 0 and
                  sorted(got, key=str) == sorted(walked, key=str) and not bad and
                  len(walked) > 5, (r.stderr, bad[:2]))
        # the walk's order is the names' byte order, so -x DEVPATH changes nothing
        # (-A on the live tree aside: counters change between two runs)
        for extra in ([], ["-a"], ["-A"], ["-p"], ["-s", "block"], ["-d", "3"]):
            if label == "live" and extra == ["-A"]:
                continue
            a = run("--root", root, *extra)
            b = run("--root", root, *extra, "-x", "DEVPATH")
            check(f"{label}: -x DEVPATH {' '.join(extra)}: the tree as walked, byte for byte",
                  a.returncode == b.returncode and a.stdout == b.stdout and
                  (a.stdout or extra == ["-s", "block"]), (a.returncode, b.returncode))


def main():
    tmp = tempfile.mkdtemp(prefix="sysdev-dialect.")
    try:
        trees = {"live": "/sys"}
        for name in ("qemu-q35", "qemu-pc", "qemu-virt-arm64", "host-firecracker",
                     "old-system", "edges", "article", "hand-edges"):
            d = os.path.join(tmp, name)
            subprocess.run([FIXTURE, "unpack", os.path.join(FIXTURES, name + ".sysfs"), d],
                           check=True, capture_output=True)
            trees[name] = d
        indexed(trees)
        negations(trees)
        columns_and_sort(trees)
        tree_sort(trees)
        dot(trees)
        power_resume()
        several_and_property(trees)
        parents_attr_groups()
        modules_hand()
        modules_newest()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    C.finish()


if __name__ == "__main__":
    main()
