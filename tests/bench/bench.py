#!/usr/bin/env python3
"""Benchmark sysdev-tree (issue 5): one line per figure on stdout.

    bench.py --exe BUILD/tools/sysdev-tree [--part live|synthetic|all]
             [--sizes 1000,10000,100000] [--runs 15] [--no-strace]

Live /sys: median wall time of `sysdev-tree`, `sysdev-tree --json --all`,
`udevadm info --tree --no-pager` and `find /sys/devices` (stdout to
/dev/null, runs interleaved), their ratios, and system calls per directory
(`strace -f -c`, total calls / directories under /sys/devices).

Synthetic trees (gen_sysfs.py beside this file) of 1k, 10k and 100k devices:
generation time, wall time and peak RSS (wait4 rusage of that one child) of
the default output and of --json --all, syscalls per directory, and the
100k/10k time ratio.

Both also time the list formats and names (issue 13): -l, -r, -P, -J -l,
-o +VENDOR,MODEL and a filtered query (-l -s net), each against the default
(-r, -P and -J -l: target within 10%); a row whose option this sysdev-tree
does not have prints "n/a (option missing)".  With SYSDEV_NAMES_STATS=1 the
program says what the names cost (modalias reads, distinct modaliases,
database lookups), printed beside the distinct modaliases counted here.

The targets of issue 5 are printed next to the figures as PASS/MISS; the
exit status never depends on a timing (0 unless a command fails to run).
"""

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ENTRIES_PER_DEVICE = 60      # dirs+files+links the generator makes, rounded up
BYTES_PER_DEVICE = 40 * 1024  # tmpfs memory per device, rounded up


def out(line):
    print(line, flush=True)


def verdict(ok):
    return "PASS" if ok else "MISS"


def run_once(argv):
    """Run argv with stdout to /dev/null; return (wall seconds, cpu seconds
    (user+sys of this child, from wait4), exit status).  CPU time does not
    count the time spent waiting for a core, so it is steadier than wall
    time on a loaded machine."""
    with open(os.devnull, "wb") as null:
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, stdout=null, stderr=subprocess.PIPE)
        err = p.stderr.read()
        _, status, ru = os.wait4(p.pid, 0)
        t = time.perf_counter() - t0
        p.stderr.close()
        p.returncode = rc = os.waitstatus_to_exitcode(status)
    if rc != 0:
        sys.stderr.write("bench: %s exited %d: %s\n"
                         % (" ".join(argv), rc, err.decode(errors="replace")[:300]))
    return t, ru.ru_utime + ru.ru_stime, rc


GNU_TIME = "/usr/bin/time"


def peak_rss_kib(argv):
    """Peak RSS of argv in KiB, or None.  Not from Python's own wait4: a
    child forked (or vforked) by Python inherits Python's RSS high-water
    mark across exec, so ru_maxrss would report Python's size.  GNU time is
    a small C parent, so %M is the command's own peak."""
    if not os.access(GNU_TIME, os.X_OK):
        return None
    with open(os.devnull, "wb") as null:
        r = subprocess.run([GNU_TIME, "-f", "@@maxrss=%M"] + argv, stdout=null,
                           stderr=subprocess.PIPE, text=True)
    m = re.search(r"@@maxrss=(\d+)", r.stderr)
    return int(m.group(1)) if m else None


class Timing:
    def __init__(self):
        self.wall, self.cpu, self.fails = [], [], 0

    @property
    def wall_med(self):
        return statistics.median(self.wall)

    @property
    def cpu_med(self):
        return statistics.median(self.cpu)


def medians(cmds, runs):
    """cmds: {label: argv}, or {label: (argv, runs)} to give a command its
    own number of runs.  One warm-up run each, then rounds in which the
    commands take turns, so that a change of load on the machine hits all
    alike.  Returns {label: Timing}."""
    spec = {k: v if isinstance(v, tuple) else (v, runs) for k, v in cmds.items()}
    res = {k: Timing() for k in spec}
    for k, (argv, _) in spec.items():
        run_once(argv)
    for r in range(max(n for _, n in spec.values())):
        for k, (argv, n) in spec.items():
            if r < n:
                t, c, rc = run_once(argv)
                res[k].wall.append(t)
                res[k].cpu.append(c)
                res[k].fails += rc != 0
    return res


def loadavg(prefix):
    try:
        with open("/proc/loadavg") as f:
            out("%s loadavg=%s" % (prefix, "/".join(f.read().split()[:3])))
    except OSError:
        pass


def strace_counts(argv, tmpdir):
    """Return ({syscall: calls}, total calls) from `strace -f -c`."""
    f = os.path.join(tmpdir, "strace.out")
    with open(os.devnull, "wb") as null:
        subprocess.run(["strace", "-f", "-c", "-o", f] + argv, stdout=null,
                       stderr=subprocess.DEVNULL, check=False)
    calls = {}
    with open(f) as fh:
        for line in fh:
            fields = line.split()
            if fields and fields[-1] == "total":
                continue
            # % time, seconds, usecs/call, calls, [errors], syscall
            if len(fields) >= 5 and re.match(r"^[0-9.]+$", fields[0]) and fields[3].isdigit():
                calls[fields[-1]] = int(fields[3])
    os.unlink(f)
    return calls, sum(calls.values())


def strace_kinds(prefix, label, exe, root, argv):
    """Per kind of directory breakdown (strace_kinds.py), one line per kind."""
    r = subprocess.run([sys.executable, os.path.join(HERE, "strace_kinds.py"),
                        "--exe", exe, "--root", root, "--label", label, "--"] + argv,
                       stdout=subprocess.PIPE, text=True)
    for line in r.stdout.splitlines():
        out("%s %s" % (prefix, line))


def count_dirs(top):
    r = subprocess.run(["find", top, "-type", "d"], stdout=subprocess.PIPE, check=True)
    return r.stdout.count(b"\n")


def ensure_tools(args):
    """strace (syscall counts) and GNU time (peak RSS) come from Debian
    packages of the same names; install what is missing when we are root
    and have apt-get, and say so.  Without them those figures are skipped."""
    missing = []
    if not args.no_strace and not shutil.which("strace"):
        missing.append("strace")
    if not os.access(GNU_TIME, os.X_OK):
        missing.append("time")
    if missing and os.geteuid() == 0 and shutil.which("apt-get"):
        out("installing missing tools: %s" % " ".join(missing))
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        cmd = ["apt-get", "install", "-y", "-q", "--no-install-recommends"] + missing
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        if r.returncode != 0:
            subprocess.run(["apt-get", "update", "-q"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, env=env)
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)


def have_strace(args):
    if args.no_strace:
        return False
    if shutil.which("strace"):
        return True
    out("strace missing: syscall figures skipped (apt-get install strace)")
    return False


def strace_lines(prefix, label, argv, ndirs, tmpdir, target=None, top=8):
    calls, total = strace_counts(argv, tmpdir)
    per = total / ndirs if ndirs else float("nan")
    line = "%s %s syscalls=%d dirs=%d syscalls_per_dir=%.2f" % (prefix, label, total, ndirs, per)
    if target is not None:
        line += " target<=%g %s" % (target, verdict(per <= target))
    out(line)
    for name, n in sorted(calls.items(), key=lambda kv: -kv[1])[:top]:
        out("%s %s syscall=%s calls=%d per_dir=%.2f" % (prefix, label, name, n, n / ndirs))
    return per


# ------------------------------------------- list formats and names (issue 13)
NEW_ROWS = [
    ("list", ["-l"]),
    ("raw", ["-r"]),
    ("pairs", ["-P"]),
    ("json-list", ["-J", "-l"]),
    ("names", ["-o", "+VENDOR,MODEL"]),
    ("filtered", ["-l", "-s", "net"]),
]
# the formats that stream as the tree does: within 10% of the default
NEW_ROW_TARGETS = {"raw": 1.10, "pairs": 1.10, "json-list": 1.10}


def new_rows(prefix, exe, root_args):
    """{label: argv} of the rows this sysdev-tree accepts; the others print
    n/a with the reason (an option it does not have: exit status 2)."""
    rows = {}
    for label, extra in NEW_ROWS:
        argv = [exe] + root_args + extra
        r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=600)
        why = (r.stderr.decode(errors="replace").splitlines() or [""])[0]
        if r.returncode == 2:
            out("%s sysdev-tree-%s n/a (option missing: %s)" % (prefix, label, why))
        elif r.returncode != 0:
            out("%s sysdev-tree-%s n/a (exit %d: %s)" % (prefix, label, r.returncode, why))
        else:
            rows[label] = argv
    return rows


def read_value(path):
    try:
        with open(path, "rb") as f:
            v = f.read().decode("utf-8", "surrogateescape")
    except OSError:
        return None
    return v[:-1] if v.endswith("\n") else v


def distinct_modaliases(root):
    """The hwdb keys of the devices under root/devices, as udev's builtin
    forms them: MODALIAS, else the modalias file, else for a usb_device
    usb:vVVVVpPPPP:PRODUCT.  Counted here, apart from the program."""
    keys = set()
    for dirpath, _, files in os.walk(os.path.join(root, "devices")):
        if "uevent" not in files:
            continue
        ue = dict(line.split("=", 1) for line in
                  (read_value(os.path.join(dirpath, "uevent")) or "").split("\n") if "=" in line)
        key = ue.get("MODALIAS") or read_value(os.path.join(dirpath, "modalias"))
        if not key and ue.get("DEVTYPE") == "usb_device":
            try:
                key = "usb:v%04Xp%04X:%s" % (
                    int(read_value(os.path.join(dirpath, "idVendor")), 16),
                    int(read_value(os.path.join(dirpath, "idProduct")), 16),
                    read_value(os.path.join(dirpath, "product")) or "")
            except (TypeError, ValueError):
                key = None
        if key:
            keys.add(key)
    return len(keys)


def names_cost(prefix, rows, root):
    """What -o +VENDOR,MODEL cost, as the program counts it."""
    if "names" not in rows:
        return
    env = dict(os.environ, SYSDEV_NAMES_STATS="1")
    r = subprocess.run(rows["names"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       env=env, timeout=600)
    m = re.search(r"names: modalias_reads=(\d+) distinct_modaliases=(\d+) "
                  r"database_lookups=(\d+)", r.stderr.decode(errors="replace"))
    counted = distinct_modaliases(root)
    if not m:
        out("%s names distinct_modaliases_counted=%d program_counts=n/a (no SYSDEV_NAMES_STATS "
            "line)" % (prefix, counted))
        return
    reads, distinct, lookups = (int(x) for x in m.groups())
    out("%s names modalias_reads=%d distinct_modaliases=%d database_lookups=%d "
        "distinct_modaliases_counted=%d lookups<=distinct %s"
        % (prefix, reads, distinct, lookups, counted, verdict(lookups <= distinct)))


def new_row_ratios(prefix, res, label_of):
    """Each new row against the default of the same tree."""
    d = res[label_of("default")]
    for label, _ in NEW_ROWS:
        if label_of(label) not in res:
            continue
        a = res[label_of(label)]
        w, c = a.wall_med / d.wall_med, a.cpu_med / d.cpu_med
        tgt = NEW_ROW_TARGETS.get(label)
        out("%s ratio %s/default=%.3f cpu_ratio=%.3f%s" % (
            prefix, label, w, c, " target<=%g %s (cpu %s)" % (tgt, verdict(w <= tgt),
                                                              verdict(c <= tgt))
            if tgt else " (no target)"))


# ---------------------------------------------------------------- live /sys
def live(args, exe, tmpdir):
    ndirs = count_dirs("/sys/devices")
    out("live dirs_under_sys_devices=%d" % ndirs)
    cmds = {"sysdev-tree-default": [exe],
            "sysdev-tree-json-all": [exe, "--json", "--all"]}
    udev = None
    if shutil.which("udevadm"):
        r = subprocess.run(["udevadm", "info", "--tree", "--no-pager"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if r.returncode == 0:
            udev = "udevadm-info-tree"
            cmds[udev] = ["udevadm", "info", "--tree", "--no-pager"]
        else:
            udev = "udevadm-export-db"
            out("live udevadm info --tree unsupported by this udevadm (exit %d): "
                "using udevadm info --export-db as a stand-in, labelled %s"
                % (r.returncode, udev))
            cmds[udev] = ["udevadm", "info", "--export-db"]
    else:
        out("live udevadm not installed: udevadm figures skipped")
    cmds["find"] = ["find", "/sys/devices"]
    rows = new_rows("live", exe, [])
    for label, argv in rows.items():
        cmds["sysdev-tree-" + label] = argv
    loadavg("live start")
    res = medians(cmds, args.runs)
    for k, tm in res.items():
        rss = peak_rss_kib(cmds[k])
        out("live %s wall_ms_median=%.2f cpu_ms_median=%.2f runs=%d peak_rss_mib=%s%s"
            % (k, tm.wall_med * 1e3, tm.cpu_med * 1e3, args.runs,
               "%.1f" % (rss / 1024) if rss else "unavailable",
               " failures=%d" % tm.fails if tm.fails else ""))
    loadavg("live end")
    d, j, f = res["sysdev-tree-default"], res["sysdev-tree-json-all"], res["find"]

    def ratio(a, b, target=None, what=""):
        w, c = a.wall_med / b.wall_med, a.cpu_med / b.cpu_med
        t = (" target<=%g%s %s (cpu %s)" % (target, what, verdict(w <= target),
                                            verdict(c <= target))
             if target else " (no target)")
        return "%.3f cpu_ratio=%.3f%s" % (w, c, t)
    if udev:
        u = res[udev]
        out("live ratio sysdev-tree-default/%s=%s" % (udev, ratio(d, u, 0.25, " (4x faster)")))
        out("live ratio sysdev-tree-json-all/%s=%s" % (udev, ratio(j, u)))
    out("live ratio sysdev-tree-default/find=%s" % ratio(d, f, 1.2))
    out("live ratio sysdev-tree-json-all/find=%s" % ratio(j, f))
    new_row_ratios("live", res, lambda k: "sysdev-tree-" + k)
    names_cost("live", rows, "/sys")
    if have_strace(args):
        for k, argv in cmds.items():
            tgt = 8 if k in ("sysdev-tree-default", "sysdev-tree-json-all") else None
            strace_lines("live strace", k, argv, ndirs, tmpdir, tgt,
                         top=args.strace_top if tgt else 5)
        for k in ("sysdev-tree-default", "sysdev-tree-json-all"):
            strace_kinds("live", k, exe, "/sys", cmds[k])


# ------------------------------- filtered lists against libudev (issue 23)
# sysdev-tree's list of DEVPATH DEVNAME DRIVER against a small libudev lister
# printing the same, process against process, taking turns in one run:
# (label, sysdev-tree arguments, lister arguments, target speed-up)
INDEXED_ROWS = [
    ("block", ["-s", "block"], ["block"], 2),
    ("net", ["-s", "net"], ["net"], 2),
    ("all", [], [], 5),
]


def indexed_lists(args, exe):
    cmds = {}
    for label, filt, largs, _ in INDEXED_ROWS:
        cmds["sysdev-tree-" + label] = [exe, "-r", "-n", "-o", "DEVPATH,DEVNAME,DRIVER", *filt]
        cmds["udev-lister-" + label] = [os.path.abspath(args.lister), *largs]
    # the floor: starting a process that does nothing (the dynamic loader, libc)
    cmds["floor-true"] = [shutil.which("true") or "/bin/true"]
    loadavg("indexed start")
    res = medians(cmds, max(args.runs, 31))
    loadavg("indexed end")
    for k, tm in res.items():
        out("indexed %s wall_ms_median=%.2f cpu_ms_median=%.2f%s"
            % (k, tm.wall_med * 1e3, tm.cpu_med * 1e3,
               " failures=%d" % tm.fails if tm.fails else ""))
    for label, _, _, target in INDEXED_ROWS:
        a, b = res["sysdev-tree-" + label], res["udev-lister-" + label]
        w, c = b.wall_med / a.wall_med, b.cpu_med / a.cpu_med
        out("indexed speedup %s udev-lister/sysdev-tree=%.2fx cpu=%.2fx target>=%dx %s (cpu %s)"
            % (label, w, c, target, verdict(w >= target), verdict(c >= target)))
        # what each process costs above starting one: the work the list itself does
        f = res["floor-true"]
        aw, bw = a.wall_med - f.wall_med, b.wall_med - f.wall_med
        if aw > 0 and bw > 0:
            out("indexed above-floor %s udev-lister %.2f ms, sysdev-tree %.2f ms (%.2fx); "
                "floor (true) %.2f ms; a process can be at most %.2fx faster than the lister"
                % (label, bw * 1e3, aw * 1e3, bw / aw, f.wall_med * 1e3,
                   b.wall_med / f.wall_med))


# ---------------------------------------------------------- synthetic trees
class Place:
    """Where the synthetic trees go: a private tmpfs mount when we are root
    and may mount (no inode limit), else /dev/shm when it has room, else
    $TMPDIR (a disk: the page cache holds it after generation)."""

    def __init__(self, need_entries, need_bytes):
        self.mnt = None
        self.kind = None
        base = tempfile.gettempdir()
        if os.geteuid() == 0 and shutil.which("mount"):
            d = tempfile.mkdtemp(prefix="sysdev-bench-", dir=base)
            size = max(1 << 30, 2 * need_bytes)
            r = subprocess.run(["mount", "-t", "tmpfs", "-o",
                                "size=%d,nr_inodes=0,mode=700" % size,
                                "sysdev-bench", d],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if r.returncode == 0:
                self.mnt, self.dir, self.kind = d, d, "tmpfs-private"
                return
            os.rmdir(d)
        try:
            st = os.statvfs("/dev/shm")
            if (st.f_favail == 0 and st.f_files == 0 or st.f_favail > need_entries * 1.2) \
                    and st.f_bavail * st.f_frsize > need_bytes * 1.5:
                self.dir = tempfile.mkdtemp(prefix="sysdev-bench-", dir="/dev/shm")
                self.kind = "dev-shm"
                return
        except OSError:
            pass
        self.dir = tempfile.mkdtemp(prefix="sysdev-bench-", dir=base)
        self.kind = "tmpdir-disk"

    def clear(self, path):
        subprocess.run(["rm", "-rf", "--one-file-system", path], check=False)

    def close(self):
        if self.mnt:
            subprocess.run(["umount", self.mnt], check=False)
            os.rmdir(self.mnt)
        else:
            self.clear(self.dir)


def synthetic(args, exe, tmpdir):
    """All trees are generated first and measured together, the sizes taking
    turns in every round: timings taken minutes apart on a shared machine
    differ by more than the growth being measured."""
    sizes = [int(x) for x in args.sizes.split(",") if x]
    place = Place(sum(sizes) * ENTRIES_PER_DEVICE, sum(sizes) * BYTES_PER_DEVICE)
    out("synthetic place=%s dir=%s" % (place.kind, place.dir))
    st = have_strace(args)
    try:
        roots, ndirs, cmds = {}, {}, {}
        for n in sizes:
            root = roots[n] = os.path.join(place.dir, "sys-%d" % n)
            t0 = time.perf_counter()
            r = subprocess.run([sys.executable, os.path.join(HERE, "gen_sysfs.py"),
                                "--devices", str(n), root],
                               stdout=subprocess.PIPE, check=True, text=True)
            gen = time.perf_counter() - t0
            summary = r.stdout.strip().splitlines()[-1]
            ndirs[n] = count_dirs(os.path.join(root, "devices"))
            out("synthetic n=%d generate_s=%.2f %s dirs_under_devices=%d"
                % (n, gen, summary, ndirs[n]))
            runs = args.runs if n <= 10000 else max(3, args.runs // 3)
            cmds[(n, "default")] = ([exe, "--root", root], runs)
            cmds[(n, "json-all")] = ([exe, "--root", root, "--json", "--all"], runs)
            cmds[(n, "find")] = (["find", os.path.join(root, "devices")], runs)
            for label, argv in new_rows("synthetic n=%d" % n, exe, ["--root", root]).items():
                cmds[(n, label)] = (argv, runs)
            if args.enumtool:
                # the enumerator: every device kept (scan) or handed over as found (foreach)
                cmds[(n, "enumerate-scan")] = ([args.enumtool, "count", root], runs)
                cmds[(n, "enumerate-foreach")] = ([args.enumtool, "stream", root], runs)
        loadavg("synthetic start")
        res = medians(cmds, args.runs)
        loadavg("synthetic end")
        for (n, k), tm in res.items():
            rss = peak_rss_kib(cmds[(n, k)][0])
            line = ("synthetic n=%d %s wall_ms_median=%.2f cpu_ms_median=%.2f "
                    "runs=%d us_per_dir=%.2f peak_rss_mib=%s"
                    % (n, k, tm.wall_med * 1e3, tm.cpu_med * 1e3, len(tm.wall),
                       tm.wall_med * 1e6 / ndirs[n],
                       "%.1f" % (rss / 1024) if rss else "unavailable"))
            if rss and k != "find" and n >= 100000:
                line += " rss_target<=64 %s" % verdict(rss / 1024 <= 64)
            if tm.fails:
                line += " failures=%d" % tm.fails
            out(line)
        for n in sizes:
            new_row_ratios("synthetic n=%d" % n, res, lambda k, n=n: (n, k))
            names_cost("synthetic n=%d" % n, {k: a for (m, k), (a, _) in cmds.items()
                                              if m == n}, roots[n])
        for n in sizes:
            f = res[(n, "find")].wall_med
            out("synthetic n=%d ratio default/find=%.3f json-all/find=%.3f"
                % (n, res[(n, "default")].wall_med / f, res[(n, "json-all")].wall_med / f))
        for k in ("default", "json-all", "find"):
            if (10000, k) in res and (100000, k) in res:
                a, b = res[(10000, k)], res[(100000, k)]
                qw, qc = b.wall_med / a.wall_med, b.cpu_med / a.cpu_med
                tgt = (" target<=12 wall %s cpu %s" % (verdict(qw <= 12), verdict(qc <= 12))
                       if k != "find" else " (no target: the filesystem's own growth)")
                out("synthetic ratio %s t100k/t10k wall=%.2f cpu=%.2f dirs=%.2f%s"
                    % (k, qw, qc, ndirs[100000] / ndirs[10000], tgt))
        if st:
            for n in sizes:
                if n > args.strace_max:
                    out("synthetic n=%d strace skipped (n > --strace-max %d; the counts "
                        "per directory do not depend on n)" % (n, args.strace_max))
                    continue
                for k in ("default", "json-all"):
                    strace_lines("synthetic n=%d strace" % n, k, cmds[(n, k)][0],
                                 ndirs[n], tmpdir, 8, top=args.strace_top)
                if n == min(sizes):
                    for k in ("default", "json-all"):
                        strace_kinds("synthetic n=%d" % n, k, exe, roots[n], cmds[(n, k)][0])
    finally:
        place.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--exe", required=True, help="the sysdev-tree executable")
    ap.add_argument("--part", choices=["live", "synthetic", "all", "indexed"], default="all")
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--strace-top", type=int, default=8,
                    help="how many syscalls to break down per command")
    ap.add_argument("--no-strace", action="store_true")
    ap.add_argument("--lister", help="tests/bench/udev-lister: the filtered lists against it")
    ap.add_argument("--enumtool", help="tests/enumerate/enumtool: time the enumerator too")
    ap.add_argument("--strace-max", type=int, default=10000,
                    help="largest synthetic tree to run under strace")
    args = ap.parse_args()
    exe = os.path.abspath(args.exe)
    # meson's timeout sends SIGTERM: unwind so the tmpfs is unmounted
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(143))
    out("machine nproc=%d cpu=%s kernel=%s" % (os.cpu_count(), cpu_model(),
                                               os.uname().release))
    ensure_tools(args)
    with tempfile.TemporaryDirectory(prefix="sysdev-bench-strace-") as tmpdir:
        if args.part in ("live", "all"):
            live(args, exe, tmpdir)
        if args.part in ("live", "all", "indexed") and args.lister:
            indexed_lists(args, exe)
        if args.part in ("synthetic", "all"):
            synthetic(args, exe, tmpdir)
    return 0


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip().replace(" ", "_")
    except OSError:
        pass
    return "unknown"


if __name__ == "__main__":
    sys.exit(main())
