#!/usr/bin/env python3
"""Build a gzip'ed newc initramfs for the QEMU tests (no cpio(1) needed).

Interface
---------
    build_initramfs.py --kernel-json FILE --out INITRD.cpio.gz --guest SCRIPT
        [--init FILE]          /init; default guest/init.sh beside this file
        [--module NAME]...     image module (virtio_blk, e1000e, ...); it and
                               its dependencies are copied and loaded by /init
                               in dependency order
        [--ko PATH]...         extra out-of-tree .ko, copied to
                               /lib/modules/<kver>/extra/ and NOT loaded (the
                               guest script loads it); its dependencies are
                               loaded by /init
        [--binary PATH[:DEST]]...  ELF program, default DEST /usr/bin/<name>;
                               its shared libraries (ldd) go to /lib, the
                               dynamic loader to its own path
        [--file SRC:DEST]...   any other file

FILE is the kernel.json that fetch_kernel.py writes (kver, modroot,
busybox). SCRIPT becomes /guest.sh; the generic /init (guest/init.sh) runs
it as `sh /guest.sh /out` after mounting proc, sysfs, devtmpfs and loading
the modules, then ships /out to the host (see boot.py). The image also
holds static busybox with a link for every applet, /etc/modules.load (the
load order) and a modules.dep for busybox modprobe.

Importable: build(kernel_info, out, guest, init=None, modules=(), kos=(),
binaries=(), files=()).
"""

import argparse
import gzip
import json
import lzma
import os
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


class Cpio:
    """A newc archive built in memory; parents are added automatically."""

    def __init__(self):
        self.entries = {}   # path -> (mode, data)

    def _parents(self, path):
        parts = path.strip("/").split("/")[:-1]
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            if d not in self.entries:
                self.entries[d] = (0o040755, b"")

    def dir(self, path, mode=0o755):
        path = path.strip("/")
        self._parents(path)
        self.entries[path] = (0o040000 | mode, b"")

    def file(self, path, data, mode=0o644):
        path = path.strip("/")
        self._parents(path)
        self.entries[path] = (0o100000 | mode, data)

    def symlink(self, path, target):
        path = path.strip("/")
        self._parents(path)
        self.entries[path] = (0o120777, target.encode())

    def has(self, path):
        return path.strip("/") in self.entries

    def write(self, fileobj):
        def pad(n):
            return b"\0" * ((4 - n % 4) % 4)

        def entry(ino, name, mode, data):
            nm = name.encode() + b"\0"
            hdr = "070701" + "".join("%08X" % v for v in (
                ino, mode, 0, 0, 2 if mode & 0o040000 else 1, 0, len(data),
                0, 0, 0, 0, len(nm), 0))
            out = hdr.encode() + nm
            out += pad(len(out)) + data + pad(len(data))
            return out

        ino = 1
        for name in sorted(self.entries):
            mode, data = self.entries[name]
            fileobj.write(entry(ino, name, mode, data))
            ino += 1
        fileobj.write(entry(ino, "TRAILER!!!", 0, b""))


def read_file(path):
    with open(path, "rb") as f:
        return f.read()


# Compressed image modules (Debian's 6.12 ships .ko.xz; 6.1 plain .ko):
# suffix -> how to open it.  The initramfs gets them decompressed, as .ko,
# so that busybox's insmod loads them without the kernel's decompressor.
KO_COMPRESSION = {
    ".ko.xz": lzma.decompress,
    ".ko.gz": gzip.decompress,
}


def ko_stem(name):
    """The module file's name without .ko and its compression, or None."""
    for suffix in (".ko",) + tuple(KO_COMPRESSION):
        if name.endswith(suffix):
            return name[:-len(suffix)]
    return None


def read_module(path):
    """A module file's ELF image, decompressed."""
    data = read_file(path)
    for suffix, unpack in KO_COMPRESSION.items():
        if path.endswith(suffix):
            return unpack(data)
    return data


def image_path(rel):
    """Where a module goes in the initramfs: .ko, never compressed."""
    stem = ko_stem(rel)
    return rel if stem is None else stem + ".ko"


def modinfo(path):
    """The key=value strings of a .ko's .modinfo section."""
    data = read_module(path)
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise SystemExit("build_initramfs: not an ELF64 module: " + path)
    e_shoff, = struct.unpack_from("<Q", data, 0x28)
    e_shentsize, e_shnum, e_shstrndx = struct.unpack_from("<HHH", data, 0x3a)

    def sh(i):
        return struct.unpack_from("<IIQQQQIIQQ", data, e_shoff + i * e_shentsize)

    stroff = sh(e_shstrndx)[4]
    for i in range(e_shnum):
        hdr = sh(i)
        end = data.index(b"\0", stroff + hdr[0])
        if data[stroff + hdr[0]:end] == b".modinfo":
            raw = data[hdr[4]:hdr[4] + hdr[5]]
            info = {}
            for item in raw.split(b"\0"):
                if b"=" in item:
                    k, v = item.decode(errors="replace").split("=", 1)
                    info.setdefault(k, v)
            return info
    return {}


def norm(name):
    return name.replace("-", "_")


def module_index(modroot):
    index = {}
    for dirpath, _, filenames in os.walk(os.path.join(modroot, "kernel")):
        for n in filenames:
            stem = ko_stem(n)
            if stem is not None:
                index[norm(stem)] = os.path.join(dirpath, n)
    return index


def builtin_modules(modroot):
    names = set()
    path = os.path.join(modroot, "modules.builtin")
    if os.path.exists(path):
        for line in open(path):
            stem = ko_stem(os.path.basename(line.strip()))
            if stem is not None:
                names.add(norm(stem))
    return names


def resolve_modules(modroot, names, extra_kos=()):
    """Load order (dependencies first) of image modules for names and for
    the dependencies of extra_kos. Built-in modules are skipped."""
    index = module_index(modroot)
    builtin = builtin_modules(modroot)
    order, seen = [], set()

    def visit(name, chain):
        name = norm(name)
        if name in seen or name in builtin:
            return
        if name not in index:
            raise SystemExit("build_initramfs: no module %s in %s (needed by %s)"
                             % (name, modroot, " <- ".join(chain) or "--module"))
        seen.add(name)
        deps = modinfo(index[name]).get("depends", "")
        for dep in filter(None, deps.split(",")):
            visit(dep, chain + [name])
        order.append(index[name])

    for n in names:
        visit(n, [])
    for ko in extra_kos:
        deps = modinfo(ko).get("depends", "")
        for dep in filter(None, deps.split(",")):
            visit(dep, [os.path.basename(ko)])
    return order


def shared_libs(binary):
    """(interpreter, [libs]) of a dynamic ELF as ldd reports them."""
    res = subprocess.run(["ldd", binary], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    if res.returncode != 0:
        if "not a dynamic executable" in res.stdout:
            return None, []
        raise SystemExit("build_initramfs: ldd %s: %s" % (binary, res.stdout))
    interp, libs = None, []
    for line in res.stdout.splitlines():
        line = line.strip()
        if "=> not found" in line:
            raise SystemExit("build_initramfs: %s: %s" % (binary, line))
        m = re.match(r"\S+ => (/\S+)", line)
        if m:
            libs.append(m.group(1))
            continue
        m = re.match(r"(/\S+) \(0x", line)
        if m:
            interp = m.group(1)
    return interp, libs


def build(kernel_info, out, guest, init=None, modules=(), kos=(),
          binaries=(), files=()):
    kver = kernel_info["kver"]
    modroot = kernel_info["modroot"]
    img = Cpio()
    for d in ("dev", "proc", "sys", "tmp", "run", "out", "root", "etc",
              "bin", "sbin", "usr/bin", "usr/sbin", "lib", "lib64"):
        img.dir(d)

    busybox = kernel_info["busybox"]
    img.file("bin/busybox", read_file(busybox), 0o755)
    applets = subprocess.run([busybox, "--list-full"], check=True,
                             stdout=subprocess.PIPE, text=True).stdout.split()
    for a in applets:
        if not img.has(a):
            img.symlink(a, "/bin/busybox")

    img.file("init", read_file(init or os.path.join(HERE, "guest", "init.sh")),
             0o755)
    img.file("guest.sh", read_file(guest), 0o755)

    load = resolve_modules(modroot, modules, kos)
    dep_lines = []
    index = module_index(modroot)
    for path in load:
        rel = image_path(os.path.relpath(path, modroot))
        img.file("lib/modules/%s/%s" % (kver, rel), read_module(path))
        deps = modinfo(path).get("depends", "")
        dep_rel = [image_path(os.path.relpath(index[norm(d)], modroot))
                   for d in filter(None, deps.split(",")) if norm(d) in index]
        dep_lines.append("%s: %s" % (rel, " ".join(dep_rel)))
    for ko in kos:
        img.file("lib/modules/%s/extra/%s" % (kver, os.path.basename(ko)),
                 read_file(ko))
        dep_lines.append("extra/%s:" % os.path.basename(ko))
    img.file("etc/modules.load", "".join(
        "/lib/modules/%s/%s\n" % (kver, image_path(os.path.relpath(p, modroot)))
        for p in load).encode())
    img.file("lib/modules/%s/modules.dep" % kver,
             ("\n".join(dep_lines) + "\n").encode())

    for spec in binaries:
        src, _, dest = spec.partition(":")
        dest = dest or "/usr/bin/" + os.path.basename(src)
        img.file(dest, read_file(src), 0o755)
        interp, libs = shared_libs(src)
        if interp:
            img.file(interp, read_file(os.path.realpath(interp)), 0o755)
        for lib in libs:
            img.file("lib/" + os.path.basename(lib),
                     read_file(os.path.realpath(lib)), 0o755)

    for spec in files:
        src, _, dest = spec.partition(":")
        if not dest:
            raise SystemExit("build_initramfs: --file needs SRC:DEST")
        mode = 0o755 if os.access(src, os.X_OK) else 0o644
        img.file(dest, read_file(src), mode)

    tmp = out + ".tmp"
    with gzip.open(tmp, "wb", compresslevel=6) as f:
        img.write(f)
    os.replace(tmp, out)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernel-json", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--guest", required=True)
    ap.add_argument("--init")
    ap.add_argument("--module", action="append", default=[])
    ap.add_argument("--ko", action="append", default=[])
    ap.add_argument("--binary", action="append", default=[])
    ap.add_argument("--file", action="append", default=[])
    args = ap.parse_args()
    with open(args.kernel_json) as f:
        info = json.load(f)
    build(info, args.out, args.guest, args.init, args.module, args.ko,
          args.binary, args.file)
    print(args.out)


if __name__ == "__main__":
    sys.exit(main())
