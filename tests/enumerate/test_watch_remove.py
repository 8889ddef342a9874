#!/usr/bin/env python3
"""sysdev-tree --watch: a device's remove line carries the parent and class
directory its add line had (the directory is gone by then).  A network
interface (ifb) is added and deleted in a network namespace of the test's
own, with a sysfs of that namespace mounted in a private mount namespace:
nothing of the host changes and no listener of the host sees the events.
The oracle is the add line itself and the names written here.

usage: test_watch_remove.py SYSDEV_TREE
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import sysdevtest as T  # noqa: E402

TREE = os.path.abspath(sys.argv[1])
C = T.Checker()
IFACE = "sdwatch0"
DEVPATH = "/devices/virtual/net/" + IFACE

SCRIPT = r"""
set -e
mount -t sysfs sysfs /sys
"$TREE" --watch $JSON > "$OUT" 2>&1 & pid=$!
# wait until the watcher has its socket
for i in $(seq 100); do
  ls -l /proc/$pid/fd 2>/dev/null | grep -q socket && break
  sleep 0.05
done
sleep 0.2
ip link add IFACE type ifb
sleep 0.3
ip link del IFACE
sleep 0.5
kill -INT $pid
wait $pid
""".replace("IFACE", IFACE)


def watch(json_lines):
    out = os.path.join("/tmp", "sysdev-watch-%d.out" % os.getpid())
    env = dict(os.environ, TREE=TREE, OUT=out, JSON="--json" if json_lines else "")
    r = subprocess.run(["unshare", "--net", "--mount", "--", "sh", "-c", SCRIPT],
                       capture_output=True, text=True, env=env, timeout=60)
    try:
        with open(out) as f:
            text = f.read()
    except OSError:
        text = ""
    if os.path.exists(out):
        os.unlink(out)
    return r, text


def main():
    if os.geteuid() != 0:
        T.skip("needs root for a network and a mount namespace with its own sysfs")
    for tool in ("unshare", "ip"):
        if not shutil.which(tool):
            T.skip(tool + " is not installed")
    r, text = watch(False)
    C.check("--watch in a namespace of its own exits 0", r.returncode == 0, r.stderr + text)
    lines = [ln.split(" ") for ln in text.splitlines()]
    add = [ln for ln in lines if ln[1:3] == ["add", DEVPATH]]
    rem = [ln for ln in lines if ln[1:3] == ["remove", DEVPATH]]
    C.check("text: the add line says device net class_dir=net",
            len(add) == 1 and add[0][3:] == ["device", "net", "class_dir=net"], text)
    C.check("text: the remove line says what the add line said",
            len(rem) == 1 and len(add) == 1 and rem[0][3:] == add[0][3:], text)
    r, text = watch(True)
    evs = [json.loads(ln) for ln in text.splitlines() if ln.startswith("{")]
    add = [e for e in evs if e["action"] == "add" and e["devpath"] == DEVPATH]
    rem = [e for e in evs if e["action"] == "remove" and e["devpath"] == DEVPATH]
    C.check("json: the add event has class_dir net", len(add) == 1 and
            add[0]["class_dir"] == "net" and add[0]["kind"] == "device", text)
    C.check("json: the remove event has the add's kind, parent and class_dir",
            len(rem) == 1 and len(add) == 1 and
            all(rem[0][k] == add[0][k] for k in ("kind", "parent", "class_dir")), text)
    return C.summary()


if __name__ == "__main__":
    sys.exit(main())
