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

--check-udev is not among them: libudev, which it compares with, takes
some of its own allocation failures for "no such field".

The oracle is the recorded run of the same command: a failure must not
change what a command says while it says it succeeded (SPEC 13: nothing is
lost silently).

usage: test_failmalloc.py tree|fixture SYSDEV_TREE SYSDEV_FIXTURE SHIM
"""
import hashlib
import os
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
ARCHIVE = os.path.join(HERE, "..", "..", "fixtures", "article.sysfs")
C = T.Checker()
SERIAL = "FXA1234567B"
MAC = "0a:1b:2c:3d:4e:5f"

# {root}: the article's tree unpacked; {archive}: the archive itself;
# {recording}: the tree exported as a umockdev recording; {out}: a path that
# does not exist yet, which the command may create
CASES = {
    "tree": [
        [TREE, "--root", "{root}"],
        [TREE, "--root", "{archive}", "--all"],
        [TREE, "--root", "{root}", "--all", "--attrs", "--power", "--json"],
        [TREE, "--root", "{root}", "-l", "-o", "+VENDOR,MODEL,MODULES,PARENT_DRIVER"],
        [TREE, "--root", "{root}", "-r", "-s", "block", "--sort", "DEVPATH"],
        [TREE, "--root", "{root}", "--properties"],
        [TREE, "--root", "{root}", "--stats"],
        [TREE, "--root", "{root}", "--format=dot", "--unlinked"],
        [TREE, "--root", "{root}", "--explain", "--json", "/devices/pci0000:00/0000:00:1f.2"],
        [TREE, "--root", "{root}", "--parents", "--attrs", "/devices/pci0000:00/0000:00:1f.2"],
        [TREE, "--root", "{root}", "--stats", "--format=openmetrics"],
        [TREE, "--diff", "{archive}", "{root}", "--attrs"],
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


def run(argv, tmp, at=None, count=None):
    out = os.path.join(tmp, "out")
    args = [a.format(root=os.path.join(tmp, "root"), archive=ARCHIVE, out=out,
                     recording=os.path.join(tmp, "recording")) for a in argv]
    env = dict(os.environ, LD_PRELOAD=SHIM, LC_ALL="C", TMPDIR=tmp)
    env.pop("FAILMALLOC_AT", None)
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


def check_case(argv, tmp):
    name = " ".join(os.path.basename(a) if a.startswith("/") else a for a in argv)
    count = os.path.join(tmp, "count")
    ref, ref_written, ref_leaked = run(argv, tmp, count=count)
    n = int(open(count).read())
    os.unlink(count)
    C.check("%s: the recorded run ends with 0 or 1 and allocates (%d)" % (name, n),
            ref.returncode in (0, 1) and n > 0, ref.stderr)
    if "--sanitize" in argv:
        C.check("%s: the recorded run replaced the planted identifiers" % name,
                ref_written[os.path.join(tmp, "out.sysfs")] is not None and not ref_leaked)
    ref_err = set(ref.stderr.decode(errors="replace").splitlines())
    error_exit = 2 if "--diff" in argv else 1
    bad = []
    for at in range(1, n + 1):
        got = run(argv, tmp, at=at)
        if got is None:
            bad.append("allocation %d: no end in 60 s" % at)
            continue
        r, written, leaked = got
        err = r.stderr.decode(errors="replace").splitlines()
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
        host = os.path.join(tmp, "root", "devices/platform/omap_i2c.2")
        for name, value in (("serial", SERIAL), ("address", MAC)):
            with open(os.path.join(host, name), "w") as f:
                f.write(value + "\n")
        with open(os.path.join(tmp, "recording"), "w") as f:
            r = subprocess.run([FIXTURE, "export", "--umockdev", os.path.join(tmp, "root")],
                               stdout=f, stderr=subprocess.PIPE, text=True)
        C.check("the tree exports as a umockdev recording", r.returncode == 0, r.stderr)
        for argv in CASES[WHICH]:
            check_case(argv, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return C.finish()


if __name__ == "__main__":
    sys.exit(main())
