#!/usr/bin/env python3
"""--properties --export run through a real shell: a device's property keys
are the device's (any bytes of its uevent file), so a key that is not a
shell name, or that names a variable the shell or the loader acts on, is
left out and counted in one line on stderr; the exit status stays 0 and the
values the shell reads back are the file's.  The same through a .sysfs
archive given as the root.  -P (pairs) output: the names are shell names,
the values quoted so that eval runs nothing.

usage: test_export_safe.py SYSDEV_TREE
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import sysdevtest as T  # noqa: E402
from sysdevtest.tree import Tree  # noqa: E402

TOOL = os.path.abspath(sys.argv[1])
C = T.Checker()
SHELL_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
DEV = "/devices/virtual/net/ev0"


def hostile_tree(t, marker):
    """A net device whose uevent file carries keys meant to run commands or
    take over the caller's environment, beside ordinary ones."""
    t.classes("net")
    t.dir("bus")
    uevent = (
        "INTERFACE=ev0\n"
        f"$(touch {marker})=1\n"
        f"`touch {marker}`=2\n"
        f"X;touch {marker};Y=3\n"
        "PATH=/tmp/evil-path\n"
        "LD_PRELOAD=/tmp/evil.so\n"
        "IFS=x\n"
        "BASH_ENV=/tmp/evil-env\n"
        "A-B=4\n"
        "9LIVES=5\n"
        "IFINDEX=7\n"
        "ID_NOTE=it's $(touch " + marker + ") and `id`\n"
    )
    t.device(DEV, "class:net", uevent=uevent)
    # a device named to run commands (in the current directory), for -P
    t.device("/devices/virtual/net/$(touch pwned-p)`touch pwned-p`\"\\", "class:net",
             uevent="INTERFACE=odd\n")
    return ["$(touch %s)" % marker, "`touch %s`" % marker, "X;touch %s;Y" % marker,
            "PATH", "LD_PRELOAD", "IFS", "BASH_ENV", "A-B", "9LIVES"]


def shell(cmd, env_path):
    """bash -c CMD with a known PATH; returns (stdout, stderr, rc)."""
    env = dict(os.environ, PATH=env_path)
    r = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, env=env,
                       timeout=60)
    return r.stdout, r.stderr, r.returncode


def check_root(tag, root, marker, left_out):
    path = os.environ.get("PATH", "/usr/bin:/bin")
    r = T.run([TOOL, "--root", root, "--properties", DEV, "--export"], text=True)
    C.check(f"{tag}: --export exits 0", r.returncode == 0, r.stderr)
    lines = r.stdout.splitlines()
    keys = [line.split("=", 1)[0] for line in lines]
    C.check(f"{tag}: every key written is a shell name",
            all(SHELL_NAME.match(k) for k in keys), keys)
    for k in left_out:
        C.check(f"{tag}: key {k!r} is left out", k not in keys, keys)
    for k in ("INTERFACE", "IFINDEX", "ID_NOTE", "DEVPATH", "SUBSYSTEM"):
        C.check(f"{tag}: ordinary key {k} is kept", k in keys, keys)
    err = r.stderr.strip().splitlines()
    C.check(f"{tag}: one line on stderr counts the {len(left_out)} left out",
            len(err) == 1 and f"left out {len(left_out)} properties" in err[0], r.stderr)
    # the real thing: eval in bash, as the man page suggests
    cmd = ('eval "$(%s --root %s --properties %s --export)"; '
           'printf "%%s\\n" "$PATH" "$INTERFACE" "$ID_NOTE" "$IFINDEX" "${LD_PRELOAD-unset}" '
           '"${BASH_ENV-unset}"') % (shlex.quote(TOOL), shlex.quote(root), DEV)
    out, serr, rc = shell(cmd, path)
    C.check(f"{tag}: eval in bash runs no command (no marker file)",
            not os.path.exists(marker), serr)
    got = out.split("\n")
    C.check(f"{tag}: eval leaves PATH, LD_PRELOAD and BASH_ENV alone and reads the values back",
            rc == 0 and got[:6] == [path, "ev0", "it's $(touch %s) and `id`" % marker, "7",
                                   "unset", "unset"], f"rc={rc} {got} {serr}")
    # -P: names are shell names, values cannot run anything
    r = T.run([TOOL, "--root", root, "-P", "-o", "NAME,DEVPATH,SUBSYSTEM"], text=True)
    C.check(f"{tag}: -P exits 0", r.returncode == 0, r.stderr)
    names = re.findall(r'(?:^| )([^ =]+)="', r.stdout, re.M)
    C.check(f"{tag}: -P names are shell names",
            names and all(SHELL_NAME.match(n) for n in names), names[:10])
    odd = [line for line in r.stdout.splitlines() if "odd" in line or "touch" in line]
    out, serr, rc = shell('while IFS= read -r l; do eval "$l"; printf "%%s\\n" "$NAME"; done',
                          path) if False else ("", "", 0)
    for line in odd:
        s = subprocess.run(["bash", "-c", 'eval "$1"; printf "%s" "$NAME"', "x", line],
                           capture_output=True, text=True, timeout=60)
        C.check(f"{tag}: eval of a -P line runs nothing", not os.path.exists(marker) and
                s.returncode == 0, f"{line!r} {s.stderr}")
    C.check(f"{tag}: -P has the hostile device's line", len(odd) == 1, r.stdout[-2000:])


def main():
    tmp = tempfile.mkdtemp(prefix="sysdev-export-")
    try:
        marker = os.path.join(tmp, "PWNED")
        t = Tree(os.path.join(tmp, "tree"))
        left_out = hostile_tree(t, marker)
        check_root("directory root", t.root, marker, left_out)
        arch = os.path.join(tmp, "hostile.sysfs")
        with open(arch, "w") as f:
            f.write(t.archive())
        check_root(".sysfs archive root", arch, marker, left_out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return C.summary()


if __name__ == "__main__":
    sys.exit(main())
