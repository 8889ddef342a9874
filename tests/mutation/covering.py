"""Which tests execute which line: the map that lets a mutant run only the
tests that can notice it.

The scratch copy is built once more with gcov instrumentation, at -O0 so that
every line keeps its own record (its own build
directory, `cov/build`).  Every fast test runs there once, alone, with its
counters written below a directory of its own (GCOV_PREFIX), so two tests
can run at once; gcov then says which lines of which source file the test
executed.  The map (test -> lines) is kept in `cov/map.json`: a test runs
again under gcov when a file it executed, its own tests/X directory, a
header, the options, the fixtures or the shared test helpers changed.

A mutant on line L of file F then runs, in the mutant's ordinary build:
  - the tests that executed F:L (cheapest first), when gcov has a record for
    F:L: no other test can reach the mutated code;
  - when F:L has a record but no test executed it, only the tests that run
    a tool as another user (setpriv: its counters cannot be written); if
    they pass, the report says that no test executes the line;
  - and in each case, last, the tests that fail under gcov (a test that
    drops its privileges cannot write its counters), if they pass in the
    ordinary build: what they execute is unknown;
  - the tests that executed any line of F when F:L has no record (a line
    gcov does not count: an initializer, a continued expression);
  - every fast test when F was not compiled into anything tested.
"""
import hashlib
import json
import os
import shutil
import signal
import subprocess
import time

NONE = "none"  # the line has a record and no test executed it


class Test:
    def __init__(self, t):
        self.name = t["name"]
        self.suite = t["suite"][0].split(":", 1)[-1]
        self.key = f"{self.suite}/{self.name}"
        self.cmd = t["cmd"]
        self.env = t["env"]
        self.workdir = t["workdir"]
        self.timeout = t["timeout"] or 30


def load_tests(build, excluded):
    out = subprocess.run(["meson", "introspect", build, "--tests"], capture_output=True,
                         text=True, check=True).stdout
    tests = [Test(t) for t in json.loads(out)]
    return [t for t in tests if t.suite not in excluded]


def run_test(t, build, timeout, log, extra_env=None, running=None):
    """Exit status of one test (0 and 77 pass), None when it timed out."""
    env = dict(os.environ)
    env.update(t.env)
    env.update(extra_env or {})
    with open(log, "a") as lf:
        lf.write(f"\n$ [{t.key}] {' '.join(t.cmd)}\n")
        lf.flush()
        p = subprocess.Popen(["nice", "-n", "10"] + t.cmd, cwd=t.workdir or build, env=env,
                             stdout=lf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             start_new_session=True)
        if running is not None:
            running.add(p)
        try:
            return p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            lf.write(f"[{t.key}] timeout after {timeout} s\n")
            return None
        finally:
            if running is not None:
                running.discard(p)


def passed(rc):
    return rc in (0, 77)


def files_key(src, files, under):
    """A hash of the content of the files below the directories under."""
    h = hashlib.sha1()
    for rel in sorted(files):
        if not rel.startswith(under):
            continue
        p = os.path.join(src, rel)
        if os.path.isfile(p) and not os.path.islink(p):
            h.update(rel.encode("utf-8", "surrogateescape") + b"\0")
            with open(p, "rb") as f:
                h.update(hashlib.sha1(f.read()).digest())
    return h.hexdigest()


# what every test's coverage depends on: the options, the headers, the shared
# test helpers and fixtures; per test, its own directory and the content of
# each source file it executed (a file a test does not execute cannot change
# what it executes: a new call would be in one it does)
# (not the meson.build files: a new target does not change what an old test
# executes; a changed file list or flag changes the files the tests execute)
GLOBAL = ("include/", "meson_options.txt", "tests/lib/", "fixtures/")


def global_key(src, files):
    headers = tuple(f for f in files if f.startswith(("src/", "tools/")) and f.endswith(".h"))
    return files_key(src, files, GLOBAL + headers)


def file_hash(src, rel, cache):
    if rel not in cache:
        try:
            with open(os.path.join(src, rel), "rb") as f:
                cache[rel] = hashlib.sha1(f.read()).hexdigest()
        except OSError:
            cache[rel] = None
    return cache[rel]


def test_dirs(t, build, src):
    """The tests/X directories of a test's program and script arguments."""
    dirs = set()
    for a in t.cmd:
        p = os.path.normpath(os.path.join(t.workdir or build, a))
        for base in (build, src):
            rel = os.path.relpath(p, base)
            parts = rel.split(os.sep)
            if len(parts) >= 2 and parts[0] == "tests":
                dirs.add("tests/" + parts[1] + "/")
    return tuple(sorted(dirs))


def gcov_lines(prefix, build, src):
    """{relative source: {line: count}} of the counters below prefix."""
    gcdas = []
    for root, _, names in os.walk(prefix):
        for n in names:
            if n.endswith(".gcda"):
                gcda = os.path.join(root, n)
                orig = "/" + os.path.relpath(gcda, prefix)
                gcno = orig[:-5] + ".gcno"
                if os.path.exists(gcno):
                    shutil.copyfile(gcno, gcda[:-5] + ".gcno")
                    gcdas.append(gcda)
    lines = {}
    for i in range(0, len(gcdas), 50):
        out = subprocess.run(["gcov", "--json-format", "--stdout"] + gcdas[i:i + 50],
                             cwd=build, capture_output=True, text=True,
                             errors="surrogateescape").stdout
        for doc in out.splitlines():
            if not doc.startswith("{"):
                continue
            d = json.loads(doc)
            for f in d.get("files", []):
                path = os.path.normpath(os.path.join(build, f["file"]))
                rel = os.path.relpath(path, src)
                if rel.startswith(".."):
                    continue
                m = lines.setdefault(rel, {})
                for ln in f["lines"]:
                    m[ln["line_number"]] = m.get(ln["line_number"], 0) + ln["count"]
    return lines


class CoverageMap:
    def __init__(self, data):
        per_test = data["tests"]
        self.tests = {k: v["seconds"] for k, v in per_test.items()}  # key -> seconds
        self.failed = sorted(k for k, v in per_test.items() if v["failed"])
        # tests whose coverage is unknown (they fail under gcov: one that drops
        # its privileges cannot write its counters): they run for every mutant
        self.always = []
        # tests that run a tool as another user (setpriv): that process cannot
        # write its counters, so a line gcov saw no test execute may still be
        # theirs: they run for such a line (set by the caller, see other_user_tests())
        self.other_user = []
        # file -> line -> [test keys]; file -> lines gcov has a record of; file -> tests
        self.lines, self.files = {}, {}
        for k, v in per_test.items():
            for f, lns in v["lines"].items():
                m = self.lines.setdefault(f, {})
                for ln in lns:
                    m.setdefault(ln, []).append(k)
                self.files.setdefault(f, set()).add(k)
        self.recorded = {f: set(v) for f, v in data["recorded"].items()}

    def covering(self, file, line):
        """(how, [test keys]) for a mutant on file:line, the tests of
        self.always last: how is 'line', 'file', 'all' or NONE (see the
        module's comment)."""
        how, keys = self._covering(file, line)
        return how, keys + [k for k in self.always if k not in keys]

    def _covering(self, file, line):
        if file not in self.recorded:
            return "all", sorted(self.tests, key=self.tests.get)
        hit = self.lines.get(file, {}).get(line)
        if hit:
            return "line", sorted(hit, key=self.tests.get)
        if line in self.recorded[file]:
            return NONE, sorted(self.other_user, key=self.tests.get)
        return "file", sorted(self.files.get(file, ()), key=self.tests.get)


# gcov writes its counters at exit(); a process that ends with _exit() (the
# archive guard's parent, a forked child) would leave its lines looking run
# by no test, and their mutants would be reported unexecuted without a test
# run: in the coverage build _exit() writes them first
EXIT_DUMP_C = """\
void __gcov_dump(void);
void __real__exit(int status) __attribute__((noreturn));
void __wrap__exit(int status) __attribute__((noreturn));
void __wrap__exit(int status)
{
	__gcov_dump();
	__real__exit(status);
}
"""


def exit_dump_object(cov):
    src, obj = os.path.join(cov, "exit-dump.c"), os.path.join(cov, "exit-dump.o")
    with open(src, "w") as f:
        f.write(EXIT_DUMP_C)
    subprocess.run(["cc", "-c", "-fPIC", "-O0", "-o", obj, src], check=True)
    return obj


# The tests that run a tool as another user (setpriv) for what only another
# user meets: a directory it may search but not list (0711), files it may
# not read.  (udev's tests drop privileges only to check a refusal, and the
# other hostile cases share hostile.py but run as root.)
OTHER_USER = ("hostile/hostile-unreadable", "hostile/hostile-confine", "cli/defects2")


def other_user_tests(build, excluded):
    """The keys of OTHER_USER that this build registers."""
    keys = {t.key for t in load_tests(build, excluded)}
    return [k for k in OTHER_USER if k in keys]


def build_map(repo_src, scratch, files, excluded, jobs, log, say, running):
    """The map for the copy at repo_src, made or brought up to date in
    scratch/cov: a test runs again under gcov when the code (CODE) or its
    own tests/X directory changed since the map last ran it."""
    cov = os.path.join(scratch, "cov")
    os.makedirs(cov, exist_ok=True)
    # a map made at -O2, or without the _exit() dump, is not reused
    code = global_key(repo_src, files) + ":O0:exit-dump"
    path = os.path.join(cov, "map.json")
    data = {"code": code, "tests": {}, "recorded": {}, "hashes": {}}
    try:
        with open(path) as f:
            old = json.load(f)
        if old.get("code") == code:
            data = old
    except (OSError, ValueError):
        pass
    hashes = {}
    # a changed file: the lines gcov counts in it are counted again
    changed = {f for f, h in data["hashes"].items() if file_hash(repo_src, f, hashes) != h}
    for f in changed:
        data["recorded"].pop(f, None)
    build = os.path.join(cov, "build")
    # (-u: a weak reference alone does not take __gcov_dump out of libgcov;
    # --coverage: libgcov also in the programs meson links to check the system)
    link_args = ("-Dc_link_args=['--coverage','-Wl,--wrap=_exit','-Wl,-u,__gcov_dump','%s']"
                 % exit_dump_object(cov))
    if not os.path.isfile(os.path.join(build, "build.ninja")):
        # -O0: with optimization gcov folds a condition into the line before it
        # (an "if (r < 0)" after "if (r < 0 && errno == EINTR)" has a record and
        # no hit), and the mutant on it would be said to be executed by no test
        if subprocess.run(["meson", "setup", build, repo_src, "-Dqemu_tests=false",
                           "-Db_coverage=true", "-Doptimization=0", link_args],
                          stdout=open(log, "a"), stderr=subprocess.STDOUT).returncode != 0:
            raise RuntimeError(f"coverage build: meson setup failed (see {log})")
    else:
        subprocess.run(["meson", "configure", build, "-Doptimization=0", link_args],
                       stdout=open(log, "a"), stderr=subprocess.STDOUT)
    if subprocess.run(["nice", "-n", "10", "ninja", "-C", build], stdout=open(log, "a"),
                      stderr=subprocess.STDOUT).returncode != 0:
        raise RuntimeError(f"coverage build failed (see {log})")
    tests = load_tests(build, excluded)
    dir_keys = {}
    todo = []
    for t in tests:
        dirs = test_dirs(t, build, repo_src)
        for d in dirs:
            if d not in dir_keys:
                dir_keys[d] = files_key(repo_src, files, (d,))
        t.cov_key = hashlib.sha1(" ".join([t.key] + t.cmd + [dir_keys[d] for d in dirs])
                                 .encode("utf-8", "surrogateescape")).hexdigest()
        have = data["tests"].get(t.key)
        if not have or have.get("key") != t.cov_key or changed & set(have["lines"]):
            todo.append(t)
    keys = {t.key for t in tests}
    data["tests"] = {k: v for k, v in data["tests"].items() if k in keys}
    if not todo:
        say(f"coverage map of this source read from {path}")
        return CoverageMap(data)
    gdir = os.path.join(cov, "gcda")
    shutil.rmtree(gdir, ignore_errors=True)
    say(f"coverage map: running {len(todo)} of {len(tests)} tests once with gcov "
        f"({jobs} at once; the others are up to date)")
    t0 = time.time()
    from concurrent.futures import ThreadPoolExecutor

    def one(i_t):
        i, t = i_t
        prefix = os.path.join(gdir, str(i))
        s = time.time()
        # gcov makes a test slower: its whole meson timeout
        rc = run_test(t, build, t.timeout, log, {"GCOV_PREFIX": prefix, "GCOV_PREFIX_STRIP": "0"},
                      running)
        seconds = round(time.time() - s, 2)
        lines = gcov_lines(prefix, build, repo_src)
        shutil.rmtree(prefix, ignore_errors=True)
        return t, seconds, not passed(rc), lines

    ex = ThreadPoolExecutor(max_workers=jobs)
    try:
        results = ex.map(one, enumerate(todo))
        for t, seconds, failed, cov_lines in results:
            for f, m in cov_lines.items():
                data["hashes"][f] = file_hash(repo_src, f, hashes)
                rec = set(data["recorded"].get(f, ()))
                rec.update(m)
                data["recorded"][f] = sorted(rec)
            data["tests"][t.key] = {
                "key": t.cov_key, "seconds": seconds, "failed": failed,
                "lines": {f: sorted(ln for ln, c in m.items() if c > 0)
                          for f, m in cov_lines.items() if any(m.values())}}
            with open(path + ".tmp", "w") as f:
                json.dump(data, f)
            os.replace(path + ".tmp", path)
    except KeyboardInterrupt:
        # interrupted: end the tests that run, start none (the map keeps what is done)
        ex.shutdown(wait=False, cancel_futures=True)
        for p in list(running or ()):
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except OSError:
                pass
        raise
    ex.shutdown()
    shutil.rmtree(gdir, ignore_errors=True)
    say(f"coverage map made in {time.time() - t0:.0f} s ({len(todo)} tests run, "
        f"{sum(1 for t in todo if data['tests'][t.key]['failed'])} failed under gcov)")
    return CoverageMap(data)
