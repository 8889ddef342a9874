#!/usr/bin/env python3
"""udev's database read by libsysdev against libudev and udevadm (issue 21).

Usage: test_udev_db.py UDEV_DB_TOOL SYSDEV_TREE SYSDEV_FIXTURE SOURCE_ROOT

In a private mount namespace (unshare -m) with a tmpfs over /run, this test
writes a database under /run/udev for every device of the live /sys, and
then of each fixture bound over /sys: files data/ID with links, properties
(one overriding a uevent key), tags, current tags, initialization times, a
version line or none, unknown lines; tags/TAG/ID entries, one stale; some
devices left without a file.  The ids are computed here from the files of
the tree, as udev computes them.  Then, per device, libsysdev's
properties, links, tags, current tags and is_initialized must equal
libudev's (udev-db-tool: both libraries, printed alike), `sysdev-tree
--properties` of every device must equal `udevadm info --export-db` (our own
SYSDEV_* keys and the hwdb names aside; DEVLINKS, TAGS, CURRENT_TAGS as sets
of words), the SYMLINKS, TAGS, INITIALIZED columns must say what the database
says, and the tag and is_initialized enumerations must return libudev's sets.
Needs root (or user namespaces): skipped (77) otherwise.
"""
import glob
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402

C = T.Checker()
OURS = ("SYSDEV_",)
SETS = ("DEVLINKS", "TAGS", "CURRENT_TAGS")
ENV = dict(os.environ, SYSTEMD_DEVICE_VERIFY_SYSFS="0", SYSTEMD_LOG_LEVEL="err")


def can_unshare():
    try:
        r = subprocess.run(["unshare", "-m", "sh", "-c",
                            "mount --make-rprivate / && mount -t tmpfs tmpfs /run"],
                           capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0


def uevent_of(d):
    out = {}
    try:
        with open(os.path.join(d, "uevent"), encoding="utf-8", errors="surrogateescape") as f:
            for line in f:
                k, eq, v = line.rstrip("\n").partition("=")
                if eq and k and k not in out:
                    out[k] = v
    except OSError:
        pass
    return out


def udev_id(d, ue):
    """udev's device id of directory @d, from its files (sd_device_get_device_id())."""
    sub = os.path.join(d, "subsystem")
    if not os.path.islink(sub):
        return None
    subsystem = os.path.basename(os.readlink(sub))
    try:
        major, minor = int(ue.get("MAJOR", "")), int(ue.get("MINOR", ""))
    except ValueError:
        major = minor = 0
    if major > 0:
        return ("b" if subsystem == "block" else "c") + f"{major}:{minor}"
    if ue.get("IFINDEX", "").isdigit() and int(ue["IFINDEX"]) > 0:
        return "n" + ue["IFINDEX"]
    if subsystem == "drivers":
        return None
    name = os.path.basename(d).replace("!", "/")
    return None if "/" in name else f"+{subsystem}:{name}"


def write_db(sysroot, db):
    """A database for every device below @sysroot/devices; returns {devpath: expectation}."""
    shutil.rmtree(db, ignore_errors=True)
    os.makedirs(os.path.join(db, "data"))
    want = {}
    for dirpath, dirnames, filenames in os.walk(os.path.join(sysroot, "devices")):
        dirnames[:] = [x for x in dirnames if not os.path.islink(os.path.join(dirpath, x))]
        ue_path = os.path.join(dirpath, "uevent")
        if "uevent" not in filenames or os.path.islink(ue_path) or not os.path.isfile(ue_path):
            continue
        ue = uevent_of(dirpath)
        did = udev_id(dirpath, ue)
        if not did:
            continue
        devpath = dirpath[len(sysroot):]
        h = int(hashlib.sha1(devpath.encode("utf-8", "surrogateescape")).hexdigest(), 16)
        if h % 5 == 0:
            want[devpath] = {"init": False}
            continue
        safe = "".join(c if c.isalnum() else "_" for c in os.path.basename(dirpath))[:40]
        links = [f"disk/by-id/test-{safe}-{k}" for k in range(h % 3)]
        tags = [t for t, m in (("systemd", h % 2 == 0), ("seat", h % 3 == 0),
                               ("uaccess", h % 4 == 1)) if m]
        versioned = h % 7 != 1
        current = [t for t in tags if t != "seat" or h % 11 == 0]
        lines = ["I:%d" % (1000000 + h % 1000000)]
        lines += ["S:" + x for x in links] + (["S:" + links[0]] if links else [])
        lines += ["L:0", "W:3", "Z:a line of a later udev"]
        lines += ["E:ID_TEST_SERIAL=%s_%d" % (safe, h % 97), "E:ID_TEST_QUOTE=it's a $x"]
        if "MODALIAS" in ue and h % 4 == 0:
            lines.append("E:MODALIAS=overridden-by-db")
        lines += ["G:" + t for t in tags]
        if versioned:
            lines += ["Q:" + t for t in current] + ["V:1"]
        with open(os.path.join(db, "data", did), "w", encoding="utf-8",
                  errors="surrogateescape") as f:
            f.write("\n".join(lines) + "\n")
        for t in tags:
            os.makedirs(os.path.join(db, "tags", t), exist_ok=True)
            open(os.path.join(db, "tags", t, did), "w").close()
        want[devpath] = {"init": True, "links": sorted("/dev/" + x for x in links),
                         "tags": sorted(tags)}
    # a stale index entry: no such device
    os.makedirs(os.path.join(db, "tags", "systemd"), exist_ok=True)
    open(os.path.join(db, "tags", "systemd", "b4095:1048575"), "w").close()
    return want


def parse_dump(text):
    devs, cur = {}, None
    for line in text.splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "D":
            cur = devs.setdefault(rest, {"I": None, "L": [], "T": [], "C": [], "E": {}})
        elif kind == "I":
            cur["I"] = rest == "1"
        elif kind in ("L", "T", "C"):
            cur[kind].append(rest)
        elif kind == "E":
            k, _, v = rest.partition("=")
            cur["E"][k] = v
    return devs


def norm_props(props, ours):
    out = {}
    for k, v in props.items():
        if ours and (k.startswith(OURS) or k.endswith("_FROM_DATABASE")):
            continue
        out[k] = sorted(x for x in v.split(" " if k == "DEVLINKS" else ":") if x) \
            if k in SETS else v
    return out


def export_db():
    r = subprocess.run(["udevadm", "info", "--export-db"], capture_output=True, env=ENV,
                       timeout=300)
    devs, cur = {}, None
    for line in r.stdout.decode("utf-8", "surrogateescape").splitlines():
        if line.startswith("P: "):
            cur = devs.setdefault(line[3:], {})
        elif line.startswith("E: ") and cur is not None:
            k, _, v = line[3:].partition("=")
            cur[k] = v
    return r.returncode, devs


def properties_blocks(tree):
    r = subprocess.run([tree, "--properties"], capture_output=True, timeout=300)
    devs = {}
    for block in r.stdout.decode("utf-8", "surrogateescape").split("\n\n"):
        props = dict(line.split("=", 1) for line in block.splitlines() if "=" in line)
        if "DEVPATH" in props:
            devs[props["DEVPATH"]] = props
    return r.returncode, devs, r.stderr.decode(errors="replace")


def foreign_interfaces():
    """The interfaces of the tree at /sys whose index names another interface of
    this host: libudev finds a device id nIFINDEX through the host's netlink
    (if_indextoname), so for a fixture it finds the host's name, not the tree's."""
    out = set()
    for d in glob.glob("/sys/class/net/*"):
        real = os.path.realpath(d)
        idx = uevent_of(real).get("IFINDEX", "")
        try:
            host = socket.if_indextoname(int(idx))
        except (ValueError, OSError):
            host = None
        if host != os.path.basename(d):
            out.add(real[len("/sys"):])
    return out


def prop_diff(po, pt):
    return {k: (po.get(k), pt.get(k)) for k in set(po) | set(pt) if po.get(k) != pt.get(k)}


def dumps(tool):
    r_u = subprocess.run([tool, "udev-dump"], capture_output=True, env=ENV, timeout=300)
    r_s = subprocess.run([tool, "sysdev-dump", "/sys"], capture_output=True, timeout=300)
    ok = r_u.returncode == 0 and r_s.returncode == 0
    return ok, parse_dump(r_u.stdout.decode("utf-8", "surrogateescape")), \
        parse_dump(r_s.stdout.decode("utf-8", "surrogateescape")), (r_u.stderr, r_s.stderr)


def baseline(tool, tree):
    """Where the two libraries already differ without a database (the hand-made
    edge trees: a MAJOR that is no number, a DRIVER only the link names, a device
    libudev does not list, names the text output escapes): the database must add
    no difference of its own there, and everywhere else none at all."""
    shutil.rmtree("/run/udev", ignore_errors=True)
    ok, theirs, ours, _ = dumps(tool)
    rc, export = export_db()
    rc2, blocks, _ = properties_blocks(tree)
    base = {"only": set(ours) ^ set(theirs), "dump": {}, "export": {}}
    for p in set(ours) & set(theirs):
        d = prop_diff(norm_props(ours[p]["E"], False), norm_props(theirs[p]["E"], False))
        if d:
            base["dump"][p] = d
    for p in set(export):
        if p not in blocks:
            base["export"][p] = "no block"
            continue
        d = prop_diff(norm_props(blocks[p], True), norm_props(export[p], False))
        if d:
            base["export"][p] = d
    return base


def compare(label, tool, tree, want, base, fixture=False):
    """The database just written under /run/udev, for the tree at /sys."""
    ok, theirs, ours, errs = dumps(tool)
    if not C.check(f"{label}: both dumps ran", ok, (errs[0][-500:], errs[1][-500:])):
        return
    if base["only"] or base["dump"] or base["export"]:
        C.info(f"{label}: without a database the libraries already differ on "
               f"{len(base['only'])} devices listed, {len(base['dump'])} devices' and "
               f"{len(base['export'])} blocks' properties (the tree's own edges): there the "
               "database must add no difference")
    C.check(f"{label}: the same {len(theirs)} devices (as without a database)",
            set(ours) ^ set(theirs) == base["only"],
            (sorted(set(ours) - set(theirs))[:5], sorted(set(theirs) - set(ours))[:5]))
    common = set(ours) & set(theirs)
    n_init = sum(1 for d in theirs.values() if d["I"])
    C.check(f"{label}: the database covers most devices ({n_init} of {len(theirs)} "
            "initialized), some left out", 0 < n_init < len(theirs))
    bad = {k: [] for k in ("I", "L", "T", "C", "E", "want")}
    for devpath in sorted(common):
        o, t = ours[devpath], theirs[devpath]
        if o["I"] != t["I"]:
            bad["I"].append((devpath, o["I"], t["I"]))
        for k in ("L", "T", "C"):
            if sorted(o[k]) != sorted(t[k]):
                bad[k].append((devpath, o[k], t[k]))
        d = prop_diff(norm_props(o["E"], False), norm_props(t["E"], False))
        if d != base["dump"].get(devpath, {}):
            bad["E"].append((devpath, d))
        w = want.get(devpath)
        if w and (w["init"] != o["I"] or (w["init"] and (sorted(o["L"]) != w["links"] or
                                                         sorted(o["T"]) != w["tags"]))):
            bad["want"].append((devpath, w, o))
    for k, what in (("I", "is_initialized"), ("L", "links"), ("T", "tags"),
                    ("C", "current tags"), ("E", "properties")):
        C.check(f"{label}: {what} of every device equal libudev's", not bad[k], bad[k][:3])
    C.check(f"{label}: links, tags and initialization are what the test wrote",
            not bad["want"], bad["want"][:3])

    # the enumerations (a fixture's interfaces that libudev looks up on the host aside)
    foreign = foreign_interfaces() if fixture else set()
    for match in (["tag=systemd"], ["tag=seat"], ["tag=systemd", "tag=uaccess"],
                  ["tag=nosuchtag"], ["initialized"], ["initialized", "tag=systemd"]):
        a = subprocess.run([tool, "udev-enum", *match], capture_output=True, env=ENV,
                           timeout=300)
        b = subprocess.run([tool, "sysdev-enum", "/sys", *match], capture_output=True,
                           timeout=300)
        sa = (set(a.stdout.decode().split()) - foreign) & common
        sb = (set(b.stdout.decode().split()) - foreign) & common
        C.check(f"{label}: enumerate {' '.join(match)}: libudev's {len(sa)} devices",
                a.returncode == 0 and b.returncode == 0 and sa == sb,
                (sorted(sa - sb)[:3], sorted(sb - sa)[:3], b.stderr[-300:]))

    # the command line against udevadm itself
    rc, export = export_db()
    rc2, blocks, err = properties_blocks(tree)
    listed = {p for p in export if "SUBSYSTEM" in export[p] and base["export"].get(p) != "no block"}
    C.check(f"{label}: --properties has a block for every device udevadm --export-db "
            f"lists with a subsystem ({len(listed)})",
            rc == 0 and rc2 == 0 and listed <= set(blocks),
            (rc, rc2, err[-300:], sorted(listed - set(blocks))[:5]))
    diff = []
    for devpath in sorted(set(export) & set(blocks)):
        d = prop_diff(norm_props(blocks[devpath], True), norm_props(export[devpath], False))
        if d != base["export"].get(devpath, {}):
            diff.append((devpath, d))
    C.check(f"{label}: --properties of every device equals udevadm info --export-db",
            not diff, diff[:3])
    # the hwdb's names: for a device udev has initialized, its database's (its rules
    # decide), as udevadm prints them; for one it has not, ours from the hwdb
    hw_bad, hw_init, hw_ours = [], 0, 0
    for devpath in sorted(set(export) & set(blocks)):
        names_ours = {k: v for k, v in blocks[devpath].items() if k.endswith("_FROM_DATABASE")}
        names_udev = {k: v for k, v in export[devpath].items() if k.endswith("_FROM_DATABASE")}
        if "USEC_INITIALIZED" in export[devpath]:
            hw_init += 1
            if names_ours != names_udev:
                hw_bad.append((devpath, names_ours, names_udev))
        elif names_ours:
            hw_ours += 1
    C.check(f"{label}: an initialized device's hwdb names are its database's ({hw_init} "
            f"devices); {hw_ours} others get ours", not hw_bad and hw_init > 0, hw_bad[:3])
    r = subprocess.run([tree, "-l", "-J", "-o", "DEVPATH,SYMLINKS,TAGS,INITIALIZED"],
                       capture_output=True, timeout=300)
    rows = json.loads(r.stdout)["devices"] if r.returncode == 0 else []
    wrong = [row for row in rows if row["devpath"] in theirs and (
        row["symlinks"] != sorted(theirs[row["devpath"]]["L"]) or
        (row["initialized"] == "1") != theirs[row["devpath"]]["I"] or
        sorted((row["tags"] or "").strip(":").split(":") if row["tags"] else []) !=
        sorted(theirs[row["devpath"]]["T"]))]
    C.check(f"{label}: the SYMLINKS, TAGS and INITIALIZED columns ({len(rows)} rows)",
            r.returncode == 0 and rows and not wrong, wrong[:3])
    r = subprocess.run([tree, "-r", "-n", "-o", "DEVPATH", "--initialized-nomatch"],
                       capture_output=True, timeout=300)
    got = set(r.stdout.decode().split())
    # devpaths the raw list writes as they are (no escapes)
    plain = {p for p in common if p.isprintable() and "\\" not in p and " " not in p and
             base["export"].get(p) != "no block"}
    no = {p for p in plain if not theirs[p]["I"]}
    C.check(f"{label}: --initialized-nomatch selects the {len(no)} devices libudev says "
            "are not initialized", got & plain == no,
            (sorted(no - got)[:5], sorted((got & plain) - no)[:5]))
    # two filter lists side by side: each keeps its own arguments
    r = subprocess.run([tree, "-r", "-n", "-o", "DEVPATH", "--tag", "systemd",
                        "--subsystem-nomatch", "block"], capture_output=True, timeout=300)
    got = set(r.stdout.decode().split())
    want = {p for p in plain if "systemd" in theirs[p]["T"]
            and export.get(p, {}).get("SUBSYSTEM") != "block"}
    C.check(f"{label}: --tag systemd --subsystem-nomatch block selects what libudev tags "
            f"systemd and is no block device ({len(want)})",
            r.returncode in (0, 1) and got & plain == want and want,
            (sorted(want - got)[:5], sorted((got & plain) - want)[:5]))
    # a link below /dev that is not there, found through the S: lines
    linked = next((p for p, d in sorted(theirs.items()) if d["L"]), None)
    if linked:
        link = theirs[linked]["L"][0]
        r = subprocess.run([tree, "--udev-db", "/run/udev", "--properties", link],
                           capture_output=True, timeout=300)
        C.check(f"{label}: DEVICE {link} (not in /dev) is {linked}",
                r.returncode == 0 and f"DEVPATH={linked}\n".encode() in r.stdout,
                (r.stdout[:200], r.stderr[-300:]))


def inside(tool, tree, fixture_tool, source_root):
    subprocess.run(["mount", "--make-rprivate", "/"], check=True)
    subprocess.run(["mount", "-t", "tmpfs", "tmpfs", "/run"], check=True)
    base = baseline(tool, tree)
    want = write_db("/sys", "/run/udev")
    compare("live /sys", tool, tree, want, base)
    fixtures = sorted(glob.glob(os.path.join(source_root, "fixtures", "*.sysfs")))
    tmp = tempfile.mkdtemp(prefix="sdt-udevdb-", dir="/run")
    done = 0
    only = os.environ.get("UDEV_DB_ONLY")  # NAME,NAME: those fixtures alone (while working)
    if only:
        fixtures = [f for f in fixtures if os.path.basename(f)[:-len(".sysfs")] in only.split(",")]
    for fx in fixtures:
        name = os.path.basename(fx)[:-len(".sysfs")]
        d = os.path.join(tmp, name)
        rc, out, err = T.run3([fixture_tool, "unpack", fx, d], timeout=600)
        if rc != 0 or not os.path.isdir(os.path.join(d, "devices")):
            C.check(f"sysdev-fixture unpack {name}", False, err[-300:])
            continue
        subprocess.run(["mount", "--bind", d, "/sys"], check=True)
        try:
            base = baseline(tool, tree)
            want = write_db(d, "/run/udev")
            compare(f"fixture {name}", tool, tree, want, base, fixture=True)
        finally:
            subprocess.run(["umount", "/sys"], check=True)
        done += 1
    C.check(f"every fixture compared ({done} of {len(fixtures)})",
            fixtures and done == len(fixtures))
    return C.summary()


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--inside":
        return inside(*sys.argv[2:6])
    if len(sys.argv) < 5:
        print(__doc__)
        return 2
    tool, tree, fixture_tool, source_root = (os.path.abspath(x) for x in sys.argv[1:5])
    if not shutil.which("udevadm"):
        C.check("udevadm is installed (the udev package)", False)
        return C.summary()
    if not can_unshare():
        print("SKIP: unshare -m and a tmpfs over /run not permitted here (needs root or user "
              "namespaces)")
        return T.SKIP
    r = subprocess.run(["unshare", "-m", sys.executable, os.path.abspath(__file__), "--inside",
                        tool, tree, fixture_tool, source_root], timeout=3000)
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
