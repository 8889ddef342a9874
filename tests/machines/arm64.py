#!/usr/bin/env python3
"""Debian's arm64 kernel, an arm64 sysdev-tree and an arm64 initramfs.

Used by machines.py for the `virt-arm64` machine (qemu-system-aarch64 -M virt
-cpu cortex-a57, TCG). Nothing here touches the host's dpkg or apt state:

- fetch(cache) runs apt-get with a private state directory
  (CACHE/arm64-apt: its own package lists and archives, APT::Architecture
  arm64, the host's /etc/apt/sources.list.d sources; lists refreshed when
  older than a day), so no
  `dpkg --add-architecture` is needed; it resolves linux-image-arm64 to
  linux-image-<kver>, downloads it with busybox-static, libc6, libudev1 and
  libudev-dev (all :arm64), and `dpkg -x`es them into CACHE/arm64/<kver>/root
  (the sysroot of the cross build, and where the guest's libraries come from);
- cross_build(source, build_dir, sysroot) builds sysdev-tree and
  sysdev-fixture with aarch64-linux-gnu-gcc (meson cross file, pkg-config
  pointed at the sysroot's libudev.pc, -Dtests=false);
- initramfs(...) calls build_initramfs.build() of tests/qemu unchanged:
  the host's (amd64) busybox gives the applet list (same Debian busybox
  version), then the arm64 busybox, the arm64 programs, their libraries and
  the dynamic loader are added as plain --file entries (ldd cannot read an
  arm64 program on an amd64 host).
- ensure_host_tools() installs qemu-system-arm, gcc-aarch64-linux-gnu and
  libc6-dev-arm64-cross with apt-get when missing (root only).
"""

import fcntl
import glob
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "qemu"))

import build_initramfs  # noqa: E402

HOST_PACKAGES = {"qemu-system-aarch64": "qemu-system-arm",
                 "aarch64-linux-gnu-gcc": "gcc-aarch64-linux-gnu",
                 "/usr/aarch64-linux-gnu/include/stdio.h":
                 "libc6-dev-arm64-cross"}
LIBS = ["libudev.so.1", "libc.so.6"]
LOADER = "/lib/ld-linux-aarch64.so.1"


def log(msg):
    print("arm64: " + msg, file=sys.stderr, flush=True)


def run(cmd, **kw):
    log("$ " + " ".join(cmd))
    return subprocess.run(cmd, check=True, **kw)


def missing_host_packages():
    miss = []
    for what, pkg in HOST_PACKAGES.items():
        present = os.path.exists(what) if what.startswith("/") else any(
            os.access(os.path.join(d, what), os.X_OK)
            for d in os.environ.get("PATH", "/usr/bin").split(":"))
        if not present:
            miss.append(pkg)
    return miss


def ensure_host_tools():
    """Install what is missing; returns the list still missing."""
    miss = missing_host_packages()
    if miss and os.geteuid() == 0:
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        r = subprocess.run(["apt-get", "install", "-y", "-q",
                            "--no-install-recommends"] + miss, env=env)
        if r.returncode != 0:
            subprocess.run(["apt-get", "update", "-q"], env=env)
            subprocess.run(["apt-get", "install", "-y", "-q",
                            "--no-install-recommends"] + miss, env=env)
        miss = missing_host_packages()
    return miss


def apt_opts(adir):
    return ["-o", "Dir::State=" + os.path.join(adir, "state"),
            "-o", "Dir::State::status=" + os.path.join(adir, "state", "status"),
            "-o", "Dir::Cache=" + os.path.join(adir, "cache"),
            "-o", "Dir::Etc::SourceList=/dev/null",
            "-o", "APT::Architecture=arm64",
            "-o", "APT::Architectures::=arm64",
            "-o", "APT::Sandbox::User=root",
            "-o", "Debug::NoLocking=1"]


def fetch(cache):
    cache = os.path.abspath(cache)
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(cache, ".lock-arm64"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _fetch_locked(cache)


def _fetch_locked(cache):
    adir = os.path.join(cache, "arm64-apt")
    for d in ("state/lists/partial", "cache/archives/partial"):
        os.makedirs(os.path.join(adir, d), exist_ok=True)
    status = os.path.join(adir, "state", "status")
    if not os.path.exists(status):
        open(status, "w").close()
    opts = apt_opts(adir)
    lists = glob.glob(os.path.join(adir, "state", "lists", "*Packages*"))
    # refresh lists older than a day: Debian's security archive keeps only
    # the newest kernel, so stale lists name a package that is gone
    if not lists or time.time() - min(map(os.path.getmtime, lists)) > 86400:
        run(["apt-get"] + opts + ["-q", "update"], stdout=sys.stderr)
    dep = subprocess.run(["apt-cache"] + opts + ["depends", "linux-image-arm64"],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    kpkg = None
    for line in dep.splitlines():
        line = line.strip()
        if line.startswith("Depends: linux-image-"):
            kpkg = line.split()[1]
            break
    if not kpkg:
        raise SystemExit("arm64: cannot resolve linux-image-arm64:\n" + dep)
    kver = kpkg[len("linux-image-"):]
    base = os.path.join(cache, "arm64", kver)
    root = os.path.join(base, "root")
    stamp = os.path.join(base, ".unpacked")
    if not os.path.exists(stamp):
        debs = os.path.join(base, "debs")
        os.makedirs(debs, exist_ok=True)
        run(["apt-get"] + opts + ["-q", "download", kpkg, "busybox-static",
                                  "libc6", "libudev1", "libudev-dev"],
            cwd=debs, stdout=sys.stderr)
        for deb in sorted(glob.glob(os.path.join(debs, "*.deb"))):
            run(["dpkg", "-x", deb, root])
        open(stamp, "w").close()
    return {"kver": kver, "root": root,
            "vmlinuz": os.path.join(root, "boot", "vmlinuz-" + kver),
            "modroot": os.path.join(root, "lib", "modules", kver),
            "busybox": os.path.join(root, "bin", "busybox"),
            "qemu": "qemu-system-aarch64"}


CROSS = """[binaries]
c = 'aarch64-linux-gnu-gcc'
ar = 'aarch64-linux-gnu-ar'
strip = 'aarch64-linux-gnu-strip'
pkgconfig = 'pkg-config'

[properties]
sys_root = '{root}'
pkg_config_libdir = ['{root}/usr/lib/aarch64-linux-gnu/pkgconfig']

[host_machine]
system = 'linux'
cpu_family = 'aarch64'
cpu = 'cortex-a57'
endian = 'little'
"""


def cross_build(source, build_dir, sysroot):
    """Build the arm64 sysdev-tree and sysdev-fixture; returns their paths."""
    os.makedirs(build_dir, exist_ok=True)
    cross = os.path.join(build_dir, "arm64-cross.ini")
    text = CROSS.format(root=sysroot)
    bdir = os.path.join(build_dir, "build")
    if not os.path.exists(cross) or open(cross).read() != text:
        # a new kernel version means a new sysroot: configure afresh
        shutil.rmtree(bdir, ignore_errors=True)
        with open(cross, "w") as f:
            f.write(text)
    if not os.path.exists(os.path.join(bdir, "build.ninja")):
        run(["meson", "setup", "--cross-file", cross, "-Dtests=false",
             bdir, source], stdout=sys.stderr)
    run(["meson", "compile", "-C", bdir, "sysdev-tree", "sysdev-fixture"],
        stdout=sys.stderr)
    return (os.path.join(bdir, "tools", "sysdev-tree"),
            os.path.join(bdir, "tools", "sysdev-fixture"),
            os.path.join(bdir, "src", "libsysdev.so.1"))


def initramfs(kinfo, host_busybox, out, guest, modules, programs, libsysdev):
    """build_initramfs.build() with arm64 programs added as plain files."""
    lib = os.path.join(kinfo["root"], "lib", "aarch64-linux-gnu")
    ulib = os.path.join(kinfo["root"], "usr", "lib", "aarch64-linux-gnu")
    files = ["%s:/bin/busybox" % kinfo["busybox"],
             "%s:%s" % (os.path.realpath(os.path.join(lib, "ld-linux-aarch64.so.1")),
                        LOADER),
             "%s:/lib/libsysdev.so.1" % os.path.realpath(libsysdev)]
    for name in LIBS:
        for d in (lib, ulib):
            if os.path.exists(os.path.join(d, name)):
                files.append("%s:/lib/%s" % (os.path.realpath(os.path.join(d, name)),
                                             name))
                break
        else:
            raise SystemExit("arm64: no %s in %s" % (name, kinfo["root"]))
    for p in programs:
        files.append("%s:/usr/bin/%s" % (p, os.path.basename(p)))
    info = dict(kinfo, busybox=host_busybox)
    return build_initramfs.build(info, out, guest, modules=modules, files=files)
