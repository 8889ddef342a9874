#!/usr/bin/env python3
"""Fetch and unpack Debian's current kernel for QEMU tests (not installed).

Interface
---------
    fetch_kernel.py --cache DIR [--flavour amd64] [--series 6.1|6.12]

Prints one JSON object on stdout (also written to DIR/<kver>/kernel.json):

    {"kver": "6.1.0-57-amd64",           # uname -r of the guest kernel
     "root": DIR/<kver>/root,            # dpkg -x of all the packages
     "vmlinuz": .../root/boot/vmlinuz-<kver>,
     "modroot": .../root/lib/modules/<kver>,
     "kdir": .../root/usr/src/linux-headers-<kver>,   # make -C KDIR M=...
     "busybox": DIR/busybox/bin/busybox,               # static busybox
     "qemu": "/usr/bin/qemu-system-x86_64"}

What it does, each step only when its result is missing (a stamp file marks
a finished unpack; an flock on DIR/.lock serialises concurrent callers):

- resolves the kernel version from the metapackage linux-image-<flavour>
  (`apt-cache depends`), so a new Debian kernel needs no change here;
  `--series 6.12` takes linux-image-6.12-<flavour> instead (bookworm's
  6.12 kernel, from its security and backports updates), SERIES maps each
  series to its metapackage;
- `apt-get download`s linux-image-<kver>, linux-headers-<kver> and the
  linux-headers-*/linux-kbuild-* packages that one depends on, and
  busybox-static, then `dpkg -x`es them under DIR (nothing is installed);
- rewrites the absolute symlinks and the absolute `include` in the headers'
  Makefile so that kbuild works from the unpacked tree;
- installs qemu-system-x86 (and gcc-12, make) with apt-get when missing.
  That needs root, as CI has; elsewhere install them by hand.
  `apt-get update` runs once if the package lists are missing.

Importable: fetch(cache_dir, flavour="amd64", series=DEFAULT_SERIES) returns
the same dict.
"""

import argparse
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys

# Kernel series -> metapackage prefix ("linux-image-" PREFIX flavour).
# Bookworm's default kernel is 6.1 (linux-image-amd64); 6.12 has a
# versioned metapackage.
SERIES = {
    "6.1": "",
    "6.12": "6.12-",
}
DEFAULT_SERIES = "6.1"

HOST_TOOLS = {
    # executable: Debian package
    "qemu-system-x86_64": "qemu-system-x86",
    "gcc-12": "gcc-12",
    "make": "make",
}


def log(msg):
    print("fetch_kernel: " + msg, file=sys.stderr, flush=True)


def run(cmd, **kw):
    log("$ " + " ".join(cmd))
    return subprocess.run(cmd, check=True, **kw)


def capture(cmd):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True).stdout


_updated = False


def apt_update_once(force=False):
    global _updated
    if _updated:
        return
    lists = "/var/lib/apt/lists"
    have = os.path.isdir(lists) and any(
        n.endswith("_Packages") or "_Packages." in n for n in os.listdir(lists))
    if have and not force:
        return
    run(["apt-get", "update", "-q"])
    _updated = True


def depends(pkg):
    """Direct Depends: of a package, as a list of names."""
    out = capture(["apt-cache", "depends", "--no-recommends", "--no-suggests",
                   "--no-conflicts", "--no-breaks", "--no-replaces",
                   "--no-enhances", pkg])
    deps = []
    for line in out.splitlines():
        m = re.match(r"\s*\|?(Pre)?Depends:\s*(\S+)", line)
        if m and not m.group(2).startswith("<"):
            deps.append(m.group(2))
    return deps


def resolve_kver(flavour, series=DEFAULT_SERIES):
    meta = "linux-image-" + SERIES[series] + flavour
    try:
        deps = depends(meta)
    except subprocess.CalledProcessError:
        deps = []
    if not deps:
        apt_update_once(force=True)
        deps = depends(meta)
    prefix = "linux-image-"
    for d in deps:
        if d.startswith(prefix) and d.endswith("-" + flavour):
            kver = d[len(prefix):]
            if not kver.startswith(series + "."):
                raise SystemExit("fetch_kernel: %s is not a %s kernel"
                                 % (kver, series))
            return kver
    raise SystemExit("fetch_kernel: cannot resolve a kernel from %s: %r"
                     % (meta, deps))


def missing_host_packages():
    return sorted({pkg for exe, pkg in HOST_TOOLS.items()
                   if shutil.which(exe) is None})


def host_tools_present():
    return not missing_host_packages()


def ensure_host_tools():
    missing = missing_host_packages()
    if not missing:
        return
    if os.geteuid() != 0:
        raise SystemExit("fetch_kernel: missing %s; install them "
                         "(apt-get install %s)" % (missing, " ".join(missing)))
    apt_update_once()
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run(["apt-get", "install", "-y", "-q", "--no-install-recommends"]
        + missing, env=env)


def download(pkgs, dest):
    os.makedirs(dest, exist_ok=True)
    want = [p for p in pkgs
            if not any(f.startswith(p + "_") and f.endswith(".deb")
                       for f in os.listdir(dest))]
    if want:
        try:
            run(["apt-get", "download", "-q"] + want, cwd=dest)
        except subprocess.CalledProcessError:
            apt_update_once(force=True)
            run(["apt-get", "download", "-q"] + want, cwd=dest)
    debs = []
    for p in pkgs:
        found = sorted(f for f in os.listdir(dest)
                       if f.startswith(p + "_") and f.endswith(".deb"))
        if not found:
            raise SystemExit("fetch_kernel: %s was not downloaded" % p)
        debs.append(os.path.join(dest, found[-1]))
    return debs


def fix_absolute_symlinks(root):
    """Point absolute symlinks inside root at the same path below root."""
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            if not os.path.islink(path):
                continue
            target = os.readlink(path)
            if not target.startswith("/"):
                continue
            new = os.path.relpath(root + target, dirpath)
            os.unlink(path)
            os.symlink(new, path)


def fix_headers_makefile(root, kver):
    mk = os.path.join(root, "usr/src/linux-headers-" + kver, "Makefile")
    with open(mk) as f:
        text = f.read()
    fixed = re.sub(r"^(include\s+)(/usr/src/\S+)",
                   lambda m: m.group(1) + root + m.group(2), text,
                   flags=re.M)
    if fixed != text:
        with open(mk, "w") as f:
            f.write(fixed)


def fetch(cache_dir, flavour="amd64", series=DEFAULT_SERIES):
    cache_dir = os.path.abspath(cache_dir)
    os.makedirs(cache_dir, exist_ok=True)
    with open(os.path.join(cache_dir, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _fetch_locked(cache_dir, flavour, series)


def _fetch_locked(cache_dir, flavour, series):
    ensure_host_tools()
    kver = resolve_kver(flavour, series)
    kdir_cache = os.path.join(cache_dir, kver)
    root = os.path.join(kdir_cache, "root")
    stamp = os.path.join(kdir_cache, "unpacked.stamp")
    debdir = os.path.join(cache_dir, "debs")

    if not os.path.exists(stamp):
        headers = "linux-headers-" + kver
        pkgs = ["linux-image-" + kver, headers]
        pkgs += [d for d in depends(headers)
                 if d.startswith(("linux-headers-", "linux-kbuild-"))]
        debs = download(pkgs, debdir)
        if os.path.exists(root):
            shutil.rmtree(root)
        os.makedirs(root)
        for deb in debs:
            run(["dpkg-deb", "-x", deb, root])
        fix_absolute_symlinks(root)
        fix_headers_makefile(root, kver)
        with open(stamp, "w") as f:
            f.write("\n".join(debs) + "\n")

    bbdir = os.path.join(cache_dir, "busybox")
    busybox = os.path.join(bbdir, "bin", "busybox")
    if not os.path.exists(busybox):
        (deb,) = download(["busybox-static"], debdir)
        tmp = bbdir + ".tmp"
        if os.path.exists(tmp):
            shutil.rmtree(tmp)
        run(["dpkg-deb", "-x", deb, tmp])
        if os.path.exists(bbdir):
            shutil.rmtree(bbdir)
        os.rename(tmp, bbdir)

    info = {
        "kver": kver,
        "root": root,
        "vmlinuz": os.path.join(root, "boot", "vmlinuz-" + kver),
        "modroot": os.path.join(root, "lib", "modules", kver),
        "kdir": os.path.join(root, "usr", "src", "linux-headers-" + kver),
        "busybox": busybox,
        "qemu": shutil.which("qemu-system-x86_64"),
    }
    for key in ("vmlinuz", "modroot", "kdir", "busybox"):
        if not os.path.exists(info[key]):
            raise SystemExit("fetch_kernel: %s missing: %s" % (key, info[key]))
    with open(os.path.join(kdir_cache, "kernel.json"), "w") as f:
        json.dump(info, f, indent=1)
    return info


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", required=True)
    ap.add_argument("--flavour", default="amd64")
    ap.add_argument("--series", choices=sorted(SERIES), default=DEFAULT_SERIES)
    args = ap.parse_args()
    print(json.dumps(fetch(args.cache, args.flavour, args.series), indent=1))


if __name__ == "__main__":
    main()
