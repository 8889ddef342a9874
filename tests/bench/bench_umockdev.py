#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""sysdev-fixture import of the crafted recording of issue 18, item 8.

Four devices 4,000 components deep (gen_umockdev.py, 245 KB): the import
copied every prefix of every path (2.3 GB, minutes).  Prints the median
wall time, the CPU time and the peak RSS (GNU time) of `--runs` imports
into a fresh directory each, on /dev/shm when it is writable.  Figures
only, never a pass/fail on time; tests/fleet/test_umockdev_hostile.py
counts the same import's memory and system calls.

Usage: bench_umockdev.py --exe SYSDEV_FIXTURE [--runs N] [--paths N] [--depth N]
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

from gen_umockdev import deep_recording

GNU_TIME = "/usr/bin/time"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--paths", type=int, default=4)
    ap.add_argument("--depth", type=int, default=4000)
    a = ap.parse_args()
    place = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    work = tempfile.mkdtemp(prefix="sysdev-bench-umockdev.", dir=place)
    try:
        rec = os.path.join(work, "deep.umockdev")
        with open(rec, "w") as f:
            f.write(deep_recording(a.paths, a.depth))
        walls, cpus, peaks, status = [], [], [], None
        for i in range(a.runs):
            dest = os.path.join(work, "tree%d" % i)
            stats = os.path.join(work, "time%d" % i)
            t0 = time.monotonic()
            p = subprocess.run([GNU_TIME, "-o", stats, "-f", "%U %S %M", a.exe, "import", rec, dest],
                               capture_output=True, text=True)
            walls.append(time.monotonic() - t0)
            user, sys_, peak = open(stats).read().split()[-3:]
            cpus.append(float(user) + float(sys_))
            peaks.append(int(peak))
            status = p.returncode
            subprocess.run(["rm", "-rf", "--", dest])
        print("umockdev-import input=%d-paths-x-%d-deep bytes=%d place=%s exit=%s" %
              (a.paths, a.depth, os.path.getsize(rec), place or tempfile.gettempdir(), status))
        print("umockdev-import wall_median_s=%.3f cpu_median_s=%.3f peak_rss_max_kib=%d runs=%d" %
              (statistics.median(walls), statistics.median(cpus), max(peaks), a.runs))
    finally:
        subprocess.run(["rm", "-rf", "--", work])


if __name__ == "__main__":
    main()
