#!/usr/bin/env python3
"""libsysdev(3)'s EXAMPLE, read from the page, compiles with -Wall -Wextra
-Werror against this build (a C programmer copies it as it stands) and runs:
every line it prints names a device directory of the live /sys.

usage: test_man_example.py PAGE CC INCLUDE_DIR LIB_DIR [CFLAG...]
(CFLAGs: the build's own, e.g. -fsanitize=address,undefined)
"""
import os
import subprocess
import sys
import tempfile

page, cc, incdir, libdir = sys.argv[1:5]
extra = sys.argv[5:]

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402

C = T.Checker()


def example_code(text):
    """The .nf block after .SH EXAMPLE, with groff's escapes undone."""
    start = text.index(".SH EXAMPLE\n")
    start = text.index(".nf\n", start) + 4
    body = text[start:text.index(".fi\n", start)]
    # \e is a backslash, \- a minus; a line starting with a dot would be a request
    return body.replace("\\e", "\x00").replace("\\-", "-").replace("\x00", "\\")


with open(page, encoding="utf-8") as f:
    code = example_code(f.read())
C.check("the EXAMPLE holds a main()", "int main(" in code, code)
with tempfile.TemporaryDirectory() as tmp:
    src = os.path.join(tmp, "example.c")
    with open(src, "w") as f:
        f.write(code)
    exe = os.path.join(tmp, "example")
    r = subprocess.run([cc, "-std=c17", "-D_GNU_SOURCE", "-Wall", "-Wextra", "-Werror", src, "-o",
                        exe, "-I", incdir, "-L", libdir, "-lsysdev", *extra],
                       capture_output=True, text=True)
    C.check("libsysdev(3)'s EXAMPLE compiles with -Wall -Wextra -Werror", r.returncode == 0,
            r.stderr)
    if r.returncode == 0:
        out = subprocess.run([exe], capture_output=True, text=True, timeout=120,
                             env=dict(os.environ, LD_LIBRARY_PATH=libdir))
        lines = out.stdout.splitlines()
        bad = [l for l in lines
               if not os.path.isfile("/sys" + l.split(" ")[0] + "/uevent")]
        C.check("it runs and prints %d devices of /sys, each a directory with a uevent file"
                % len(lines), out.returncode == 0 and lines and not bad, bad[:5])
C.finish()
