#!/usr/bin/env python3
"""Every refusal a user can meet, word for word: for each bad argument, bad
root or bad target, the exact lines on standard error and the exit status,
written here by hand from what the man pages promise (one line naming the
path or argument; usage errors add the --help hint).  A message that loses
a word, names the wrong argument or changes its exit status fails here.

usage: test_messages.py SYSDEV_TREE SYSDEV_FIXTURE
"""
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import sysdevtest as T  # noqa: E402
from sysdevtest.tree import article  # noqa: E402

TOOL = os.path.abspath(sys.argv[1])
FIXTURE = os.path.abspath(sys.argv[2])
CLIENT = "/devices/platform/omap_i2c.2/i2c-2/2-0045"
HINT = "Try 'sysdev-tree --help' for more information."
C = T.Checker()


def expect(label, argv, status, lines, tool=None):
    r = subprocess.run([tool or TOOL, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, timeout=120,
                       env=T.environ(NO_COLOR="1", LC_ALL="C.UTF-8"))
    got = r.stderr.decode("utf-8", "surrogateescape").splitlines()
    C.check("%s: exit %d, %s" % (label, status, " / ".join(lines)),
            r.returncode == status and got == lines, (r.returncode, got))


def tree_messages(tmp):
    root = os.path.join(tmp, "r")
    article(root)
    R = ["--root", root]
    t = "sysdev-tree: "
    # usage: exit 2, the line and the hint where the option parser refuses
    expect("two formats", ["-r", "-P"], 2, [t + "choose one of --raw and --pairs"])
    expect("both initialized matches", ["--initialized-match", "--initialized-nomatch"], 2,
           [t + "choose one of --initialized-match and --initialized-nomatch"])
    expect("two modes", R + ["--stats", "--list-columns"], 2,
           [t + "choose one of --parents, --explain, --properties, --stats, --capture, --diff, "
            "--check-udev, --watch, --list-columns, --get-/--set-latency-tolerance"])
    expect("--explain without a DEVICE", R + ["--explain"], 2,
           [t + "--explain: needs a DEVICE", HINT])
    expect("--parents without a DEVICE", R + ["--parents"], 2,
           [t + "--parents: needs a DEVICE", HINT])
    expect("-l with two STARTs", R + ["-l", "/devices", "/devices/platform"], 2,
           [t + "/devices/platform: unexpected argument: --list takes one START", HINT])
    expect("--check-udev with a START", R + ["--check-udev", "/devices"], 2,
           [t + "/devices: unexpected argument: --check-udev takes no START", HINT])
    expect("--properties with DEVICEs and filters", R + ["--properties", CLIENT, "-s", "leds"], 2,
           [t + CLIENT + ": --properties takes DEVICEs or filters, not both"])
    # the root
    expect("a root that is not there", ["--root", os.path.join(tmp, "nowhere")], 1,
           [t + os.path.join(tmp, "nowhere") + ": not a sysfs root: no such directory, or it "
            "has no devices/ directory (ENOENT)"])
    plain = os.path.join(tmp, "plain")
    os.makedirs(plain)
    with open(os.path.join(plain, "devices"), "w") as f:
        f.write("a file\n")
    expect("a root whose devices/ is a file", ["--root", plain], 1,
           [t + plain + ": not a sysfs root: not a directory, or its devices/ is not a "
            "directory (ENOTDIR)"])
    # selections that find nothing: why, in the words of what was asked
    expect("filters that select nothing", R + ["-l", "-s", "leds", "--sysname", "nomatch"], 1,
           [t + "no device matches the filters"])
    expect("--properties filters that select nothing",
           R + ["--properties", "-s", "leds", "--sysname", "nomatch"], 1,
           [t + "no device matches the filters"])
    expect("a list of an attribute group (no filters)", R + ["-l", CLIENT + "/power"], 1,
           [t + CLIENT + "/power: no device at or below it"])
    expect("a subsystem that is neither bus nor class", R + ["-l", "-s", "nosuchsub"], 1,
           [t + "nosuchsub: no such subsystem: neither a bus nor a class under " + root,
            t + "no device matches the filters"])
    # a bus without its devices/ directory (a hand-made tree) holds no device: no error
    os.makedirs(os.path.join(root, "bus", "nodevs"))
    r = T.run([TOOL, *R, "-l", "-n", "-o", "DEVPATH", "-s", "nodevs", "-s", "leds"], text=True)
    leds = sorted("/" + os.path.relpath(os.path.realpath(os.path.join(root, "class/leds", n)), root)
                  for n in os.listdir(os.path.join(root, "class/leds")))
    C.check("a bus without devices/ and leds: the LEDs, exit 0, nothing on stderr",
            r.returncode == 0 and r.stdout.split() == leds and not r.stderr,
            (r.returncode, r.stdout, r.stderr, leds))
    expect("a bus without devices/ alone", R + ["-l", "-s", "nodevs"], 1,
           [t + "no device matches the filters"])
    # DEVICE arguments
    expect("a devpath that is not there", R + ["-l", "/devices/nosuch"], 1,
           [t + "/devices/nosuch: no such file or directory (ENOENT)"])
    expect("a path through a file", R + ["-l", CLIENT + "/uevent/x"], 1,
           [t + CLIENT + "/uevent/x: no such device or directory: the path goes through a file "
            "(ENOTDIR)"])
    expect("--parents of an attribute group", R + ["--parents", CLIENT + "/power"], 1,
           [t + CLIENT + "/power: " + root + CLIENT + "/power is an attr-group, not a device "
            "(it has no uevent file)"])
    expect("a device number nobody has", R + ["-l", "b9:9"], 1,
           [t + "b9:9: no device has this number: " + root + "/dev/block/9:9: no such file or "
            "directory (ENOENT)"])
    expect("a device node that is not there", R + ["-l", "/dev/nosuch-sysdev"], 1,
           [t + "/dev/nosuch-sysdev: no such device node: no such file or directory (ENOENT)"])
    expect("a /dev path that is no device node", R + ["-l", "/dev/shm"], 1,
           [t + "/dev/shm: not a device node: expected a block or character device in /dev"])
    expect("a device node the root does not have", R + ["-l", "/dev/null"], 1,
           [t + "/dev/null: no device under %s has this node: %s/dev/char/1:3 does not exist"
            % (root, root)])
    with open(os.path.join(root, "devices/platform/omap_i2c.2/modalias"), "w") as f:
        f.write("platform:omap_i2c\n")
    expect("MODULES where the tree has no modules.alias", R + ["-l", "-o", "DEVPATH,MODULES"], 0,
           [t + "no modules.alias: no such file or directory (ENOENT): MODULES is empty"])
    # a capture's summary names the target and what was captured: S/devices without START
    for start, captured in ((None, root + "/devices"), ("/devices/platform",
                                                        root + "/devices/platform")):
        cap = os.path.join(tmp, "cap-%s" % ("all" if start is None else "platform"))
        r = T.run([TOOL, *R, "--capture", cap] + ([start] if start else []), text=True)
        C.check("--capture %s: one line, 'sysdev-tree: DIR: captured %s: N files, ...'"
                % (start or "(whole tree)", captured), r.returncode == 0 and re.fullmatch(
                    re.escape(t + cap + ": captured " + captured + ": ") + r"\d+ files, \d+ "
                    r"directories, \d+ links, 0 skipped \(.*\)\n", r.stderr) is not None,
                r.stderr)
    # a capture that runs out of descriptors (8 at most: a walk needs one a level) names
    # what it was capturing
    cap = os.path.join(tmp, "cap-few-fds")
    r = subprocess.run([TOOL, *R, "--capture", cap], capture_output=True, text=True, timeout=120,
                       preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (8, 8)))
    C.check("--capture with 8 descriptors: 'capture of ROOT/devices failed: ... (EMFILE)', exit 1",
            r.returncode == 1 and r.stderr == "%s%s: capture of %s/devices failed: too many open "
            "files (EMFILE)\n" % (t, cap, root), (r.returncode, r.stderr))
    # a capture's target
    full = os.path.join(tmp, "full")
    os.makedirs(full)
    open(os.path.join(full, "x"), "w").close()
    expect("--capture into a directory that holds a file", R + ["--capture", full], 1,
           [t + full + ": not empty: a capture needs an empty directory (ENOTEMPTY)"])


def fixture_messages(tmp):
    root = os.path.join(tmp, "r")
    t = "sysdev-fixture: "
    archive = os.path.join(tmp, "a.sysfs")
    with open(archive, "wb") as f:
        r = subprocess.run([FIXTURE, "pack", root], stdout=f, stderr=subprocess.PIPE)
    if not C.check("the tree packs", r.returncode == 0, r.stderr):
        return
    # bad usage: one line saying what is wrong, then where the help is (exit 2)
    hint = "Try 'sysdev-fixture --help' for more information."
    for argv, line in (
            ([], "needs a command: pack, unpack, check, capture, export or import"),
            (["frob"], "frob: unknown command"),
            (["pack"], "pack: takes one directory (pack DIR > F.sysfs)"),
            (["unpack", archive], "unpack: takes an archive and a directory (unpack F.sysfs DIR)"),
            (["check"], "check: takes one archive (check F.sysfs)"),
            (["import", "-x", "a"], "import: takes no options"),
            (["import", "a"], "import: takes a recording and a directory "
             "(import FILE.umockdev DIR)"),
            (["export", "-z", "a"], "export: -z: unknown option"),
            (["export"], "export: takes --umockdev and a tree "
             "(export --umockdev ARCHIVE|DIR > FILE.umockdev)"),
            (["capture"], "capture: takes NAME.sysfs and at most one START (capture [--root S] "
             "[--full] [--sanitize] NAME.sysfs [START])"),
            (["capture", "--bogus", "x"], "capture: --bogus: unknown option"),
            (["capture", "-z", "x"], "capture: -z: unknown option"),
            (["capture", "--root"], "capture: --root needs S"),
            (["capture", "--full=3", "x"], "capture: --full takes no value")):
        expect("sysdev-fixture " + " ".join(argv), argv, 2, [t + line, hint], tool=FIXTURE)
    full = os.path.join(tmp, "full")
    expect("unpack into a directory that holds a file", ["unpack", archive, full], 1,
           [t + full + ": not empty: unpacking needs an empty directory"], tool=FIXTURE)
    link = os.path.join(tmp, "link")
    os.symlink(os.path.join(tmp, "empty-target"), link)
    os.makedirs(os.path.join(tmp, "empty-target"))
    expect("unpack into a symbolic link", ["unpack", archive, link], 1,
           [t + link + ": a symbolic link: refusing to write where it points"], tool=FIXTURE)
    expect("capture into a directory", ["capture", "--root", root, full], 1,
           [t + full + ": a directory: the archive is a file"], tool=FIXTURE)
    expect("import of a stream past 256 MiB", ["import", "/dev/zero", os.path.join(tmp, "imp")], 1,
           [t + "/dev/zero: larger than 256 MiB"], tool=FIXTURE)
    # under the limit (a sparse file of 200 MiB: reading it needs no disk): read whole,
    # then refused for what its first line is
    sparse = os.path.join(tmp, "sparse.umockdev")
    with open(sparse, "wb") as f:
        f.truncate(200 << 20)
    expect("import of a 200 MiB file of NULs", ["import", sparse, os.path.join(tmp, "imp2")], 1,
           [t + sparse + ":1: not a umockdev recording: malformed line, or a device without "
            "SUBSYSTEM"], tool=FIXTURE)
    os.unlink(sparse)
    rec = os.path.join(tmp, "rec.umockdev")
    with open(rec, "wb") as f:
        r = subprocess.run([FIXTURE, "export", "--umockdev", root], stdout=f, stderr=subprocess.PIPE)
    if C.check("the tree exports as a umockdev recording", r.returncode == 0, r.stderr):
        expect("import into a directory that holds a file", ["import", rec, full], 1,
               [t + full + ": not empty: importing needs an empty directory"], tool=FIXTURE)
    expect("capture beside a directory that is not there",
           ["capture", "--root", root, os.path.join(tmp, "nodir", "a.sysfs")], 1,
           [t + os.path.join(tmp, "nodir", "a.sysfs") + ": cannot create the archive beside it: "
            "no such file or directory (ENOENT)"], tool=FIXTURE)

def archive_messages(tmp):
    """With an archive for a root, messages and outputs name the archive, never
    the private directory it is unpacked into (gone when the program ends)."""
    archive = os.path.join(tmp, "a.sysfs")
    t = "sysdev-tree: "
    R = ["--root", archive]
    expect("archive root: a device number nobody has", R + ["-l", "b9:9"], 1,
           [t + "b9:9: no device has this number: " + archive + "/dev/block/9:9: no such file "
            "or directory (ENOENT)"])
    expect("archive root: a START that is a file", R + ["-l", CLIENT + "/uevent"], 1,
           [t + CLIENT + "/uevent: a file, not a directory: expected a directory under " + archive
            + "/devices (ENOTDIR)"])
    expect("archive root: --parents of an attribute group", R + ["--parents", CLIENT + "/power"],
           1, [t + CLIENT + "/power: " + archive + CLIENT + "/power is an attr-group, not a "
               "device (it has no uevent file)"])
    expect("archive root: a subsystem that is neither bus nor class", R + ["-l", "-s", "nosub"],
           1, [t + "nosub: no such subsystem: neither a bus nor a class under " + archive,
               t + "no device matches the filters"])
    for argv in (["-J"], ["--stats", "-J"], ["--parents", "-J", CLIENT]):
        r = T.run([TOOL, *R, *argv])
        try:
            named = json.loads(r.stdout)["sysfs"]
        except (ValueError, KeyError, TypeError) as e:
            named = repr(e)
        C.check("archive root: %s names the archive as its sysfs" % " ".join(argv),
                r.returncode == 0 and named == archive, (r.returncode, named))
    r = T.run([TOOL, *R, "--stats"], text=True)
    C.check("archive root: --stats says 'Sysfs root: ARCHIVE'",
            r.returncode == 0 and r.stdout.splitlines()[0] == "Sysfs root: " + archive,
            r.stdout[:200])


def main():
    tmp = tempfile.mkdtemp(prefix="sysdev-messages.")
    try:
        tree_messages(tmp)
        fixture_messages(tmp)
        archive_messages(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    C.finish()


if __name__ == "__main__":
    main()
