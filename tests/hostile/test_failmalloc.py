#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Every allocation failure ends in a clean error, never in a changed answer.

failmalloc-shim.c (LD_PRELOAD) makes the Nth allocation of a run fail
(malloc, calloc, realloc, and through them strdup, asprintf, fopen).  Each
command below runs once to count its allocations and to record its answer,
then once for every N from 1 to that count.  Each of those runs must

  - end by itself (no signal, no hang);
  - either give the recorded answer (the failure was absorbed: stdout, the
    exit status and the files it writes the same),
  - or exit 1 (2 for --diff, whose 1 means "different", as diff(1)'s) with
    "out of memory" or ENOMEM in its last line of stderr,
    every other line one the recorded run wrote too, and leave no file
    where the command was to write one (no half-written archive or tree).

Some commands run a second time with openat2() refused (ENOSYS, as on a
kernel before 5.6 or under a seccomp filter): the library then opens a
device below the root the slower way, which allocates.  The recorded
answer of every command is the same with openat2() refused.

--watch runs on the watch shim, which plays the kernel's uevent socket
from a script (see tests/enumerate/watch-shim.c).

--check-udev is not among them: libudev, which it compares with, takes
some of its own allocation failures for "no such field".

The oracle is the recorded run of the same command: a failure must not
change what a command says while it says it succeeded (SPEC 13: nothing is
lost silently).

usage: test_failmalloc.py tree|fixture SYSDEV_TREE SYSDEV_FIXTURE SHIM WATCH_SHIM
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import sysdevtest as T  # noqa: E402

WHICH = sys.argv[1]
TREE = os.path.abspath(sys.argv[2])
FIXTURE = os.path.abspath(sys.argv[3])
SHIM = os.path.abspath(sys.argv[4])
WATCH_SHIM = os.path.abspath(sys.argv[5])
ARCHIVE = os.path.join(HERE, "..", "..", "fixtures", "article.sysfs")
C = T.Checker()
SERIAL = "FXA1234567B"
MAC = "0a:1b:2c:3d:4e:5f"
HOST = "/devices/platform/omap_i2c.2"
LED = HOST + "/i2c-2/2-0045/leds/gta04:red:power"
I2CDEV = HOST + "/i2c-2/i2c-dev/i2c-2"
# udev's database entry of the i2c-dev node, as udevd writes one
DB_ENTRY = ("S:i2c/by-path/platform-omap_i2c.2\nL:0\nE:ID_PATH=platform-omap_i2c.2\n"
            "E:ID_SERIAL=%s\nG:uaccess\nQ:uaccess\nI:1234567\nV:1\n" % SERIAL)
# --watch's events: a device there, one changed, two below a directory that
# is not there (in one batch), a remove, a loss (then a resync)
WATCH_SCRIPT = "\n".join([
    "msg add %s 10 SUBSYSTEM=leds" % LED,
    "msg change %s 11 SUBSYSTEM=platform DRIVER=omap_i2c" % HOST,
    "msg add %s/grp/x1 12 SUBSYSTEM=leds" % HOST,
    "msg add %s/grp/x2 13 SUBSYSTEM=leds" % HOST,
    "eagain",
    "msg remove %s 14 SUBSYSTEM=i2c-dev MAJOR=89 MINOR=2 DEVNAME=i2c-2" % I2CDEV,
    "enobufs",
    "msg bind %s 16 SUBSYSTEM=platform DRIVER=omap_i2c" % HOST,
]) + "\n"
WATCH_ENV = {"LD_PRELOAD": WATCH_SHIM + " " + SHIM, "WATCH_SHIM_SCRIPT": "{script}"}
NO_OPENAT2 = {"FAILMALLOC_NO_OPENAT2": "1"}

# {root}: the article's tree unpacked; {archive}: the archive itself;
# {recording}: the tree exported as a umockdev recording; {out}: a path that
# does not exist yet, which the command may create
# A case is its argv, or its argv and what it adds to the environment.
CASES = {
    "tree": [
        [TREE, "--root", "{root}"],
        [TREE, "--root", "{archive}", "--all"],
        [TREE, "--root", "{root}", "--all", "--attrs", "--power", "--json"],
        [TREE, "--root", "{root}", "-l", "-o", "+VENDOR,MODEL,MODULES,PARENT_DRIVER"],
        [TREE, "--root", "{root}", "-r", "-s", "leds", "--sort", "DEVPATH"],
        ([TREE, "--root", "{root}", "-l", "-s", "leds", "-s", "i2c"], NO_OPENAT2),
        [TREE, "--root", "{root}", "--properties"],
        [TREE, "--root", "{root}", "--properties", I2CDEV, LED],
        [TREE, "--root", "{root}", "--properties", "-s", "leds", "-s", "i2c-dev"],
        ([TREE, "--root", "{root}", "--properties", I2CDEV], NO_OPENAT2),
        [TREE, "--root", "{root}", "-l", "--tag", "uaccess", "--initialized-match",
         "-o", "+SYMLINKS,TAGS,INITIALIZED,SERIAL,ID_PATH"],
        [TREE, "--root", "{root}", "--stats"],
        # the live root: the running kernel's modules.alias, or the line naming where
        # it was looked for (a container has no /lib/modules)
        [TREE, "--root", "/sys", "-l", "-o", "DEVPATH,MODULES", "-s", "cpu"],
        [TREE, "--root", "{root}", "--format=dot", "--unlinked"],
        [TREE, "--root", "{root}", "--explain", "--json", LED],
        [TREE, "--root", "{root}", "--parents", "--attrs", LED],
        ([TREE, "--root", "{root}", "--parents", LED], NO_OPENAT2),
        [TREE, "--root", "{root}", "--stats", "--format=openmetrics"],
        [TREE, "--diff", "{archive}", "{root}", "--attrs"],
        ([TREE, "--root", "{root}", "--watch"], WATCH_ENV),
        ([TREE, "--root", "{root}", "--watch"], dict(WATCH_ENV, **NO_OPENAT2)),
        ([TREE, "--root", "{root}", "--watch", "--tag", "uaccess", "-s", "i2c-dev"], WATCH_ENV),
    ],
    "fixture": [
        [FIXTURE, "pack", "{root}"],
        [FIXTURE, "check", "{archive}"],
        [FIXTURE, "unpack", "{archive}", "{out}"],
        [FIXTURE, "capture", "--root", "{root}", "--full", "--sanitize", "{out}.sysfs"],
        [FIXTURE, "export", "--umockdev", "{root}"],
        [FIXTURE, "import", "{recording}", "{out}"],
    ],
}


def digest(path):
    """The files below @path (or the file), names and contents: a hash, or None."""
    if not os.path.lexists(path):
        return None
    h = hashlib.sha256()
    if not os.path.isdir(path):
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    for d, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files + [x for x in dirs if os.path.islink(os.path.join(d, x))]):
            p = os.path.join(d, name)
            h.update(os.path.relpath(p, path).encode() + b"\0")
            if os.path.islink(p):
                h.update(b"L" + os.readlink(p).encode())
            elif os.path.isfile(p):
                with open(p, "rb") as f:
                    h.update(f.read())
    return h.hexdigest()


def answer(r):
    """What a run said on stdout, less the one figure that is a time."""
    return b"\n".join(line for line in r.stdout.split(b"\n")
                      if not line.startswith(b"sysdev_walk_duration_seconds "))


def run(argv, tmp, at=None, count=None, extra_env=None):
    out = os.path.join(tmp, "out")
    names = dict(root=os.path.join(tmp, "root"), archive=ARCHIVE, out=out,
                 recording=os.path.join(tmp, "recording"), script=os.path.join(tmp, "script"))
    args = [a.format(**names) for a in argv]
    env = dict(os.environ, LD_PRELOAD=SHIM, LC_ALL="C", TMPDIR=tmp)
    env.pop("FAILMALLOC_AT", None)
    env.pop("FAILMALLOC_NO_OPENAT2", None)
    env.update({k: v.format(**names) for k, v in (extra_env or {}).items()})
    if at:
        env["FAILMALLOC_AT"] = str(at)
    if count:
        env["FAILMALLOC_COUNT"] = count
    try:
        r = subprocess.run(args, env=env, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return None
    written = {p: digest(p) for p in (out, out + ".sysfs")}
    # what --sanitize wrote: no planted identifier, whatever failed
    leaked = False
    if "--sanitize" in argv and os.path.isfile(out + ".sysfs"):
        with open(out + ".sysfs", "rb") as f:
            text = f.read().lower()
        leaked = SERIAL.lower().encode() in text or MAC.encode() in text
    for p in (out, out + ".sysfs"):
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p)
        elif os.path.lexists(p):
            os.unlink(p)
    return r, written, leaked


def stderr_lines(r):
    """What a run wrote on stderr, less --watch's summary, which it writes
    last whatever ended the watch (the count of events heard until then)."""
    return [line for line in r.stderr.decode(errors="replace").splitlines()
            if not re.match(r"sysdev-tree: --watch: \d+ events heard", line)]


def check_case(case, tmp):
    argv, extra_env = case if isinstance(case, tuple) else (case, {})
    name = " ".join(os.path.basename(a) if a.startswith("/") else a for a in argv)
    if "WATCH_SHIM_SCRIPT" in extra_env:
        name += " (watch shim)"
    if "FAILMALLOC_NO_OPENAT2" in extra_env:
        name += " (no openat2)"
    count = os.path.join(tmp, "count")
    ref, ref_written, ref_leaked = run(argv, tmp, count=count, extra_env=extra_env)
    n = int(open(count).read())
    os.unlink(count)
    # --diff's 1 is "different" (the planted identifiers); every other
    # command succeeds on the article's tree
    ok = 1 if "--diff" in argv else 0
    C.check("%s: the recorded run ends with %d and allocates (%d)" % (name, ok, n),
            ref.returncode == ok and n > 0, ref.stderr)
    if argv[0] == TREE and "FAILMALLOC_NO_OPENAT2" not in extra_env:
        slow, _, _ = run(argv, tmp, extra_env=dict(extra_env, **NO_OPENAT2))
        C.check("%s: the same answer with openat2() refused" % name,
                slow.returncode == ref.returncode and answer(slow) == answer(ref),
                slow.stderr)
    if "--sanitize" in argv:
        C.check("%s: the recorded run replaced the planted identifiers" % name,
                ref_written[os.path.join(tmp, "out.sysfs")] is not None and not ref_leaked)
    ref_err = set(stderr_lines(ref))
    error_exit = 2 if "--diff" in argv else 1
    bad = []
    for at in range(1, n + 1):
        got = run(argv, tmp, at=at, extra_env=extra_env)
        if got is None:
            bad.append("allocation %d: no end in 60 s" % at)
            continue
        r, written, leaked = got
        err = stderr_lines(r)
        if r.returncode < 0:
            bad.append("allocation %d: killed by signal %d" % (at, -r.returncode))
        elif leaked:
            bad.append("allocation %d: an identifier survived --sanitize" % at)
        elif (r.returncode == ref.returncode and answer(r) == answer(ref)
              and written == ref_written and set(err) <= ref_err):
            continue  # absorbed: the same answer
        elif r.returncode != error_exit:
            bad.append("allocation %d: exit %d, stderr %r" % (at, r.returncode, err[-2:]))
        elif not err or not ("out of memory" in err[-1] or "ENOMEM" in err[-1]):
            bad.append("allocation %d: exit %d without saying memory ran out: %r"
                       % (at, error_exit, err[-2:]))
        elif not set(err[:-1]) <= ref_err:
            bad.append("allocation %d: more than one new line on stderr: %r" % (at, err))
        elif any(v is not None for v in written.values()):
            bad.append("allocation %d: an error and the output file left behind" % at)
    C.check("%s: each of the %d allocations made to fail ends cleanly (%d did not)"
            % (name, n, len(bad)), not bad, "\n".join(bad[:8]))


def main():
    tmp = tempfile.mkdtemp(prefix="sysdev-failmalloc.")
    try:
        r = subprocess.run([FIXTURE, "unpack", ARCHIVE, os.path.join(tmp, "root")],
                           capture_output=True, text=True)
        C.check("the article's archive unpacks", r.returncode == 0, r.stderr)
        # identifiers for --sanitize to replace: none of them may survive a failure
        root = os.path.join(tmp, "root")
        host = root + HOST
        for name, value in (("serial", SERIAL), ("address", MAC)):
            with open(os.path.join(host, name), "w") as f:
                f.write(value + "\n")
        # a database entry (links, properties, tags) and a tag's index
        os.makedirs(os.path.join(root, "run/udev/data"))
        os.makedirs(os.path.join(root, "run/udev/tags/uaccess"))
        with open(os.path.join(root, "run/udev/data/c89:2"), "w") as f:
            f.write(DB_ENTRY)
        open(os.path.join(root, "run/udev/tags/uaccess/c89:2"), "w").close()
        # a name that is both a bus and a class (as mdio_bus is), for --stats
        os.mkdir(os.path.join(root, "class/platform"))
        with open(os.path.join(tmp, "script"), "w") as f:
            f.write(WATCH_SCRIPT)
        with open(os.path.join(tmp, "recording"), "w") as f:
            r = subprocess.run([FIXTURE, "export", "--umockdev", os.path.join(tmp, "root")],
                               stdout=f, stderr=subprocess.PIPE, text=True)
        C.check("the tree exports as a umockdev recording", r.returncode == 0, r.stderr)
        for case in CASES[WHICH]:
            check_case(case, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return C.finish()


if __name__ == "__main__":
    sys.exit(main())
