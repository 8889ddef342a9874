#!/usr/bin/env python3
"""Benchmark rows of issue 21: udev's database read by sysdev-tree and libsysdev
against udevadm and libudev, process against process, on the same database.

Usage: bench_udev_db.py --tree SYSDEV_TREE --tool UDEV_DB_TOOL [--runs N]

In a private mount namespace with a tmpfs over /run, a database is written
for every device of the live /sys (as tests/udev/test_udev_db.py writes it);
then, medians of N runs:
  properties of every device: `sysdev-tree --properties` (one block per
      device) against `udevadm info --export-db` (target: 5x)
  enumerate tag systemd / is_initialized: libsysdev's enumerator against
      libudev's, each device's is_initialized asked (target: 3x), from
      `udev-db-tool bench`.
Timings are printed, never asserted.  Needs root (or user namespaces).
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "udev"))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))


def wall_ms(argv, env=None):
    """Wall and CPU (user + system) milliseconds of one run, and its exit status."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wall = (time.monotonic() - t0) * 1e3
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1e3
    return wall, cpu, r.returncode


def inside(args):
    import test_udev_db as U  # the database the comparison test writes

    subprocess.run(["mount", "--make-rprivate", "/"], check=True)
    subprocess.run(["mount", "-t", "tmpfs", "tmpfs", "/run"], check=True)
    want = U.write_db("/sys", "/run/udev")
    n_files = len(os.listdir("/run/udev/data"))
    print(f"udev-db: a database of {n_files} files for {len(want)} devices of the live /sys "
          f"(on tmpfs), {args.runs} runs each, medians", flush=True)
    ours, theirs, ours_cpu, theirs_cpu = [], [], [], []
    for _ in range(args.runs):
        t, c, rc = wall_ms([args.tree, "--properties"])
        ours.append(t)
        ours_cpu.append(c)
        t, c, rc2 = wall_ms(["udevadm", "info", "--export-db"], env=U.ENV)
        theirs.append(t)
        theirs_cpu.append(c)
        if rc or rc2:
            print(f"udev-db: a run failed (sysdev-tree exit {rc}, udevadm exit {rc2})")
            return 1
    a, b = statistics.median(ours), statistics.median(theirs)
    ac, bc = statistics.median(ours_cpu), statistics.median(theirs_cpu)
    print(f"properties of every device: sysdev-tree --properties {a:.1f} ms, "
          f"udevadm info --export-db {b:.1f} ms ({b / a:.1f}x wall; target >= 5x); "
          f"CPU {ac:.1f} ms against {bc:.1f} ms ({bc / max(ac, 0.1):.1f}x)", flush=True)
    r = subprocess.run([args.tool, "bench", str(args.runs)], capture_output=True, text=True)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    print("(targets: enumerate rows >= 3x)")
    return r.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--inside", action="store_true")
    args = ap.parse_args()
    if args.inside:
        return inside(args)
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    if probe.returncode != 0 or not subprocess.run(["which", "udevadm"],
                                                   capture_output=True).returncode == 0:
        print("udev-db: skipped: needs unshare -m (root or user namespaces) and udevadm")
        return 0
    return subprocess.run(["unshare", "-m", sys.executable, os.path.abspath(__file__),
                           "--inside", "--tree", os.path.abspath(args.tree), "--tool",
                           os.path.abspath(args.tool), "--runs", str(args.runs)]).returncode


if __name__ == "__main__":
    sys.exit(main())
