#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run the consistency checker on an unpacked fixture archive or a root.

    run_consistency.py CONSISTENCY SYSDEV_FIXTURE (--archive A.sysfs | --root DIR)
"""
import shutil
import subprocess
import sys
import tempfile


def main():
    exe, fixture, how, what = sys.argv[1:5]
    tmp = None
    try:
        if how == "--archive":
            tmp = tempfile.mkdtemp(prefix="sysdev-consistency-")
            root = tmp + "/root"
            r = subprocess.run([fixture, "unpack", what, root], capture_output=True, text=True)
            if r.returncode != 0:
                print("unpack %s: exit %d: %s" % (what, r.returncode, r.stderr))
                return 1
        else:
            root = what
        return subprocess.run([exe, root]).returncode
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
