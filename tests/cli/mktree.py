#!/usr/bin/env python3
"""The article's tree, for tests written before tests/lib/sysdevtest: the
builder is sysdevtest.Tree and the tree sysdevtest.article(); new tests
import sysdevtest.

usage: mktree.py DIR   (lay the article's tree out in DIR)
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from sysdevtest import Tree, article, up  # noqa: E402,F401


def file(root, path, content=""):
    Tree(root).file(path, content)


def link(root, path, target):
    Tree(root).link(path, target)


def device(root, devpath, subsystem=None, driver=None, uevent="", status="unsupported"):
    Tree(root).device(devpath, subsystem, driver, uevent, status + "\n")


if __name__ == "__main__":
    article(sys.argv[1])
