#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""--root in its three forms, the archive's private directory, and --diff --format=jsonl.

- a directory holding devices/, a system root holding sys/devices/ (as
  lsblk --sysroot takes) and a .sysfs archive give the same walk;
- an archive is unpacked under $TMPDIR and nothing is left there after an
  error, SIGINT, SIGTERM, SIGHUP, a closed pipe, or a worker killed outright;
  the exit status is the worker's (or its signal); the program is started
  with those signals at their default (as the test may itself run under
  nohup, which ignores SIGHUP);
- a signal ignored when the program starts stays ignored, in the guard and
  the worker (/proc/PID/status): sent to the program and its group it
  changes nothing, the whole output comes and nothing is left;
- the library installs no signal handler (strace: only the CLI's SIGPIPE
  ignore when the root is a directory);
- --diff OLD NEW --format=jsonl prints one object per change, checked
  against hand-written expectations, also with archives as OLD and NEW;
- options that do not apply are refused with exit 2.

Usage: test_roots.py SYSDEV_TREE SYSDEV_FIXTURE FIXTURES_DIR
"""
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import time

from common import C, sysfs_oracle  # noqa: E402
import sysdevtest as T  # noqa: E402  (common.py puts tests/lib on the path)

TREE, FIXTURE, FIXTURES = sys.argv[1:4]
F_SETPIPE_SZ = 1031


def without_sysfs(text):
    doc = json.loads(text)
    doc.pop("sysfs", None)
    return doc


def env_tmp(tmpdir):
    return dict(os.environ, TMPDIR=tmpdir)


def children(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


GUARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)


def dispositions(ignored):
    """For preexec_fn: the guarded signals at their default, whatever this test
    inherited (nohup ignores SIGHUP), but those of ignored ignored."""
    def preexec():
        for sig in GUARDED:
            signal.signal(sig, signal.SIG_IGN if sig in ignored else signal.SIG_DFL)
    return preexec


def ignored_mask(pid):
    """The signals pid ignores and those it catches, from /proc/PID/status."""
    with open("/proc/%d/status" % pid) as f:
        fields = dict(line.split(":\t", 1) for line in f if ":\t" in line)
    return [{s for s in GUARDED if int(fields[k], 16) >> (s - 1) & 1} for k in ("SigIgn", "SigCgt")]


def blocked_run(args, tmpdir, ignored=()):
    """Start sysdev-tree writing into a 4 KiB pipe nobody reads, the signals of
    ignored ignored and the other guarded ones at their default; return when
    it is blocked on the full pipe (the archive is unpacked by then)."""
    r, w = os.pipe()
    fcntl.fcntl(w, F_SETPIPE_SZ, 4096)
    proc = subprocess.Popen(args, stdout=w, stderr=subprocess.PIPE, env=env_tmp(tmpdir),
                            start_new_session=True, preexec_fn=dispositions(ignored))
    os.close(w)
    deadline = time.monotonic() + 120
    buf = bytearray(4)
    while time.monotonic() < deadline:
        fcntl.ioctl(r, termios.FIONREAD, buf)
        if int.from_bytes(buf, sys.byteorder) >= 4096 or proc.poll() is not None:
            break
        time.sleep(0.05)
    return proc, r


def main():
    tmp = tempfile.mkdtemp(prefix="sysdev-roots.")
    tmpdir = os.path.join(tmp, "tmpdir")
    os.mkdir(tmpdir)
    big = os.path.join(FIXTURES, "qemu-q35.sysfs")
    try:
        # --- the three forms of --root
        plain = os.path.join(tmp, "plain")
        rc, _, err = T.run3([FIXTURE, "unpack", big, plain], timeout=300)
        C.check("unpack the q35 fixture", rc == 0, err)
        sysroot = os.path.join(tmp, "sysroot")
        os.makedirs(os.path.join(sysroot, "etc"))
        rc, _, err = T.run3([FIXTURE, "unpack", big, os.path.join(sysroot, "sys")], timeout=300)
        C.check("lay out a system root (ROOT/sys)", rc == 0, err)
        rc, ref, err = T.run3([TREE, "--root", plain, "--json", "--all"], timeout=300)
        C.check("--root DIR: exit 0", rc == 0, err)
        rc, out, err = T.run3([TREE, "--root", sysroot, "--json", "--all"], timeout=300)
        C.check("--root SYSROOT: exit 0", rc == 0, err)
        C.check("--root SYSROOT walks ROOT/sys: the same JSON",
                rc == 0 and without_sysfs(out) == without_sysfs(ref))
        C.check("--root SYSROOT names ROOT/sys as the sysfs root",
                rc == 0 and json.loads(out).get("sysfs") == sysroot + "/sys", json.loads(out).get("sysfs") if rc == 0 else err)
        rc, out, err = T.run3([TREE, "--root", sysroot, "-s", "block", "-l", "-n", "-o", "DEVPATH"],
                              timeout=300)
        out = "\n".join(line.split()[0] for line in out.splitlines())
        want = sorted(p for p, n in sysfs_oracle.classify(plain).items()
                      if n["kind"] == "device" and n["subsystem"] == "block")
        C.check("--root SYSROOT -s block lists the block devices of ROOT/sys",
                rc == 0 and sorted(out.split()) == want, (out, want, err))
        rc, out, err = T.run3([TREE, "--root", sysroot, "/sys/devices/pci0000:00", "--depth", "0"], timeout=300)
        C.check("--root SYSROOT takes a /sys/... START", rc == 0 and "pci0000:00" in out, err)
        rc, out, err = T.run3([TREE, "--root", big, "--json", "--all"], env=env_tmp(tmpdir), timeout=300)
        C.check("--root ARCHIVE: exit 0", rc == 0, err)
        C.check("--root ARCHIVE: the same JSON as the unpacked tree",
                rc == 0 and without_sysfs(out) == without_sysfs(ref))
        C.check("--root ARCHIVE leaves nothing in $TMPDIR", os.listdir(tmpdir) == [], os.listdir(tmpdir))
        empty = os.path.join(tmp, "empty")
        os.makedirs(os.path.join(empty, "sys"))
        rc, out, err = T.run3([TREE, "--root", empty], timeout=300)
        C.check("a directory with neither devices/ nor sys/devices/: exit 1, one line",
                rc == 1 and err.count("\n") == 1 and "not a sysfs root" in err, err)

        # --- errors leave nothing behind
        bad = os.path.join(tmp, "bad.sysfs")
        with open(bad, "w") as f:
            f.write("sysdev-archive 1\nd 0755 \"devices\"\nthis is not an entry\n")
        rc, out, err = T.run3([TREE, "--root", bad], env=env_tmp(tmpdir), timeout=300)
        C.check("a malformed archive: exit 1, one line naming the line",
                rc == 1 and err.count("\n") == 1 and "bad.sysfs:3" in err, err)
        C.check("a malformed archive leaves nothing in $TMPDIR", os.listdir(tmpdir) == [], os.listdir(tmpdir))
        rc, out, err = T.run3([TREE, "--root", big, "/devices/no-such-device"], env=env_tmp(tmpdir), timeout=300)
        C.check("an archive and a START that is not there: exit 1", rc == 1, err)
        C.check("... leaves nothing in $TMPDIR", os.listdir(tmpdir) == [], os.listdir(tmpdir))
        rc, out, err = T.run3([TREE, "--root", big, "--stats", "--format=jsonl"], env=env_tmp(tmpdir), timeout=300)
        C.check("bad usage with an archive: exit 2 before unpacking", rc == 2, err)
        C.check("... leaves nothing in $TMPDIR", os.listdir(tmpdir) == [], os.listdir(tmpdir))
        rc, out, err = T.run3([TREE, "--root", bad, "--root", big, "--parents", "block:vda"],
                              env=env_tmp(tmpdir), timeout=300)
        C.check("the last --root wins: block:vda found in the archive", rc == 0 and "vda" in out, err)
        C.check("... leaves nothing in $TMPDIR", os.listdir(tmpdir) == [], os.listdir(tmpdir))

        # --- signals and a closed pipe: a small archive whose --attrs output fills a pipe
        sigtree = os.path.join(tmp, "sigtree")
        T.article(sigtree)
        for i in range(300):
            T.Tree(sigtree).file("devices/platform/omap_i2c.2/attr%03d" % i, "value %d\n" % i)
        sigarchive = os.path.join(tmp, "sig.sysfs")
        with open(sigarchive, "w") as f:
            subprocess.run([FIXTURE, "pack", sigtree], stdout=f, check=True)
        args = [TREE, "--root", sigarchive, "--all", "--attrs"]
        for sig, group in ((signal.SIGTERM, False), (signal.SIGINT, False), (signal.SIGINT, True),
                           (signal.SIGHUP, False)):
            label = "%s to the %s" % (signal.Signals(sig).name, "process group" if group else "program")
            proc, r = blocked_run(args, tmpdir)
            C.check(label + ": still running, blocked on the pipe", proc.poll() is None)
            C.check(label + ": the archive is unpacked in $TMPDIR while it runs",
                    len(os.listdir(tmpdir)) == 1, os.listdir(tmpdir))
            if group:
                os.killpg(proc.pid, sig)
            else:
                os.kill(proc.pid, sig)
            rc = proc.wait(timeout=60)
            os.close(r)
            C.check(label + ": the program ends by that signal", rc == -sig, rc)
            C.check(label + ": nothing left in $TMPDIR", os.listdir(tmpdir) == [], os.listdir(tmpdir))
        rc, whole, err = T.run3(args, env=env_tmp(tmpdir), timeout=300)
        C.check("the archive's whole output, for the signals ignored on entry", rc == 0, err)
        for sig in GUARDED:
            label = "%s ignored on entry" % signal.Signals(sig).name
            proc, r = blocked_run(args, tmpdir, ignored=(sig,))
            kids = children(proc.pid)
            masks = [ignored_mask(p) for p in [proc.pid] + kids]
            C.check(label + ": ignored by the guard and the worker, caught by neither",
                    len(kids) == 1 and all(ign == {sig} and sig not in cgt for ign, cgt in masks),
                    masks)
            os.kill(proc.pid, sig)
            os.killpg(proc.pid, sig)
            with os.fdopen(r, "rb") as f:
                out = f.read().decode()  # the rest, once the program goes on
            rc = proc.wait(timeout=60)
            C.check(label + ": sent to the program and its group, it goes on and exits 0",
                    rc == 0, (rc, proc.stderr.read()))
            C.check(label + ": the whole output", out == whole, (len(out), len(whole)))
            C.check(label + ": nothing left in $TMPDIR", os.listdir(tmpdir) == [], os.listdir(tmpdir))
        proc, r = blocked_run(args, tmpdir)
        kids = children(proc.pid)
        C.check("the worker is a child of the guard", len(kids) == 1, kids)
        for k in kids:
            os.kill(k, signal.SIGKILL)
        rc = proc.wait(timeout=60)
        os.close(r)
        C.check("a worker killed outright: the program ends by SIGKILL", rc == -signal.SIGKILL, rc)
        C.check("a worker killed outright: nothing left in $TMPDIR", os.listdir(tmpdir) == [],
                os.listdir(tmpdir))
        proc, r = blocked_run(args, tmpdir)
        os.read(r, 100)
        os.close(r)  # the reader goes away, as | head does
        rc = proc.wait(timeout=60)
        C.check("a closed pipe: exit 0, as without an archive", rc == 0, (rc, proc.stderr.read()))
        C.check("a closed pipe: nothing left in $TMPDIR", os.listdir(tmpdir) == [], os.listdir(tmpdir))

        # --- the library installs no signal handler
        if shutil.which("strace"):
            # (LeakSanitizer cannot run under ptrace: off for this run of a sanitizer build)
            env = dict(os.environ, ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") +
                                                 ":detect_leaks=0").lstrip(":"))
            p = subprocess.run(["strace", "-f", "-e", "trace=rt_sigaction", TREE, "--root", plain,
                                "--stats"], capture_output=True, env=env)
            # (a sanitizer runtime installs its own for SIGSEGV and the like: not ours)
            watched = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGCHLD", "SIGPIPE", "SIGUSR1")
            calls = [line for line in p.stderr.decode().splitlines()
                     if any("rt_sigaction(%s, {" % w in line for w in watched)]  # sets one
            bad = [c for c in calls if not ("SIGPIPE" in c and "SIG_IGN" in c)]
            C.check("a directory root: no handler for SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD "
                    "(only SIGPIPE ignored)", p.returncode == 0 and not bad, calls)
        else:
            C.check("strace is installed", False)

        # --- --diff --format=jsonl, hand-written expectations
        old = os.path.join(tmp, "old")
        new = os.path.join(tmp, "new")
        T.article(old)
        T.article(new)
        c = "devices/platform/omap_i2c.2/i2c-2/2-0045"
        shutil.rmtree(os.path.join(new, c, "ep_00"))  # removed
        T.Tree(new).device("/devices/virtual/net/eth9", "class:net", None, "INTERFACE=eth9\n")  # added
        os.unlink(os.path.join(new, c, "driver"))  # driver changed
        os.makedirs(os.path.join(new, "bus/i2c/drivers/other"))
        os.symlink("../../../../../bus/i2c/drivers/other", os.path.join(new, c, "driver"))
        with open(os.path.join(new, c, "name"), "w") as f:
            f.write("tca6508\n")  # an attribute changed
        expect = [
            {"what": "changed", "devpath": "/" + c, "field": "driver",
             "old": "leds-tca6507", "new": "other"},
            {"what": "removed", "devpath": "/" + c + "/ep_00",
             "old": {"subsystem": None, "driver": None, "devnum": None}, "new": None},
            {"what": "added", "devpath": "/devices/virtual/net/eth9", "old": None,
             "new": {"subsystem": "net", "driver": None, "devnum": None}},
        ]
        rc, out, err = T.run3([TREE, "--diff", old, new, "--format=jsonl"], timeout=300)
        lines = out.splitlines()
        try:
            got = [json.loads(line) for line in lines]
        except ValueError as e:
            got = str(e)
        C.check("--diff --format=jsonl: exit 1 (they differ)", rc == 1, err)
        C.check("--diff --format=jsonl: one JSON object a line, the hand-written changes",
                got == expect, got)
        rc, out, err = T.run3([TREE, "--diff", old, new, "--format=jsonl", "--attrs"], timeout=300)
        got = [json.loads(line) for line in out.splitlines()] if rc == 1 else err
        want_attr = {"what": "changed", "devpath": "/" + c, "field": "attribute", "name": "name",
                     "old": "tca6507", "new": "tca6508"}
        C.check("--diff --format=jsonl --attrs adds the attribute change",
                isinstance(got, list) and want_attr in got and len(got) == 4, got)
        rc, out, err = T.run3([TREE, "--diff", old, old, "--format=jsonl"], timeout=300)
        C.check("--diff --format=jsonl of a tree with itself: nothing, exit 0", rc == 0 and out == "", (rc, out, err))
        # archives as OLD and NEW
        olda = os.path.join(tmp, "old.sysfs")
        newa = os.path.join(tmp, "new.sysfs")
        for d, a in ((old, olda), (new, newa)):
            with open(a, "w") as f:
                subprocess.run([FIXTURE, "pack", d], stdout=f, check=True)
        rc, out, err = T.run3([TREE, "--diff", olda, newa, "--format=jsonl"], env=env_tmp(tmpdir), timeout=300)
        got = [json.loads(line) for line in out.splitlines()] if rc == 1 else err
        C.check("--diff ARCHIVE ARCHIVE --format=jsonl: the same changes", got == expect, got)
        C.check("... leaves nothing in $TMPDIR", os.listdir(tmpdir) == [], os.listdir(tmpdir))
        rc, out, err = T.run3([TREE, "--diff", olda, newa, "--json"], env=env_tmp(tmpdir), timeout=300)
        C.check("--diff ARCHIVE ARCHIVE --json names the archives as typed",
                rc == 1 and json.loads(out)["old"] == olda and json.loads(out)["new"] == newa, err)

        # --- options that do not apply: exit 2
        for args, why in (
                (["--format=openmetrics"], "--format without a mode"),
                (["--stats", "--format=jsonl"], "jsonl is not a format of --stats"),
                (["--stats", "--format=xml"], "unknown format"),
                (["--stats", "--format=openmetrics", "--json"], "--json with openmetrics"),
                (["--diff", old, new, "--format=openmetrics"], "openmetrics is not a format of --diff"),
                (["--diff", old, new, "--format=jsonl", "--json"], "--json with jsonl"),
                (["--parents", "block:sda", "--format=jsonl"], "jsonl is not a format of --parents"),
                (["--check-udev", "--format=jsonl"], "--format with --check-udev"),
                (["--diff", old, new, "--root", old], "--root with --diff"),
                (["--format"], "--format without a value")):
            rc, out, err = T.run3([TREE, "--root", old, *args], timeout=300) if "--diff" not in args else T.run3([TREE, *args], timeout=300)
            C.check("refused with exit 2: " + why, rc == 2 and out == "" and err, (rc, out, err))
        rc, out, err = T.run3([TREE, "--root", old, "--stats", "--format=json"], timeout=300)
        C.check("--stats --format=json is --stats --json", rc == 0 and json.loads(out)["kinds"]["device"] == 13, err)
        rc, out, err = T.run3([TREE, "--root", old, "--stats", "--format=text"], timeout=300)
        C.check("--stats --format=text is --stats", rc == 0 and out.startswith("Sysfs root:"), err)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    C.finish()


if __name__ == "__main__":
    main()
