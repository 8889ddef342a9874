#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The manual pages: every page in man/ is installed by man/meson.build, and
each renders with groff's man macros without a single warning (-ww: all
warnings; an unknown macro, a bad escape, a broken font request).

usage: test_man.py MAN_DIR
"""
import glob
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402

C = T.Checker()


def main():
    mandir = sys.argv[1]
    pages = sorted(os.path.basename(p) for p in glob.glob(os.path.join(mandir, "*.[1-8]")))
    C.check("man/ holds pages (%d)" % len(pages), len(pages) >= 5, pages)
    with open(os.path.join(mandir, "meson.build")) as f:
        installed = set(re.findall(r"'([^']+\.[1-8])'", f.read()))
    for p in pages:
        C.check("%s is installed by man/meson.build" % p, p in installed, sorted(installed))
    for p in sorted(installed - set(pages)):
        C.fail("man/meson.build installs %s, which is not in man/" % p)
    groff = shutil.which("groff")
    if not C.check("groff is installed (apt-get install groff-base)", groff is not None):
        return C.summary()
    for p in pages:
        path = os.path.join(mandir, p)
        r = T.run([groff, "-man", "-ww", "-z", path], text=True, env=T.environ(LC_ALL="C.UTF-8"))
        C.check("%s renders without warnings" % p, r.returncode == 0 and r.stderr == "",
                "exit %d\n%s" % (r.returncode, r.stderr))
        # the page names itself in .TH and its section matches the file name
        with open(path, encoding="utf-8") as f:
            th = f.readline().split()
        name, sect = p.rsplit(".", 1)
        C.check("%s: .TH %s %s" % (p, name.upper(), sect),
                th[:3] == [".TH", name.upper(), sect], th[:3])
    return C.summary()


if __name__ == "__main__":
    sys.exit(main())
