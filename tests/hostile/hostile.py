#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Hostile trees and hostile command lines for sysdev-tree (issue 6).

Each CASE builds a damaged or hand-made sysfs tree in a temporary directory,
runs the CLI on it in several modes and checks, for every run:

  - it ends by itself (timeout), never dies of a signal;
  - it exits 0 with valid output (JSON parses; text keeps one node per line)
    and nothing on stderr, or exits 1/2 with one line on stderr that starts
    with "sysdev-tree: " and names the path or argument;
  - it writes nothing into the tree (a listing with modes, sizes, mtimes,
    ctimes, link targets and content hashes is equal before and after);
  - it reads with a bound (peak RSS stays near that of a run on a tiny tree).

Usage: hostile.py --cli BUILD/tools/sysdev-tree [--vanish BUILD/.../hostile-vanish] CASE...
Exit status: 0 pass, 1 fail, 77 skip (meson's convention).
"""
import argparse
import hashlib
import json
import os
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402

TIMEOUT = 20.0
SKIP = T.SKIP

C = T.Checker()


def note(msg):
    print(msg, flush=True)


# ---------------------------------------------------------------- tree helpers


def raise_nofile():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def b(s):
    return s if isinstance(s, bytes) else s.encode("utf-8", "surrogateescape")


def snapshot(root):
    """Everything a write could change, walked with directory fds (paths may
    exceed PATH_MAX).  FIFOs are stat'ed, never opened."""
    out = {}
    root = b(root)
    st = os.lstat(root)
    out[b"."] = (st.st_mode, st.st_mtime_ns, st.st_ctime_ns)
    if not stat.S_ISDIR(st.st_mode):
        return out
    stack = [(os.open(root, os.O_RDONLY | os.O_DIRECTORY), b"")]
    while stack:
        fd, rel = stack.pop()
        try:
            names = sorted(os.listdir(fd))
        except PermissionError:
            names = []
        for name in names:
            name = b(name)
            path = rel + b"/" + name
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            rec = [st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_uid]
            if stat.S_ISLNK(st.st_mode):
                rec.append(os.readlink(name, dir_fd=fd))
            elif stat.S_ISREG(st.st_mode) and st.st_size <= 1 << 20:
                try:
                    rfd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
                    with os.fdopen(rfd, "rb") as f:
                        rec.append(hashlib.sha256(f.read()).hexdigest())
                except PermissionError:
                    rec.append("unreadable")
            out[path] = tuple(rec)
            if stat.S_ISDIR(st.st_mode):
                try:
                    cfd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
                except PermissionError:
                    continue
                stack.append((cfd, path))
        os.close(fd)
    return out


def diff_snapshots(a, b_):
    changed = []
    for k in sorted(set(a) | set(b_)):
        if a.get(k) != b_.get(k):
            changed.append(k)
    return changed


def rm_tree(path):
    # GNU rm copes with trees deeper than PATH_MAX and with any mode (root)
    subprocess.run(["chmod", "-R", "u+rwx", path], stderr=subprocess.DEVNULL)
    subprocess.run(["rm", "-rf", "--one-file-system", path], check=False)


def deep_chain(parent, levels, name=b"d", uevent_every=0):
    """A chain of @levels directories below @parent, made with dir fds."""
    fd = os.open(b(parent), os.O_RDONLY | os.O_DIRECTORY)
    for i in range(levels):
        os.mkdir(name, dir_fd=fd)
        nfd = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = nfd
        if uevent_every and (i + 1) % uevent_every == 0:
            ufd = os.open(b"uevent", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
            os.write(ufd, b"DEVTYPE=deep\n")
            os.close(ufd)
    os.close(fd)


# ---------------------------------------------------------------- running


class Result:
    pass


DROP_PRIVILEGES = ("import os, sys; u = int(sys.argv[1]); os.setgroups([]); os.setgid(u); "
                   "os.setuid(u); os.execvp(sys.argv[2], sys.argv[2:])")


def copy_for_user(cli, user):
    """A copy of the CLI and its library that @user can execute (the build
    directory may be private, such as /root/...).  Returns (dir, cli) or
    (None, why)."""
    d = tempfile.mkdtemp(prefix="sysdev-hostile-bin-")
    os.chmod(d, 0o755)
    for sub in ("tools", "src"):
        os.mkdir(os.path.join(d, sub))
        os.chmod(os.path.join(d, sub), 0o755)
    # the CLI finds the library through its runpath $ORIGIN/../src
    shutil.copy2(cli, os.path.join(d, "tools"))
    libdir = os.path.join(os.path.dirname(cli), "..", "src")
    for n in os.listdir(libdir):
        if n.startswith("libsysdev.so") and not n.endswith(".p"):
            shutil.copy2(os.path.join(libdir, n), os.path.join(d, "src"), follow_symlinks=False)
    copy = os.path.join(d, "tools", os.path.basename(cli))
    probe = run([copy, "--version"], user=user)
    if probe.rc != 0:
        shutil.rmtree(d, ignore_errors=True)
        return None, "uid %s cannot run a copy of the CLI in %s either (exit %d: %r)" % (
            user, tempfile.gettempdir(), probe.rc, probe.err[-200:])
    return d, copy


RUSAGE = None  # the hostile-rusage helper, when given


def run(args, user=None, env=None):
    """Run the CLI: bounded in time, stdout/stderr captured, peak RSS kept."""
    cmd = list(args)
    if user:
        # drop to @user (uid and gid), no supplementary groups, then exec;
        # where setpriv is missing Python does the same (a larger peak RSS)
        if shutil.which("setpriv"):
            cmd = ["setpriv", "--reuid=" + user, "--regid=" + user, "--clear-groups", "--"] + cmd
        else:
            cmd = [sys.executable, "-c", DROP_PRIVILEGES, user] + cmd
    statfile = None
    if RUSAGE:
        fd, statfile = tempfile.mkstemp(prefix="sysdev-hostile-rusage-")
        os.close(fd)
        cmd = [RUSAGE, statfile] + cmd
    e = dict(os.environ)
    e.pop("NO_COLOR", None)
    if env:
        e.update(env)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                         env=e, start_new_session=True)
    bufs = {"out": [], "err": []}

    def drain(f, key):
        while True:
            chunk = f.read(1 << 16)
            if not chunk:
                break
            bufs[key].append(chunk)

    threads = [threading.Thread(target=drain, args=(p.stdout, "out")),
               threading.Thread(target=drain, args=(p.stderr, "err"))]
    for t in threads:
        t.start()
    r = Result()
    r.args = args
    r.timed_out = False
    t0 = time.monotonic()
    try:
        p.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        r.timed_out = True
        os.killpg(p.pid, 9)
        p.wait()
    for t in threads:
        t.join()
    p.stdout.close()
    p.stderr.close()
    r.elapsed = time.monotonic() - t0
    r.rc = p.returncode
    r.rss_kib = 0
    if statfile:
        with open(statfile) as f:
            words = f.read().split()
        os.unlink(statfile)
        if words and not r.timed_out and r.rc == 0:
            r.rc = os.waitstatus_to_exitcode(int(words[0]))
            r.rss_kib = int(words[1])
        elif not r.timed_out:
            r.rc = -255  # the helper itself failed
    r.out = b"".join(bufs["out"])
    r.err = b"".join(bufs["err"])
    return r


def show(args):
    return " ".join(repr(a) if isinstance(a, bytes) or (isinstance(a, str) and (not a or any(c in a for c in " \n\t\"'\\"))) else str(a) for a in args)


def parse_json(data):
    """json.loads on deep documents: raise the recursion limit, big stack."""
    res = {}

    def work():
        try:
            res["v"] = json.loads(data.decode("utf-8", "surrogateescape") if isinstance(data, bytes) else data)
        except Exception as ex:  # noqa: BLE001 - reported as a failure
            res["e"] = ex

    old = threading.stack_size()
    threading.stack_size(512 << 20)
    sys.setrecursionlimit(200000)
    t = threading.Thread(target=work)
    t.start()
    t.join()
    threading.stack_size(old)
    if "e" in res:
        raise res["e"]
    return res["v"]


def check(r, rcs=(0, 1, 2), names=(), want_json=False, one_line=True, verdict_rc=None):
    """The common contract of every run; returns the parsed JSON or None."""
    what = show(r.args[1:])
    if r.timed_out:
        C.fail("%s: did not end within %.0f s" % (what, TIMEOUT))
        return None
    if r.rc < 0:
        C.fail("%s: died of signal %d; stderr: %r" % (what, -r.rc, r.err[-2000:]))
        return None
    if r.rc not in rcs:
        C.fail("%s: exit %d, expected %s; stderr: %r" % (what, r.rc, rcs, r.err[-2000:]))
    doc = None
    lines = r.err.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if r.rc == 0 or (r.rc == verdict_rc and not r.err):
        # exit 0, or a verdict exit (--diff/--check-udev: "they differ") with its report on stdout
        if r.err:
            C.fail("%s: exit 0 but stderr: %r" % (what, r.err[-2000:]))
    else:
        if not r.err.endswith(b"\n") or not lines:
            C.fail("%s: exit %d without a message ending in a newline: %r" % (what, r.rc, r.err[-500:]))
            return None
        msgs = [ln for ln in lines if not ln.startswith(b"Try '")]
        if r.rc == 2 and len(lines) != len(msgs) and lines[-1] != msgs[-1] and not lines[-1].startswith(b"Try '"):
            C.fail("%s: usage hint is not the last line: %r" % (what, r.err))
        for ln in msgs:
            if not ln.startswith(b"sysdev-tree: "):
                C.fail("%s: stderr line not from sysdev-tree: %r" % (what, ln[:500]))
        if one_line and len(msgs) != 1:
            C.fail("%s: %d message lines on stderr, expected one: %r" % (what, len(msgs), r.err[-2000:]))
        for n in names:
            if not any(b(n) in ln for ln in msgs):
                C.fail("%s: message does not name %r: %r" % (what, n, r.err[-1000:]))
    if want_json and (r.rc == 0 or r.out):
        try:
            doc = parse_json(r.out)
        except Exception as ex:  # noqa: BLE001
            C.fail("%s: invalid JSON (%s): %r" % (what, ex, r.out[:300]))
    return doc


def nodes_of(doc):
    """All nodes of a --json tree document, iteratively."""
    out = []
    stack = list(doc["nodes"])
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(n["children"])
    return out


def text_lines(data):
    """Output lines; every line must be valid UTF-8 without raw controls."""
    if not data:
        return []
    return data.split(b"\n")[:-1] if data.endswith(b"\n") else data.split(b"\n")


def check_text(r, expect_lines=None):
    what = show(r.args[1:])
    if r.rc != 0 and not r.out:
        return []
    lines = text_lines(r.out)
    for ln in lines:
        try:
            s = ln.decode("utf-8")
        except UnicodeDecodeError:
            C.fail("%s: an output line is not valid UTF-8: %r" % (what, ln[:300]))
            continue
        bad = [c for c in s if (ord(c) < 0x20 and c != "\033") or 0x7f <= ord(c) <= 0x9f or c in "\u2028\u2029"]
        if bad:
            C.fail("%s: raw control characters %r in a line: %r" % (what, bad, ln[:300]))
        if len(s.splitlines()) > 1:
            C.fail("%s: a line splits in two for a reader of str.splitlines(): %r" % (what, ln[:300]))
    if expect_lines is not None and len(lines) != expect_lines:
        C.fail("%s: %d lines, expected %d: %r" % (what, len(lines), expect_lines, r.out[:600]))
    return lines


# ---------------------------------------------------------------- the cases


class Case:
    """A temp root, its snapshot, and the runs made on it."""

    def __init__(self, opts, name):
        self.opts = opts
        self.name = name
        self.tmp = tempfile.mkdtemp(prefix="sysdev-hostile-%s-" % name)
        os.chmod(self.tmp, 0o755)
        self.root = os.path.join(self.tmp, "sys")
        self.user = None
        self.baseline_rss = None
        self.cleanup_dirs = []

    def cli(self, *args, root=None, **kw):
        root = self.root if root is None else root
        return run([self.opts.cli, "--root", root] + list(args), user=self.user, **kw)

    def freeze(self):
        self.before = snapshot(self.tmp)

    def verify_untouched(self, allowed=()):
        after = snapshot(self.tmp)
        changed = [k for k in diff_snapshots(self.before, after) if k not in allowed]
        if changed:
            C.fail("%s: the tree changed: %r" % (self.name, changed[:10]))

    def cleanup(self):
        rm_tree(self.tmp)
        for d in self.cleanup_dirs:
            shutil.rmtree(d, ignore_errors=True)

    def standard_runs(self, *, tree_rcs=(0,), expect_devices=None, one_line=True, extra_walks=True):
        """Tree, JSON (with and without --all), stats: the walk in every mode."""
        docs = {}
        for args in (["--json", "--all"], ["--json"], ["--json", "--all", "--attrs", "--power"]):
            r = self.cli(*args)
            docs[tuple(args)] = check(r, rcs=tree_rcs, want_json=True, names=(self.root,), one_line=one_line)
        doc = docs[("--json", "--all")]
        r = self.cli()
        check(r, rcs=tree_rcs, names=(self.root,), one_line=one_line)
        plain = docs[("--json",)]
        check_text(r, expect_lines=len(nodes_of(plain)) if plain and r.rc == 0 else None)
        if extra_walks:
            r = self.cli("--all", "--attrs", "--power", "--color=always")
            check(r, rcs=tree_rcs, names=(self.root,), one_line=one_line)
            check_text(r)
            r = self.cli("--stats")
            check(r, rcs=tree_rcs, names=(self.root,), one_line=one_line)
            check_text(r)
            r = self.cli("--stats", "--json")
            check(r, rcs=tree_rcs, want_json=True, names=(self.root,), one_line=one_line)
            # a tree compared with itself is the same (exit 0, no output)
            for extra in ([], ["--json", "--attrs"]):
                r = run([self.opts.cli, "--diff"] + extra + [self.root, self.root], user=self.user)
                check(r, rcs=(0,) if tree_rcs == (0,) else (0, 1, 2), want_json="--json" in extra,
                      one_line=one_line)
                if r.rc == 0 and not extra:
                    check_text(r, expect_lines=0)
            # exit 1: libudev and the walk disagree (a report on stdout); 2: no check possible
            # a capture (written outside the tree) walks to the same directories and kinds
            capdir = tempfile.mkdtemp(prefix="sysdev-hostile-capture-")
            try:
                cap = os.path.join(capdir, "cap")
                r = self.cli("--capture", cap)
                if r.timed_out or r.rc not in ((0,) if tree_rcs == (0,) else (0, 1)):
                    C.fail("%s: --capture: exit %s: %r" % (self.name, r.rc, r.err[:500]))
                bad = [ln for ln in text_lines(r.err) if not ln.startswith(b"sysdev-tree: ")]
                if bad:
                    C.fail("%s: --capture: stderr %r" % (self.name, r.err[:1000]))
                if r.rc == 0 and doc:
                    r = self.cli("--json", "--all", root=cap)
                    cdoc = check(r, rcs=(0,), want_json=True)
                    if cdoc:
                        want = sorted((b(n["path"]), n["kind"]) for n in nodes_of(doc))
                        got = sorted((b(n["path"]), n["kind"]) for n in nodes_of(cdoc))
                        if want != got:
                            C.fail("%s: the capture walks differently: only original %r, only capture %r"
                                   % (self.name, sorted(set(want) - set(got))[:5], sorted(set(got) - set(want))[:5]))
            finally:
                rm_tree(capdir)
            # libudev's own trouble (a link loop in S/class) is a warning line before the report
            r = self.cli("--check-udev")
            if r.timed_out or r.rc not in (0, 1, 2):
                C.fail("%s: --check-udev: exit %s%s" % (self.name, r.rc, " (timeout)" if r.timed_out else ""))
            bad = [ln for ln in text_lines(r.err) if not ln.startswith(b"sysdev-tree: ")]
            if bad or (r.rc == 2 and not r.err):
                C.fail("%s: --check-udev: stderr %r" % (self.name, r.err[:1000]))
            check_text(r)
        if doc and expect_devices is not None:
            got = sorted(b(n["path"]) for n in nodes_of(doc) if n["kind"] == "device")
            want = sorted(b(d) for d in expect_devices)
            if got != want:
                C.fail("%s: devices %r, expected %r" % (self.name, got[:20], want[:20]))
        return doc


def base_tree(root):
    """A small sane tree: the reference for RSS and a place for devices."""
    T.Tree(root).dir("devices/platform")
    T.Tree(root).file("devices/platform/uevent", b"")
    T.Tree(root).dir("bus/platform/devices")
    T.Tree(root).dir("class")


def case_fifo(c):
    r = c.root
    fs = T.Tree(r)
    base_tree(r)
    # a FIFO uevent: not a regular file, so not a device
    fs.fifo("devices/platform/fifodev/uevent")
    fs.file("devices/platform/fifodev/dev", "1:3\n")
    # a device whose attributes, dev and power files are FIFOs
    fs.device("devices/platform/realdev", uevent=b"MAJOR=1\nMINOR=5\nDEVNAME=realdev\n", power=False, subsystem_link="../../../bus/platform")
    fs.fifo("devices/platform/realdev/dev")
    fs.fifo("devices/platform/realdev/attr_fifo")
    for a in ("runtime_status", "control", "wakeup", "pm_qos_latency_tolerance_us",
              "pm_qos_resume_latency_us", "pm_qos_no_power_off"):
        fs.fifo("devices/platform/realdev/power/" + a)
    fs.link("bus/platform/devices/realdev", "../../../devices/platform/realdev")
    fs.link("bus/platform/devices/fifodev", "../../../devices/platform/fifodev")
    fs.dir("class/fifocls")
    fs.link("class/fifocls/realdev", "../../devices/platform/realdev")
    fs.fifo("class/fifocls/fake/power/runtime_status")
    fs.dir("dev/char")
    fs.link("dev/char/1:3", "../../devices/platform/fifodev")
    fs.fifo("dev/char/1:4")
    # device nodes where sysfs has regular files (/dev/null and /dev/zero)
    for rel, minor in (("devices/platform/nulldev/uevent", 3), ("devices/platform/realdev/attr_zero", 5),
                       ("class/fifocls/zero/power/runtime_status", 5)):
        fs.dir(os.path.dirname(rel))
        try:
            os.mknod(os.path.join(r, rel), stat.S_IFCHR | 0o644, os.makedev(1, minor))
        except PermissionError:
            note("fifo: cannot mknod here (not root): device-node files left out")
            break
    # every FIFO holds a line, kept open by us: if anything reads a FIFO,
    # the line is gone (not a regular file: never read, not even non-blocking)
    held = []
    for dirpath, dirnames, filenames in os.walk(r):
        for f in filenames:
            p = os.path.join(dirpath, f)
            if stat.S_ISFIFO(os.lstat(p).st_mode):
                fd = os.open(p, os.O_RDWR | os.O_NONBLOCK)
                os.write(fd, b"SENTINEL\n")
                held.append((p, fd))
    c.freeze()
    doc = c.standard_runs(expect_devices=["/devices/platform", "/devices/platform/realdev"])
    if doc:
        kinds = {n["path"]: n["kind"] for n in nodes_of(doc)}
        if kinds.get("/devices/platform/fifodev") == "device":
            C.fail("fifo: a FIFO uevent made a device")
        if kinds.get("/devices/platform/nulldev") == "device":
            C.fail("fifo: a device-node uevent made a device")
    check(c.cli("--parents", "/devices/platform/fifodev"), rcs=(1,), names=("/devices/platform/fifodev",))
    check(c.cli("--parents", "/devices/platform/realdev"), rcs=(0,))
    check(c.cli("--parents", "platform:fifodev"), rcs=(1,), names=("platform:fifodev",))
    check(c.cli("--explain", "/devices/platform/fifodev"), rcs=(0,))
    rr = c.cli("--get-latency-tolerance", "/devices/platform/realdev")
    check(rr, rcs=(1,), names=("/devices/platform/realdev",))
    if b"not a regular file" not in rr.err:
        C.fail("fifo: reading a FIFO latency tolerance: %r" % rr.err)
    check(c.cli("--set-latency-tolerance", "5", "/devices/platform/realdev"), rcs=(1,),
          names=("/devices/platform/realdev",))
    check(c.cli("--parents", "/dev/realdev"), rcs=(1,), names=("/dev/realdev",))
    check(c.cli("/devices/platform/realdev/attr_fifo"), rcs=(1,), names=("attr_fifo",))
    check(c.cli("--subsystem", "platform", "--json", "--attrs", "--power"), rcs=(0,), want_json=True)
    check(c.cli("--parents", "/dev/fifodev"), rcs=(1,), names=("/dev/fifodev",))
    rr = c.cli("--stats", "--json")
    st = check(rr, rcs=(0,), want_json=True)
    if st and any("\x00" in k or "SENTINEL" in k for k in st["runtime_status"]["class"]):
        C.fail("fifo: a FIFO or /dev/zero was counted as a runtime status: %r" % st["runtime_status"])
    for p, fd in held:
        try:
            left = os.read(fd, 64)
        except BlockingIOError:
            left = b""
        os.close(fd)
        if left != b"SENTINEL\n":
            C.fail("fifo: %s was read by the CLI (left: %r)" % (p[len(c.root):], left))
    c.verify_untouched()


def case_symlinks(c):
    r = c.root
    fs = T.Tree(r)
    base_tree(r)
    d = "devices/platform/loopdev"
    fs.device(d, uevent=b"DEVNAME=loopdev\n", power=False, subsystem_link="subsystem", driver_link="../nowhere/drivers/gone")
    fs.file(d + "/dev", "7:0\n")
    fs.link(d + "/up", "..")                 # a link to a directory: never followed
    fs.link(d + "/self", ".")
    fs.link(d + "/loopA", "loopB")
    fs.link(d + "/loopB", "loopA")
    fs.link(d + "/power", "power")           # power/ that is a link loop
    fs.device("devices/platform/dangling", uevent=b"", power=False, subsystem_link="../../../bus/none", driver_link="/nonexistent/x")
    fs.dir("devices/platform/linkuevent")
    fs.link("devices/platform/linkuevent/uevent", "../loopdev/uevent")
    fs.link("devices/platform/linkdir", "../platform")
    fs.link("devices/platform/outside", "/")
    fs.dir("class/lc")
    fs.link("class/lc/a", "b")
    fs.link("class/lc/b", "a")
    fs.link("class/lc/self", "self")
    fs.link("class/lc/dangle", "../../devices/nowhere")
    fs.link("class/lc/out", "/etc")
    fs.link("class/lc/up", "../../../../../../../../../../etc")
    fs.link("class/lc/ok", "../../devices/platform/loopdev")
    fs.dir("bus/lb")
    fs.link("bus/lb/devices", "devices")
    fs.link("bus/platform/devices/loopdev", "../../../devices/platform/loopdev")
    fs.dir("dev/char")
    fs.dir("dev/block")
    fs.link("dev/char/1:1", "1:1")
    fs.link("dev/char/1:2", "../../devices/nowhere")
    fs.link("dev/block/8:0", "/etc")
    fs.link("dev/block/7:0", "../../devices/platform/loopdev")
    fs.link("dev/block/8:1", "../../../../../../../../../../etc")
    c.freeze()
    c.standard_runs(expect_devices=["/devices/platform", "/devices/platform/loopdev",
                                    "/devices/platform/dangling"])
    for spec, rcs in (("lc:a", (1,)), ("lc:self", (1,)), ("lc:dangle", (1,)), ("lc:out", (1,)),
                      ("lc:up", (1,)), ("lc:ok", (0,)), ("lb:x", (1,)), ("/dev/loopdev", (0,)),
                      ("/dev/sda", (1,)), ("/sys/class/lc/a", (1,)), ("/sys/class/lc/out", (1,)),
                      ("/devices/platform/linkdir", (0, 1)), ("/devices/platform/outside/etc", (1,)),
                      ("/devices/platform/loopdev/up/loopdev", (0, 1))):
        check(c.cli("--parents", spec), rcs=rcs, names=(spec,) if rcs == (1,) else ())
        check(c.cli("--json", "--parents", spec), rcs=rcs, want_json=True)
    # paths resolve as realpath(1) does, links followed inside the root: the walk
    # then starts at the real directory; a link out of the root or a loop is refused
    for start in ("/devices/platform/linkdir", "/devices/platform/loopdev/up"):
        rr = c.cli("--json", start)
        check(rr, rcs=(0,), want_json=True)
        if b'"path": "/devices/platform",' not in rr.out:
            C.fail("symlinks: %s does not start the walk at /devices/platform" % start)
    for start in ("lc:a", "/devices/platform/outside"):
        check(c.cli(start), rcs=(1,), names=(start,))
        check(c.cli("--json", start), rcs=(1,), names=(start,), want_json=True)
    # a path into a file: not a device (ENODEV), or nothing there (ENOENT); never ENOTDIR
    for spec, word in (("/devices/platform/loopdev/uevent/", b"ENODEV"), ("/devices/platform/loopdev/dev", b"ENODEV"),
                       ("/sys/devices/platform/loopdev/uevent/x", b"no such device")):
        rr = c.cli("--parents", spec)
        check(rr, rcs=(1,), names=(spec,))
        if word not in rr.err:
            C.fail("symlinks: --parents %s: %r, expected %r" % (spec, rr.err, word))
    rr = c.cli("--explain", "/devices/platform/loopdev/self")
    check(rr, rcs=(0,))
    if not rr.out.startswith(b"/devices/platform/loopdev: device"):
        C.fail("symlinks: --explain loopdev/self explains %r, expected loopdev itself" % rr.out)
    check(c.cli("--explain", "/devices/platform/linkuevent"), rcs=(0,))
    check(c.cli("--get-latency-tolerance", "lc:ok"), rcs=(1,), names=("loopdev",))
    check(c.cli("--set-latency-tolerance", "auto", "lc:ok"), rcs=(1,), names=("loopdev",))
    c.verify_untouched()


def case_deep(c):
    """2100 one-char levels: the deepest path is longer than PATH_MAX."""
    r = c.root
    fs = T.Tree(r)
    base_tree(r)
    fs.device("devices/platform/deep", uevent=b"", power=False)
    levels = 2100
    deep_chain(os.path.join(r, "devices/platform/deep"), levels, uevent_every=100)
    c.freeze()
    doc = c.standard_runs(extra_walks=False)
    if doc:
        ns = nodes_of(doc)
        longest = max(len(b(n["path"])) for n in ns)
        if longest <= 4096:
            C.fail("deep: longest reported path %d bytes, expected > PATH_MAX" % longest)
        if len(ns) != levels + 3:
            C.fail("deep: %d nodes, expected %d" % (len(ns), levels + 3))
        devs = [n for n in ns if n["kind"] == "device"]
        if len(devs) != 2 + levels // 100:
            C.fail("deep: %d devices, expected %d" % (len(devs), 2 + levels // 100))
        deepest = max(devs, key=lambda n: len(n["path"]))
        if deepest["parent"] != deepest["path"][: -2 * 100]:
            C.fail("deep: parent of the deepest device is %r" % deepest["parent"][-50:])
    check(c.cli("--stats"), rcs=(0,))
    deep_dev = "/devices/platform/deep" + "/d" * 2000
    deep_dir = "/devices/platform/deep" + "/d" * 2050
    check(c.cli("--parents", deep_dev), rcs=(0,))
    check(c.cli("--json", "--parents", deep_dev), rcs=(0,), want_json=True)
    check(c.cli("--parents", c.root + deep_dev), rcs=(0,))
    check(c.cli("--explain", deep_dir), rcs=(0,))
    check(c.cli("--explain", deep_dir + "/nothere"), rcs=(1,), names=("nothere",))
    rr = c.cli("--json", "--all", deep_dir)
    d2 = check(rr, rcs=(0,), want_json=True)
    if d2 and len(nodes_of(d2)) != levels - 2050 + 1:
        C.fail("deep: walk from the deep start found %d nodes" % len(nodes_of(d2)))
    check(c.cli("--depth", "5", "--json", "--all"), rcs=(0,), want_json=True)
    rr = run([c.opts.cli, "--diff", c.root, c.root])
    check(rr, rcs=(0,))
    rr = c.cli("--check-udev")
    if rr.timed_out or rr.rc not in (0, 1):
        C.fail("deep: --check-udev: exit %s: %r" % (rr.rc, rr.err[:500]))
    check(c.cli("--get-latency-tolerance", deep_dev), rcs=(1,), names=("/d/d/d",))
    c.verify_untouched()


def case_too_deep(c):
    """Deeper than SYSDEV_MAX_DEPTH (8192): not descended, counted, exit 1."""
    r = c.root
    base_tree(r)
    deep_chain(os.path.join(r, "devices/platform"), 8300, uevent_every=1000)
    c.freeze()
    for args in (["--stats"], ["--stats", "--json"]):
        rr = c.cli(*args)
        check(rr, rcs=(1,), names=(c.root,), want_json="--json" in args)
    # a small stack (ulimit -s): the walk stops before it, as at SYSDEV_MAX_DEPTH
    for kib, args in ((256, ["--json", "--all"]), (2048, ["--stats"]), (256, [])):
        rr = run(["sh", "-c", 'ulimit -s %d && exec "$0" "$@"' % kib, c.opts.cli, "--root", r] + args)
        rr.args = ["sh", "ulimit -s %d" % kib] + args
        check(rr, rcs=(1,), names=(c.root, "stack"), want_json="--json" in args)
        if not args:
            # the tree without START: the message names the root's devices/, where it began
            want = b"sysdev-tree: " + b(c.root) + b"/devices: "
            if not rr.err.startswith(want):
                C.fail("ulimit -s %d, the tree: stderr does not begin %r: %r" % (kib, want, rr.err[-500:]))
    rr = c.cli("--depth", "3", "--all")
    check(rr, rcs=(0,))
    check_text(rr, expect_lines=4)
    c.verify_untouched()


HOSTILE_NAMES = [
    b"new\nline", b"tab\there", b'quo"te', b"back\\slash", b"ctl\x01\x1b[31mred", b"del\x7f",
    b"bad\xff\xfe", b"half\xc3", b"sur\xed\xa0\x80", b"ok-\xc3\xa9", b"sp ace", b"'single'",
    b"nel\xc2\x85x", b"ls\xe2\x80\xa8x", b"csi\xc2\x9b31m", b"cr\rx", b"-dash", b"x" * 255,
    b"over\xc0\xafx", b"\xf4\x90\x80\x80big",
]


def case_names(c):
    r = b(c.root)
    fs = T.Tree(r)
    base_tree(c.root)
    cls = b"cls\n\xff\"x"
    fs.dir(b"class/" + cls)
    fs.dir(b"bus/b\tus/drivers/drv\"\\\n")
    devs = []
    for i, name in enumerate(HOSTILE_NAMES):
        d = b"devices/platform/" + name
        devname = b"dn-" + name.replace(b"\n", b"_")
        fs.device(d, uevent=b"MAJOR=1\nMINOR=%d\nDEVNAME=%s\nDEVTYPE=t\ty\\\"\n" % (i, devname), power=False, subsystem_link=b"../../../class/" + cls, driver_link=b"../../../bus/b\tus/drivers/drv\"\\\n")
        fs.file(d + b"/dev", b"1:%d\n" % i)
        fs.file(d + b"/attr\nname", name + b"\n")
        fs.dir(d + b"/grp\x01" + name[:200])
        fs.link(b"class/" + cls + b"/" + name, b"../../" + d)
        devs.append((b"/" + d, devname))
    c.freeze()
    doc = c.standard_runs(expect_devices=[b"/devices/platform"] + [d for d, _ in devs])
    if doc:
        for n in nodes_of(doc):
            path = b(n["path"])
            if not os.path.lexists(r + path):
                C.fail("names: JSON path %r does not round-trip to an existing directory" % path)
            if b(n["name"]) != path.rsplit(b"/", 1)[1]:
                C.fail("names: name %r is not the last component of %r" % (b(n["name"]), path))
        bypath = {b(n["path"]): n for n in nodes_of(doc)}
        for d, devname in devs:
            n = bypath.get(d)
            if not n:
                continue
            if b(n["devname"] or "") != devname:
                C.fail("names: devname of %r is %r, expected %r" % (d, n["devname"], devname))
            if b(n["subsystem"] or "") != cls:
                C.fail("names: subsystem of %r is %r" % (d, n["subsystem"]))
            if b(n["driver"] or "") != b"drv\"\\\n":
                C.fail("names: driver of %r is %r" % (d, n["driver"]))
    for d, _ in devs:
        rr = c.cli("--parents", d)
        check(rr, rcs=(0,))
        check_text(rr, expect_lines=4)
        rr = c.cli("--explain", d)
        check(rr, rcs=(0,))
        check_text(rr, expect_lines=1)
        rr = c.cli("--json", "--parents", d)
        pd = check(rr, rcs=(0,), want_json=True)
        if pd and b(pd["chain"][0]["path"]) != d:
            C.fail("names: --parents --json path %r != %r" % (pd["chain"][0]["path"], d))
        rr = c.cli("--all", "--attrs", d)
        check(rr, rcs=(0,))
        check_text(rr, expect_lines=4)  # the device, @dev, @attr\nname, grp/
    rr = c.cli("--subsystem", cls, "--raw", "--noheadings", "-o", "DEVPATH")
    check(rr, rcs=(0,))
    check_text(rr, expect_lines=len(devs))
    rr = c.cli("--subsystem", cls, "--json", "--list")
    sd = check(rr, rcs=(0,), want_json=True)
    if sd and len(sd["devices"]) != len(devs):
        C.fail("names: --subsystem --json listed %d devices" % len(sd["devices"]))
    rr = c.cli("--stats", "--json")
    st = check(rr, rcs=(0,), want_json=True)
    if st and {b(k): v for k, v in st["subsystems"].items()}.get(cls) != len(devs):
        C.fail("names: stats subsystems %r" % st["subsystems"])
    # errors that name a hostile argument stay one line
    for bad in (b"/devices/no\nsuch", b"no\nsuch:dev\xff", b"/dev/x\ny"):
        rr = c.cli("--parents", bad)
        check(rr, rcs=(1,), names=(b"no\\nsuch" if b"no" in bad else b"x\\ny",))
    c.verify_untouched()


def case_bigfile(c):
    r = c.root
    fs = T.Tree(r)
    base_tree(r)
    size = 64 << 20

    def big(rel, head=b"MAJOR=1\nMINOR=9\n"):
        p = os.path.join(r, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(head)
            f.truncate(size)

    fs.device("devices/platform/big", uevent=b"", power=False, subsystem_link="../../../bus/platform")
    big("devices/platform/big/uevent")
    fs.file("devices/platform/big/dev", "1:9\n")
    big("devices/platform/big/attr", b"x")
    for a in ("runtime_status", "control", "wakeup", "pm_qos_latency_tolerance_us"):
        big("devices/platform/big/power/" + a, b"auto\n")
    # a uevent one byte over the library's bound, with a DEVNAME early on
    fs.device("devices/platform/edge", uevent=b"", power=False)
    fs.file("devices/platform/edge/uevent", b"DEVNAME=edge\n" + b"K=" + b"v" * (64 * 1024 - 15 + 2) + b"\n")
    fs.file("devices/platform/edge/dev", "1:10\n")
    fs.link("bus/platform/devices/big", "../../../devices/platform/big")
    fs.dir("class/bc")
    fs.link("class/bc/big", "../../devices/platform/big")
    fs.dir("dev/char")
    fs.link("dev/char/1:9", "../../devices/platform/big")
    c.freeze()
    ref = c.opts.tiny_rss
    for args in (["--json", "--all", "--attrs", "--power"], ["--all", "--attrs", "--power"], ["--stats"],
                 ["--parents", "/dev/big"], ["--parents", "bc:big"]):
        rr = c.cli(*args)
        check(rr, rcs=(0, 1), want_json="--json" in args)
        if RUSAGE and rr.rss_kib > ref + 24 * 1024:
            C.fail("bigfile: %s: peak RSS %d KiB, a tiny tree needs %d KiB: unbounded read?"
                   % (show(args), rr.rss_kib, ref))
        note("bigfile: %s: rc %d, %.2f s, peak RSS %d KiB (tiny tree %d KiB)"
             % (show(args), rr.rc, rr.elapsed, rr.rss_kib, ref))
    c.standard_runs(expect_devices=["/devices/platform", "/devices/platform/big", "/devices/platform/edge"])
    check(c.cli("--get-latency-tolerance", "/devices/platform/big"), rcs=(1,), names=("/devices/platform/big",))
    c.verify_untouched()


def case_empty(c):
    T.Tree(c.root).dir("devices")
    c.freeze()
    doc = c.standard_runs(expect_devices=[])
    if doc and (doc["nodes"][0]["kind"] != "root" or doc["nodes"][0]["children"]):
        C.fail("empty: %r" % doc)
    check(c.cli("--parents", "/devices/x"), rcs=(1,), names=("/devices/x",))
    check(c.cli("--parents", "block:sda"), rcs=(1,), names=("block:sda",))
    check(c.cli("--parents", "/dev/sda"), rcs=(1,), names=("/dev/sda",))
    check(c.cli("--explain", "/devices"), rcs=(0,))
    c.verify_untouched()


def case_noclassbus(c):
    r = c.root
    fs = T.Tree(r)
    fs.device("devices/platform/d1", uevent=b"", power=False, subsystem_link="../../../bus/pci", driver_link="../../../bus/pci/drivers/x")
    fs.device("devices/virtual/net/lo", uevent=b"INTERFACE=lo\n", power=False, subsystem_link="../../../../class/net")
    fs.file("class", b"not a directory\n")   # class/ is a file, bus/ is absent
    c.freeze()
    doc = c.standard_runs(expect_devices=["/devices/platform/d1", "/devices/virtual/net/lo"])
    if doc:
        kinds = {n["path"]: n["kind"] for n in nodes_of(doc)}
        if kinds.get("/devices/virtual/net") == "class-dir":
            C.fail("noclassbus: net/ is a class-dir without S/class")
    check(c.cli("--parents", "net:lo"), rcs=(1,), names=("net:lo",))
    check(c.cli("--parents", "/devices/virtual/net/lo"), rcs=(0,))
    rr = c.cli("--stats", "--json")
    st = check(rr, rcs=(0,), want_json=True)
    if st and st["bus_class_names"]:
        C.fail("noclassbus: bus_class_names %r" % st["bus_class_names"])
    c.verify_untouched()


def case_badroot(c):
    t = c.tmp
    T.Tree(t).file("file", b"x")
    os.mkfifo(os.path.join(t, "fifo"))
    T.Tree(t).dir("nodevices/class")
    T.Tree(t).file("devfile/devices", b"")
    T.Tree(t).dir("devlink/real")
    T.Tree(t).link("devlink/devices", "real")
    T.Tree(t).link("dangling", "nowhere")
    T.Tree(t).link("loop", "loop")
    T.Tree(t).dir("fifodevices")
    os.mkfifo(os.path.join(t, "fifodevices/devices"))
    c.freeze()
    for name in ("file", "fifo", "nothere", "nodevices", "devfile", "devlink", "dangling", "loop",
                 "fifodevices", "file/sub"):
        root = os.path.join(t, name)
        for args in ([], ["--json"], ["--stats"], ["--parents", "/devices/x"],
                     ["--set-latency-tolerance", "5", "/devices/x"]):
            rr = c.cli(*args, root=root)
            check(rr, rcs=(1,), names=(root,))
            if rr.out:
                C.fail("badroot: %s: output on stdout: %r" % (root, rr.out[:200]))
    rr = c.cli(root="")
    check(rr, rcs=(1, 2), names=("--root",))
    c.verify_untouched()


def case_unreadable(c):
    if os.geteuid() == 0:
        # root ignores file modes: run the CLI as nobody (by number: its group
        # is nogroup or nobody), from a copy where the build is private
        c.user = "65534"
        probe = run(["test", "-x", c.opts.cli], user=c.user)
        if probe.rc != 0:
            d, copy = copy_for_user(c.opts.cli, c.user)
            if d is None:
                print("SKIP: %s" % copy)
                return SKIP
            c.cleanup_dirs.append(d)
            c.opts = argparse.Namespace(**dict(vars(c.opts), cli=copy))
            note("unreadable: running a copy of the CLI as uid 65534: %s" % copy)
    r = c.root
    fs = T.Tree(r)
    base_tree(r)
    fs.device("devices/platform/priv", uevent=b"", power=False)
    fs.device("devices/platform/priv/child", uevent=b"", power=False)
    fs.device("devices/platform/d1", uevent=b"DEVNAME=d1\n", power=False, subsystem_link="../../../bus/platform")
    fs.file("devices/platform/d1/dev", "1:1\n")
    fs.file("devices/platform/d1/secret", "s\n", mode=0)
    fs.file("devices/platform/d1/power/runtime_status", "active\n", mode=0)
    fs.file("devices/platform/d1/power/pm_qos_latency_tolerance_us", "auto\n", mode=0)
    fs.dir("devices/platform/d1/grp/sub")
    fs.dir("class/cc")
    fs.link("class/cc/d1", "../../devices/platform/d1")
    fs.link("bus/platform/devices/d1", "../../../devices/platform/d1")
    os.chmod(os.path.join(r, "devices/platform/d1/uevent"), 0)
    os.chmod(os.path.join(r, "devices/platform/d1/grp"), 0)
    os.chmod(os.path.join(r, "devices/platform/priv"), 0)
    c.freeze()
    priv = os.path.join(r, "devices/platform/priv")
    grp = os.path.join(r, "devices/platform/d1/grp")
    # unreadable directories are shown with or without --all (priv/ would be
    # a hidden attr-group otherwise); one message line names the first in
    # walk order (d1/grp) and counts the others; --stats names the root
    for args, names in ((["--json", "--all"], (grp,)), (["--json"], (grp,)), ([], (grp,)),
                        (["--all", "--attrs", "--power"], (grp,)), (["--stats"], (r,))):
        rr = c.cli(*args)
        doc = check(rr, rcs=(1,), names=names, want_json="--json" in args)
        if "--stats" not in args and b"1 more directory could not be read" not in rr.err:
            C.fail("unreadable: %s: the other unreadable directory is not counted: %r" % (show(args), rr.err))
        if doc:
            errs = sorted(n["path"] for n in nodes_of(doc) if n.get("error"))
            if errs != ["/devices/platform/d1/grp", "/devices/platform/priv"]:
                C.fail("unreadable: %s: error members on %r" % (show(args), errs))
            kinds = sorted(n["kind"] for n in nodes_of(doc) if n.get("error"))
            if kinds != ["unknown", "unknown"]:
                C.fail("unreadable: %s: unreadable directories are %r, not unknown" % (show(args), kinds))
        elif "--stats" not in args:
            # its kind cannot be known: unknown, never a guess such as attr-group
            for path in (b"grp/  [unknown]  (unreadable", b"priv/  [unknown]  (unreadable"):
                if path not in rr.out:
                    C.fail("unreadable: %s: %r not shown" % (show(args), path))
    rr = c.cli("--stats", "--json")
    try:
        unknown = json.loads(rr.out)["kinds"].get("unknown")
    except ValueError:
        unknown = None
    if unknown != 2:
        C.fail("unreadable: --stats --json counts %r unknown directories, expected 2" % unknown)
    check(c.cli("--parents", "/devices/platform/priv/child"), rcs=(1,), names=("/devices/platform/priv/child",))
    rr = c.cli("--get-latency-tolerance", "/devices/platform/d1")
    check(rr, rcs=(1,), names=("/devices/platform/d1",))
    if b"EACCES" not in rr.err:
        C.fail("unreadable: get-latency-tolerance does not say EACCES: %r" % rr.err)
    check(c.cli("--set-latency-tolerance", "5", "/devices/platform/d1"), rcs=(1,), names=("/devices/platform/d1",))
    check(c.cli("--parents", "/devices/platform/d1"), rcs=(0,))
    check(c.cli("--explain", "/devices/platform/priv/child"), rcs=(1,), names=("/devices/platform/priv/child",))
    # an unreadable S/devices and an unreadable S/class
    os.chmod(os.path.join(r, "devices/platform"), 0)
    c.freeze()
    check(c.cli("--json"), rcs=(1,), names=(os.path.join(r, "devices/platform"),), want_json=True)
    os.chmod(os.path.join(r, "devices/platform"), 0o755)
    os.chmod(os.path.join(r, "class"), 0)
    c.freeze()
    check(c.cli("--json"), rcs=(0, 1), names=(r,), want_json=True)
    os.chmod(os.path.join(r, "devices"), 0)
    c.freeze()
    check(c.cli("--json"), rcs=(1,), names=(r,), want_json=True)
    c.verify_untouched()
    return 0


def case_vanish(c):
    if not c.opts.vanish:
        print("SKIP: no --vanish program")
        return SKIP
    rr = run([c.opts.vanish, c.tmp])
    sys.stdout.write(rr.out.decode("utf-8", "replace"))
    check(rr, rcs=(0,))
    return 0


# ---------------------------------------------------------------- command line


def case_cmdline(c):
    r = c.root
    fs = T.Tree(r)
    base_tree(r)
    lt = "devices/platform/lt/power/pm_qos_latency_tolerance_us"
    fs.device("devices/platform/lt", uevent=b"", power=False, subsystem_link="../../../bus/platform")
    fs.file(lt, "auto\n")
    fs.file("devices/platform/lt/power/runtime_status", "active\n")
    fs.device("devices/platform/nolt", uevent=b"", power=False, subsystem_link="../../../bus/platform")
    fs.file("devices/platform/nolt/power/runtime_status", "active\n")
    fs.link("bus/platform/devices/lt", "../../../devices/platform/lt")
    # escapes out of the root: a power/ link and an attribute link to outside files
    T.Tree(c.tmp).file("outside/power/pm_qos_latency_tolerance_us", "auto\n")
    fs.device("devices/platform/esc1", uevent=b"", power=False)
    fs.link("devices/platform/esc1/power", os.path.join(c.tmp, "outside/power"))
    fs.device("devices/platform/esc2", uevent=b"", power=False)
    fs.link("devices/platform/esc2/power/pm_qos_latency_tolerance_us",
         os.path.join(c.tmp, "outside/power/pm_qos_latency_tolerance_us"))
    fs.dir("class/x")
    fs.link("class/x/out", os.path.join(c.tmp, "outside"))
    c.freeze()
    ltp = "/devices/platform/lt"
    usage = [
        (["--bogus"], "--bogus"), (["-Z"], "Z"), (["--root"], "root"), (["--depth"], "depth"),
        (["--depth", "-1"], "-1"), (["--depth", "99999999999999"], "99999999999999"),
        (["--depth", "1x"], "1x"), (["--depth", ""], "--depth"), (["--depth", "8193"], "8193"),
        (["--depth", "0x10"], "0x10"),
        (["--color=bogus"], "bogus"), (["--set-latency-tolerance"], "set-latency-tolerance"),
        (["--set-latency-tolerance", "5"], "--set-latency-tolerance"),
        (["--set-latency-tolerance", "5", ltp, "extra"], "--set-latency-tolerance"),
        (["--get-latency-tolerance"], "get-latency-tolerance"), (["--explain"], "explain"),
        (["--parents"], "parents"), (["--subsystem"], "subsystem"), (["--diff", "a"], "--diff"),
        (["a", "b"], "b"), (["--stats", "--explain", ltp], "choose"),
        (["--get-latency-tolerance", ltp, "--set-latency-tolerance", "5", ltp], "choose"),
        (["--json=yes"], "json"),
    ]
    for args, name in usage:
        rr = c.cli(*args)
        check(rr, rcs=(2,), names=(name,))
        if rr.out:
            C.fail("%s: usage error printed on stdout: %r" % (show(args), rr.out[:200]))
    for v in ("-5", "abc", "2147483648", "", " 5", "5 ", "0x10", "+5", "-0", "1e3", "auto\n\n", "99999999999999999999",
              "4294967296", "-2147483648", "5\n6", "any ", "AUTO", b"\xff"):
        rr = c.cli("--set-latency-tolerance", v, ltp)
        # an invalid VALUE is bad usage, like --depth abc
        check(rr, rcs=(2,), names=(b(v).replace(b"\n", b"\\n").replace(b"\xff", b"\\xff"),) if v else ("EINVAL",))
        if b"EINVAL" not in rr.err:
            C.fail("set-latency-tolerance %r: no EINVAL in %r" % (v, rr.err))
    c.verify_untouched()
    for dev in ("/devices/nope", "nope:dev", "/sys/devices/nope", "/dev/nope", "/devices/platform/nolt/power"):
        rr = c.cli("--set-latency-tolerance", "5", dev)
        check(rr, rcs=(1,), names=(dev,))
    for dev in ("/etc/passwd", "/sys/../etc/passwd", "/devices/../../etc", "/devices/../etc", "x:out",
                c.tmp + "/outside", "/sys/class/x/out/power", "../x", "", "x" * 100000,
                "/devices" + "/a" * 3000):
        rr = c.cli("--set-latency-tolerance", "5", dev)
        check(rr, rcs=(1,), names=(dev[:100],) if dev else ())
        rr = c.cli("--get-latency-tolerance", dev)
        check(rr, rcs=(1,), names=(dev[:100],) if dev else ())
        rr = c.cli(dev)
        check(rr, rcs=(1,), names=(dev[:100],) if dev else ())
        rr = c.cli("--explain", dev)
        check(rr, rcs=(1,), names=(dev[:100],) if dev else ())
    for dev in ("/devices/platform/esc1", "/devices/platform/esc2"):
        rr = c.cli("--set-latency-tolerance", "5", dev)
        check(rr, rcs=(1,), names=(dev,))
        rr = c.cli("--get-latency-tolerance", dev)
        check(rr, rcs=(1,), names=(dev,))
    rr = c.cli("--set-latency-tolerance", "any", "/devices/platform/nolt")
    check(rr, rcs=(1,), names=("/devices/platform/nolt",))
    if b"pm_qos_latency_tolerance_us" not in rr.err:
        C.fail("set on a device without the attribute does not say so: %r" % rr.err)
    rr = c.cli("--get-latency-tolerance", "/devices/platform/nolt")
    check(rr, rcs=(1,), names=("pm_qos_latency_tolerance_us",))
    c.verify_untouched()
    # the one write that is allowed: a valid value on a device with the attribute
    for v, want in (("1234", b"1234\n"), ("2147483647", b"2147483647\n"), ("0", b"0\n"), ("any", b"any\n"),
                    ("auto\n", b"auto\n")):
        rr = c.cli("--set-latency-tolerance", v, "platform:lt")
        check(rr, rcs=(0,))
        with open(os.path.join(r, lt), "rb") as f:
            got = f.read()
        if got != want:
            C.fail("set-latency-tolerance %r wrote %r" % (v, got))
        rr = c.cli("--get-latency-tolerance", ltp)
        check(rr, rcs=(0,))
        if rr.out != want if v != "0" else rr.out != b"0\n":
            C.fail("get-latency-tolerance after %r: %r" % (v, rr.out))
    c.verify_untouched(allowed=(b"/sys/" + b(lt),))
    # closed stdout, stderr, stdin: no signal, an error that says so where it can
    for redir, rcs in ((">&-", (1,)), ("2>&-", (0,)), ("<&-", (0,)), (">&- 2>&-", (1,)), (">/dev/full", (1,))):
        rr = run(["sh", "-c", 'exec "$0" "$@" ' + redir, c.opts.cli, "--root", r, "--json", "--all"])
        if rr.timed_out or rr.rc not in rcs:
            C.fail("sysdev-tree --json --all %s: exit %s, expected %s: %r" % (redir, rr.rc, rcs, rr.err))
        if rr.rc == 1 and "2>&-" not in redir and not rr.err.startswith(b"sysdev-tree: stdout: write error"):
            C.fail("sysdev-tree --json --all %s: %r" % (redir, rr.err))
    c.verify_untouched(allowed=(b"/sys/" + b(lt),))
    for args in (["--depth", "0"], ["--depth", "8192"], ["--depth=1", "--json"]):
        check(c.cli(*args), rcs=(0,), want_json="--json" in args)
    return 0


CASES = {
    "fifo": case_fifo, "symlinks": case_symlinks, "deep": case_deep, "too-deep": case_too_deep,
    "names": case_names, "bigfile": case_bigfile, "empty": case_empty, "noclassbus": case_noclassbus,
    "badroot": case_badroot, "unreadable": case_unreadable, "vanish": case_vanish, "cmdline": case_cmdline,
}


def tiny_rss(opts):
    c = Case(opts, "tiny")
    try:
        base_tree(c.root)
        T.Tree(c.root).device("devices/platform/x", uevent=b"MAJOR=1\nMINOR=1\n", power=False)
        rr = c.cli("--json", "--all", "--attrs", "--power")
        return rr.rss_kib
    finally:
        c.cleanup()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--vanish")
    ap.add_argument("--rusage", help="the hostile-rusage helper (peak RSS of the CLI alone)")
    ap.add_argument("cases", nargs="*")
    opts = ap.parse_args()
    opts.cli = os.path.abspath(opts.cli)
    global RUSAGE
    RUSAGE = os.path.abspath(opts.rusage) if opts.rusage else None
    raise_nofile()
    names = opts.cases or list(CASES)
    opts.tiny_rss = tiny_rss(opts)
    skipped = 0
    for name in names:
        c = Case(opts, name)
        try:
            note("== %s (%s)" % (name, c.tmp))
            before = C.failed
            rc = CASES[name](c)
            if rc == SKIP:
                skipped += 1
            else:
                C.check("%s: every run kept the contract" % name, C.failed == before)
        finally:
            c.cleanup()
    status = C.summary()
    if not status and skipped == len(names):
        return SKIP
    return status


if __name__ == "__main__":
    sys.exit(main())
