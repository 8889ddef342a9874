#!/usr/bin/env python3
"""Mutation harness: does the test suite notice a small, realistic bug?

Each mutant of tests/mutation/mutants.txt replaces one text that occurs
exactly once in one file of src/ or tools/.  For each mutant the harness
copies the checkout (tracked and untracked files, as they are now) into a
scratch directory outside the repository, applies the mutant there, builds
it, and runs the fast suites (every suite but qemu, machines, kunit, style and
bench; valgrind's memcheck runs take seconds and see what an uninitialised
value does) stage by stage, stopping at the first failure.  A mutant is killed
when a test fails (or times out); it survives when every test passes.

  tests/mutation/run.py --list                 one mutant a line
  tests/mutation/run.py                        the whole list
  tests/mutation/run.py --files classify.c,escape.c
  tests/mutation/run.py --changed main         files changed since REV (and uncommitted)
  tests/mutation/run.py --only stats-last-line-dropped
  tests/mutation/run.py --check                every mutant's old text occurs once
  tests/mutation/run.py --generate --list      every mechanical mutant (generate.py)
  tests/mutation/run.py --generate --sample 60 --seed 7
                                               60 of them picked at random, each
                                               run against the tests that execute
                                               its line (covering.py)

The last line of a run is `mutation: K of N killed`.  Exit status: 0 when
every selected mutant is killed, 1 when one survived or could not be
applied or built, 2 for bad usage or a red baseline.
See tests/mutation/README.md.
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import random
from concurrent.futures import ThreadPoolExecutor

import covering
import generate

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_LIST = os.path.join(HERE, "mutants.txt")
DEFAULT_EQUIVALENT = os.path.join(HERE, "equivalent.txt")
# style checks the layout of the source: a mutant is rarely formatted, and a
# kill for that reason would say nothing about the tests
EXCLUDED_SUITES = ("qemu", "machines", "bench", "style", "kunit")
# cheap suites first: most mutants die there
STAGE_ORDER = ("unit", "fuzz", "compare", "reference", "cli", "udev", "hostile", "fixtures",
               "valgrind")
# the suite that exercises a file most, tried first for its mutants (every
# stage still runs until one fails: this only makes a kill come sooner)
FIRST_SUITE = {
    "tools/fixture/umockdev.c": "fleet", "tools/fixture/sanitize.c": "fleet",
    "tools/tree/out-openmetrics.c": "fleet", "tools/common/root-archive.c": "fleet",
    "src/enumerate.c": "enumerate", "src/monitor.c": "enumerate",
    "src/uevent-message.c": "fuzz", "tools/tree/cmd-diff.c": "compare",
    "tools/tree/cmd-check-udev.c": "udev", "tools/tree/check-udev-views.c": "udev",
    "tools/common/archive.c": "fixtures", "tools/common/capture.c": "fixtures",
}


class Mutant:
    def __init__(self, ident, line):
        self.id = ident
        self.line = line
        self.file = None
        self.breaks = None
        self.old = None
        self.new = None

    def describe(self):
        return f"{self.id}  {self.file}  {self.breaks}"


def parse_list(path):
    """The mutant list: blocks of 'mutant ID', 'file F', 'breaks TEXT',
    'old TEXT', 'new TEXT'; 'old+ TEXT' / 'new+ TEXT' continue the text on a
    new line.  The text is taken verbatim after the single space (tabs too)."""
    mutants, cur, errors = [], None, []
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            key, _, val = line.partition(" ")
            if key == "mutant":
                cur = Mutant(val.strip(), n)
                mutants.append(cur)
                continue
            if cur is None:
                errors.append(f"{path}:{n}: '{key}' before any 'mutant' line")
                continue
            if key in ("file", "breaks"):
                setattr(cur, key, val.strip())
            elif key in ("old", "new"):
                if getattr(cur, key) is not None:
                    errors.append(f"{path}:{n}: second '{key}' for {cur.id}")
                setattr(cur, key, val)
            elif key in ("old+", "new+"):
                k = key[:-1]
                if getattr(cur, k) is None:
                    errors.append(f"{path}:{n}: '{key}' without '{k}'")
                else:
                    setattr(cur, k, getattr(cur, k) + "\n" + val)
            else:
                errors.append(f"{path}:{n}: unknown key '{key}'")
    seen = set()
    for m in mutants:
        for k in ("file", "breaks", "old", "new"):
            if getattr(m, k) is None:
                errors.append(f"{path}:{m.line}: mutant {m.id} has no '{k}'")
        if m.id in seen:
            errors.append(f"{path}:{m.line}: mutant id {m.id} given twice")
        seen.add(m.id)
        if m.old is not None and m.old == m.new:
            errors.append(f"{path}:{m.line}: mutant {m.id} changes nothing")
    return mutants, errors


def check_mutant(m, srcdir):
    """None if the mutant applies to the tree at srcdir, else why not."""
    path = os.path.join(srcdir, m.file)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        return f"cannot read {m.file}: {e.strerror}"
    if isinstance(m, generate.GenMutant):
        return m.check(text)
    n = text.count(m.old)
    if n != 1:
        return f"old text occurs {n} times in {m.file} (must be exactly once)"
    return None


def apply_mutant(m, text):
    if isinstance(m, generate.GenMutant):
        return m.apply(text)
    return text.replace(m.old, m.new, 1)


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True,
                          text=True).stdout


def repo_files(repo):
    out = subprocess.run(["git", "-C", repo, "ls-files", "-z", "--cached", "--others",
                          "--exclude-standard"], check=True, capture_output=True).stdout
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def sync_tree(repo, dest, files):
    """Make dest/src hold the checkout's files as they are now (content and mode)."""
    src_root = os.path.join(dest, "src")
    for rel in files:
        a = os.path.join(repo, rel)
        b = os.path.join(src_root, rel)
        if os.path.islink(a):
            if os.path.lexists(b) and (not os.path.islink(b) or os.readlink(b) != os.readlink(a)):
                os.remove(b)
            if not os.path.lexists(b):
                os.makedirs(os.path.dirname(b), exist_ok=True)
                os.symlink(os.readlink(a), b)
            continue
        if not os.path.isfile(a):
            continue  # deleted in the work tree
        with open(a, "rb") as f:
            data = f.read()
        try:
            with open(b, "rb") as f:
                same = f.read() == data
        except OSError:
            same = False
        if not same:
            os.makedirs(os.path.dirname(b), exist_ok=True)
            with open(b, "wb") as f:
                f.write(data)
        shutil.copymode(a, b)
    return src_root


RUNNING = set()  # the commands running now, each in its own process group
STOP = threading.Event()


def stop_all():
    """Interrupted: end what runs (each command's whole group), start nothing new."""
    STOP.set()
    for p in list(RUNNING):
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except OSError:
            pass


def run(cmd, log, timeout=None, cwd=None):
    if STOP.is_set():
        return None
    with open(log, "a") as lf:
        lf.write(f"\n$ {' '.join(cmd)}\n")
        lf.flush()
        p = subprocess.Popen(cmd, stdout=lf, stderr=subprocess.STDOUT, cwd=cwd,
                             start_new_session=True)
        RUNNING.add(p)
        try:
            return p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            lf.write(f"timeout after {timeout} s\n")
            return None
        finally:
            RUNNING.discard(p)


class Worker:
    """One scratch copy with its own build directory."""

    def __init__(self, repo, scratch, index, files, args):
        self.repo = repo
        self.dir = os.path.join(scratch, f"w{index}")
        self.files = files
        self.args = args
        self.log = os.path.join(self.dir, "log.txt")
        os.makedirs(self.dir, exist_ok=True)
        self.src = sync_tree(repo, self.dir, files)
        self.build = os.path.join(self.dir, "build")
        self.cov = None  # the coverage map, when the mutants run their covering tests

    def setup(self):
        open(self.log, "w").close()
        if not os.path.isfile(os.path.join(self.build, "build.ninja")):
            rc = run(["meson", "setup", self.build, self.src, "-Dqemu_tests=false"], self.log)
            if rc != 0:
                return f"meson setup failed (see {self.log})"
        return None

    def ninja(self):
        return run(["nice", "-n", "10", "ninja", "-C", self.build, "-j", str(self.args.build_jobs)],
                   self.log, timeout=1200)

    def suites(self):
        out = subprocess.run(["meson", "test", "-C", self.build, "--list", "--no-rebuild"],
                             capture_output=True, text=True, check=True).stdout
        suites = set()
        for line in out.splitlines():
            # "libsysdev:unit / walk"
            head = line.split(" / ")[0]
            if ":" in head:
                suites.add(head.split(":", 1)[1])
        suites -= set(EXCLUDED_SUITES)
        order = [s for s in STAGE_ORDER if s in suites]
        return order + sorted(suites - set(order))

    def run_stages(self, stages):
        """None if every test passed, else 'suite/test' names of what failed."""
        for suite in stages:
            logdir = os.path.join(self.build, "meson-logs")
            testlog = os.path.join(logdir, "testlog.json")
            if os.path.exists(testlog):
                os.remove(testlog)
            rc = run(["nice", "-n", "10", "meson", "test", "-C", self.build, "--no-rebuild", "--suite", suite,
                      "--maxfail", "1", "--timeout-multiplier", str(self.args.timeout_multiplier),
                      "--num-processes", str(self.args.test_jobs)],
                     self.log, timeout=self.args.stage_timeout)
            if rc == 0:
                continue
            failed = []
            try:
                with open(testlog) as f:
                    for line in f:
                        r = json.loads(line)
                        if r["result"] not in ("OK", "EXPECTEDFAIL", "SKIP"):
                            failed.append(f"{suite}/{r['name']} ({r['result']})")
            except (OSError, ValueError):
                pass
            if rc is None:
                failed.append(f"{suite} (stage timeout)")
            return failed or [f"{suite} (meson test exit {rc})"]
        return None

    def run_tests(self, keys):
        """None if every test of keys passed, else the 'suite/test' that
        failed: the tests run directly (no meson), test_jobs at once, each
        with its meson timeout times the multiplier, cheapest first, and
        stop at the first failure."""
        if not hasattr(self, "tests"):
            self.tests = {t.key: t for t in covering.load_tests(self.build, EXCLUDED_SUITES)}
        todo = [self.tests[k] for k in keys if k in self.tests]
        failed = []
        lock = threading.Lock()

        def one(t):
            if failed or STOP.is_set():
                return
            rc = covering.run_test(t, self.build, t.timeout * self.args.timeout_multiplier,
                                   self.log, running=RUNNING)
            if not covering.passed(rc):
                with lock:
                    failed.append(f"{t.key} ({'timeout' if rc is None else f'exit {rc}'})")

        with ThreadPoolExecutor(max_workers=self.args.test_jobs) as ex:
            list(ex.map(one, todo))
        return failed or None

    def try_mutant(self, m, stages):
        first = FIRST_SUITE.get(m.file)
        if first in stages:
            stages = [first] + [x for x in stages if x != first]
        path = os.path.join(self.src, m.file)
        with open(path, encoding="utf-8") as f:
            orig = f.read()
        why = check_mutant(m, self.src)
        if why:
            return "error", why
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(apply_mutant(m, orig))
            with open(self.log, "a") as lf:
                lf.write(f"\n===== mutant {m.id}\n")
            rc = self.ninja()
            if rc != 0:
                # a generated mutant may not compile: not a test's fault, not counted
                if isinstance(m, generate.GenMutant):
                    return "nobuild", None
                return "error", f"does not build (see {self.log})"
            if self.cov is not None:
                how, keys = self.cov.covering(m.file, m.line_no)
                m.covered = (how, len([k for k in keys if k not in self.cov.always]))
                failed = self.run_tests(keys) if keys else None
            else:
                failed = self.run_stages(stages)
            if STOP.is_set():
                return "error", "interrupted"
            if failed:
                return "killed", ", ".join(failed[:3])
            return "survived", None
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(orig)


def select(mutants, args, repo):
    sel = mutants
    if args.only:
        ids = set(args.only.split(","))
        unknown = ids - {m.id for m in mutants}
        if unknown:
            sys.exit(f"run.py: --only: no mutant {', '.join(sorted(unknown))}")
        sel = [m for m in sel if m.id in ids]
    if args.files:
        want = [w for w in args.files.split(",") if w]
        sel = [m for m in sel if any(m.file == w or os.path.basename(m.file) == w
                                     or m.file.endswith("/" + w) for w in want)]
    if args.changed:
        changed = set(git(repo, "diff", "--name-only", args.changed).split())
        changed |= set(git(repo, "diff", "--name-only", "--cached").split())
        sel = [m for m in sel if m.file in changed]
    return sel


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true", help="print the mutants, one a line")
    ap.add_argument("--check", action="store_true",
                    help="only check that every old text occurs exactly once")
    ap.add_argument("--mutants", default=DEFAULT_LIST, help="the mutant list file")
    ap.add_argument("--files", help="comma-separated files (path or base name)")
    ap.add_argument("--changed", metavar="REV", help="mutants of files changed since REV")
    ap.add_argument("--only", help="comma-separated mutant ids")
    ap.add_argument("--generate", action="store_true",
                    help="mechanical mutants made from src/ and tools/ (generate.py) "
                    "instead of the list")
    ap.add_argument("--sample", type=int, metavar="N", help="N mutants picked at random")
    ap.add_argument("--seed", type=int, metavar="S", help="the sample's seed (default: a new one, "
                    "printed)")
    ap.add_argument("--equivalent", default=DEFAULT_EQUIVALENT,
                    help="generated mutants marked equivalent by hand, with reasons")
    ap.add_argument("--stages", action="store_true",
                    help="with --generate: run every fast suite, stage by stage, instead of "
                    "only the tests that execute the mutant's line (the coverage map)")
    ap.add_argument("--scratch", help="scratch directory (default: a new one in $TMPDIR; "
                    "a given one is reused, builds included)")
    ap.add_argument("--jobs", type=int, default=1, help="mutants at once (each its own copy)")
    ap.add_argument("--test-jobs", type=int, default=2, help="tests at once per mutant")
    ap.add_argument("--build-jobs", type=int, default=2)
    ap.add_argument("--timeout-multiplier", type=float, default=0.5,
                    help="scales each test's meson timeout (a hang is a kill)")
    ap.add_argument("--stage-timeout", type=int, default=900)
    ap.add_argument("--keep", action="store_true", help="keep a scratch directory made here")
    ap.add_argument("--skip-baseline", action="store_true",
                    help="do not run the suites on the unmutated tree first (only when you know "
                    "it is green: a red baseline kills every mutant)")
    args = ap.parse_args()
    # SIGTERM as SIGINT: the mutated file is restored on the way out
    signal.signal(signal.SIGTERM, signal.default_int_handler)

    repo = git(HERE, "rev-parse", "--show-toplevel").strip()
    marks = {}
    if args.generate:
        mutants = generate.generate(repo)
        marks, errors = generate.read_equivalent(args.equivalent)
    else:
        mutants, errors = parse_list(args.mutants)
    if errors:
        for e in errors:
            print(e, file=sys.stderr)
        return 2
    sel = select(mutants, args, repo)
    if args.sample is not None:
        if args.seed is None:
            args.seed = random.SystemRandom().randrange(1, 1 << 31)
        picked = random.Random(args.seed).sample(range(len(sel)), min(args.sample, len(sel)))
        sel = [sel[i] for i in sorted(picked)]
        print(f"mutation: sample of {len(sel)} with --seed {args.seed}", flush=True)
    equivalent = [m for m in sel if m.id in marks]
    if args.list:
        for m in sel:
            print(m.describe() + (f"  [equivalent: {marks[m.id]}]" if m.id in marks else ""))
        return 0
    if args.check and args.generate:
        # generated mutants apply by construction; what can drift is a mark
        # whose line changed (its key is then no mutant's: a stale reason)
        ids = {m.id for m in mutants}
        stale = sorted(k for k in marks if k not in ids)
        for k in stale:
            print(f"ERROR {k}: marked equivalent in {os.path.basename(args.equivalent)}, "
                  "but no generated mutant has that key (its line changed): re-check it")
        print(f"equivalent marks: {len(marks) - len(stale)} of {len(marks)} name a mutant")
        return 1 if stale else 0
    sel = [m for m in sel if m.id not in marks]
    bad = [(m, check_mutant(m, repo)) for m in sel]
    bad = [(m, why) for m, why in bad if why]
    if args.check:
        for m, why in bad:
            print(f"ERROR {m.id}: {why}")
        print(f"mutation list: {len(sel) - len(bad)} of {len(sel)} apply")
        return 1 if bad else 0
    if not sel:
        print("mutation: 0 of 0 killed (no mutant selected)")
        return 0

    made_scratch = not args.scratch
    scratch = args.scratch or tempfile.mkdtemp(prefix="sysdev-mutation-")
    os.makedirs(scratch, exist_ok=True)
    # tests that run the CLI as another user (uid 65534) must reach its build
    if made_scratch:
        os.chmod(scratch, 0o755)
    files = repo_files(repo)
    print(f"mutation: {len(sel)} mutants, scratch {scratch}, {args.jobs} at once", flush=True)
    workers = [Worker(repo, scratch, i, files, args) for i in range(max(1, args.jobs))]
    for w in workers:
        why = w.setup() or (None if w.ninja() == 0 else f"build failed (see {w.log})")
        if why:
            print(f"mutation: baseline: {why}")
            return 2
    stages = workers[0].suites()
    t0 = time.time()
    if args.generate and not args.stages:
        # the coverage run is the baseline: every test passes on the unmutated tree
        try:
            cov = covering.build_map(workers[0].src, scratch, files, EXCLUDED_SUITES,
                                     args.test_jobs, workers[0].log,
                                     lambda s: print(f"mutation: {s}", flush=True), RUNNING)
        except RuntimeError as e:
            print(f"mutation: {e}")
            return 2
        if cov.failed:
            # failed under gcov: the baseline is the ordinary build
            failed = workers[0].run_tests(cov.failed)
            if failed:
                print(f"mutation: the unmutated tree fails: {', '.join(failed)} "
                      f"(see {workers[0].log})")
                return 2
            cov.always = cov.failed
            print(f"mutation: {', '.join(cov.failed)}: fail under gcov, pass without: "
                  "run for every mutant (what they execute is unknown)", flush=True)
        cov.other_user = covering.other_user_tests(os.path.join(scratch, "cov", "build"),
                                                   EXCLUDED_SUITES)
        for w in workers:
            w.cov = cov
        print(f"mutation: each mutant runs the tests that execute its line "
              f"({len(cov.tests)} tests in the map)", flush=True)
        args.skip_baseline = True
        baseline_note = "mutation: baseline: the coverage run"
    else:
        print(f"mutation: stages {' '.join(stages)}", flush=True)
        baseline_note = None
    failed = None if args.skip_baseline else workers[0].run_stages(stages)
    if failed:
        print(f"mutation: the unmutated tree fails: {', '.join(failed)} (see {workers[0].log})")
        return 2
    print(baseline_note or "mutation: baseline not run (--skip-baseline)" if args.skip_baseline else
          f"mutation: baseline green in {time.time() - t0:.0f} s", flush=True)

    results = {}
    lock = threading.Lock()
    free = list(workers)

    def one(m):
        if STOP.is_set():
            return
        with lock:
            w = free.pop()
        try:
            t = time.time()
            res = w.try_mutant(m, stages)
        finally:
            with lock:
                free.append(w)
        with lock:
            results[m.id] = res
            status, detail = res
            tag = {"killed": "KILLED  ", "survived": "SURVIVED", "error": "ERROR   ",
                   "nobuild": "NOBUILD "}[status]
            cov_note = ""
            if getattr(m, "covered", None):
                how, n = m.covered
                cov_note = (f" [no test executes the line; {n} that run a tool as another "
                            "user ran]" if how == covering.NONE else
                            f" [{n} tests executing the {how}]" if how != "all" else
                            f" [all {n} tests]")
            print(f"{tag} {m.id} ({time.time() - t:.0f} s){cov_note}"
                  + (f": {detail}" if detail else ""), flush=True)

    ex = ThreadPoolExecutor(max_workers=len(workers))
    try:
        futures = [ex.submit(one, m) for m in sel]
        for f in futures:
            while not f.done():
                time.sleep(0.5)  # signals are handled here, in the main thread
            f.result()
    except KeyboardInterrupt:
        stop_all()
        ex.shutdown(wait=True, cancel_futures=True)  # each mutated file is restored
        print("mutation: interrupted; every mutated file restored")
        return 2
    ex.shutdown()

    killed = [m for m in sel if results[m.id][0] == "killed"]
    survived = [m for m in sel if results[m.id][0] == "survived"]
    errs = [m for m in sel if results[m.id][0] == "error"]
    nobuild = [m for m in sel if results[m.id][0] == "nobuild"]
    print()
    if survived:
        print("survivors (a test is missing, or the mutant is equivalent):")
        for m in survived:
            print(f"  {m.id}  {m.file}: {m.breaks}")
            if getattr(m, "covered", None) and m.covered[0] == covering.NONE:
                print("    (no test executes this line)")
            if isinstance(m, generate.GenMutant):
                with open(os.path.join(repo, m.file), encoding="utf-8",
                          errors="surrogateescape") as f:
                    print("    " + m.diff(f.read()).replace("\n", "\n    "))
    if errs:
        print("errors (fix the list: these mutants were not tried):")
        for m in errs:
            print(f"  {m.id}  {m.file}: {results[m.id][1]}")
    # reported apart and never counted: a mutant the compiler refuses, or one
    # marked by hand as unable to change behaviour
    for m in nobuild:
        print(f"not built (not counted): {m.describe()}")
    for m in equivalent:
        print(f"equivalent (not counted): {m.describe()}: {marks[m.id]}")
    counted = len(sel) - len(nobuild)
    rate = 100.0 * len(killed) / counted if counted else 100.0
    print(f"kill rate {rate:.1f}% ({len(survived)} survived, {len(errs)} errors, "
          f"{len(nobuild)} not built, {len(equivalent)} equivalent) in {time.time() - t0:.0f} s")
    if made_scratch and not args.keep:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"mutation: {len(killed)} of {counted} killed")
    if args.generate:
        return 0 if not survived and not errs else 1
    return 0 if len(killed) == len(sel) else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        stop_all()
        sys.exit(2)
