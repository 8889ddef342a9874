#!/usr/bin/env python3
"""Tests of `sysdev-tree --check-udev` and `sysdev-tree --diff` (issue 4).

Usage: test_udev.py SYSDEV_TREE CASE [SOURCE_ROOT]

CASE is one of:
  live      --check-udev on this machine's /sys agrees (exit 0), and its counts
            match an independent count of S/bus and S/class entries and, where
            udevadm exists, `udevadm info --export-db`.
  planted   a small hand-made tree bound over /sys in a private mount
            namespace: agrees as built; each planted disagreement makes it
            exit 1 and name the culprit.  Skipped (77) where unshare/mount
            are not permitted.
  diff      --diff of a tree and its copy is empty (exit 0); a removed
            device, a changed driver link, a moved device, a changed
            attribute (--attrs) are named (exit 1); a bad root exits 2.
  fixtures  every fixtures/*.sysfs (unpacked with `sysdev-fixture unpack`)
            agrees under --check-udev, and --diff names the differences
            between two of them.  Skipped (77) until the fixtures exist.
Python 3 standard library only.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402

C = T.Checker()


def show(rc, out, err):
    print(f"  exit {rc}")
    for line in (out.splitlines()[:40] + ["  (stderr)"] + err.splitlines()[:10]):
        print("  | " + line)


# ---------------------------------------------------------------- tree builder

def build_tree(root):
    """The article's board in miniature: buses, classes, a grouping dir, an endpoint."""
    t = T.Tree(root)
    t.dirs("bus/platform/devices", "bus/i2c/devices", "class/leds", "class/block", "class/net",
             "devices")
    c = "/devices/platform/omap_i2c.2/i2c-2/2-0045"
    t.device("/devices/platform")
    t.device("/devices/platform/omap_i2c.2", "bus:platform", "omap_i2c",
             "DRIVER=omap_i2c\n")
    t.device("/devices/platform/omap_i2c.2/i2c-2", "bus:i2c", None,
             "DEVTYPE=i2c_adapter\n")
    t.device(c, "bus:i2c", "leds-tca6507", "DRIVER=leds-tca6507\n")
    t.file(c[1:] + "/name", "tca6507\n")
    t.device(c + "/leds/gta04:green:power", "class:leds")
    t.file(c[1:] + "/leds/gta04:green:power/brightness", "100\n")
    t.device(c + "/leds/gta04:red:aux", "class:leds")
    t.device(c + "/ep_00", None, None, "DEVTYPE=usb_endpoint\n")
    t.device("/devices/platform/mmc.0", "bus:platform", "omap_hsmmc")
    t.device("/devices/platform/mmc.0/block/sda", "class:block", None,
             "MAJOR=8\nMINOR=0\nDEVNAME=sda\nDEVTYPE=disk\n")
    t.file("devices/platform/mmc.0/block/sda/dev", "8:0\n")
    t.device("/devices/platform/mmc.0/block/sda/sda1", "class:block", None,
             "MAJOR=8\nMINOR=1\nDEVNAME=sda1\nDEVTYPE=partition\n")
    t.file("devices/platform/mmc.0/block/sda/sda1/dev", "8:1\n")
    t.device("/devices/virtual/net/lo", "class:net", None, "INTERFACE=lo\nIFINDEX=1\n")
    t.dir("devices/virtual/net/lo/queues/rx-0")
    # a class attribute file, not a device entry (like S/class/firmware/timeout)
    t.file("class/leds/not_an_entry", "60\n")


# ---------------------------------------------------------------- live

def case_live(exe):
    if not os.path.isdir("/sys/devices"):
        print("SKIP: no /sys/devices here")
        return T.SKIP
    rc, out, err = T.run3([exe, "--check-udev"], timeout=600)
    if not C.check("--check-udev on the live /sys exits 0", rc == 0):
        show(rc, out, err)
    C.check("its first line says the two agree", out.startswith("check-udev /sys: agree"))
    C.check("it summarises the devices not linked", "implemented but not linked:" in out)
    rc, out, err = T.run3([exe, "--check-udev", "--json"], timeout=600)
    C.check("--check-udev --json exits 0", rc == 0)
    doc = json.loads(out)
    c = doc["counts"]
    C.check("JSON says agree", doc["agree"] is True)
    C.check(f"libudev lists devices on this machine ({c['udev']})", c["udev"] > 0)
    C.check("every device libudev lists is found by the walk", c["both"] == c["udev"])
    C.check("the walk finds at least as many devices as libudev", c["walk"] >= c["udev"])
    C.check("not_linked count matches its list", c["not_linked"] == len(doc["not_linked"]))
    C.check("walk = both + not linked",
            c["walk"] == c["both"] + c["not_linked"] + c["with_subsystem_not_listed"])
    for path in doc["not_linked"]:
        if not C.check(f"{path} is a device without a subsystem link",
                       os.path.isfile("/sys" + path + "/uevent")
                       and not os.path.islink("/sys" + path + "/subsystem")):
            break
    # an independent count of the lists libudev scans (dirs and links only)
    entries = set()
    for pat in ["/sys/bus/*/devices/*", "/sys/class/*/*"]:
        for p in glob.glob(pat):
            if os.path.islink(p) or os.path.isdir(p):
                entries.add(p)
    C.check(f"S/bus and S/class entries: {c['links']} == {len(entries)} counted here",
            c["links"] == len(entries))
    udevadm = shutil.which("udevadm")
    if udevadm:
        r = subprocess.run([udevadm, "info", "--export-db"], capture_output=True, text=True,
                           errors="surrogateescape")
        if r.returncode == 0:
            n = sum(1 for line in r.stdout.splitlines() if line.startswith("P: "))
            C.check(f"udevadm info --export-db lists {n}, libudev here {c['udev']}", n == c["udev"])
    # the walk's device count against a plain find(1)-like count of uevent files
    n = 0
    for dirpath, dirnames, filenames in os.walk("/sys/devices"):
        if "uevent" in filenames and os.path.isfile(os.path.join(dirpath, "uevent")) \
                and not os.path.islink(os.path.join(dirpath, "uevent")):
            n += 1
    C.check(f"the walk's {c['walk']} devices ~ {n} uevent files", abs(n - c["walk"]) <= 2)

    # the live tree against its own capture: --diff is empty, --check-udev agrees on it
    tmp = tempfile.mkdtemp(prefix="sdt-live-")
    try:
        cap = os.path.join(tmp, "cap")
        rc, out, err = T.run3([exe, "--capture", cap], timeout=600)
        if not C.check("--capture of the live /sys", rc == 0):
            show(rc, out, err)
            return 0
        rc, out, err = T.run3([exe, "--diff", "/sys", cap], timeout=600)
        if not C.check("--diff /sys and its capture: empty, exit 0", rc == 0 and out == ""):
            show(rc, out, err)
        if not can_unshare():
            # the rest passed; this part needs a private mount namespace
            print("SKIP: --check-udev on the capture of /sys: unshare -m / mount --bind not "
                  "permitted here (needs root or user namespaces); the rest passed")
            return T.SKIP
        if True:
            rc, out, err = T.run3([exe, "--check-udev", "--root", cap], timeout=600)
            if not C.check("--check-udev agrees on the capture of /sys", rc == 0):
                show(rc, out, err)
            else:
                # the same numbers as on /sys itself
                rc, out2, err = T.run3([exe, "--check-udev", "--json", "--root", cap], timeout=600)
                c2 = json.loads(out2)["counts"]
                C.check(f"its counts equal those of the live /sys ({c2} vs {c})", c2 == c)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


# ---------------------------------------------------------------- planted

def can_unshare():
    try:
        r = subprocess.run(["unshare", "-m", "sh", "-c",
                            "mount --make-rprivate / && d=$(mktemp -d) && "
                            "mount --bind \"$d\" /sys; rc=$?; rmdir \"$d\" 2>/dev/null; "
                            "exit $rc"],
                           capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0


def sys_mount_line():
    with open("/proc/self/mountinfo") as f:
        return [line.split()[3:5] + line.split(" - ")[1].split()[:2]
                for line in f if line.split()[4] == "/sys"]


def check_udev_json(exe, root):
    rc, out, err = T.run3([exe, "--check-udev", "--json", "--root", root], timeout=600)
    try:
        doc = json.loads(out)
    except ValueError:
        doc = None
    return rc, doc, out, err


def case_planted(exe):
    if not can_unshare():
        print("SKIP: unshare -m / mount --bind not permitted here (needs root or user namespaces)")
        return T.SKIP
    before = sys_mount_line()
    tmp = tempfile.mkdtemp(prefix="sdt-udev-")
    try:
        t = os.path.join(tmp, "tree")
        build_tree(t)
        # 1. the user's way: bind the tree over /sys themselves
        rc, out, err = T.run3(["unshare", "-m", "sh", "-c",
                               'mount --make-rprivate / && mount --bind "$1" /sys && '
                               'SYSTEMD_DEVICE_VERIFY_SYSFS=0 "$2" --check-udev', "sh", t, exe],
                              timeout=600)
        if not C.check("hand-made tree bound over /sys by unshare: agrees (exit 0)", rc == 0):
            show(rc, out, err)
        # 2. --root: the command binds it in its own private namespace
        rc, doc, out, err = check_udev_json(exe, t)
        if not C.check("--check-udev --root TREE agrees", rc == 0 and doc and doc["agree"]):
            show(rc, out, err)
        else:
            c = doc["counts"]
            C.check(f"the walk finds the 11 devices built ({c['walk']})", c["walk"] == 11)
            # platform and ep_00 are not linked; the class file is no entry
            C.check(f"implemented but not linked: {doc['not_linked']}",
                    sorted(doc["not_linked"]) == ["/devices/platform",
                                                  "/devices/platform/omap_i2c.2/i2c-2/2-0045/ep_00"])
            C.check(f"9 S/bus and S/class entries ({c['links']})", c["links"] == 9)
        C.check("the host's /sys mount is untouched afterwards", sys_mount_line() == before)
        # 3. unprivileged: --root falls back to a user namespace of its own
        setpriv = shutil.which("setpriv")
        if os.geteuid() == 0 and setpriv:
            os.chmod(tmp, 0o755)
            drop = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
            userns = subprocess.run(drop + ["unshare", "-mr", "true"], capture_output=True)
            rc, out, err = T.run3(drop + [exe, "--check-udev", "--root", t], timeout=600)
            if userns.returncode == 0:
                if not C.check("unprivileged --check-udev --root agrees (user namespace)",
                               rc == 0 and "agree" in out):
                    show(rc, out, err)
            else:
                C.check("unprivileged without user namespaces: exit 2 with the unshare hint",
                        rc == 2 and "bind the tree yourself" in err)

        # planted disagreements, one tree each
        c2 = "devices/platform/omap_i2c.2/i2c-2/2-0045"
        plants = []

        def plant_nouevent(r):
            os.makedirs(os.path.join(r, c2, "leds/ghost"))
            T.Tree(r).link("class/leds/ghost", "../../" + c2 + "/leds/ghost")
            return ("links_udev_misses", "/class/leds/ghost", "unlisted   /class/leds/ghost")
        plants.append(("class link to a directory without uevent", plant_nouevent))

        def plant_dangling(r):
            T.Tree(r).link("class/net/eth9", "../../devices/virtual/net/eth9")
            return ("links_udev_misses", "/class/net/eth9", "unlisted   /class/net/eth9")
        plants.append(("dangling class link", plant_dangling))

        def plant_escape(r):
            T.Tree(r).link("class/net/eth8", "../../../../../etc")
            return ("links_udev_misses", "/class/net/eth8", "unlisted   /class/net/eth8: link "
                    "points outside the sysfs root")
        plants.append(("class link that climbs out of the root", plant_escape))

        def plant_devnum(r):
            T.Tree(r).file("devices/virtual/net/lo/uevent", "INTERFACE=lo\nIFINDEX=1\nMAJOR=0\nMINOR=7\n")
            T.Tree(r).file("devices/virtual/net/lo/dev", "0:7\n")
            return ("differences", "/devices/virtual/net/lo",
                    "differ     /devices/virtual/net/lo devnum")
        plants.append(("device number 0:7 (libudev has none for major 0)", plant_devnum))

        def plant_uevent_link(r):
            # uevent is a symlink, not a regular file: not a device for the walk,
            # a device for libudev; its child's parent differs too
            p = os.path.join(r, "devices/platform/omap_i2c.2/i2c-2/uevent")
            os.unlink(p)
            T.Tree(r).file("devices/platform/omap_i2c.2/i2c-2/uevent.real", "DEVTYPE=i2c_adapter\n")
            os.symlink("uevent.real", p)
            return ("udev_only", "/devices/platform/omap_i2c.2/i2c-2",
                    "only-udev  /devices/platform/omap_i2c.2/i2c-2")
        plants.append(("uevent that is a symlink", plant_uevent_link))

        def plant_real_dir(r):
            os.makedirs(os.path.join(r, "class/leds/olddir"))
            return ("udev_only", "/class/leds/olddir", "only-udev  /class/leds/olddir")
        plants.append(("a real directory in S/class (old kernels)", plant_real_dir))

        for i, (what, plant) in enumerate(plants):
            r = os.path.join(tmp, f"plant{i}")
            shutil.copytree(t, r, symlinks=True)
            key, name, text = plant(r)
            rc, doc, out, err = check_udev_json(exe, r)
            ok = C.check(f"{what}: exit 1, agree false",
                         rc == 1 and doc is not None and doc["agree"] is False)
            if doc is not None:
                names = [x.get("path", x.get("link")) for x in doc[key]]
                ok &= C.check(f"{what}: {key} names {name} ({names})", name in names)
            rc2, out2, err2 = T.run3([exe, "--check-udev", "--root", r], timeout=600)
            ok &= C.check(f"{what}: text output names it", rc2 == 1 and out2.startswith(f"check-udev {r}: DISAGREE")
                          and text in out2)
            if not ok:
                show(rc, out, err)
                show(rc2, out2, err2)
        # the parent difference that the symlinked uevent causes
        r = os.path.join(tmp, f"plant{4}")
        rc, doc, out, err = check_udev_json(exe, r)
        diffs = [(d["path"], d["field"], d["walk"], d["udev"]) for d in doc["differences"]]
        C.check(f"the parent difference of 2-0045 is named ({diffs})",
                ("/devices/platform/omap_i2c.2/i2c-2/2-0045", "parent", "/devices/platform/omap_i2c.2",
                 "/devices/platform/omap_i2c.2/i2c-2") in diffs)
        C.check("the host's /sys mount is still untouched", sys_mount_line() == before)
        # a root that is not one
        rc, out, err = T.run3([exe, "--check-udev", "--root", os.path.join(tmp, "nothing")], timeout=600)
        C.check(f"--check-udev --root missing: error ({rc})", rc != 0 and "not a sysfs root" in err)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


# ---------------------------------------------------------------- diff

def diff(exe, a, b, *opts):
    return T.run3([exe, *opts, "--diff", a, b], timeout=600)


def case_diff(exe):
    tmp = tempfile.mkdtemp(prefix="sdt-diff-")
    try:
        a = os.path.join(tmp, "a")
        build_tree(a)
        b = os.path.join(tmp, "b")
        r = subprocess.run(["cp", "-a", a, b])
        assert r.returncode == 0
        rc, out, err = diff(exe, a, b)
        C.check(f"--diff of a tree and its copy: empty, exit 0 ({rc})", rc == 0 and out == "" and err == "")
        rc, out, err = diff(exe, a, b, "--attrs")
        C.check("the same with --attrs", rc == 0 and out == "")
        rc, out, err = diff(exe, a, b, "--json")
        doc = json.loads(out)
        C.check("--json: same, 11 devices each", rc == 0 and doc["same"] is True and doc["counts"]["old"] == 11
                and doc["counts"]["new"] == 11)

        c = "devices/platform/omap_i2c.2/i2c-2/2-0045"
        # remove a device
        shutil.rmtree(os.path.join(b, c, "leds/gta04:red:aux"))
        rc, out, err = diff(exe, a, b)
        C.check(f"a removed device is named, exit 1 ({rc}: {out!r})",
                rc == 1 and out == f"- /{c}/leds/gta04:red:aux\n")
        rc, out, err = diff(exe, b, a)
        C.check(f"and added the other way ({out!r})", rc == 1 and out == f"+ /{c}/leds/gta04:red:aux\n")
        # change a driver link
        os.unlink(os.path.join(b, c, "driver"))
        os.makedirs(os.path.join(b, "bus/i2c/drivers/leds-other"))
        os.symlink(T.up("/" + c) + "bus/i2c/drivers/leds-other", os.path.join(b, c, "driver"))
        rc, out, err = diff(exe, a, b)
        C.check(f"a changed driver link is named ({out!r})",
                rc == 1 and f"~ /{c} driver: leds-tca6507 -> leds-other\n" in out)
        # unbind: driver gone
        os.unlink(os.path.join(b, "devices/platform/mmc.0/driver"))
        rc, out, err = diff(exe, a, b)
        C.check(f"an unbound driver is named ({out!r})",
                "~ /devices/platform/mmc.0 driver: omap_hsmmc -> (none)\n" in out)
        # attribute change, seen only with --attrs
        T.Tree(b).file(c + "/name", "tca6508\n")
        rc, out, err = diff(exe, a, b)
        C.check("attributes are not compared without --attrs", "attribute" not in out)
        rc, out, err = diff(exe, a, b, "--attrs")
        C.check(f"--attrs names the attribute change ({out!r})",
                f'~ /{c} attribute name: "tca6507" -> "tca6508"\n' in out)
        # devnum change
        T.Tree(b).file("devices/platform/mmc.0/block/sda/uevent",
              "MAJOR=8\nMINOR=8\nDEVNAME=sda\nDEVTYPE=disk\n")
        rc, out, err = diff(exe, a, b)
        C.check(f"a changed devnum is named ({out!r})",
                "~ /devices/platform/mmc.0/block/sda devnum: 8:0 -> 8:8\n" in out)
        # move: the block disk (with its partition) to another host
        os.makedirs(os.path.join(b, "devices/platform/mmc.1"))
        T.Tree(b).file("devices/platform/mmc.1/uevent")
        os.rename(os.path.join(b, "devices/platform/mmc.0/block"),
                  os.path.join(b, "devices/platform/mmc.1/block"))
        rc, out, err = diff(exe, a, b)
        C.check(f"a moved disk is one line, its partition carried ({out!r})",
                rc == 1 and "> /devices/platform/mmc.0/block/sda -> "
                "/devices/platform/mmc.1/block/sda (and 1 device below)\n" in out
                and "+ /devices/platform/mmc.1\n" in out
                and "sda1 ->" not in out)
        rc, out, err = diff(exe, a, b, "--json", "--attrs")
        doc = json.loads(out)
        moved = {m["old"]: m for m in doc["moved"]}
        C.check(f"--json: moves with parents and carried_by ({doc['moved']})",
                rc == 1 and doc["same"] is False and len(doc["moved"]) == 2
                and moved["/devices/platform/mmc.0/block/sda/sda1"]["carried_by"]
                == "/devices/platform/mmc.0/block/sda"
                and moved["/devices/platform/mmc.0/block/sda"]["new_parent"]
                == "/devices/platform/mmc.1")
        fields = sorted((x["path"], x["field"]) for x in doc["changed"])
        C.check(f"--json: changed entries ({fields})",
                fields == sorted([(f"/{c}", "driver"), ("/devices/platform/mmc.0", "driver"),
                                  (f"/{c}", "attribute"),
                                  ("/devices/platform/mmc.1/block/sda", "devnum")]))
        C.check(f"--json counts ({doc['counts']})",
                doc["counts"]["removed"] == 1 and doc["counts"]["added"] == 1)
        # ambiguous names are not moves
        for n in ("x1", "x2"):
            T.Tree(a).file(f"devices/platform/h{n}/ep_00/uevent")
        T.Tree(b).file("devices/platform/hz/ep_00/uevent")
        rc, out, err = diff(exe, a, b)
        C.check(f"two OLD candidates with one name: no move ({out!r})", "- /devices/platform/hx1/ep_00\n" in out and "+ /devices/platform/hz/ep_00\n" in out
                and "ep_00 ->" not in out)

        # errors: exit 2 as diff(1)
        for bad in (os.path.join(tmp, "missing"), tmp):
            rc, out, err = diff(exe, a, bad)
            C.check(f"--diff with bad root {bad}: exit 2 ({rc})", rc == 2 and "not a sysfs root" in err)
            rc, out, err = diff(exe, bad, a)
            C.check(f"--diff with bad OLD root: exit 2 ({rc})", rc == 2)
        rc, out, err = T.run3([exe, "--diff", a], timeout=600)
        C.check(f"--diff with one root: usage error ({rc})", rc == 2)

        # the live tree against itself
        if os.path.isdir("/sys/devices"):
            rc, out, err = diff(exe, "/sys", "/sys")
            C.check(f"--diff /sys /sys is empty ({rc}: {out[:200]!r})", rc == 0 and out == "")

        # a larger synthetic tree and its cp -a copy, if the generator is there
        gen = os.path.join(SOURCE_ROOT, "tests/bench/gen_sysfs.py") if SOURCE_ROOT else None
        if gen and os.path.exists(gen):
            g = os.path.join(tmp, "gen")
            r = subprocess.run([sys.executable, gen, "--devices", "800", g],
                               capture_output=True, text=True)
            if r.returncode == 0:
                g2 = os.path.join(tmp, "gen2")
                subprocess.run(["cp", "-a", g, g2], check=True)
                rc, out, err = diff(exe, g, g2, "--attrs")
                C.check(f"synthetic 800-device tree vs its copy: same ({rc})", rc == 0 and out == "")
                victims = sorted(glob.glob(os.path.join(g2, "devices/virtual/net/*")))
                if victims:
                    shutil.rmtree(victims[0])
                    rel = victims[0][len(g2):]
                    rc, out, err = diff(exe, g, g2)
                    C.check(f"... and names the removed {rel}", rc == 1 and f"- {rel}\n" in out)
                if can_unshare():
                    rc, out, err = T.run3([exe, "--check-udev", "--root", g], timeout=600)
                    if not C.check("--check-udev agrees on the synthetic tree", rc == 0):
                        show(rc, out, err)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


# ---------------------------------------------------------------- fixtures

def case_fixtures(exe):
    fixtures = sorted(glob.glob(os.path.join(SOURCE_ROOT or ".", "fixtures", "*.sysfs")))
    tool = shutil.which("sysdev-fixture")
    for cand in [os.path.join(os.path.dirname(exe), "sysdev-fixture"),
                 os.path.join(SOURCE_ROOT or ".", "tools", "sysdev-fixture"),
                 os.path.join(SOURCE_ROOT or ".", "tests", "fixtures", "sysdev-fixture"),
                 os.path.join(SOURCE_ROOT or ".", "tests", "fixtures", "sysdev-fixture.py")]:
        if os.path.isfile(cand) and os.access(cand, os.X_OK):
            tool = cand
            break
    if not fixtures or not tool:
        print(f"SKIP: fixtures: {len(fixtures)} found, sysdev-fixture: {tool}")
        return T.SKIP
    if not can_unshare():
        print("SKIP: unshare -m / mount --bind not permitted here (needs root or user namespaces)")
        return T.SKIP
    tmp = tempfile.mkdtemp(prefix="sdt-fix-")
    try:
        roots = []
        for fx in fixtures:
            d = os.path.join(tmp, os.path.basename(fx)[:-len(".sysfs")])
            rc, out, err = T.run3([tool, "unpack", fx, d], timeout=600)
            if not C.check(f"sysdev-fixture unpack {os.path.basename(fx)}",
                           rc == 0 and os.path.isdir(os.path.join(d, "devices"))):
                show(rc, out, err)
                continue
            roots.append(d)
            rc, out, err = T.run3([exe, "--check-udev", "--root", d], timeout=600)
            if not C.check(f"--check-udev agrees on fixture {os.path.basename(d)}", rc == 0):
                show(rc, out, err)
            rc, out, err = diff(exe, d, d)
            C.check(f"--diff of fixture {os.path.basename(d)} with itself", rc == 0 and out == "")
        for x, y in zip(roots, roots[1:]):
            rc, out, err = diff(exe, x, y, "--json")
            doc = json.loads(out) if out else None
            n = sum(len(doc[k]) for k in ("added", "removed", "moved", "changed")) if doc else 0
            if not C.check(f"--diff {os.path.basename(x)} {os.path.basename(y)}: exit 1, "
                           f"{n} differences named",
                           rc == 1 and doc and not doc["same"] and n > 0):
                show(rc, out[:2000], err)
            rc, out, err = diff(exe, x, y)
            lines = out.splitlines()
            C.check(f"text diff: {len(lines)} lines, each + - > or ~",
                    rc == 1 and lines and all(l[:2] in ("+ ", "- ", "> ", "~ ") for l in lines))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


SOURCE_ROOT = None


def main():
    global SOURCE_ROOT
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    exe, case = os.path.abspath(sys.argv[1]), sys.argv[2]
    SOURCE_ROOT = sys.argv[3] if len(sys.argv) > 3 else None
    fn = {"live": case_live, "planted": case_planted, "diff": case_diff,
          "fixtures": case_fixtures}[case]
    ret = fn(exe)
    return C.summary() or ret


if __name__ == "__main__":
    sys.exit(main())
