#!/usr/bin/env python3
"""sysdev-tree --watch when events are lost: an LD_PRELOAD shim (watch-shim.c)
plays a script of kernel messages, an overflow (ENOBUFS), forged and
malformed messages on the uevent socket, and changes the tree in between, so
that no uevent is generated on the host.  The oracle is written here: the
lines each script must print, taken from the script and from the tree the
test made and changed.

usage: test_watch_loss.py SYSDEV_TREE SHIM
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import sysdevtest as T  # noqa: E402

TOOL = os.path.abspath(sys.argv[1])
SHIM = os.path.abspath(sys.argv[2])
C = T.Checker()
H0 = "/devices/platform/host0"
H1 = "/devices/platform/host1"


def make_tree(root):
    t = T.Tree(root)
    t.buses("platform")
    t.classes("block", "leds")
    t.device("/devices/platform")
    t.device(H0, "bus:platform", driver="hostdrv")
    t.device(H1, "bus:platform")
    t.device(H0 + "/block/sda", "class:block", uevent="DEVTYPE=disk\nDEVNAME=sda\n")
    t.device(H0 + "/block/sda/sda1", "class:block", uevent="DEVTYPE=partition\n")
    t.device(H0 + "/leds/led0", "class:leds")
    return t


def changes(root):
    """What changes while events are lost: led0 goes, sdb comes, host1 is bound."""
    return ("run rm -r '{r}{h0}/leds/led0' && mkdir -p '{r}{h0}/block/sdb' && "
            "printf 'DEVTYPE=disk\\n' > '{r}{h0}/block/sdb/uevent' && "
            "ln -s ../../../../../class/block '{r}{h0}/block/sdb/subsystem' && "
            "ln -s ../../../bus/platform/drivers/hostdrv '{r}{h1}/driver'"
            ).format(r=root, h0=H0, h1=H1)


def script(root):
    return "\n".join([
        "msg add %s/leds/led1 100 SUBSYSTEM=leds" % H0,
        "msg remove %s/leds/led1 101 SUBSYSTEM=leds" % H0,
        "msg change %s/block/sda 102 SUBSYSTEM=block DEVTYPE=disk" % H0,
        "msg change %s/block/sda/sda1 103 SUBSYSTEM=block" % H0,
        "enobufs",
        changes(root),
        "msg change %s/block/sda 107 SUBSYSTEM=block DEVTYPE=disk" % H0,
        "forged change %s 108" % H0,
        "raw change@/devices/x|ACTION=change|DEVPATH=/devices/x|SEQNUM=108x|",
        "raw change@/devices/x|ACTION=change|DEVPATH=/devices/x|=y|SEQNUM=108|",
        "msg change %s 108 SUBSYSTEM=platform DRIVER=hostdrv" % H0,
        "eagain",
        "enobufs",
    ]) + "\n"


def gone_script(root):
    """Two adds below a directory that is not there, received together; then
    the directory and a device below it appear, and that device's add comes
    in a batch of its own."""
    return "\n".join([
        "msg add %s/gone/s1 200 SUBSYSTEM=leds" % H0,
        "msg add %s/gone/s2 201 SUBSYSTEM=leds" % H0,
        "run mkdir -p '{r}{h0}/gone/s3' && : > '{r}{h0}/gone/uevent' && "
        ": > '{r}{h0}/gone/s3/uevent' && "
        "ln -s ../../../../../class/leds '{r}{h0}/gone/s3/subsystem'".format(r=root, h0=H0),
        "msg add %s/gone/s3 202 SUBSYSTEM=leds" % H0,
    ]) + "\n"


LONG_KEY = "K" * 300


def match_script(root):
    """Events for --match and --nomatch: DEVNAME as the kernel sends it (no
    /dev/), one with a '/' second, one without DEVNAME, and a key of 300
    bytes."""
    return "\n".join([
        "msg add %s/block/sdb 300 SUBSYSTEM=block DEVNAME=sdb" % H0,
        "msg add %s/block/sdc 301 SUBSYSTEM=block DEVNAME=x/sdc" % H0,
        "msg add %s/leds/led2 302 SUBSYSTEM=leds" % H0,
        "msg change %s 303 SUBSYSTEM=platform %s=1" % (H0, LONG_KEY),
    ]) + "\n"


def watch(*args, make_script=script):
    with tempfile.TemporaryDirectory() as d:
        root = os.path.join(d, "sys")
        make_tree(root)
        with open(os.path.join(d, "script"), "w") as f:
            f.write(make_script(root))
        env = dict(os.environ, LD_PRELOAD=SHIM, WATCH_SHIM_SCRIPT=os.path.join(d, "script"),
                   ASAN_OPTIONS="verify_asan_link_order=0:" + os.environ.get("ASAN_OPTIONS", ""))
        r = subprocess.run([TOOL, "--root", root, "--watch"] + list(args), env=env,
                           capture_output=True, text=True, timeout=60)
        left = sorted(os.listdir(root + H0 + "/block"))
    return r, left


def main():
    r, left = watch()
    lines = r.stdout.splitlines()
    P0 = "parent=" + H0
    want = [
        "100 add %s/leds/led1 device leds %s class_dir=leds" % (H0, P0),
        "101 remove %s/leds/led1 device leds %s class_dir=leds" % (H0, P0),
        "102 change %s/block/sda device block %s class_dir=block" % (H0, P0),
        "103 change %s/block/sda/sda1 device block parent=%s/block/sda" % (H0, H0),
        "lost 3 104..106 enobufs",
        "107 change %s/block/sda device block %s class_dir=block" % (H0, P0),
        "108 change %s device platform parent=/devices/platform" % H0,
        # caught up (nothing pending): one resync, what changed meanwhile
        "- remove %s/leds/led0 device leds %s class_dir=leds synthesized" % (H0, P0),
        "- add %s/block/sdb device block %s class_dir=block synthesized" % (H0, P0),
        "- bind %s device platform parent=/devices/platform synthesized" % H1,
        "lost - 109..- enobufs",
    ]
    C.check("the script ran to its end (exit 0)", r.returncode == 0, r.stderr)
    C.check("the tree was changed in between", left == ["sda", "sdb"], left)
    for i, w in enumerate(want):
        got = lines[i] if i < len(lines) else None
        C.check("line %d: %s" % (i + 1, w), got == w, got)
    C.check("nothing more than the expected lines", len(lines) == len(want), lines[len(want):])
    C.check("the summary counts heard, synthesized, dropped (forged, malformed) and lost",
            "--watch: 6 events heard, 3 synthesized, 3 dropped, 3 lost "
            "(and 1 overflow of unknown size)" in r.stderr, r.stderr)

    r, _ = watch("--json")
    objs = [json.loads(line) for line in r.stdout.splitlines()]
    C.check("json: one object a line, 11 of them", len(objs) == 11, r.stdout)
    if len(objs) == 11:
        C.check("json: the loss", objs[4] == {"action": "lost", "count": 3, "first": 104,
                                            "last": 106, "evidence": "enobufs"}, objs[4])
        C.check("json: the unknown loss has nulls",
                objs[10] == {"action": "lost", "count": None, "first": 109, "last": None,
                             "evidence": "enobufs"}, objs[10])
        C.check("json: synthesized events have a null seqnum and say so",
                [(o["seqnum"], o["synthesized"], o["action"]) for o in objs[7:10]] ==
                [(None, True, "remove"), (None, True, "add"), (None, True, "bind")], objs[7:10])
        C.check("json: heard events are not synthesized",
                all(o["synthesized"] is False for o in objs[:4] + objs[5:7]), objs)
        C.check("json: a remove keeps the add's kind, parent and class_dir",
                {k: objs[1][k] for k in ("kind", "parent", "class_dir")} ==
                {k: objs[0][k] for k in ("kind", "parent", "class_dir")}, objs[:2])

    # -s NAME/DEVTYPE: a devtype filter passes no event without DEVTYPE
    r, _ = watch("-s", "block/disk")
    got = [line.split()[1:3] for line in r.stdout.splitlines() if not line.startswith("lost")]
    C.check("-s block/disk: only disks, heard and synthesized",
            got == [["change", H0 + "/block/sda"], ["change", H0 + "/block/sda"],
                    ["add", H0 + "/block/sdb"]], r.stdout)
    C.check("-s block/disk: the losses are still said",
            [line for line in r.stdout.splitlines() if line.startswith("lost")] ==
            ["lost 3 104..106 enobufs", "lost - 109..- enobufs"], r.stdout)

    # --properties: each event's properties after its line, then a blank line
    r, _ = watch("--properties", "-s", "platform")
    blocks = [b.splitlines() for b in r.stdout.split("\n\n")]
    blocks = [b[b.index(x):] for b in blocks for x in b if x.startswith("108 ")]
    C.check("--properties: the heard platform event with its properties",
            len(blocks) == 1 and blocks[0][1:] ==
            ["ACTION=change", "DEVPATH=" + H0, "SEQNUM=108", "SUBSYSTEM=platform",
             "DRIVER=hostdrv"], blocks)
    r, _ = watch("--properties", "--json", "-s", "platform")
    objs = [json.loads(line) for line in r.stdout.splitlines()]
    heard = [o for o in objs if o.get("seqnum") == 108]
    C.check("--properties --json: a properties object",
            heard and heard[0]["properties"] == {"ACTION": "change", "DEVPATH": H0,
                                                 "SEQNUM": "108", "SUBSYSTEM": "platform",
                                                 "DRIVER": "hostdrv"}, objs)

    # A directory found gone while a batch is handled places the batch's other
    # devices below it without a look; what it found is not kept for the next
    # batch, whose device below the directory, there by then, is looked at.
    r, _ = watch(make_script=gone_script)
    C.check("a directory gone: the devices below it placed from what is known, and a "
            "device there in the next batch from sysfs",
            r.stdout.splitlines() == [
                "200 add %s/gone/s1 device leds %s" % (H0, P0),
                "201 add %s/gone/s2 device leds %s" % (H0, P0),
                "202 add %s/gone/s3 device leds parent=%s/gone" % (H0, H0)], r.stdout)

    # --match and --nomatch read DEVNAME as the node's path, as elsewhere; a
    # device lacking the field passes --nomatch; a long key is matched whole
    for args, want in ((["--match", "DEVNAME=/dev/x/*"], ["301"]),
                       (["--nomatch", "DEVNAME=/dev/x/*"], ["300", "302", "303"]),
                       (["--match", "DEVNAME=/dev/sd?"], ["300"]),
                       (["--match", LONG_KEY + "=1"], ["303"]),
                       (["--match", LONG_KEY[:-1] + "=1"], [])):
        r, _ = watch(*args, make_script=match_script)
        got = [line.split()[0] for line in r.stdout.splitlines()]
        C.check("--watch %s: the events %s" % (" ".join(a[:40] for a in args), want),
                r.returncode == 0 and got == want, (r.stdout, r.stderr))

    r = subprocess.run([TOOL, "--properties", "--udev"], capture_output=True, text=True)
    C.check("--udev without --watch is refused", r.returncode == 2, r.stderr)
    return C.finish()


if __name__ == "__main__":
    sys.exit(main())
