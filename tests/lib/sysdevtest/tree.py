# SPDX-License-Identifier: LGPL-2.1-or-later
"""The one fake-sysfs builder of the tests.

    t = Tree(root)                       # lay the tree out below root
    t.device("/devices/platform/foo", "bus:platform", "foo-drv", "DRIVER=foo-drv\n")
    t.file("devices/platform/foo/name", "foo\n")
    t.group("devices/platform/foo/stats", {"reads": "1\n"})

Paths are relative to the root (a leading "/" is ignored), str or bytes
(bytes for names that are not UTF-8).  Parents are made as needed.  Every
entry is also recorded in t.entries as (type, mode, path, data), type "d",
"f", "l" or "p"; Tree() without a root only records, and archive() turns the
record into the text of a fixture archive (see sysdev-archive(5)) without
the project's packer, materialize() lays it out later.
"""
import os


def _b(s):
    return s if isinstance(s, bytes) else s.encode("utf-8", "surrogateescape")


def _rel(path):
    return path.lstrip(b"/" if isinstance(path, bytes) else "/")


def _join(a, b):
    if isinstance(a, bytes) or isinstance(b, bytes):
        return _b(a) + b"/" + _b(b)
    return a + "/" + b


def _split(path):
    """(parent, name) of a relative path; parent is None at the top."""
    sep = b"/" if isinstance(path, bytes) else "/"
    if sep not in path:
        return None, path
    parent, name = path.rsplit(sep, 1)
    return parent, name


def up(path):
    """"../" as many times as the directory path is deep (the way from it back to the root)."""
    return "../" * (_rel(path).count("/") + 1)


class Tree:
    def __init__(self, root=None, file_mode=None):
        """root: the directory to lay the tree out in (made when needed), or
        None to record only.  file_mode: the mode of files written without
        one (None: as the umask makes them; recorded as 0644)."""
        self.root = root
        self.file_mode = file_mode
        self.entries = []
        self._dirs = set()

    def path(self, rel):
        """The path on disk of rel."""
        return os.path.join(_b(self.root), _b(_rel(rel)))

    # ---- entries -----------------------------------------------------------
    def _parents(self, rel):
        missing = []
        parent = _split(rel)[0]
        while parent is not None and parent not in self._dirs:
            missing.append(parent)
            parent = _split(parent)[0]
        for p in reversed(missing):
            self._dirs.add(p)
            self.entries.append(("d", 0o755, p, None))
        if self.root is not None:
            os.makedirs(os.path.dirname(self.path(rel)), exist_ok=True)

    def dir(self, rel, mode=None):
        """A directory (nothing happens if it is there already)."""
        rel = _rel(rel)
        self._parents(rel)
        if rel not in self._dirs:
            self._dirs.add(rel)
            self.entries.append(("d", 0o755 if mode is None else mode, rel, None))
        if self.root is not None:
            os.makedirs(self.path(rel), exist_ok=True)
            if mode is not None:
                os.chmod(self.path(rel), mode)
        return rel

    def dirs(self, *rels):
        for r in rels:
            self.dir(r)

    def file(self, rel, data="", mode=None):
        """A regular file holding data (str or bytes)."""
        rel = _rel(rel)
        self._parents(rel)
        mode = self.file_mode if mode is None else mode
        self.entries.append(("f", 0o644 if mode is None else mode, rel, data))
        if self.root is not None:
            p = self.path(rel)
            with open(p, "wb") as f:
                f.write(_b(data))
            if mode is not None:
                os.chmod(p, mode)
        return rel

    def link(self, rel, target):
        """A symbolic link whose text is target."""
        rel = _rel(rel)
        self._parents(rel)
        self.entries.append(("l", 0o777, rel, target))
        if self.root is not None:
            os.symlink(_b(target), self.path(rel))
        return rel

    def fifo(self, rel):
        """A FIFO (a reader that opens it blocks: the tools must not)."""
        rel = _rel(rel)
        self._parents(rel)
        self.entries.append(("p", 0o644, rel, None))
        if self.root is not None:
            os.mkfifo(self.path(rel))
        return rel

    def group(self, rel, attrs, mode=None):
        """An attribute group: a directory of attribute files {name: content}."""
        self.dir(rel)
        for name, value in attrs.items():
            self.file(_join(_rel(rel), name), value, mode)
        return rel

    # ---- sysfs ---------------------------------------------------------------
    def buses(self, *names, drivers=True):
        """S/bus/NAME with devices/ (and drivers/)."""
        for n in names:
            self.dir("bus/%s/devices" % n)
            if drivers:
                self.dir("bus/%s/drivers" % n)

    def classes(self, *names):
        for n in names:
            self.dir("class/" + n)

    def device(self, path, subsystem=None, driver=None, uevent="", status="unsupported\n", *,
               subsystem_link=None, driver_link=None, power=True):
        """A device directory as the kernel lays it out.

        path: its devpath (/devices/...).  uevent: the content of its
        regular uevent file (str or bytes: KEY=value lines).
        subsystem: "bus:NAME" or "class:NAME": the subsystem link into
        S/bus/NAME or S/class/NAME and the device's entry there
        (S/bus/NAME/devices/DEV, S/class/NAME/DEV).  driver: the driver
        link into S/bus/BUS/drivers/DRIVER (the directory is made too).
        status: the content of power/runtime_status (None: no such file;
        the power directory is made unless power=False).
        subsystem_link, driver_link: link texts taken as they are, for
        links that point anywhere (dangling, out of the tree)."""
        rel = _rel(path)
        self.dir(rel)
        self.file(_join(rel, "uevent"), uevent, 0o644)
        if power:
            self.dir(_join(rel, "power"))
            if status is not None:
                self.file(_join(rel, "power/runtime_status"), status)
        if subsystem:
            kind, name = subsystem.split(":")
            top = "bus" if kind == "bus" else "class"
            self.link(_join(rel, "subsystem"), up(rel) + top + "/" + name)
            base = _split(rel)[1]
            if kind == "bus":
                self.link("bus/%s/devices/%s" % (name, base), "../../../" + rel)
            else:
                self.link("class/%s/%s" % (name, base), "../../" + rel)
        if driver:
            bus = subsystem.split(":")[1] if subsystem else "none"
            self.dir("bus/%s/drivers/%s" % (bus, driver))
            self.link(_join(rel, "driver"), up(rel) + "bus/%s/drivers/%s" % (bus, driver))
        if subsystem_link is not None:
            self.link(_join(rel, b"subsystem" if isinstance(rel, bytes) else "subsystem"),
                      subsystem_link)
        if driver_link is not None:
            self.link(_join(rel, b"driver" if isinstance(rel, bytes) else "driver"), driver_link)
        return rel

    # ---- the record ------------------------------------------------------------
    def sorted_entries(self):
        """The entries in archive order (bytewise by path); each path once."""
        out = sorted(self.entries, key=lambda e: _b(e[2]))
        for a, b in zip(out, out[1:]):
            if a[2] == b[2]:
                raise ValueError("%r laid out twice" % (a[2],))
        return out

    def archive(self, comments=()):
        """The record as the text of a fixture archive, one line per entry."""
        lines = ["sysdev-archive 1"] + ["# " + c for c in comments]
        for t, mode, path, data in self.sorted_entries():
            parent = _split(path)[0]
            if parent is not None and parent not in self._dirs:
                raise ValueError("%r has no parent directory" % (path,))
            if t == "p":
                raise ValueError("%r: an archive holds no FIFO" % (path,))
            line = "%s %04o %s" % (t, mode, quote(path))
            if t != "d":
                line += " " + quote(data)
            lines.append(line)
        return "\n".join(lines) + "\n"

    def materialize(self, root):
        """Lay the record out below root (which must not exist)."""
        os.makedirs(root)
        for t, mode, path, data in self.sorted_entries():
            full = os.path.join(_b(root), _b(path))
            if t == "d":
                os.mkdir(full)
            elif t == "f":
                with open(full, "wb") as fh:
                    fh.write(_b(data))
                os.chmod(full, mode)
            elif t == "l":
                os.symlink(_b(data), full)
            else:
                os.mkfifo(full)


def quote(s):
    """A name or content in the archive's quoting: printable ASCII as it is,
    \\\\ \\" \\n \\t \\r, every other byte as \\xHH."""
    b = _b(s)
    out = ['"']
    for c in b:
        ch = chr(c)
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif 0x20 <= c <= 0x7e:
            out.append(ch)
        else:
            out.append("\\x%02x" % c)
    out.append('"')
    return "".join(out)


ARTICLE_CLIENT = "/devices/platform/omap_i2c.2/i2c-2/2-0045"


def article(root):
    """The article's tree: the TCA6507 LED controller on omap_i2c.2."""
    t = Tree(root)
    t.classes("leds", "i2c-adapter", "block", "net", "mei")
    t.dirs("bus/mei", "bus/platform", "bus/i2c", "bus/cpu", "devices")
    c = ARTICLE_CLIENT
    t.device("/devices/platform")
    t.device("/devices/platform/omap_i2c.2", "bus:platform", "omap_i2c", "DRIVER=omap_i2c\n")
    t.device("/devices/platform/omap_i2c.2/i2c-2", "bus:i2c", None, "DEVTYPE=i2c_adapter\n",
             status="suspended\n")
    t.device(c, "bus:i2c", "leds-tca6507", "DRIVER=leds-tca6507\n", status="active\n")
    t.file(c + "/power/pm_qos_latency_tolerance_us", "auto\n")
    t.file(c + "/power/control", "auto\n")
    t.file(c + "/name", "tca6507\n")
    t.device(c + "/leds/gta04:green:power", "class:leds")
    t.file(c + "/leds/gta04:green:power/brightness", "100\n")
    t.device(c + "/leds/gta04:red:aux", "class:leds")
    t.device(c + "/ep_00", None, None, "DEVTYPE=usb_endpoint\n")
    t.file(c + "/engine/state0/latency", "5\n")
    t.file(c + "/net/carrier", "1\n")
    t.device(c + "/block/sda", "class:block", None,
             "MAJOR=8\nMINOR=0\nDEVNAME=sda\nDEVTYPE=disk\n")
    t.file(c + "/block/sda/dev", "8:0\n")
    t.device(c + "/block/sda/sda1", "class:block", None,
             "MAJOR=8\nMINOR=1\nDEVNAME=sda1\nDEVTYPE=partition\n")
    t.file(c + "/block/sda/sda1/dev", "8:1\n")
    t.link("dev/block/8:0", "../.." + c + "/block/sda")
    t.link("dev/block/8:1", "../.." + c + "/block/sda/sda1")
    t.device("/devices/virtual/net/lo", "class:net", None, "INTERFACE=lo\n")
    t.file("devices/virtual/net/lo/queues/rx-0/rps_cpus", "0\n")
    t.dir("devices/virtual/leds")
    t.device("/devices/system/cpu")
    t.device("/devices/system/cpu/cpu0", "bus:cpu")
    t.dir("devices/system/cpu/cpu0/cpuidle/state0")
    t.dir("devices/system/memory")
    t.device("/devices/toplevel0", "bus:mei")
    return t
