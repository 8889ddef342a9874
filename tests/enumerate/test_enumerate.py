#!/usr/bin/env python3
"""The enumerator against references it does not share code with: the
filesystem read with os/readlink (every match), libudev (the live tree), and
its own full walk (the indexed scan must give the same answer on every tree
the kernel made; on hand-made trees the differences are exactly the devices
whose subsystem link and index entry disagree, as libsysdev(3) says).

usage: test_enumerate.py ENUMTOOL FIXTURES_DIR SYSDEV_FIXTURE
"""
import fnmatch
import os
import subprocess
import sys
import tempfile
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import sysdevtest as T  # noqa: E402

TOOL, FIXTURES, FIXTURE = (os.path.abspath(a) for a in sys.argv[1:4])
REAL = ["qemu-q35", "qemu-pc", "qemu-virt-arm64", "host-firecracker", "old-system"]
HANDMADE = ["article", "edges"]
C = T.Checker()


def run(*args):
    return T.run([TOOL, *args], text=True, timeout=300)


def listed(root, *matches):
    r = run("list", root, *matches)
    assert r.returncode == 0, r.stderr
    return [line.split(" ")[0] for line in r.stdout.splitlines()]


# ---- the reference: the tree as plain file reads see it ----------------------
def devices(root):
    """devpath -> fields, for every directory holding a regular uevent file."""
    out = {}
    top = os.path.join(root, "devices")
    for dirpath, dirnames, filenames in os.walk(top):
        ue = os.path.join(dirpath, "uevent")
        if not (os.path.isfile(ue) and not os.path.islink(ue)) or dirpath == top:
            continue
        devpath = dirpath[len(root):]
        props = {}
        try:
            for line in open(ue, errors="surrogateescape").read().splitlines():
                k, eq, v = line.partition("=")
                if eq and k:
                    props.setdefault(k, v)
        except OSError:
            pass

        def link_base(name):
            p = os.path.join(dirpath, name)
            return os.path.basename(os.readlink(p).rstrip("/")) if os.path.islink(p) else None
        out[devpath] = {"subsystem": link_base("subsystem"), "driver": link_base("driver"),
                        "props": props, "dir": dirpath}
    return out


def linked(root):
    """devpaths that an entry of S/class/* or S/bus/*/devices links to, by subsystem."""
    res = {}
    for top, sub in (("class", ""), ("bus", "devices")):
        base = os.path.join(root, top)
        if not os.path.isdir(base):
            continue
        for name in os.listdir(base):
            d = os.path.join(base, name, sub)
            if not os.path.isdir(d) or os.path.islink(d):
                continue
            for e in os.listdir(d):
                p = os.path.join(d, e)
                if os.path.islink(p):
                    t = os.path.normpath(os.path.join(d, os.readlink(p)))
                    res.setdefault(name, set()).add(t[len(root):])
    return res


def walk_order(paths):
    return sorted(paths, key=lambda p: [c.encode("utf-8", "surrogateescape") for c in p.split("/")])


def attr(devdir, name):
    try:
        with open(os.path.join(devdir, name), "rb") as f:
            v = f.read()
    except OSError:
        return None
    return v[:-1] if v.endswith(b"\n") else v


def expected(root, devs, pred):
    """The devices pred selects among those libudev can list: every one with a
    subsystem link (without one, only sysdev_enumerator_allow_no_subsystem())."""
    return walk_order([p for p, f in devs.items() if f["subsystem"] and pred(p, f)])


def main():
    tmp = tempfile.mkdtemp(prefix="sysdev-enum-")
    try:
        # 1. indexed == walked on every tree a kernel made
        trees = {"/sys": "/sys"}
        for name in REAL + HANDMADE:
            d = os.path.join(tmp, name)
            r = subprocess.run([FIXTURE, "unpack", os.path.join(FIXTURES, name + ".sysfs"), d],
                               capture_output=True)
            assert r.returncode == 0, r.stderr
            trees[name] = d
        for name in ["/sys"] + REAL:
            r = run("compare", trees[name])
            C.check(f"{name}: the indexed scan of every subsystem equals the full walk",
                    r.returncode == 0 and "0 differ" in r.stdout, r.stdout[-3000:])
        # 2. on hand-made trees: differences are the devices whose link and index disagree
        for name in HANDMADE:
            root = trees[name]
            devs, links = devices(root), linked(root)
            subs = {f["subsystem"] for f in devs.values() if f["subsystem"]}
            for s in sorted(subs):
                a = set(listed(root, f"subsystem={s}"))
                b = set(listed(root, "--full", f"subsystem={s}"))
                disagree = {p for p, f in devs.items() if f["subsystem"] == s and
                            p not in links.get(s, set())}
                C.check(f"{name}: subsystem {s}: indexed and walked differ exactly where the "
                        "subsystem link has no index entry",
                        b - a == disagree and a - b == set(), f"{sorted(b - a)} vs {sorted(disagree)}")
        # foreach hands out what scan keeps, in the same order
        for name, matches in (("qemu-q35", ()), ("qemu-q35", ("subsystem=block",)),
                              ("article", ("parent=/devices/platform",))):
            f = subprocess.run([TOOL, "foreach", trees[name], *matches], capture_output=True,
                               text=True).stdout.split()
            C.check(f"{name} {' '.join(matches)}: foreach gives what scan gives, in order",
                    f == listed(trees[name], *matches), f"{len(f)} devices")
        # 3. libudev agrees on the live tree, subsystem by subsystem
        devs = devices("/sys")
        for s in sorted({f["subsystem"] for f in devs.values() if f["subsystem"]}):
            u = subprocess.run([TOOL, "udev-list", s], capture_output=True, text=True).stdout.split()
            mine = listed("/sys", f"subsystem={s}")
            C.check(f"live: subsystem {s}: the same devices as libudev", set(mine) == set(u),
                    f"only libsysdev {sorted(set(mine) - set(u))[:5]} only libudev "
                    f"{sorted(set(u) - set(mine))[:5]}")
        # 4. every match against the filesystem, on the article's tree and q35
        art = os.path.join(tmp, "art")
        os.mkdir(art)
        T.article(art)
        # a class's attribute among its entries, as the kernel's S/class/firmware/timeout:
        # a regular file, no device (the unlinked match reads past it)
        os.makedirs(os.path.join(art, "class", "firmware"), exist_ok=True)
        with open(os.path.join(art, "class", "firmware", "timeout"), "w") as f:
            f.write("60\n")
        for root in (art, trees["qemu-q35"]):
            devs = devices(root)
            tag = "article" if root == art else "q35"
            cases = [
                ((), lambda p, f: True),
                (("subsystem=block",), lambda p, f: f["subsystem"] == "block"),
                (("subsystem=block", "subsystem=net"), lambda p, f: f["subsystem"] in ("block", "net")),
                (("nosubsystem=platform",), lambda p, f: f["subsystem"] != "platform"),
                (("sysname=*0*",), lambda p, f: fnmatch.fnmatchcase(p.rsplit("/", 1)[1], "*0*")),
                (("nosysname=*0*",), lambda p, f: not fnmatch.fnmatchcase(p.rsplit("/", 1)[1], "*0*")),
                (("nosysname=*0*", "nosysname=i2c*", "sysname=*[0-9]"),
                 lambda p, f: not fnmatch.fnmatchcase(p.rsplit("/", 1)[1], "*0*") and
                 not p.rsplit("/", 1)[1].startswith("i2c") and p[-1].isdigit()),
                (("nosysattr=power/runtime_status=active",),
                 lambda p, f: attr(f["dir"], "power/runtime_status") != b"active"),
                (("nosysattr=dev", "nosysattr=power/control=au*"),
                 lambda p, f: attr(f["dir"], "dev") is None and
                 not (attr(f["dir"], "power/control") or b"").startswith(b"au")),
                (("driver=*i2c*",), lambda p, f: f["driver"] and fnmatch.fnmatchcase(f["driver"], "*i2c*")),
                (("devtype=disk",), lambda p, f: f["props"].get("DEVTYPE") == "disk"),
                (("property=DEVTYPE=part*", "property=INTERFACE=*"),
                 lambda p, f: fnmatch.fnmatchcase(f["props"].get("DEVTYPE", "\0"), "part*") or
                 "INTERFACE" in f["props"]),
                (("sysattr=power/runtime_status=active",),
                 lambda p, f: attr(f["dir"], "power/runtime_status") == b"active"),
                (("sysattr=power/runtime_status", "sysattr=dev"),
                 lambda p, f: attr(f["dir"], "power/runtime_status") is not None and
                 attr(f["dir"], "dev") is not None),
                # a property, or else the attribute of that name; several: all hold
                (("value=DEVTYPE=disk",), lambda p, f: f["props"].get("DEVTYPE") == "disk"),
                (("value=runtime_status=*",), lambda p, f: False),
                (("value=dev=8:*", "value=DEVTYPE=*"),
                 lambda p, f: (f["props"].get("dev") or (attr(f["dir"], "dev") or b"")
                               .decode()).startswith("8:") and "DEVTYPE" in f["props"]),
                (("value=power/runtime_status=a*",),
                 lambda p, f: f["props"].get("power/runtime_status") is None and
                 (attr(f["dir"], "power/runtime_status") or b"").startswith(b"a")),
                (("parent=/devices/platform",), lambda p, f: p == "/devices/platform" or
                 p.startswith("/devices/platform/")),
                (("parent=/devices/platform", "subsystem=block"), lambda p, f:
                 p.startswith("/devices/platform/") and f["subsystem"] == "block"),
                (("placement=virtual",), lambda p, f: p.startswith("/devices/virtual/")),
                (("placement=system",), lambda p, f: p.startswith("/devices/system/")),
                (("unlinked",), lambda p, f: not any(p in v for v in linked(root).values())),
                (("subsystem=block", "unlinked"), lambda p, f: False),
            ]
            for matches, pred in cases:
                want = expected(root, devs, pred)
                got = listed(root, *matches)
                C.check(f"{tag}: {' '.join(matches) or 'no match'}: the devices the files say, "
                        "in the walk's order", got == want,
                        f"got {len(got)} want {len(want)}; extra {sorted(set(got) - set(want))[:5]} "
                        f"missing {sorted(set(want) - set(got))[:5]}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return C.summary()


if __name__ == "__main__":
    sys.exit(main())
