#!/usr/bin/env python3
"""The kunit suite: the patch series in tests/kernel/, built and booted.

Interface
---------
    kunit.py --build-dir DIR [--cache DIR] [--timeout SEC] [--jobs N]
             [--keep-tree] [--build-only]

Steps (see README.md beside this file):

1. `apt-get download`s Debian's linux-source-6.1 and busybox-static into
   CACHE/debs (never installed).
2. Computes the cache key: SHA-256 over the source package's version, every
   0*.patch of the series, the config fragment kunit.config and RECIPE (the
   build recipe's own version, below).  CACHE/<key>/ holds two kernels:
   `bzImage-before` (the series without the leak fix) and `bzImage-after`
   (the whole series), the merged .config and build.json (timings).  When
   the key is there, nothing is built.
3. Otherwise: unpacks the source into CACHE/work-<key>, applies the series
   without FIX_PATCH, `make tinyconfig`, merges kunit.config, checks that
   every line of it survived `make olddefconfig`, builds bzImage
   (`nice -n 10 make -jN`), applies FIX_PATCH and builds again (an
   incremental rebuild of drivers/base/power/qos.o and the link), and
   copies both images and the tree's checkpatch.pl into CACHE/<key>/.  The
   tree is deleted afterwards unless --keep-tree.
4. Runs scripts/checkpatch.pl on every patch of the series.
5. Boots each kernel under `qemu-system-x86_64 -accel tcg` with an
   initramfs whose /init (guest/init.sh beside this file) scans for
   kmemleak reports after the boot-time KUnit run and prints them on the
   console, then parses the console (DIR/<before|after>/console.log):
   - KTAP: exactly the suites of SUITES, in that order, each with exactly
     its test names, every test and suite "ok";
   - no BUG, WARNING, UBSAN report, lockdep splat, hung task, Oops or
     Call Trace;
   - kmemleak, scanned until two scans agree: the kernel without the fix
     must report most (more than half, LEAK_MIN) of the LEAKED_REQUESTS
     72-byte dev_pm_qos_requests allocated in
     dev_pm_qos_update_user_latency_tolerance(); the kernel with it must
     report none; any other report fails unless KMEMLEAK_ALLOWED lists it
     (with the reason).

CACHE defaults to $LIBSYSDEV_KUNIT_CACHE, else /var/cache/libsysdev-kunit
when writable, else ~/.cache/libsysdev-kunit: outside the checkout and the
build directory, so that a fresh clone on the same machine reuses it.

Prints one line per check (`PASS: ...` / `FAIL: name: why`), `INFO:` lines
with the timings, then `N passed, N failed`; exits 1 if any failed, 77
(skipped) when the build tools are missing and cannot be installed (not
root).
"""

import argparse
import fcntl
import glob
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "qemu"))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree

sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import boot as bootmod  # noqa: E402
import sysdevtest as T  # noqa: E402
import build_initramfs  # noqa: E402
import fetch_kernel  # noqa: E402

# The kernels the series is built and run on: Debian's source packages
# (bookworm: linux-source-6.1, and 6.12 from bookworm's security and
# backports updates).  One meson test per kernel (--kernel).
KERNELS = {
    "6.1": "linux-source-6.1",
    "6.12": "linux-source-6.12",
}
FRAGMENT = "kunit.config"
# The cover letter of the series (git format-patch --cover-letter): beside
# the patches, never applied.
COVER_LETTER = "0000-cover-letter.patch"
# The patch that fixes the leak (by its number): left out of the "before"
# kernel.
FIX_PATCH = "0002-"
# Bump when the build steps below change in a way that changes the images.
RECIPE = "2"

# Debian packages the kernel build needs (executable or file -> package).
BUILD_TOOLS = {
    "flex": "flex",
    "bison": "bison",
    "bc": "bc",
    "make": "make",
    "gcc": "gcc",
    "perl": "perl",
    "patch": "patch",
    "xz": "xz-utils",
    "qemu-system-x86_64": "qemu-system-x86",
    "/usr/include/libelf.h": "libelf-dev",
    "/usr/include/openssl/ssl.h": "libssl-dev",
}

# Suites and the names of their tests, in KTAP order.  Hand-written from the
# series: a suite that goes missing, gains or loses a test, or stops early
# fails the run.
SUITES = [
    ("qos-kunit-test", [
        "freq_qos_test_min",
        "freq_qos_test_maxdef",
        "freq_qos_test_readd",
    ]),
    ("pm-qos-latency-tolerance", [
        "lt_test_no_callback",
        "lt_test_attr_on_register",
        "lt_test_expose_hide",
        "lt_test_aggregation",
        "lt_test_any_and_empty",
        "lt_test_update_kernel_request",
        "lt_test_negative_user_value",
        "lt_test_flush_on_unregister",
        "lt_test_unregister_many",
    ]),
]

# The leak the series fixes: a kmemleak report whose allocation backtrace
# holds this function.
LEAK_FUNCTION = "dev_pm_qos_update_user_latency_tolerance"
# How many requests the suite leaks without the fix: one in
# lt_test_flush_on_unregister, LT_TEST_MANY (64) in lt_test_unregister_many.
LEAKED_REQUESTS = 1 + 64
# kmemleak can miss a leaked object that a stale pointer still refers to
# (in a kthread stack kept for reuse, a register saved on a stack, a
# reallocated buffer not yet overwritten), so the kernel without the fix
# must show most of them, more than half, not every one: a kernel that
# does not leak shows none, and the kernel with the fix must show none.
LEAK_MIN = LEAKED_REQUESTS // 2 + 1
# sizeof(struct dev_pm_qos_request) is 72 on x86_64; with SLUB kmemleak
# reports the size of the kmalloc-96 object that holds it.
LEAK_SIZES = (72, 96)

# kmemleak reports that are not leaks, as (regex on the backtrace, reason).
# Each must match a function of the allocation's backtrace.
KMEMLEAK_ALLOWED = [
]

# Console lines that fail the run: the kernel's own problem reports.
BAD_LINE = re.compile(
    r"BUG:|WARNING:|UBSAN:|Oops|general protection fault|"
    r"kernel BUG|Call Trace:|blocked for more than|INFO: task |"
    r"possible circular locking|possible recursive locking|"
    r"inconsistent lock state|DEBUG_LOCKS_WARN_ON|"
    r"suspicious RCU usage|lockdep|Kernel panic")

# checkpatch.pl looks up the commit a Fixes: tag names in the tree's git
# history; Debian's source package has none, so that one check is skipped
# (the id, 2d984ad132a8, is the upstream commit that added the code).
CHECKPATCH_IGNORE = "UNKNOWN_COMMIT_ID"


def log(msg):
    print("kunit: " + msg, file=sys.stderr, flush=True)


def run(cmd, **kw):
    log("$ " + " ".join(cmd))
    return subprocess.run(cmd, check=True, **kw)


# ---------------------------------------------------------------- tools

def missing_tools():
    missing = set()
    for what, pkg in BUILD_TOOLS.items():
        if what.startswith("/"):
            if not os.path.exists(what):
                missing.add(pkg)
        elif shutil.which(what) is None:
            missing.add(pkg)
    # perl-base alone has /usr/bin/perl but not the modules checkpatch.pl
    # uses; the perl package has them.
    if shutil.which("perl") and subprocess.run(
            ["perl", "-MTerm::ANSIColor", "-MEncode", "-e", "1"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
        missing.add("perl")
    return sorted(missing)


def ensure_tools():
    """None when ready, else the reason they cannot be had."""
    missing = missing_tools()
    if not missing:
        return None
    if os.geteuid() != 0:
        return "missing %s (apt-get install %s)" % (missing, " ".join(missing))
    fetch_kernel.apt_update_once()
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run(["apt-get", "install", "-y", "-q", "--no-install-recommends"]
        + missing, env=env)
    return None


def default_cache():
    env = os.environ.get("LIBSYSDEV_KUNIT_CACHE")
    if env:
        return env
    sys_cache = "/var/cache/libsysdev-kunit"
    parent = os.path.dirname(sys_cache)
    if os.access(sys_cache, os.W_OK) or (not os.path.exists(sys_cache)
                                          and os.access(parent, os.W_OK)):
        return sys_cache
    return os.path.join(os.path.expanduser("~"), ".cache", "libsysdev-kunit")


# ---------------------------------------------------------------- series

def series_dir(kernel):
    """tests/kernel/<kernel>/ when the series needs its own copy for that
    kernel (its context differs), else tests/kernel/: the same patches
    apply to every kernel of KERNELS without fuzz."""
    own = os.path.join(HERE, kernel)
    return own if glob.glob(os.path.join(own, "0*.patch")) else HERE


def series(kernel="6.1"):
    """The patches, in order, without the cover letter."""
    return [p for p in sorted(glob.glob(os.path.join(series_dir(kernel),
                                                     "0*.patch")))
            if os.path.basename(p) != COVER_LETTER]


def patch_diff(path, text=None):
    """What a patch changes in the tree: its diff, from the first
    `diff --git` line to the signature separator.  The commit message and
    the mail headers do not change the kernels, so editing them does not
    make the suite build again."""
    if text is None:
        with open(path, "rb") as f:
            text = f.read()
    lines = text.split(b"\n")
    start = next((i for i, x in enumerate(lines)
                  if x.startswith(b"diff --git ")), None)
    if start is None:
        raise SystemExit("kunit: %s has no diff" % path)
    end = next((i for i in range(start, len(lines)) if lines[i] == b"-- "),
               len(lines))
    return b"\n".join(lines[start:end])


def cache_key(kernel, source_version, texts=None):
    """<kernel>-<20 hex digits>: SHA-256 over what the kernels are built
    from (the recipe, the source package and its version, the diff of each
    patch and which one is the fix, the config fragment).  `texts`
    ({basename: bytes}) stands in for files of the series (test_judge.py)."""
    h = hashlib.sha256()
    h.update(("recipe %s\nsource %s %s\nfix %s\n" % (
        RECIPE, KERNELS[kernel], source_version, FIX_PATCH)).encode())
    for p in series(kernel):
        data = patch_diff(p, (texts or {}).get(os.path.basename(p)))
        h.update(("%s %d\n" % (os.path.basename(p), len(data))).encode())
        h.update(data)
    with open(os.path.join(HERE, FRAGMENT), "rb") as f:
        data = f.read()
    h.update(("%s %d\n" % (FRAGMENT, len(data))).encode())
    h.update(data)
    return "%s-%s" % (kernel, h.hexdigest()[:20])


def deb_version(deb):
    # linux-source-6.1_6.1.192-3_all.deb -> 6.1.192-3
    return os.path.basename(deb).split("_")[1]


def fragment_lines():
    with open(os.path.join(HERE, FRAGMENT)) as f:
        lines = [x.strip() for x in f]
    want = {}
    for line in lines:
        m = re.match(r"^(CONFIG_\w+)=(.*)$", line)
        if m:
            want[m.group(1)] = m.group(2)
            continue
        m = re.match(r"^# (CONFIG_\w+) is not set$", line)
        if m:
            want[m.group(1)] = None
    return want


def config_missing(config_path):
    """Fragment lines that make olddefconfig dropped or changed."""
    have = {}
    with open(config_path) as f:
        for line in f:
            m = re.match(r"^(CONFIG_\w+)=(.*)$", line.strip())
            if m:
                have[m.group(1)] = m.group(2)
    bad = []
    for k, v in fragment_lines().items():
        if have.get(k) != v:
            bad.append("%s: want %s, have %s" % (k, v or "unset",
                                                 have.get(k) or "unset"))
    return bad


def make(tree, obj, jobs, *targets, logf=None):
    cmd = ["nice", "-n", "10", "make", "-C", tree, "O=" + obj,
           "ARCH=x86_64", "-j%d" % jobs] + list(targets)
    log("$ " + " ".join(cmd))
    subprocess.run(cmd, check=True, stdout=logf, stderr=subprocess.STDOUT)


def apply_patch(tree, patch, logf):
    """Applies without fuzz (patch fails otherwise); returns the hunks that
    needed an offset (a context that moved), for build.json."""
    log("applying " + os.path.basename(patch))
    res = subprocess.run(["patch", "-p1", "--forward", "--batch",
                          "--fuzz=0", "--no-backup-if-mismatch", "-i", patch],
                         cwd=tree, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    logf.write(res.stdout)
    logf.flush()
    if res.returncode:
        raise SystemExit("kunit: %s does not apply without fuzz:\n%s"
                         % (os.path.basename(patch), res.stdout))
    return [x for x in res.stdout.splitlines() if "offset" in x]


def build(cache_dir, deb, key, jobs, keep_tree, kernel):
    """Build both kernels into CACHE/<key>; returns build.json's dict."""
    dest = os.path.join(cache_dir, key)
    work = os.path.join(cache_dir, "work-" + key)
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(work)
    tree = os.path.join(work, "linux")
    obj = os.path.join(work, "obj")
    os.makedirs(obj)
    blog = os.path.join(work, "build.log")
    info = {"key": key, "kernel": kernel, "source": os.path.basename(deb),
            "patches": [os.path.relpath(p, HERE) for p in series(kernel)],
            "fix_patch": FIX_PATCH, "jobs": jobs, "offsets": []}
    t0 = time.monotonic()
    with open(blog, "w") as logf:
        # The source tarball inside the package.
        os.makedirs(tree)
        tar = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", deb],
                               stdout=subprocess.PIPE)
        inner = subprocess.Popen(
            ["tar", "-xO", "./usr/src/%s.tar.xz" % KERNELS[kernel]],
            stdin=tar.stdout, stdout=subprocess.PIPE)
        unpack = subprocess.Popen(
            ["tar", "-xJ", "--strip-components=1", "-C", tree],
            stdin=inner.stdout)
        tar.stdout.close()
        inner.stdout.close()
        if unpack.wait() or inner.wait() or tar.wait():
            raise SystemExit("kunit: cannot unpack %s" % deb)
        info["unpack_seconds"] = round(time.monotonic() - t0, 1)

        patches = series(kernel)
        fix = [p for p in patches
               if os.path.basename(p).startswith(FIX_PATCH)]
        if len(fix) != 1:
            raise SystemExit("kunit: the fix %s is not in the series" %
                             FIX_PATCH)
        for p in patches:
            if p not in fix:
                info["offsets"] += apply_patch(tree, p, logf)

        make(tree, obj, jobs, "tinyconfig", logf=logf)
        run([os.path.join(tree, "scripts/kconfig/merge_config.sh"), "-m",
             "-O", obj, os.path.join(obj, ".config"),
             os.path.join(HERE, FRAGMENT)], cwd=tree, stdout=logf,
            stderr=subprocess.STDOUT)
        make(tree, obj, jobs, "olddefconfig", logf=logf)
        bad = config_missing(os.path.join(obj, ".config"))
        if bad:
            raise SystemExit("kunit: the config fragment did not survive "
                             "olddefconfig: " + "; ".join(bad))

        t1 = time.monotonic()
        make(tree, obj, jobs, "bzImage", logf=logf)
        info["first_build_seconds"] = round(time.monotonic() - t1, 1)
        tmp = dest + ".tmp"
        if os.path.exists(tmp):
            shutil.rmtree(tmp)
        os.makedirs(tmp)
        shutil.copy(os.path.join(obj, "arch/x86/boot/bzImage"),
                    os.path.join(tmp, "bzImage-before"))
        shutil.copy(os.path.join(obj, ".config"), os.path.join(tmp, "config"))

        info["offsets"] += apply_patch(tree, fix[0], logf)
        t2 = time.monotonic()
        make(tree, obj, jobs, "bzImage", logf=logf)
        info["incremental_build_seconds"] = round(time.monotonic() - t2, 1)
        shutil.copy(os.path.join(obj, "arch/x86/boot/bzImage"),
                    os.path.join(tmp, "bzImage-after"))

        # checkpatch.pl and the files it reads, for the runs that find the
        # kernels cached and have no tree.
        cp = os.path.join(tmp, "checkpatch")
        os.makedirs(cp)
        for f in ("checkpatch.pl", "spelling.txt", "const_structs.checkpatch"):
            shutil.copy(os.path.join(tree, "scripts", f), cp)

    info["total_seconds"] = round(time.monotonic() - t0, 1)
    shutil.copy(blog, os.path.join(tmp, "build.log"))
    with open(os.path.join(tmp, "build.json"), "w") as f:
        json.dump(info, f, indent=1)
    if os.path.exists(dest):
        shutil.rmtree(dest)
    os.rename(tmp, dest)
    if not keep_tree:
        shutil.rmtree(work)
    return info


def prune(cache_dir, key):
    """Drop the kernels and trees of this kernel's other keys (each is ~3 MB
    / ~2 GB) and of the unversioned keys of the suite's first form; the
    other kernels' are kept."""
    kernel = key.split("-")[0]
    for d in glob.glob(os.path.join(cache_dir, "*")):
        name = os.path.basename(d)
        if name in (key, "work-" + key, "debs", "busybox"):
            continue
        if re.fullmatch(r"(work-)?(%s-)?[0-9a-f]{20}(\.tmp)?"
                        % re.escape(kernel), name):
            log("removing stale " + d)
            shutil.rmtree(d, ignore_errors=True)


# ---------------------------------------------------------------- boot

def initramfs(busybox, out):
    img = build_initramfs.Cpio()
    for d in ("dev", "proc", "sys", "tmp", "bin", "sbin", "usr/bin",
              "usr/sbin"):
        img.dir(d)
    img.file("bin/busybox", build_initramfs.read_file(busybox), 0o755)
    applets = subprocess.run([busybox, "--list-full"], check=True,
                             stdout=subprocess.PIPE, text=True).stdout.split()
    for a in applets:
        if not img.has(a):
            img.symlink(a, "/bin/busybox")
    img.file("init", build_initramfs.read_file(
        os.path.join(HERE, "guest", "init.sh")), 0o755)
    with gzip.open(out, "wb", compresslevel=6) as f:
        img.write(f)
    return out


def console_lines(path):
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", errors="replace").replace("\r", "")
    # Strip printk timestamps: "[    1.234567] ".
    return [re.sub(r"^\[\s*\d+\.\d+\] ", "", x) for x in text.split("\n")]


def parse_ktap(lines):
    """{suite: {"plan": N, "tests": [(name, ok, directive)], "ok": bool}},
    the top-level plan and the suites' order, from KTAP on the console."""
    suites = {}
    order = []
    top_plan = None
    current = None
    for raw in lines:
        line = raw.rstrip()
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        m = re.match(r"^# Subtest: (\S+)$", stripped)
        if m and indent > 0:
            current = m.group(1)
            suites[current] = {"plan": None, "tests": [], "ok": None}
            order.append(current)
            continue
        m = re.match(r"^1\.\.(\d+)$", stripped)
        if m:
            if indent == 0 and current is None:
                top_plan = int(m.group(1))
            elif current is not None and indent > 0:
                suites[current]["plan"] = int(m.group(1))
            continue
        m = re.match(r"^(ok|not ok) (\d+) (?:- )?([^#]*?)\s*(?:#\s*(.*))?$",
                     stripped)
        if m:
            ok = m.group(1) == "ok" and not (m.group(4) or "").upper() \
                .startswith("SKIP")
            name = m.group(3)
            if indent > 0 and current is not None:
                suites[current]["tests"].append((name, ok, m.group(4) or ""))
            elif indent == 0 and name in suites:
                suites[name]["ok"] = ok
                current = None
    return top_plan, order, suites


def parse_kmemleak(lines):
    """The reports between the guest's markers: [(size, backtrace, text)]."""
    try:
        a = lines.index("@@KMEMLEAK-BEGIN")
        b = lines.index("@@KMEMLEAK-END", a)
    except ValueError:
        return None
    reports = []
    cur = None
    for line in lines[a + 1:b]:
        m = re.match(r"^unreferenced object 0x[0-9a-f]+ \(size (\d+)\):", line)
        if m:
            cur = {"size": int(m.group(1)), "functions": [], "text": [line]}
            reports.append(cur)
            continue
        if cur is not None:
            cur["text"].append(line)
            # 6.1: "    [<(____ptrval____)>] func+0x68/0xe4"; 6.12 prints
            # the symbol alone: "    func+0x68/0xe4".  The "+0x" keeps
            # hex dump lines out.
            m = re.match(r"^\s+(?:\[<[^>]*>\] )?(?:0x[0-9a-f]+ )?"
                         r"([A-Za-z0-9_.]+)\+0x[0-9a-f]+/", line)
            if m:
                cur["functions"].append(m.group(1))
    return reports


def check_boot(c, stage, res, lines):
    c.check("%s: the guest ran its /init and shut down" % stage,
            res["done"] and not res["timed_out"],
            "timed out" if res["timed_out"] else
            "no @@SDT-DONE line (qemu exit %s), see %s" % (res["rc"],
                                                          res["log"]))
    c.info("%s: boot took %.1f s" % (stage, res["seconds"]))

    top_plan, order, suites = parse_ktap(lines)
    want_order = [s for s, _ in SUITES]
    c.check("%s: KTAP plan 1..%d and suites %s, in that order"
            % (stage, len(SUITES), ", ".join(want_order)),
            top_plan == len(SUITES) and order == want_order,
            "plan %r, suites %r" % (top_plan, order))
    for name, tests in SUITES:
        s = suites.get(name)
        if s is None:
            c.check("%s: suite %s ran" % (stage, name), False, "not in KTAP")
            continue
        got = [t[0] for t in s["tests"]]
        c.check("%s: suite %s has plan 1..%d and exactly the tests %s"
                % (stage, name, len(tests), ", ".join(tests)),
                s["plan"] == len(tests) and got == tests,
                "plan %r, tests %r" % (s["plan"], got))
        failed = ["%s (%s)" % (t[0], t[2]) if t[2] else t[0]
                  for t in s["tests"] if not t[1]]
        c.check("%s: suite %s: every test ok (%d/%d)"
                % (stage, name, len(s["tests"]) - len(failed),
                   len(s["tests"])),
                not failed and s["tests"] != [], "not ok: %s" % failed)
        c.check("%s: suite %s: the suite's own result is ok" % (stage, name),
                s["ok"] is True, "suite result %r" % s["ok"])

    bad = [x for x in lines if BAD_LINE.search(x)]
    c.check("%s: console has no BUG, WARNING, UBSAN, lockdep, hung task, "
            "Oops or Call Trace" % stage, not bad, "; ".join(bad[:5]))
    scans = [x for x in lines if x.startswith("@@KMEMLEAK-SCAN ")]
    c.info("%s: kmemleak scans: %s" % (stage, ", ".join(
        x.split(" ", 1)[1] for x in scans)))
    c.check("%s: kmemleak was enabled and scanned after the tests until "
            "two scans agreed" % stage,
            "@@KMEMLEAK-SCANNED" in lines,
            "no @@KMEMLEAK-SCANNED line from /init (%s)" % (
                [x for x in lines if x.startswith("@@KMEMLEAK-")][:12]))
    return parse_kmemleak(lines)


def allowed(report):
    for pattern, reason in KMEMLEAK_ALLOWED:
        if any(re.search(pattern, f) for f in report["functions"]):
            return reason
    return None


def check_leaks(c, stage, reports):
    if reports is None:
        c.check("%s: kmemleak report read" % stage, False,
                "no @@KMEMLEAK-BEGIN/END block on the console")
        return
    leak = [r for r in reports if LEAK_FUNCTION in r["functions"]]
    others = [r for r in reports if r not in leak]
    for r in others:
        reason = allowed(r)
        if reason:
            c.info("%s: allowed kmemleak report (%s): %s"
                   % (stage, reason, " <- ".join(r["functions"][:4])))
    unexplained = [r for r in others if not allowed(r)]
    if stage == "before":
        sizes = sorted(set(r["size"] for r in leak))
        c.check("before the fix: kmemleak reports most of the %d leaked "
                "requests (%d to %d) allocated in %s(), each of size %s"
                % (LEAKED_REQUESTS, LEAK_MIN, LEAKED_REQUESTS, LEAK_FUNCTION,
                   " or ".join(map(str, LEAK_SIZES))),
                LEAK_MIN <= len(leak) <= LEAKED_REQUESTS
                and all(x in LEAK_SIZES for x in sizes),
                "%d such reports, sizes %s" % (len(leak), sizes))
        c.info("before the fix: %d of %d leaked requests reported"
               % (len(leak), LEAKED_REQUESTS))
        if leak:
            c.info("before the fix, the first: " + " | ".join(
                x.strip() for x in leak[0]["text"][:12]))
    else:
        c.check("after the fix: kmemleak reports no %s() leak"
                % LEAK_FUNCTION, not leak,
                "%d reports: %s" % (len(leak),
                                    " | ".join(leak[0]["text"][:6])
                                    if leak else ""))
    c.check("%s: no other kmemleak report (allowed: %d)"
            % (stage, len(others) - len(unexplained)), not unexplained,
            " || ".join(" | ".join(r["text"][:8]) for r in unexplained[:3]))


def checkpatch(c, cp_dir, lines_out, kernel):
    for p in series(kernel):
        # cwd: a directory without .git, so no other repository's history
        # is consulted.
        res = subprocess.run(["perl", os.path.join(cp_dir, "checkpatch.pl"),
                              "--no-tree", "--strict", "--show-types",
                              "--ignore", CHECKPATCH_IGNORE, p],
                             cwd=cp_dir, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
        last = [x for x in res.stdout.splitlines() if x.startswith("total:")]
        c.check("checkpatch.pl --strict (%s's) %s: 0 errors, 0 warnings, "
                "0 checks" % (kernel, os.path.basename(p)),
                res.returncode == 0 and last and
                last[0].startswith("total: 0 errors, 0 warnings, 0 checks"),
                (last[0] if last else res.stdout.strip()[-300:]))
        lines_out.append(res.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--kernel", choices=sorted(KERNELS), default="6.1",
                    help="which Debian linux-source to build and boot")
    ap.add_argument("--cache", default=None)
    ap.add_argument("--timeout", type=int, default=600,
                    help="per boot, seconds")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep-tree", action="store_true",
                    help="keep the unpacked, built tree in CACHE/work-KEY")
    ap.add_argument("--build-only", action="store_true")
    args = ap.parse_args()

    c = T.Checker()
    why = ensure_tools()
    if why:
        print("SKIP: kunit: " + why, flush=True)
        return 77

    build_dir = os.path.abspath(args.build_dir)
    os.makedirs(build_dir, exist_ok=True)
    cache_dir = os.path.abspath(args.cache or default_cache())
    os.makedirs(cache_dir, exist_ok=True)
    c.info("cache %s" % cache_dir)

    # Downloads and busybox under one lock; each kernel's build, cache entry
    # and boots under its own (held to the end of the run), so that one
    # kernel boots while the other builds, and a run never sees its kernels
    # pruned by another run of the same kernel.
    debdir = os.path.join(cache_dir, "debs")
    with open(os.path.join(cache_dir, ".lock-debs"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        deb, bb_deb = fetch_kernel.download([KERNELS[args.kernel],
                                             "busybox-static"], debdir)
        bbdir = os.path.join(cache_dir, "busybox")
        busybox = os.path.join(bbdir, "bin", "busybox")
        if not os.path.exists(busybox):
            tmp = bbdir + ".tmp"
            shutil.rmtree(tmp, ignore_errors=True)
            run(["dpkg-deb", "-x", bb_deb, tmp])
            shutil.rmtree(bbdir, ignore_errors=True)
            os.rename(tmp, bbdir)

    kernel_lock = open(os.path.join(cache_dir, ".lock-" + args.kernel), "w")
    fcntl.flock(kernel_lock, fcntl.LOCK_EX)
    key = cache_key(args.kernel, deb_version(deb))
    dest = os.path.join(cache_dir, key)
    c.info("source %s, cache key %s" % (os.path.basename(deb), key))
    if os.path.exists(os.path.join(dest, "build.json")):
        with open(os.path.join(dest, "build.json")) as f:
            info = json.load(f)
        c.info("kernels cached in %s (built from scratch in %s s, "
               "incremental rebuild with the fix %s s)"
               % (dest, info.get("first_build_seconds"),
                  info.get("incremental_build_seconds")))
    else:
        prune(cache_dir, key)
        t = time.monotonic()
        info = build(cache_dir, deb, key, args.jobs, args.keep_tree,
                     args.kernel)
        c.info("built both kernels in %.0f s: unpack %s s, first build "
               "%s s, incremental rebuild with the fix %s s"
               % (time.monotonic() - t, info["unpack_seconds"],
                  info["first_build_seconds"],
                  info["incremental_build_seconds"]))
    # A patch that needs fuzz stops the build (patch --fuzz=0).
    c.info("the series applied to %s without fuzz, offsets: %s"
           % (info.get("source"), "; ".join(info.get("offsets", []))
              or "none"))

    c.check("series applies and both kernels are built (%s)" % key,
            all(os.path.exists(os.path.join(dest, n))
                for n in ("bzImage-before", "bzImage-after", "config")),
            "missing images in %s" % dest)
    bad = config_missing(os.path.join(dest, "config"))
    c.check("every line of %s is in the built .config" % FRAGMENT, not bad,
            "; ".join(bad))
    cp_out = []
    checkpatch(c, os.path.join(dest, "checkpatch"), cp_out, args.kernel)
    with open(os.path.join(build_dir, "checkpatch.log"), "w") as f:
        f.write("\n".join(cp_out))
    if args.build_only:
        return c.summary()

    initrd = initramfs(busybox, os.path.join(build_dir, "initramfs.cpio.gz"))
    for stage in ("before", "after"):
        out = os.path.join(build_dir, stage)
        os.makedirs(out, exist_ok=True)
        res = bootmod.boot(os.path.join(dest, "bzImage-" + stage), initrd,
                           timeout=args.timeout,
                           log=os.path.join(out, "console.log"),
                           memory=512, quiet=False)
        lines = console_lines(res["log"])
        reports = check_boot(c, stage, res, lines)
        check_leaks(c, stage, reports)
    return c.summary()


if __name__ == "__main__":
    sys.exit(main())
