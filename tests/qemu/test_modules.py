#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""MODULES against kmod: the modules sysdev-tree names for each modalias are
the ones `modprobe --resolve-alias` names from the same modules.alias.

    test_modules.py --build-dir DIR --cli sysdev-tree --fixture sysdev-fixture
                    --fixtures DIR

The modules.alias is real: Debian's 6.1 kernel package (fetched as the QEMU
tests fetch it, into DIR/cache) run through the host's depmod into a system
root of its own (DIR/modules/root, its .ko files hard links into the cache,
made once per kernel version).  Its modules.builtin.alias.bin is removed so
that modprobe, like MODULES, answers from modules.alias alone (kmod would
name a built-in module where no loadable one matches).

The modaliases are every device's in the committed QEMU captures, in a
capture of this machine's /sys, and a hand-written set that covers what
kmod treats specially ('-' as '_' outside brackets, brackets, wildcards in
the modalias itself).  Each capture is unpacked as R/sys beside
R/lib/modules/KVER/modules.alias, the layout `--root R/sys` reads.

Then, against hand-written expectations: the newest of several versions is
read, usr/lib/modules is read, a hostile file's limits (a file over 64 MiB, a line of 4097
bytes, a pattern that would cost a backtracking matcher exponential time)
give one line on stderr, never a hang.  These need no kernel: with
--limits-only (the cli suite's modules-limits) only they run.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.dont_write_bytecode = True
import fetch_kernel  # noqa: E402
import sysdevtest as T  # noqa: E402

C = T.Checker()

# modaliases that exercise kmod's normalisation and the glob matcher
HAND_MODALIASES = [
    "platform:efi-framebuffer",
    "platform:efi_framebuffer",
    "acpi:PNP0A03:",
    "acpi:PNP0A08:PNP0A03:",
    "cpu:type:x86,ven0000fam0006mod003F:feature:,0000,0001,0002,0003,0004,0005",
    "usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in00",
    "usb:v0BDAp8153d3000dc00dsc00dp00icFFiscFFip00in00",
    "virtio:d00000001v00001AF4",
    "virtio:d00000002v00001AF4",
    "input:b0011v0001p0001eAB41-e0,1,4,11,14,k71,72,73,74,75,76,77,79,7A,7B,ram4,l0,1,2,sfw",
    "hid:b0003g0001v0000046Dp0000C52B",
    "pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00",
    "pci:v00001AF4d00001041sv00001AF4sd00001100bc02sc00i00",
    "scsi:t-0x00",
    "scsi:t-0x05",
    "of:NfooT(null)Csimple-bus",
    "dmi:bvnSeaBIOS:bvr1.16:svnQEMU:pnStandardPC:",
    "pci:v0000[10DE]d*",
    "usb:v*p*d*dc*dsc*dp*ic09isc00ip*in*",
]


def modprobe_resolve(moddir, kver, modalias, cache):
    """kmod's answer: the modules `modprobe -R` prints, as a sorted list."""
    if modalias not in cache:
        p = subprocess.run(["modprobe", "-C", "/dev/null", "-d", moddir, "-S", kver, "-R",
                            "--", modalias], capture_output=True, text=True,
                           errors="surrogateescape", timeout=60)
        cache[modalias] = sorted(set(p.stdout.split())) if p.returncode == 0 else []
    return cache[modalias]


def prepare_root(info, work):
    """DIR/modules/root: the kernel's modules with depmod's indexes, once per version."""
    kver = info["kver"]
    root = os.path.join(work, "root")
    stamp = os.path.join(work, "depmod.stamp")
    if os.path.exists(stamp) and open(stamp).read() == kver:
        return root
    if os.path.exists(root):
        shutil.rmtree(root)
    dst = os.path.join(root, "lib", "modules", kver)
    os.makedirs(os.path.dirname(dst))
    try:
        shutil.copytree(info["modroot"], dst, copy_function=os.link, symlinks=True)
    except OSError:
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(info["modroot"], dst, symlinks=True)
    for name in os.listdir(dst):
        # depmod's own outputs are made fresh; what the package ships stays
        if name.startswith("modules.") and name not in ("modules.order", "modules.builtin",
                                                         "modules.builtin.modinfo"):
            os.unlink(os.path.join(dst, name))
    subprocess.run(["depmod", "-b", root, kver], check=True, timeout=1200)
    builtin = os.path.join(dst, "modules.builtin.alias.bin")
    if os.path.exists(builtin):
        os.unlink(builtin)
    with open(stamp, "w") as f:
        f.write(kver)
    return root


def system_root(base, name, alias_text, kver, lib="lib"):
    """base/name: R/lib/modules/KVER/modules.alias, R/sys made by the caller."""
    r = os.path.join(base, name)
    d = os.path.join(r, lib, "modules", kver)
    os.makedirs(d)
    with open(os.path.join(d, "modules.alias"), "w" if isinstance(alias_text, str) else "wb") as f:
        f.write(alias_text)
    return r


def list_modules(cli, sysroot, *extra):
    p = T.run([cli, "--root", sysroot, "-J", "-l", "-o", "DEVPATH,MODALIAS,MODULES", *extra],
              timeout=600)
    rows = json.loads(p.stdout)["devices"] if p.returncode == 0 else None
    return p, rows


def compare_tree(cli, label, sysroot, moddir, kver, cache):
    p, rows = list_modules(cli, sysroot)
    if not C.check(f"{label}: -J -l -o DEVPATH,MODALIAS,MODULES exits 0, nothing on stderr",
                   rows is not None and p.stderr == b"", (p.returncode, p.stderr[-400:])):
        return
    bad, with_alias, with_modules = [], 0, 0
    for row in rows:
        m = row["modalias"]
        if not m:
            if row["modules"]:
                bad.append((row["devpath"], "no modalias", row["modules"]))
            continue
        with_alias += 1
        want = modprobe_resolve(moddir, kver, m, cache)
        with_modules += bool(want)
        if row["modules"] != want:
            bad.append((row["devpath"], m, row["modules"], want))
    C.check(f"{label}: MODULES of each of {with_alias} devices with a modalias is what "
            f"modprobe --resolve-alias names ({with_modules} name at least one)",
            not bad and with_alias > 0, bad[:5])
    return with_modules


def hand_tree(base, modaliases):
    """A tree of platform devices, one per modalias (its MODALIAS property)."""
    t = T.Tree(base)
    t.buses("platform")
    for i, m in enumerate(modaliases):
        t.device("devices/platform/hand.%d" % i, "bus:platform",
                 uevent="MODALIAS=%s\n" % m)
    return t


def limits(cli, tmp, kver):
    # the newest of several versions, by version order (6.10 after 6.9)
    r = system_root(tmp, "newest", "alias platform:x* new_mod\n", "6.10.0-1")
    os.makedirs(os.path.join(r, "lib/modules/6.9.0-9"))
    with open(os.path.join(r, "lib/modules/6.9.0-9/modules.alias"), "w") as f:
        f.write("alias platform:x* old_mod\n")
    os.makedirs(os.path.join(r, "lib/modules/6.11.0-1"))  # newest, but without the file
    hand_tree(os.path.join(r, "sys"), ["platform:xyz"])
    p, rows = list_modules(cli, os.path.join(r, "sys"))
    C.check("lib/modules with 6.9.0-9, 6.10.0-1 and an empty 6.11.0-1: 6.10.0-1's file is read",
            rows is not None and rows[0]["modules"] == ["new_mod"], (rows, p.stderr))
    # usr/lib/modules, and the root's parent (the tree one level down)
    r = system_root(tmp, "usr", "alias platform:x* usr_mod\n", "6.1.0-1", lib="usr/lib")
    hand_tree(os.path.join(r, "sys"), ["platform:xyz"])
    p, rows = list_modules(cli, os.path.join(r, "sys"))
    C.check("R/usr/lib/modules/V/modules.alias is read", rows is not None and
            rows[0]["modules"] == ["usr_mod"], (rows, p.stderr))
    # a link that leaves the root is not followed
    r = os.path.join(tmp, "escape")
    outside = system_root(tmp, "outside", "alias platform:x* outside_mod\n", "6.1.0-1")
    os.makedirs(os.path.join(r, "lib"))
    os.symlink(os.path.join(outside, "lib", "modules"), os.path.join(r, "lib", "modules"))
    hand_tree(os.path.join(r, "sys"), ["platform:xyz"])
    p, rows = list_modules(cli, os.path.join(r, "sys"))
    C.check("R/lib/modules, a link out of R: not followed (MODULES empty, one line on stderr)",
            rows is not None and rows[0]["modules"] == [] and
            p.stderr.count(b"\n") == 1 and b"no modules.alias" in p.stderr, (rows, p.stderr))
    # a line over the limit: one line naming it
    r = system_root(tmp, "long", "alias platform:x* a\nalias " + "x" * 4100 + " b\n", "1")
    hand_tree(os.path.join(r, "sys"), ["platform:xyz"])
    p, rows = list_modules(cli, os.path.join(r, "sys"))
    C.check("a 4107-byte line: one line on stderr naming line 2 and the 4096-byte limit",
            rows is not None and rows[0]["modules"] == [] and p.stderr.count(b"\n") == 1 and
            b"line 2 is longer than 4096 bytes" in p.stderr, (rows, p.stderr))
    # a file over the 64 MiB limit (sparse: its zeros cost no disk): one line naming the limit
    r = system_root(tmp, "huge", "", "1")
    os.truncate(os.path.join(r, "lib/modules/1/modules.alias"), (64 << 20) + 1)
    hand_tree(os.path.join(r, "sys"), ["platform:xyz"])
    p, rows = list_modules(cli, os.path.join(r, "sys"))
    C.check("a modules.alias of 64 MiB and a byte: one line on stderr naming the 67108864-byte "
            "limit", rows is not None and rows[0]["modules"] == [] and
            p.stderr.count(b"\n") == 1 and
            b"larger than 67108864 bytes: MODULES is empty" in p.stderr, (rows, p.stderr))
    # patterns a backtracking matcher (glibc's fnmatch) takes exponential time on:
    # the matcher here is quadratic at worst, so this finishes and answers
    evil = "alias platform:" + "*a" * 40 + "*b m_evil\n"
    text = evil * 2000 + "alias platform:a* m_ok\n"
    r = system_root(tmp, "evil", text, "1")
    hand_tree(os.path.join(r, "sys"), ["platform:" + "a" * 300, "platform:" + "a" * 299 + "b"])
    p, rows = list_modules(cli, os.path.join(r, "sys"))
    C.check("2000 patterns of 41 stars against a 308-byte modalias: an answer (m_ok; then "
            "m_evil and m_ok), no hang",
            rows is not None and rows[0]["modules"] == ["m_ok"] and
            rows[1]["modules"] == ["m_evil", "m_ok"], (rows, p.stderr[-300:]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir")
    ap.add_argument("--cli", required=True)
    ap.add_argument("--fixture")
    ap.add_argument("--fixtures")
    ap.add_argument("--limits-only", action="store_true",
                    help="only the hand-written roots (no kernel, no kmod): the cli suite's part")
    args = ap.parse_args()
    if args.limits_only:
        with tempfile.TemporaryDirectory(prefix="sysdev-modules-limits.") as tmp:
            limits(args.cli, tmp, "6.1.0-1")
        C.finish()
        return
    if not (args.build_dir and args.fixture and args.fixtures):
        ap.error("--build-dir, --fixture and --fixtures are needed but with --limits-only")
    if not shutil.which("depmod") or not shutil.which("modprobe"):
        T.skip("depmod or modprobe (Debian's kmod) is not installed")
    if os.geteuid() != 0 and not fetch_kernel.host_tools_present():
        T.skip("qemu-system-x86_64, gcc-12 or make missing and not root")
    build_dir = os.path.abspath(args.build_dir)
    info = fetch_kernel.fetch(os.path.join(build_dir, "cache"))
    kver = info["kver"]
    moddir = prepare_root(info, os.path.join(build_dir, "modules"))
    alias_file = os.path.join(moddir, "lib/modules", kver, "modules.alias")
    with open(alias_file, encoding="utf-8", errors="surrogateescape") as f:
        alias_text = f.read()
    n_alias = sum(1 for ln in alias_text.splitlines() if ln.startswith("alias "))
    C.check(f"depmod wrote {kver}'s modules.alias ({n_alias} aliases)", n_alias > 1000)
    cache = {}
    with tempfile.TemporaryDirectory(prefix="sysdev-modules.") as tmp:
        trees = []
        for name in sorted(os.listdir(args.fixtures)):
            if name.startswith("qemu-") and name.endswith(".sysfs"):
                trees.append((name[:-6], os.path.join(args.fixtures, name)))
        live = os.path.join(tmp, "live.sysfs")
        p = T.run([args.fixture, "capture", live], timeout=600)
        if C.check("this machine's /sys captured", p.returncode == 0, p.stderr[-300:]):
            trees.append(("live", live))
        total = 0
        for label, archive in trees:
            r = system_root(tmp, label, alias_text, kver)
            p = T.run([args.fixture, "unpack", archive, os.path.join(r, "sys")], timeout=600)
            if C.check(f"{label}: unpacked as R/sys", p.returncode == 0, p.stderr[-300:]):
                total += compare_tree(args.cli, label, os.path.join(r, "sys"), moddir, kver,
                                      cache) or 0
        C.check(f"some device of the captures has a module ({total} in all)", total > 0)
        r = system_root(tmp, "hand", alias_text, kver)
        hand_tree(os.path.join(r, "sys"), HAND_MODALIASES)
        compare_tree(args.cli, "hand-written modaliases", os.path.join(r, "sys"), moddir, kver,
                     cache)
        limits(args.cli, tmp, kver)
    C.finish()


if __name__ == "__main__":
    main()
