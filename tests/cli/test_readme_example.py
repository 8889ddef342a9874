#!/usr/bin/env python3
"""The README's "library in five lines of C" compiles warning-free against
this build and runs: it lists the devices of the live /sys.

usage: test_readme_example.py README CC INCLUDE_DIR LIB_DIR [CFLAG...]
(CFLAGs: the build's own, e.g. -fsanitize=address,undefined)
"""
import os
import subprocess
import sys
import tempfile

readme, cc, incdir, libdir = sys.argv[1:5]
extra = sys.argv[5:]
text = open(readme).read()
start = text.index("```c\n") + 5
code = text[start:text.index("```", start)]
lines = [l for l in code.splitlines() if l.strip()]

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402

C = T.Checker()


with tempfile.TemporaryDirectory() as tmp:
    src = os.path.join(tmp, "demo.c")
    with open(src, "w") as f:
        f.write(code)
    exe = os.path.join(tmp, "demo")
    r = subprocess.run([cc, "-std=c17", "-D_GNU_SOURCE", "-Wall", "-Wextra", "-Werror", src, "-o", exe,
                        "-I", incdir, "-L", libdir, "-lsysdev", *extra], capture_output=True, text=True)
    C.check("the README example compiles with -Wall -Wextra -Werror" + r.stderr, r.returncode == 0)
    if r.returncode == 0:
        out = subprocess.run([exe], capture_output=True, text=True,
                             env=dict(os.environ, LD_LIBRARY_PATH=libdir))
        devs = [l for l in out.stdout.splitlines() if l.startswith("/devices")]
        C.check(f"it runs and lists {len(devs)} devices of /sys", out.returncode == 0 and bool(devs))
    C.check(f"it is {len(lines)} lines", len(lines) <= 5)
C.finish()
