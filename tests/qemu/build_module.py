#!/usr/bin/env python3
"""Build an out-of-tree kernel module with kbuild, outside the source tree.

Interface
---------
    build_module.py --kdir KDIR --src SRCDIR --out OUTDIR

Copies the regular files of SRCDIR (Kbuild, Makefile, *.c, *.h) into
OUTDIR, runs `make -C KDIR M=OUTDIR modules` there and prints the paths of
the .ko files built, one a line. KDIR is the "kdir" of fetch_kernel.py.
Sources are copied only when changed, so make's own dependency tracking
keeps a second run cheap.

Importable: build(kdir, src, out) returns the list of .ko paths.
"""

import argparse
import os
import shutil
import subprocess
import sys


def build(kdir, src, out):
    os.makedirs(out, exist_ok=True)
    names = sorted(n for n in os.listdir(src)
                   if os.path.isfile(os.path.join(src, n))
                   and (n in ("Kbuild", "Makefile") or n.endswith((".c", ".h"))))
    for n in names:
        s = os.path.join(src, n)
        d = os.path.join(out, n)
        with open(s, "rb") as f:
            data = f.read()
        old = None
        if os.path.exists(d):
            with open(d, "rb") as f:
                old = f.read()
        if old != data:
            shutil.copyfile(s, d)
    # No BTF for the module: Debian's 6.12 headers ship vmlinux, with which
    # kbuild runs pahole (package dwarves) on every module; nothing here
    # reads BTF, and a module without it loads the same.
    cmd = ["make", "-C", kdir, "M=" + os.path.abspath(out),
           "CONFIG_DEBUG_INFO_BTF_MODULES=", "modules"]
    print("build_module: $ " + " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True, stdout=sys.stderr)
    kos = sorted(os.path.join(out, n) for n in os.listdir(out)
                 if n.endswith(".ko"))
    if not kos:
        raise SystemExit("build_module: no .ko built in " + out)
    return kos


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kdir", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    for ko in build(args.kdir, args.src, args.out):
        print(ko)


if __name__ == "__main__":
    main()
