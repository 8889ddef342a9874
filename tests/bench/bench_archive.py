#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The archive reader on crafted input (issue 18, item 8): figures, never a
pass/fail on time.

    bench_archive.py --fixture F --tree T [--runs N] [--names-mb MB]

- a chain of directories 2,048 and 4,096 deep (devices/a/a/..., a file in
  each): `sysdev-fixture unpack` and `sysdev-tree --root ARCHIVE --json
  --all`;
- about 12.5 MB of names in one directory chosen to collide under the old
  path index's hash (unkeyed FNV-1a), against random names of the same
  length and number: `sysdev-fixture check`.

Each line: the input, the command, the median wall time of --runs runs.
The hostile suite's archive-work test counts the work on smaller inputs.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from sysdevtest import archives  # noqa: E402


def timed(cmd, runs, before=None, env=None):
    times = []
    for _ in range(runs):
        if before:
            before()
        t0 = time.monotonic()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        times.append(time.monotonic() - t0)
        if p.returncode != 0:
            return None, p.stderr.decode(errors="replace").strip()
    return statistics.median(times), ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fixture", required=True)
    ap.add_argument("--tree", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--names-mb", type=float, default=12.5)
    ap.add_argument("--depths", default="2048,4096")
    a = ap.parse_args()
    # memory, when there is some: the figures are the reader's, not a disk's
    shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    work = tempfile.mkdtemp(prefix="bench-archive-", dir=shm)
    print("place=%s" % (shm or tempfile.gettempdir()), flush=True)
    # --root ARCHIVE unpacks under $TMPDIR: there too
    env = dict(os.environ, TMPDIR=work)
    try:
        dest = os.path.join(work, "u")

        def clean():
            subprocess.run(["rm", "-rf", dest])

        for depth in [int(x) for x in a.depths.split(",")]:
            arch = os.path.join(work, "chain%d.sysfs" % depth)
            with open(arch, "w") as f:
                f.write(archives.deep_chain(depth))
            size = os.path.getsize(arch) / 1e6
            for name, cmd in (("unpack", [a.fixture, "unpack", arch, dest]),
                              ("--root --json --all", [a.tree, "--root", arch, "--json", "--all"])):
                s, err = timed(cmd, a.runs, clean, env)
                print("chain depth=%d (%.1f MB) %s: %s" % (
                    depth, size, name, "%.3f s" % s if s is not None else "failed: " + err),
                    flush=True)
            clean()
        # a line is 'f 0644 "d/NAME" ""' with 13-byte names: 28 bytes
        n = int(a.names_mb * 1e6 / 28)
        for kind, names in (("colliding", archives.colliding_names(n)),
                            ("random", archives.random_names(n))):
            arch = os.path.join(work, kind + ".sysfs")
            with open(arch, "w") as f:
                f.write(archives.names_archive(names))
            s, err = timed([a.fixture, "check", arch], a.runs, env=env)
            print("names %s n=%d (%.1f MB) check: %s" % (
                kind, n, os.path.getsize(arch) / 1e6, "%.3f s" % s if s is not None
                else "failed: " + err), flush=True)
            os.unlink(arch)
    finally:
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
