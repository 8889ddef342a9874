# SPDX-License-Identifier: LGPL-2.1-or-later
"""The shared library of the Python test drivers.

    import os, sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
    import sysdevtest as T

- Checker: counts checks, prints one PASS:/FAIL: line each and the closing
  "N passed, N failed" line; summary() gives the exit status.
- run(), run3(), environ(): run a program with a timeout, output as bytes
  (or text with surrogate escapes, so that any byte survives).
- SKIP, skip(): meson's skip convention (exit 77).  Every skip must be
  listed in tests/skip-allowlist with its reason, or CI fails it.
- Tree (tree.py): the one fake-sysfs builder: devices with uevent
  properties, S/bus and S/class entries, subsystem and driver links,
  attribute groups, odd names (bytes), FIFOs, modes; on disk, in memory as
  archive text, or both.  article() lays out the article's tree.
"""
import os
import subprocess
import sys

from .tree import Tree, up, quote, article  # noqa: F401

SKIP = 77


class Checker:
    """Counts passed and failed checks and prints a line for each.

    quiet=True prints only the failures (drivers that check every node of a
    large tree); the counts and the closing line are the same."""

    def __init__(self, quiet=False):
        self.quiet = quiet
        self.passed = self.failed = self.skipped = 0
        self.failures = []

    def check(self, name, ok, detail=""):
        """One check: name says what must hold, ok whether it does.  Returns ok."""
        if ok:
            self.passed += 1
            if not self.quiet:
                print("PASS: " + str(name), flush=True)
        else:
            self.failed += 1
            self.failures.append(name)
            print("FAIL: " + str(name), flush=True)
            if detail not in ("", None):
                for line in str(detail).splitlines()[:40]:
                    print("    " + line, flush=True)
        return ok

    def fail(self, name, detail=""):
        """A check that failed (the caller found the fault itself)."""
        return self.check(name, False, detail)

    def info(self, msg):
        print("INFO: " + msg, flush=True)

    def skip(self, name, why):
        """A part of the test that could not run here: counted and printed."""
        self.skipped += 1
        print("SKIP: %s: %s" % (name, why), flush=True)

    def summary(self):
        """Print the closing line; return the exit status (0 pass, 1 fail)."""
        line = "%d passed, %d failed" % (self.passed, self.failed)
        if self.skipped:
            line += ", %d skipped" % self.skipped
        print(line, flush=True)
        return 1 if self.failed else 0

    def finish(self):
        sys.exit(self.summary())


def skip(why):
    """Skip the whole test (exit 77), saying why."""
    print("SKIP: " + why, flush=True)
    sys.exit(SKIP)


def environ(**changes):
    """A copy of the environment with changes; a value of None removes it."""
    env = dict(os.environ)
    for k, v in changes.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return env


def _arg(a):
    return a if isinstance(a, (str, bytes)) else os.fspath(a) if hasattr(a, "__fspath__") else str(a)


def run(args, *, timeout=120, env=None, cwd=None, input=None, text=False):
    """Run args (str, bytes, paths or numbers) to the end; stdout and stderr
    captured as bytes, or as text (UTF-8, surrogate escapes) with text=True.
    Returns the CompletedProcess; a run over timeout seconds is killed and
    raises subprocess.TimeoutExpired, which fails the test."""
    kw = {"encoding": "utf-8", "errors": "surrogateescape"} if text else {}
    return subprocess.run([_arg(a) for a in args], capture_output=True, timeout=timeout, env=env,
                          cwd=cwd, input=input, **kw)


def run3(args, **kw):
    """run() as (exit status, stdout, stderr), the outputs as text."""
    if isinstance(kw.get("input"), str):
        kw["input"] = kw["input"].encode("utf-8", "surrogateescape")
    p = run(args, **kw)
    return p.returncode, p.stdout.decode("utf-8", "surrogateescape"), \
        p.stderr.decode("utf-8", "surrogateescape")
