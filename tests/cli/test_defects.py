#!/usr/bin/env python3
"""The defects a new user met (one group of checks per report), each checked
against the tree the test lays out itself, never against the tool's own
earlier output.

usage: test_defects.py SYSDEV_TREE SYSDEV_FIXTURE FIXTURES_DIR
"""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import sysdevtest as T  # noqa: E402

TOOL = os.path.abspath(sys.argv[1])
FIXTURE = os.path.abspath(sys.argv[2])
FIXTURES = os.path.abspath(sys.argv[3])
CLIENT = "/devices/platform/omap_i2c.2/i2c-2/2-0045"
C = T.Checker()


def run(*args, cwd=None, tool=None):
    return T.run([tool or TOOL, *args], cwd=cwd, env=T.environ(NO_COLOR="1"))


def one_line(err):
    return err.count(b"\n") == 1


def text_escape(data):
    """What a reader expects for bytes in text output: C-style, one line."""
    out = []
    for b in data:
        if b == 0x5c:
            out.append("\\\\")
        elif b == 0x0a:
            out.append("\\n")
        elif b == 0x09:
            out.append("\\t")
        elif 0x20 <= b < 0x7f:
            out.append(chr(b))
        else:
            out.append("\\x%02x" % b)
    return "".join(out)


def nodes_of(doc):
    out = []

    def w(n):
        out.append(n)
        for c in n["children"]:
            w(c)
    for n in doc["nodes"]:
        w(n)
    return out


def write(root, rel, data, mode=None):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    if mode is not None:
        os.chmod(p, mode)


# 1 -------------------------------------------------------------------------
def binary_attributes(root):
    # every byte value that needs escaping, NULs among them, as PCI config space has
    config = bytes([0xf4, 0x1a, 0x45, 0x10, 0x06, 0x04, 0x10, 0x00, 0x07, 0x00]) + bytes(range(256))
    write(root, CLIENT[1:] + "/config", config)
    want = "@config = " + text_escape(config)
    r = run("--root", root, "--attrs", "--depth", "0", CLIENT)
    lines = r.stdout.decode("utf-8", "surrogateescape").splitlines()
    C.check("1: --attrs text shows every byte of a binary attribute, escaped",
            r.returncode == 0 and any(line.strip() == want for line in lines),
            "\n".join(line for line in lines if "@config" in line))
    r = run("--root", root, "--parents", "--attrs", CLIENT)
    lines = r.stdout.decode("utf-8", "surrogateescape").splitlines()
    C.check("1: --parents --attrs shows every byte too",
            r.returncode == 0 and any(line.strip() == want for line in lines))
    r = run("--root", root, "--json", "--attrs", "--depth", "0", CLIENT)
    doc = json.loads(r.stdout.decode("utf-8"))
    val = doc["nodes"][0]["attributes"]["config"]
    C.check("1: --json --attrs carries every byte (NUL as \\u0000, others as \\udcXX)",
            val.encode("utf-8", "surrogateescape") == config, repr(val[:40]))
    os.unlink(os.path.join(root, CLIENT[1:], "config"))


# 2 -------------------------------------------------------------------------
def diff_moves(tmp):
    q35, pc = os.path.join(tmp, "q35"), os.path.join(tmp, "pc")
    for name, d in (("qemu-q35", q35), ("qemu-pc", pc)):
        r = run("unpack", os.path.join(FIXTURES, name + ".sysfs"), d, tool=FIXTURE)
        assert r.returncode == 0, r.stderr
    r = run("--diff", q35, pc)
    out = r.stdout.decode("utf-8", "surrogateescape")
    moved = [line for line in out.splitlines() if line.startswith("> ")]
    for name in ("wakeup7", "device:02", "host2"):
        C.check(f"2: {name} (a kernel-numbered name) is never a move between q35 and pc",
                r.returncode == 1 and not any(line.split(" -> ")[0].endswith("/" + name)
                                              for line in moved),
                "\n".join(m for m in moved if name in m))
    # hand-made: one device under two parents, told apart by what it is
    a, b = os.path.join(tmp, "mova"), os.path.join(tmp, "movb")
    for d, host in ((a, "host.0"), (b, "host.1")):
        os.makedirs(os.path.join(d, "bus/scsi"))
        os.makedirs(os.path.join(d, "class/input"))
        write(d, f"devices/platform/{host}/uevent", "")
        for name, alias in (("input3", "input:b0011v0001"), ("disk", "scsi:t-0x00"),
                            ("tape", "scsi:t-0x01" if d == a else "scsi:t-0x05"),
                            ("omap_i2c.2", "of:Ni2cT(null)Cti,omap4-i2c")):
            write(d, f"devices/platform/{host}/{name}/uevent", f"MODALIAS={alias}\n")
            os.symlink("../../../../class/input", os.path.join(d, f"devices/platform/{host}/{name}/subsystem"))
    r = run("--diff", a, b)
    out = r.stdout.decode()
    C.check("2: same name, subsystem and modalias under another parent: a move",
            "> /devices/platform/host.0/disk -> /devices/platform/host.1/disk" in out, out)
    C.check("2: a number after a dot (omap_i2c.2, a platform device id) is no counter: a move",
            "> /devices/platform/host.0/omap_i2c.2 -> /devices/platform/host.1/omap_i2c.2" in out,
            out)
    # a moved device whose driver changed too: the change names where it was
    os.makedirs(os.path.join(b, "bus/scsi/drivers/sd"))
    os.symlink("../../../../bus/scsi/drivers/sd", os.path.join(b, "devices/platform/host.1/disk/driver"))
    r = run("--diff", "--format=jsonl", a, b)
    events = [json.loads(line) for line in r.stdout.decode().splitlines()]
    changed = [e for e in events if e.get("what") == "changed"]
    C.check("2: --format=jsonl: the moved disk's driver change carries old_devpath",
            r.returncode == 1 and changed == [{
                "what": "changed", "devpath": "/devices/platform/host.1/disk",
                "old_devpath": "/devices/platform/host.0/disk", "field": "driver",
                "old": None, "new": "sd"}], events)
    os.unlink(os.path.join(b, "devices/platform/host.1/disk/driver"))
    C.check("2: a kernel-numbered name (input3) is removed + added, not moved",
            "- /devices/platform/host.0/input3" in out and "+ /devices/platform/host.1/input3" in out
            and "input3 ->" not in out, out)
    C.check("2: another modalias at the new place: removed + added, not moved",
            "- /devices/platform/host.0/tape" in out and "+ /devices/platform/host.1/tape" in out
            and "tape ->" not in out, out)
    return q35


# 3 -------------------------------------------------------------------------
def paths(root, tmp):
    def first(r):
        return r.stdout.decode().splitlines()[0] if r.stdout else ""

    r = run("--root", root, "--depth", "0", root)
    C.check("3: the root itself as START is the whole tree", r.returncode == 0 and
            first(r).startswith("/devices/  [root]"), r.stderr + r.stdout)
    for spec in (root + "/./devices/platform", root + "/devices/../devices/platform",
                 root + "//devices/platform/", root + "/class/net/lo/../../../platform"):
        r = run("--root", root, "--depth", "0", spec)
        C.check(f"3: {spec[len(root):]} resolves as realpath does",
                r.returncode == 0 and first(r).startswith("/devices/platform "), r.stderr)
    r = run("--root", root, "--depth", "0", root + "/class/net/lo/..")
    C.check("3: .. after a link applies to where the link points (physically)",
            r.returncode == 0 and first(r).startswith("/devices/virtual/net/"), r.stderr + r.stdout)
    r = run("--root", root, "--depth", "0", "platform", cwd=os.path.join(root, "devices"))
    C.check("3: a START relative to the current directory", r.returncode == 0 and
            first(r).startswith("/devices/platform "), r.stderr)
    rel = os.path.basename(root)
    r = run("--root", rel, "--depth", "0", root + "/devices/platform", cwd=os.path.dirname(root))
    C.check("3: a relative --root and an absolute START", r.returncode == 0 and
            first(r).startswith("/devices/platform "), r.stderr)
    slashed = os.path.dirname(root) + "//" + rel
    r = run("--root", slashed, "--depth", "0", root + "/devices/platform")
    C.check("3: --root spelled with '//'", r.returncode == 0 and
            first(r).startswith("/devices/platform "), r.stderr)
    r = run("--root", root, root + "/bus/platform")
    C.check("3: a path inside the root but not under devices/: one line saying so",
            r.returncode == 1 and one_line(r.stderr) and b"not under" in r.stderr and
            b"devices" in r.stderr, r.stderr)
    r = run("--root", root, "/dev/null")
    C.check("3: a device node sysfs does not list: one line naming S/dev/char/1:3",
            r.returncode == 1 and one_line(r.stderr) and b"dev/char/1:3" in r.stderr, r.stderr)
    os.symlink("/etc", os.path.join(root, "devices/platform/out"))
    r = run("--root", root, root + "/devices/platform/out")
    C.check("3: a link out of the root is refused in one line", r.returncode == 1 and
            one_line(r.stderr) and b"outside the sysfs root" in r.stderr, r.stderr)
    os.unlink(os.path.join(root, "devices/platform/out"))
    r = run("--root", root, "--parents", "virtual/net/lo", cwd=os.path.join(root, "devices"))
    C.check("3: --parents takes a relative path too", r.returncode == 0 and
            b"/devices/virtual/net/lo" in r.stdout, r.stderr)


# 4 -------------------------------------------------------------------------
def start_kinds(root):
    r = run("--root", root, "/devices/virtual/net/lo/queues")
    C.check("4: a START that is an attribute group is shown", r.returncode == 0 and
            r.stdout.decode().startswith("/devices/virtual/net/lo/queues/  [attr-group]"), r.stdout)
    r = run("--root", root, "--json", "/devices/virtual/net/lo/queues")
    doc = json.loads(r.stdout)
    C.check("4: --json START attr-group: the start node is there",
            doc["nodes"][0]["path"] == "/devices/virtual/net/lo/queues" and
            doc["nodes"][0]["kind"] == "attr-group", doc["nodes"])


# 5 -------------------------------------------------------------------------
def options(root, tmp):
    # (--parents and --explain take several DEVICEs since issue 23: test_dialect.py)
    for args, word in ((["--stats", CLIENT], b"START"),
                       (["--capture", os.path.join(tmp, "cap"), "--json"], b"--json"),
                       (["--diff", root, root], b"--root"),
                       (["--set-latency-tolerance", "5", CLIENT, "--json"], b"--json"),
                       (["--explain", CLIENT, "--depth", "1"], b"--depth"),
                       (["--stats", "--all"], b"--all")):
        r = run("--root", root, *args)
        C.check(f"5: {' '.join(a.replace(root, 'ROOT') for a in args)}: refused, exit 2, one line",
                r.returncode == 2 and word in r.stderr.splitlines()[0] and not r.stdout,
                r.stderr + r.stdout[:200])
    C.check("5: a refused --capture created nothing", not os.path.exists(os.path.join(tmp, "cap")))
    for args, word in ((["--watch", "--all"], b"--all"), (["--watch", CLIENT], b"START"),
                       (["--watch", "--receive-buffer", "0"], b"--receive-buffer"),
                       (["--watch", "--receive-buffer", "2x"], b"--receive-buffer"),
                       (["--udev"], b"--udev"),
                       (["--root", root, "--receive-buffer", "1M"], b"--receive-buffer")):
        r = run(*args)
        C.check(f"5: {' '.join(a.replace(root, 'ROOT') for a in args)}: refused, exit 2",
                r.returncode == 2 and word in r.stderr.splitlines()[0] and not r.stdout, r.stderr)
    r = run("--root", root, "--parents", "--json", "net:lo")
    try:
        doc = json.loads(r.stdout)
        ok = doc["chain"][0]["path"] == "/devices/virtual/net/lo"
    except ValueError:
        ok = False
    C.check("5: --parents does not swallow the next option", r.returncode == 0 and ok, r.stderr)
    r = run("--root", root, "--explain", "--json", "/devices/virtual/leds")
    C.check("5: --explain does not swallow the next option", r.returncode == 0 and
            json.loads(r.stdout)["kind"] == "class-dir", r.stderr)
    r = run("--root", root, "--get-latency-tolerance", CLIENT, "--json")
    want = open(os.path.join(root, CLIENT[1:], "power/pm_qos_latency_tolerance_us")).read().strip()
    try:
        doc = json.loads(r.stdout)
    except ValueError:
        doc = {}
    C.check("5: --get-latency-tolerance --json prints JSON", r.returncode == 0 and
            doc.get("pm_qos_latency_tolerance_us") == want and doc.get("path") == CLIENT, r.stdout)
    r = run("--root", root, "--subsystem", "leds", "--attrs", "--power")
    out = r.stdout.decode()
    C.check("5: --subsystem --attrs --power shows attributes and power in text",
            "@brightness = 100" in out and "power:unsupported" in out, out)


# 6 -------------------------------------------------------------------------
def closed_pipe(q35):
    pc = os.path.join(os.path.dirname(q35), "pc")
    for args in (["--root", q35, "--all"], ["--root", q35, "--json", "--all", "--attrs"],
                 ["--diff", q35, pc], ["--root", q35, "--stats"]):
        p = subprocess.Popen([TOOL, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        p.stdout.close()  # the reader is gone before the first write, as with | head -0
        err = p.stderr.read()
        rc = p.wait(timeout=120)
        C.check(f"6: {args[0]} {args[-1].replace(q35, 'Q35')} into a closed pipe: exit 0, no message",
                rc == 0 and err == b"", f"rc {rc} {err!r}")
    r = subprocess.run(f"'{TOOL}' --root '{q35}' --all | head -1", shell=True, capture_output=True,
                       executable="/bin/bash")
    C.check("6: sysdev-tree | head -1: exit 0, nothing on stderr", r.returncode == 0 and not r.stderr,
            r.stderr)


# 7 and 9 -------------------------------------------------------------------
def power_and_latency(root):
    ltf = os.path.join(root, CLIENT[1:], "power/pm_qos_latency_tolerance_us")
    write(root, CLIENT[1:] + "/power/wakeup", "enabled\n")
    r = run("--root", root, "--power", "--depth", "0", CLIENT)
    C.check("7: --power text shows wakeup", b" wakeup:enabled" in r.stdout, r.stdout)
    for content in (" 5\n", "-5\n", ""):
        write(root, CLIENT[1:] + "/power/pm_qos_latency_tolerance_us", content)
        t = run("--root", root, "--power", "--depth", "0", CLIENT).stdout.decode()
        j = json.loads(run("--root", root, "--json", "--power", "--depth", "0", CLIENT).stdout)
        p = j["nodes"][0]["power"]
        shown = "'" + content.rstrip("\n") + "'"
        C.check(f"7: a tolerance file holding {content!r} is shown as invalid, in text and JSON",
                f"latency-tolerance:invalid({shown}" in t and
                p["pm_qos_latency_tolerance_us"] == "invalid" and
                p["pm_qos_latency_tolerance_text"] == content.rstrip("\n"), t + json.dumps(p))
    os.unlink(ltf)
    msgs = []
    for kind in ("dir", "fifo"):
        if kind == "dir":
            os.mkdir(ltf)
        else:
            os.mkfifo(ltf)
        g = run("--root", root, "--get-latency-tolerance", CLIENT)
        s = run("--root", root, "--set-latency-tolerance", "5", CLIENT)
        gm = g.stderr.split(b": ", 2)[-1]
        sm = s.stderr.split(b": ", 2)[-1]
        C.check(f"9: a {kind} in place of the attribute: get and set say the same, one line",
                g.returncode == 1 and s.returncode == 1 and gm == sm and one_line(g.stderr) and
                b"not a regular file" in gm, g.stderr + s.stderr)
        msgs.append(gm)
        if kind == "dir":
            os.rmdir(ltf)
        else:
            os.unlink(ltf)
    write(root, CLIENT[1:] + "/power/pm_qos_latency_tolerance_us", "auto\n")
    r = run("--root", root, "--set-latency-tolerance", "5", "block:sda")
    C.check("9: a driverless class device is told it has no driver", r.returncode == 1 and
            b"has no driver" in r.stderr and b"its driver" not in r.stderr and one_line(r.stderr),
            r.stderr)
    r = run("--root", root, "--get-latency-tolerance", "/devices/platform/omap_i2c.2")
    C.check("9: a device whose driver lacks it is told so, naming the driver", r.returncode == 1 and
            b"'omap_i2c'" in r.stderr, r.stderr)


# 10 ------------------------------------------------------------------------
def depth(root):
    for bad in (" 1", "1 ", "+1", "-0", "0x1", "8193"):
        r = run("--root", root, "--depth", bad)
        C.check(f"10: --depth {bad!r} refused, exit 2", r.returncode == 2 and one_line(r.stderr),
                r.stderr)
    r = run("--root", root, "--depth", "8192")
    C.check("10: --depth 8192 (the documented limit) accepted", r.returncode == 0, r.stderr)
    r = run("--root", root, "--json", "--all", "--depth", "1", "/devices/virtual")
    doc = json.loads(r.stdout)
    # the filesystem says which nodes at the limit have subdirectories
    for n in doc["nodes"][0]["children"]:
        subdirs = [e for e in os.scandir(os.path.join(root, n["path"][1:]))
                   if e.is_dir(follow_symlinks=False)]
        C.check(f"10: {n['path']} at the depth limit: truncated exactly when it has subdirectories",
                n.get("truncated", False) == bool(subdirs) and n["children"] == [], n)
    C.check("10: the start is not truncated", "truncated" not in doc["nodes"][0])
    r = run("--root", root, "--depth", "1", "/devices/virtual")
    lines = r.stdout.decode().splitlines()
    C.check("10: text marks a node cut by --depth", any(line.endswith("[truncated]") and "net/" in line
                                                        for line in lines), lines)


# 11 ------------------------------------------------------------------------
def devnum(root):
    d = "/devices/virtual/misc/nodev"
    os.makedirs(os.path.join(root, "class/misc"), exist_ok=True)
    T.Tree(root).device(d, "class:misc", None, "MAJOR=10\nMINOR=99\nDEVNAME=nodev\n")
    t = run("--root", root, "--depth", "0", d).stdout.decode()
    j = json.loads(run("--root", root, "--json", "--depth", "0", d).stdout)["nodes"][0]
    C.check("11: MAJOR/MINOR in uevent without a dev file: text and JSON agree (no number)",
            "(10:99)" not in t and "/dev/nodev" not in t and j["devnum"] is None and
            j["devname"] is None, t + json.dumps(j))
    write(root, d[1:] + "/dev", "10:99\n")
    t = run("--root", root, "--depth", "0", d).stdout.decode()
    j = json.loads(run("--root", root, "--json", "--depth", "0", d).stdout)["nodes"][0]
    C.check("11: with the dev file both show it", "/dev/nodev (10:99)" in t and
            j["devnum"] == "10:99" and j["devname"] == "nodev", t + json.dumps(j))
    shutil.rmtree(os.path.join(root, d[1:]))
    os.unlink(os.path.join(root, "class/misc/nodev"))


# 12 ------------------------------------------------------------------------
def fixture_tool(tmp):
    bad = os.path.join(tmp, "bad.sysfs")
    with open(bad, "w") as f:
        f.write('sysdev-archive 1\nd 0755 "a"\nf 0644 "a/x" "1"\nthis is no entry\n')
    dest = os.path.join(tmp, "unpacked")
    r = run("unpack", bad, dest, tool=FIXTURE)
    C.check("12: a failed unpack removes the directory it created", r.returncode == 1 and
            not os.path.exists(dest) and one_line(r.stderr), r.stderr)
    os.mkdir(dest)
    r = run("unpack", bad, dest, tool=FIXTURE)
    C.check("12: ... and empties a directory it was given", r.returncode == 1 and
            os.path.isdir(dest) and os.listdir(dest) == [], os.listdir(dest))
    r = run("--version", tool=FIXTURE)
    C.check("12: sysdev-fixture --version", r.returncode == 0 and r.stdout.startswith(b"sysdev-fixture "),
            r.stderr)


# stats: devices with no subsystem -------------------------------------------
def stats_no_subsystem(root):
    none = 0
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, "devices")):
        ue = os.path.join(dirpath, "uevent")
        if os.path.isfile(ue) and not os.path.islink(ue) and \
                not os.path.islink(os.path.join(dirpath, "subsystem")):
            none += 1
    j = json.loads(run("--root", root, "--stats", "--json").stdout)
    t = run("--root", root, "--stats").stdout.decode()
    C.check("stats: devices without a subsystem are counted (JSON)", j.get("no_subsystem") == none,
            f"{j.get('no_subsystem')} vs {none}")
    C.check("stats: and in text", f"{none:7d} (no subsystem)" in t, t[-200:])
    C.check("stats: the rows add up to the devices",
            sum(j["subsystems"].values()) + j.get("no_subsystem", 0) == j["kinds"]["device"])


def main():
    tmp = tempfile.mkdtemp(prefix="sysdev-defects-")
    try:
        root = os.path.join(tmp, "article")
        os.mkdir(root)
        T.article(root)
        binary_attributes(root)
        q35 = diff_moves(tmp)
        paths(root, tmp)
        start_kinds(root)
        options(root, tmp)
        closed_pipe(q35)
        power_and_latency(root)
        depth(root)
        devnum(root)
        fixture_tool(tmp)
        stats_no_subsystem(root)
    finally:
        for dirpath, dirnames, _ in os.walk(tmp):
            for d in dirnames:
                try:
                    os.chmod(os.path.join(dirpath, d), 0o755)
                except OSError:
                    pass
        shutil.rmtree(tmp, ignore_errors=True)
    return C.summary()


if __name__ == "__main__":
    sys.exit(main())
