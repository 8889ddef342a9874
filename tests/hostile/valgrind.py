#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""valgrind.py VALGRIND CLI ARGS...: run the CLI on the live /sys under
memcheck; fail on any error or any leak (definite, indirect, possible)."""
import os
import subprocess
import sys


def main():
    valgrind, cli, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    if not valgrind:
        print("SKIP: valgrind is not installed (apt-get install valgrind)")
        return 77
    if not os.path.isdir("/sys/devices"):
        print("SKIP: no /sys/devices")
        return 77
    # an ASan build cannot run under valgrind
    deps = subprocess.run(["ldd", cli], capture_output=True, text=True).stdout
    if "libasan" in deps or "libubsan" in deps:
        print("SKIP: sanitizer build: valgrind cannot run ASan binaries")
        return 77
    cmd = [valgrind, "--tool=memcheck", "--leak-check=full", "--show-leak-kinds=all",
           "--errors-for-leak-kinds=all", "--error-exitcode=99", "--track-fds=no",
           "-q", cli] + args
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=800)
    err = p.stderr.decode("utf-8", "replace")
    # the CLI itself may exit 1 (a /sys directory it may not read); valgrind says 99
    if p.returncode == 99 or "==" in err and ("definitely lost" in err or "Invalid" in err):
        sys.stdout.write(err)
        print("FAIL: memcheck found errors or leaks")
        return 1
    if p.returncode not in (0, 1):
        sys.stdout.write(err)
        print("FAIL: exit %d" % p.returncode)
        return 1
    sys.stdout.write(err)
    print("ok: memcheck clean, exit %d" % p.returncode)
    return 0


if __name__ == "__main__":
    sys.exit(main())
