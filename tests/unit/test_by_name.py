#!/usr/bin/env python3
"""Every unit test binary runs its cases by name (tests/unit/unit-main.h).

    test_by_name.py TEST-BINARY...

For each binary: --list prints at least one name, each unique; the first and
the last case run alone by name (cmocka reports exactly one test run, and the
right one), by the name without "test_" too; a name that matches no case
exits 2 without running anything.
"""
import os
import subprocess
import sys


def run(args):
    return subprocess.run(args, capture_output=True, text=True, timeout=60)


def main():
    bad = 0
    for exe in sys.argv[1:]:
        name = os.path.basename(exe)
        p = run([exe, "--list"])
        cases = p.stdout.split()
        if p.returncode != 0 or not cases or len(set(cases)) != len(cases):
            print(f"FAIL {name}: --list gave {p.returncode} and {cases!r}")
            bad += 1
            continue
        for case in {cases[0], cases[-1]}:
            for arg in (case, case[5:] if case.startswith("test_") else case):
                p = run([exe, arg])
                out = p.stdout + p.stderr
                if p.returncode != 0 or "[==========] Running 1 test(s)" not in out \
                        or f"[ RUN      ] {case}\n" not in out:
                    print(f"FAIL {name} {arg}: exit {p.returncode}\n{out}")
                    bad += 1
        p = run([exe, "no_such_case_at_all"])
        if p.returncode != 2 or "[ RUN" in p.stdout:
            print(f"FAIL {name}: an unknown name gave exit {p.returncode}")
            bad += 1
        print(f"ok {name}: {len(cases)} cases")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
