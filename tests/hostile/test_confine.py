#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Nothing is read or written outside the root (issue 18 items 6 and 7,
issue 19 items 5 and 10).

  confine     a --root tree with links planted to files and directories
              outside it (each holding a marker): no mode's output (tree,
              list, JSON, --attrs, --stats in text, JSON and OpenMetrics,
              --check-udev, --properties, --parents, --capture and
              sysdev-fixture capture) contains a marker, while the links
              that stay inside the root are still followed.
  hardlink    --set-latency-tolerance on a file with a second hard link
              outside the tree: refused in one line, the outside file
              unchanged; the same file without the second link is written.
  archive     --set-latency-tolerance on an archive root: refused in one
              line, non-zero exit, the archive unchanged.
  searchable  a device directory with mode 0711, seen by another user
              (uid 65534 when run as root): its subsystem, driver and
              properties are still read, -s finds it, --properties and
              --parents below it work.

Usage: test_confine.py SYSDEV-TREE SYSDEV-FIXTURE [CASE...]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402

C = T.Checker()
MARKERS = (b"MARKER_OUTSIDE_FILE", b"MARKER_OUTSIDE_NAME", b"MARKER_OUTSIDE_STATUS")
NOBODY = "65534"
# where setpriv is missing: drop to the uid and gid, no supplementary groups, then exec
DROP_PRIVILEGES = ("import os, sys; u = int(sys.argv[1]); os.setgroups([]); os.setgid(u); "
                   "os.setuid(u); os.execvp(sys.argv[2], sys.argv[2:])")


def run(args, user=None, timeout=120):
    cmd = [str(a) for a in args]
    if user and shutil.which("setpriv"):
        cmd = ["setpriv", "--reuid=" + user, "--regid=" + user, "--clear-groups", "--"] + cmd
    elif user:
        cmd = [sys.executable, "-c", DROP_PRIVILEGES, user] + cmd
    p = subprocess.run(cmd, capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def one_line(err):
    lines = err.decode("utf-8", "replace").splitlines()
    return len(lines) == 1 and lines[0].startswith("sysdev-tree: ")


def outside(tmp):
    """Files and directories outside the root, each with a marker in its
    contents or in the names it holds (never in a link text of the root)."""
    o = os.path.join(tmp, "outside")
    t = T.Tree(o)
    t.file("secret", "MARKER_OUTSIDE_FILE\n")
    t.device("dev1", uevent="MARKER_OUTSIDE_FILE=1\nMAJOR=8\nMINOR=0\n",
             status="MARKER_OUTSIDE_STATUS\n")
    t.file("dev1/dev", "8:0\n")
    t.device("dev1/MARKER_OUTSIDE_NAME", uevent="", status="MARKER_OUTSIDE_STATUS\n")
    t.device("dir/MARKER_OUTSIDE_NAME", uevent="MARKER_OUTSIDE_FILE=1\n",
             status="MARKER_OUTSIDE_STATUS\n")
    return o


def confined_tree(tmp):
    r = os.path.join(tmp, "root")
    o = outside(tmp)
    t = T.Tree(r)
    t.dirs("devices/platform", "devices/virtual")
    t.device("devices/platform/d1", subsystem="bus:platform", driver="drv",
             uevent="DRIVER=drv\nMODALIAS=platform:d1\n", status="active\n")
    t.link("class/cc/d1", "../../devices/platform/d1")
    # inside the root through an absolute /sys link: still followed (counts "active" again)
    t.link("class/cc2", "/sys/class/cc")
    # out of the root: a status file, devices, directories, a bus, index entries, attributes
    t.dir("class/evil/x/power")
    t.link("class/evil/x/power/runtime_status", os.path.join(o, "secret"))
    t.link("class/evil/y", "../../../outside/dev1")
    t.link("class/outabs", os.path.join(o, "dir"))
    t.link("class/outrel", "../../outside/dir")
    t.link("bus/platform/devices/esc", "../../../../outside/dev1")
    t.link("bus/evilbus", os.path.join(o, "dir"))
    t.link("dev/block/8:0", os.path.join(o, "dev1"))
    t.link("dev/char/1:1", "../../../outside/dev1")
    t.link("devices/platform/d1/secretattr", os.path.join(o, "secret"))
    t.link("devices/platform/d1/outdir", "../../../../outside/dir")
    t.link("devices/platform/d1/outdev", "../../../../outside/dev1")
    t.link("devices/platform/d1/power/control", os.path.join(o, "secret"))
    return r


def files_of(top):
    """Every name, file content and link text below @top, as bytes."""
    out = []
    for dirpath, dirs, files in os.walk(top):
        for n in dirs + files:
            p = os.path.join(dirpath, n)
            out.append(n.encode())
            if os.path.islink(p):
                out.append(os.readlink(p).encode())
            elif os.path.isfile(p):
                with open(p, "rb") as f:
                    out.append(f.read())
    return b"\n".join(out)


def case_confine(tree, fixture, tmp):
    r = confined_tree(tmp)
    runs = [
        [], ["--json"], ["-l"], ["--all", "--attrs", "--power"],
        ["--json", "--all", "--attrs", "--power"], ["-s", "platform"], ["--unlinked"],
        ["--stats"], ["--stats", "--json"], ["--stats", "--format=openmetrics"],
        ["--check-udev"], ["--check-udev", "--json", "--all"],
        ["--properties", "cc:d1"], ["--properties", "evil:y"], ["--properties", "platform:esc"],
        ["--properties", "/dev/sda"], ["--parents", "evil:y"], ["--parents", "/dev/block/8:0"],
        ["--properties", "/devices/platform/d1/outdev"], ["--properties", "b8:0"],
        ["--explain", "/devices/platform/d1/outdir"], ["/devices/platform/d1/outdev"],
        ["--get-latency-tolerance", "evil:y"],
    ]
    for args in runs:
        rc, out, err = run([tree, "--root", r] + args)
        leaked = [m.decode() for m in MARKERS if m in out or m in err]
        C.check("%s: no marker from outside the root (exit %d)" % (" ".join(args) or "tree", rc),
                not leaked and rc >= 0, "leaked %s: %r %r" % (leaked, out[-300:], err[-300:]))
    # the links inside the root are still followed: d1's "active" through
    # class/cc/d1 and through the absolute /sys/class/cc link, once each
    rc, out, err = run([tree, "--root", r, "--stats", "--json"])
    try:
        doc = json.loads(out)
        status = doc["runtime_status"]["class"]
    except (ValueError, KeyError, TypeError):
        status = None
    C.check("--stats still follows the class links inside the root: active 2 (%r)" % (status,),
            status == {"active": 2})
    rc, out, err = run([tree, "--root", r, "--properties", "cc:d1"])
    C.check("a class link inside the root leads to its device", rc == 0 and b"DRIVER=drv" in out,
            "%d %r" % (rc, err))
    rc, out, err = run([tree, "--root", r, "--properties", "evil:y"])
    C.check("a class link out of the root is no device: one line, exit 1", rc == 1 and one_line(err),
            "%d %r" % (rc, err))
    # captures copy what they read: nothing from outside in them
    cap = os.path.join(tmp, "cap")
    rc, out, err = run([tree, "--root", r, "--capture", cap])
    got = files_of(cap) if os.path.isdir(cap) else b""
    C.check("--capture: no marker in the copy (exit %d)" % rc,
            os.path.isdir(cap) and not any(m in got for m in MARKERS), err[-300:])
    arch = os.path.join(tmp, "cap.sysfs")
    rc, out, err = run([fixture, "capture", "--root", r, "--full", arch])
    data = open(arch, "rb").read() if os.path.exists(arch) else b""
    C.check("sysdev-fixture capture --full: no marker in the archive (exit %d)" % rc,
            not any(m in data + out + err for m in MARKERS), err[-300:])


def lt_tree(tmp, name):
    r = os.path.join(tmp, name)
    t = T.Tree(r)
    t.dirs("devices/platform", "class")
    t.device("devices/platform/d1", subsystem="bus:platform", driver="drv", uevent="DRIVER=drv\n")
    t.file("devices/platform/d1/power/pm_qos_latency_tolerance_us", "auto\n")
    return r, t


def case_hardlink(tree, fixture, tmp):
    r, t = lt_tree(tmp, "hl")
    victim = os.path.join(tmp, "victim")
    with open(victim, "w") as f:
        f.write("VICTIM\n")
    attr = os.path.join(r, "devices/platform/d1/power/pm_qos_latency_tolerance_us")
    os.unlink(attr)
    os.link(victim, attr)
    rc, out, err = run([tree, "--root", r, "--set-latency-tolerance", "5", "/devices/platform/d1"])
    C.check("a hard-linked attribute is refused: exit 1, one line (%d %r)" % (rc, err),
            rc == 1 and one_line(err) and b"hard link" in err)
    with open(victim) as f:
        C.check("the file outside the tree is unchanged", f.read() == "VICTIM\n")
    # the same attribute with one name only is written
    os.unlink(attr)
    t.file("devices/platform/d1/power/pm_qos_latency_tolerance_us", "auto\n")
    rc, out, err = run([tree, "--root", r, "--set-latency-tolerance", "5", "/devices/platform/d1"])
    with open(attr) as f:
        written = f.read()
    C.check("an attribute with one link is written (%d %r %r)" % (rc, err, written),
            rc == 0 and written == "5\n")


def case_archive(tree, fixture, tmp):
    mem = T.Tree()
    mem.dirs("devices/platform", "class")
    mem.device("devices/platform/d1", subsystem="bus:platform", driver="drv", uevent="DRIVER=drv\n")
    mem.file("devices/platform/d1/power/pm_qos_latency_tolerance_us", "auto\n")
    arch = os.path.join(tmp, "lt.sysfs")
    with open(arch, "w") as f:
        f.write(mem.archive())
    before = open(arch, "rb").read()
    rc, out, err = run([tree, "--root", arch, "--get-latency-tolerance", "/devices/platform/d1"])
    C.check("the archive root is readable: auto (%d %r)" % (rc, err), rc == 0 and out == b"auto\n")
    rc, out, err = run([tree, "--root", arch, "--set-latency-tolerance", "5", "/devices/platform/d1"])
    C.check("--set-latency-tolerance on an archive root: non-zero exit, one line (%d %r)" % (rc, err),
            rc != 0 and one_line(err) and arch.encode() in err)
    C.check("the archive is unchanged", open(arch, "rb").read() == before)


def copy_for_user(tree, tmp):
    """A copy of the CLI and its library that uid 65534 can run."""
    d = os.path.join(tmp, "bin")
    for sub in ("tools", "src"):
        os.makedirs(os.path.join(d, sub))
    shutil.copy2(tree, os.path.join(d, "tools"))
    libdir = os.path.join(os.path.dirname(tree), "..", "src")
    for n in os.listdir(libdir):
        if n.startswith("libsysdev.so") and not n.endswith(".p"):
            shutil.copy2(os.path.join(libdir, n), os.path.join(d, "src"), follow_symlinks=False)
    for dirpath, dirs, files in os.walk(tmp):
        os.chmod(dirpath, 0o755)
    return os.path.join(d, "tools", os.path.basename(tree))


def case_searchable(tree, fixture, tmp):
    user = None
    if os.geteuid() == 0:
        # root reads any directory: look as nobody, from a copy it can run
        user = NOBODY
        os.chmod(tmp, 0o755)
        tree = copy_for_user(tree, tmp)
    r = os.path.join(tmp, "sr")
    t = T.Tree(r)
    t.dirs("devices/platform", "class")
    t.device("devices/platform/d1", subsystem="bus:platform", driver="drv",
             uevent="DRIVER=drv\nMODALIAS=platform:d1\nMAJOR=10\nMINOR=1\n", power=False)
    t.file("devices/platform/d1/dev", "10:1\n")
    t.device("devices/platform/d1/child", uevent="CHILDKEY=1\n", power=False)
    for dirpath, dirs, files in os.walk(r):
        os.chmod(dirpath, 0o755)
        for f in files:
            os.chmod(os.path.join(dirpath, f), 0o644)
    os.chmod(os.path.join(r, "devices/platform/d1"), 0o711)
    rc, out, err = run([tree, "--root", r, "--json"], user=user)
    try:
        nodes = {}

        def walk(ns):
            for n in ns:
                nodes[n["path"]] = n
                walk(n.get("children", []))
        walk(json.loads(out)["nodes"])
        d1 = nodes.get("/devices/platform/d1", {})
    except (ValueError, KeyError, TypeError):
        d1 = {}
    C.check("0711: the device keeps its subsystem, driver and device number (%r)" % (d1,),
            d1.get("kind") == "device" and d1.get("subsystem") == "platform"
            and d1.get("driver") == "drv" and d1.get("devnum") == "10:1")
    C.check("0711: it is marked unreadable (its entries cannot be listed)", bool(d1.get("error")))
    rc, out, err = run([tree, "--root", r, "-s", "platform", "-l", "-o", "DEVPATH,DRIVER"], user=user)
    C.check("0711: -s platform finds it (%d %r %r)" % (rc, out, err),
            b"/devices/platform/d1 " in out and b"drv" in out)
    rc, out, err = run([tree, "--root", r, "--properties", "/devices/platform/d1"], user=user)
    C.check("0711: --properties of it (%d %r)" % (rc, err),
            rc == 0 and b"SUBSYSTEM=platform\n" in out and b"MODALIAS=platform:d1\n" in out)
    rc, out, err = run([tree, "--root", r, "--properties", "/devices/platform/d1/child"], user=user)
    C.check("0711: --properties below it (%d %r)" % (rc, err), rc == 0 and b"CHILDKEY=1\n" in out)
    rc, out, err = run([tree, "--root", r, "--parents", "/devices/platform/d1/child"], user=user)
    C.check("0711: --parents below it names it with its subsystem (%d %r)" % (rc, err),
            rc == 0 and b"/devices/platform/d1\n" in out and b"platform (bus)" in out)
    rc, out, err = run([tree, "--root", r, "--properties", "platform:d1"], user=user)
    C.check("0711: found through its bus entry (%d %r)" % (rc, err), rc == 0 and b"DRIVER=drv" in out)
    return 0


CASES = {"confine": case_confine, "hardlink": case_hardlink, "archive": case_archive,
         "searchable": case_searchable}


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    tree, fixture = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    names = sys.argv[3:] or list(CASES)
    for name in names:
        tmp = tempfile.mkdtemp(prefix="sysdev-confine-")
        try:
            print("== %s" % name, flush=True)
            CASES[name](tree, fixture, tmp)
        finally:
            for dirpath, dirs, files in os.walk(tmp):
                os.chmod(dirpath, 0o755)
            shutil.rmtree(tmp, ignore_errors=True)
    return C.summary()


if __name__ == "__main__":
    sys.exit(main())
