#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
""".ci/summary on made-up meson logs: what it lets through and what it refuses.

    test_ci_summary.py SOURCE_ROOT
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402

C = T.Checker(quiet=True)


def expected_counts(top):
    out = {}
    for line in open(os.path.join(top, "tests", "expected-tests")):
        if line.strip() and not line.startswith("#"):
            s, n = line.split()
            out[s] = int(n)
    return out


def log(path, results):
    with open(path, "w") as f:
        for suite, name, result, stdout in results:
            f.write(json.dumps({"name": "libsysdev:%s / %s" % (suite, name), "result": result,
                                "stdout": stdout}) + "\n")


def full_run(top, override=None):
    """Every suite with as many passing tests as tests/expected-tests says."""
    rows = []
    for suite, n in expected_counts(top).items():
        for i in range(n):
            name = "%s-%d" % (suite, i)
            rows.append((suite, name, "OK", "x: 3 inputs replayed\n" if suite == "fuzz" else ""))
    for (suite, name), (result, out) in (override or {}).items():
        rows = [r for r in rows if (r[0], r[1]) != (suite, name)] + [(suite, name, result, out)]
    return rows


def summary(top, args):
    r = subprocess.run([sys.executable, os.path.join(top, ".ci", "summary")] + args,
                       capture_output=True, text=True)
    return r.returncode, r.stdout


def main():
    top = sys.argv[1]
    root = os.geteuid() == 0
    with tempfile.TemporaryDirectory() as tmp:
        lg = os.path.join(tmp, "testlog.json")
        fz = os.path.join(tmp, "fuzz.txt")
        with open(os.path.join(top, "tests", "fuzz", "run.sh")) as f:
            targets = re.search(r"\|\|\s*targets=\(([^)]*)\)", f.read()).group(1).split()
        with open(fz, "w") as f:
            f.write("".join("%s 100\n" % t for t in targets))
        log(lg, full_run(top))
        rc, out = summary(top, ["--strict", "--fuzz", fz, "main=" + lg])
        C.check("a full green run passes: %d %r" % (rc, out[-300:]),
                rc == 0 and "0 failed, 0 skipped" in out and
                "%d fuzz executions" % (100 * len(targets)) in out)
        # a failure fails, strict or not
        log(lg, full_run(top, {("unit", "unit-0"): ("FAIL", "")}))
        for args in (["--strict"], []):
            rc, out = summary(top, args + ["main=" + lg])
            C.check("%s a failure: %d" % (args, rc), rc == 1 and "unit/unit-0 FAIL" in out)
        # a skip not on the allow-list: strict fails and names the reason; a person's run
        # lists it and passes
        log(lg, full_run(top, {("hostile", "hostile-0"): ("SKIP", "SKIP: no tool here\n")}))
        rc, out = summary(top, ["--strict", "main=" + lg])
        C.check("strict, an unlisted skip: %d %r" % (rc, out[-400:]), rc == 1 and "hostile/hostile-0 skipped and not allowed" in out and
                "no tool here" in out)
        rc, out = summary(top, ["main=" + lg])
        C.check("a person's run lists the skip with its reason: %d %r" % (rc, out[-400:]),
                rc == 0 and "skipped hostile/hostile-0: SKIP: no tool here" in out)
        # a skip the allow-list allows when not root
        log(lg, full_run(top, {("udev", "udev-planted"): ("SKIP", "SKIP: no namespaces\n")}))
        rc, out = summary(top, ["--strict", "main=" + lg])
        C.check("strict, an allowed nonroot skip as %s: %d %r" % (
            "root" if root else "a user", rc, out[-300:]), rc == (1 if root else 0))
        # a suite that ran fewer tests than it registers
        rows = [r for r in full_run(top) if r[0] != "compare"]
        log(lg, rows)
        rc, out = summary(top, ["--strict", "main=" + lg])
        C.check("strict, a suite dropped out: %d" % rc, rc == 1 and "suite compare ran 0 tests" in out)
        rc, out = summary(top, ["--strict", "main=" + lg + ":-compare"])
        C.check("strict, a suite left out on purpose: %d %r" % (rc, out[-300:]), rc == 0)
        # a fuzzer that ran nothing, a corpus replay of nothing
        log(lg, full_run(top))
        with open(fz, "w") as f:
            f.write("uevent 100\nlatency 0\n")
        rc, out = summary(top, ["--strict", "--fuzz", fz, "main=" + lg])
        C.check("strict, idle fuzzers: %d" % rc, rc == 1 and "fuzz-latency ran no executions" in out and
                "fuzz-device ran no executions" in out)
        log(lg, full_run(top, {("fuzz", "fuzz-0"): ("OK", "x: 0 inputs replayed\n")}))
        rc, out = summary(top, ["--strict", "main=" + lg])
        C.check("strict, an empty corpus: %d" % rc, rc == 1 and "replayed no input" in out)
        # a missing log
        rc, out = summary(top, ["main=" + os.path.join(tmp, "nothing.json")])
        C.check("a missing log fails: %d" % rc, rc == 1)
    return C.summary()


if __name__ == "__main__":
    sys.exit(main())
