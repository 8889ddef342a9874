#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Crafted umockdev recordings for the import's work (issue 18, item 8).

deep_recording(paths, depth): `paths` devices, each `depth` components below
/devices (14-byte names).  Four of 4,000 make a 240 KB recording like the
245 KB one that took 2.3 GB and 366 s when every prefix of every path was
copied.  Each device has SUBSYSTEM=deep (a class) and one attribute.

Usage: gen_umockdev.py [--paths N] [--depth N] FILE
"""
import argparse


def chain(k, depth):
    """The devpath of device k: /devices/chainK/component-0001/..., depth components below /devices."""
    return "/devices/chain%d/" % k + "/".join("component-%04d" % i for i in range(1, depth))


def deep_recording(paths=4, depth=4000):
    out = []
    for k in range(paths):
        out += ["P: " + chain(k, depth), "E: SUBSYSTEM=deep", "A: name=deep%d" % k, ""]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--paths", type=int, default=4)
    ap.add_argument("--depth", type=int, default=4000)
    ap.add_argument("file")
    a = ap.parse_args()
    with open(a.file, "w") as f:
        f.write(deep_recording(a.paths, a.depth))
