#!/usr/bin/env python3
"""Every command of sysdev-tree(1)'s EXAMPLES section, run against fixtures.

The commands are read from the man page itself (the .nf blocks of EXAMPLES),
so the page and this test cannot drift apart: a command the table below
does not know fails the test, and so does a table entry the page lost.
Each runs through bash as written, with sysdev-tree on PATH, `--root
FIXTURE` put after each `sysdev-tree`, and the paths of the page swapped for
scratch ones; its output is checked against the fixture's files (os.walk,
readlink), systemd-hwdb, and JSON parsing.

usage: test_examples.py SYSDEV_TREE SYSDEV_FIXTURE FIXTURES_DIR MAN_PAGE
"""
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOOL = os.path.abspath(sys.argv[1])
FIXTURE_TOOL = os.path.abspath(sys.argv[2])
FIXTURES = os.path.abspath(sys.argv[3])
MAN = os.path.abspath(sys.argv[4])
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402

C = T.Checker()
check = C.check


def man_examples():
    """The command lines of the EXAMPLES section, roff escapes undone."""
    with open(MAN) as f:
        page = f.read()
    section = page[page.index(".SH EXAMPLES"):page.index(".SH SEE ALSO")]
    cmds = []
    for block in re.findall(r"^\.nf\n(.*?)^\.fi\n", section, re.S | re.M):
        for line in block.splitlines():
            line = (line.replace("\\-", "-").replace("\\(aq", "'").replace("\\(dq", '"')
                    .replace("\\e", "\\"))
            if line.strip():
                cmds.append(line)
    return cmds


def unpack(name, dest):
    r = subprocess.run([FIXTURE_TOOL, "unpack", os.path.join(FIXTURES, name), dest],
                       capture_output=True)
    if r.returncode != 0:
        raise SystemExit(f"Bail out! cannot unpack {name}: {r.stderr!r}")
    return dest


def link_base(path):
    try:
        return os.path.basename(os.readlink(path))
    except OSError:
        return None


def index_devices(root, index):
    d = os.path.join(root, index)
    return {os.path.realpath(os.path.join(d, n))[len(os.path.realpath(root)):]: n
            for n in (os.listdir(d) if os.path.isdir(d) else [])}


def device_dirs(root):
    """devpath -> directory, for every directory with a regular uevent file."""
    res = {}
    for dirpath, _, files in os.walk(os.path.join(root, "devices")):
        ue = os.path.join(dirpath, "uevent")
        if "uevent" in files and os.path.isfile(ue) and not os.path.islink(ue):
            res[dirpath[len(root):]] = dirpath
    return res


def hwdb(modalias):
    r = subprocess.run(["systemd-hwdb", "query", modalias], capture_output=True, timeout=60)
    return dict(line.split("=", 1) for line in r.stdout.decode().splitlines() if "=" in line)


def uevent(path):
    with open(path) as f:
        return dict(line.split("=", 1) for line in f.read().splitlines() if "=" in line)


def main():
    tmp = tempfile.mkdtemp(prefix="examples-")
    try:
        run_all(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_all(tmp):
    q35_archive = os.path.join(FIXTURES, "qemu-q35.sysfs")
    q35 = unpack("qemu-q35.sysfs", os.path.join(tmp, "q35"))
    article = unpack("article.sysfs", os.path.join(tmp, "article"))
    sysroot = os.path.join(tmp, "other-system")
    os.makedirs(sysroot)
    unpack("qemu-pc.sysfs", os.path.join(sysroot, "sys"))
    unpack("qemu-q35.sysfs", os.path.join(tmp, "captured"))
    # a capture keeps the drivers as names only: give two of them their module links
    for bus, drv, mod in (("virtio", "virtio_blk", "virtio_blk"), ("pci", "virtio-pci",
                                                                   "virtio_pci")):
        os.symlink(f"../../../../module/{mod}", f"{q35}/bus/{bus}/drivers/{drv}/module")
    devs = device_dirs(q35)
    pci = index_devices(q35, "bus/pci/devices")
    usb = index_devices(q35, "bus/usb/devices")
    vda = next(d for d in devs if d.endswith("/block/vda"))
    vda_chain = [d for d in devs if vda.startswith(d + "/") or d == vda]

    def c_disk(r, out):
        lines = out.splitlines()
        want = {(os.path.basename(d), link_base(devs[d] + "/driver")) for d in vda_chain}
        shown = all(any(re.search(rf"\b{re.escape(n)}\b", x) and
                        (not drv or f"driver:{drv}" in x) for x in lines) for n, drv in want)
        return (r == 0 and shown and "module:virtio_blk" in out and "module:virtio_pci" in out,
                f"want {want}")

    def c_parents(r, out):
        drivers = {link_base(devs[d] + "/driver") for d in vda_chain} - {None}
        return r == 0 and all(d in out for d in drivers), f"drivers {drivers}"

    def c_nodriver(r, out):
        want = {n for d, n in pci.items() if not os.path.islink(devs[d] + "/driver")}
        got = set(re.findall(r'NAME="([^"]*)"', out))
        return r == 0 and want and got == want and 'VENDOR="' in out, f"want {want} got {got}"

    def c_names(r, out):
        lines = out.splitlines()
        head = lines[0].split() if lines else []
        intel = hwdb(uevent(devs["/devices/pci0000:00/0000:00:00.0"] + "/uevent")["MODALIAS"])
        return (r == 0 and head[-2:] == ["VENDOR", "MODEL"] and len(lines) == 1 + len(pci) +
                len(usb) and intel.get("ID_VENDOR_FROM_DATABASE", "?") in out,
                f"{len(lines)} lines for {len(pci)} + {len(usb)} devices\n{out[:500]}")

    def c_eval(r, out):
        alias = uevent(devs["/devices/pci0000:00/0000:00:02.0"] + "/uevent")["MODALIAS"]
        want = hwdb(alias).get("ID_MODEL_FROM_DATABASE")
        return r == 0 and want and out == want + "\n", f"want {want!r}"

    def c_capture(r, out):
        return r == 0 and not out, out

    def c_diff_same(r, out):
        return r == 0 and not out, out

    def c_latency(r, out):
        want = {}
        for d, path in device_dirs(article).items():
            f = path + "/power/pm_qos_latency_tolerance_us"
            if os.path.isfile(f):
                with open(f) as fh:
                    want[d] = fh.read().strip()
        rows = [x.split() for x in out.splitlines()[1:]]
        got = {x[0]: x[-1] for x in rows}
        return r == 0 and want and got == want, f"want {want} got {got}"

    def c_set_lt(r, out):
        with open(article + "/devices/platform/omap_i2c.2/i2c-2/2-0045/power/"
                  "pm_qos_latency_tolerance_us") as f:
            value = f.read().strip()
        return r == 0 and value == "100", value

    def c_unlinked(r, out):
        want = unlinked_devices()
        got = {x.split()[0] for x in out.splitlines()[1:] if x.strip()}
        return r == 0 and want and got == want, f"{len(want)} want, {len(got)} got"

    def c_virtio(r, out):
        want = {d for d, p in devs.items()
                if fnmatch.fnmatchcase(link_base(p + "/driver") or "", "virtio*")}
        rows = [x.split() for x in out.splitlines()[1:] if x.strip()]
        got = {x[0] for x in rows}
        mods = {x[0]: x[2] for x in rows if len(x) > 2}
        return (r == 0 and want and got == want and "virtio_blk" in mods.values(),
                f"want {want} got {got}")

    def c_raw_pci(r, out):
        rows = [x.split(" ") for x in out.splitlines()]
        return (r == 0 and {x[0] for x in rows} == set(pci) and len(rows) == len(pci) and
                all(len(x) == 3 for x in rows), out[:500])

    def c_list_pci(r, out):
        lines = out.splitlines()
        return (r == 0 and lines[0].split() == ["DEVPATH", "DRIVER", "VENDOR", "MODEL"] and
                len(lines) == 1 + len(pci) and
                {x.split()[0] for x in lines[1:]} == set(pci), out[:500])

    def c_json_latency(r, out):
        want = {d for d, p in device_dirs(article).items()
                if os.path.isfile(p + "/power/pm_qos_latency_tolerance_us")}
        try:
            doc = json.loads(out)
        except ValueError as e:
            return False, e
        got = {d.get("devpath") for d in doc.get("devices", [])}
        return r == 0 and want and got == want, f"want {want} got {got}"

    def unlinked_devices():
        linked = set()
        for b in os.listdir(q35 + "/bus"):
            linked |= set(index_devices(q35, f"bus/{b}/devices"))
        for c in os.listdir(q35 + "/class"):
            linked |= set(index_devices(q35, f"class/{c}"))
        return set(devs) - linked

    def c_unlinked_tree(r, out):
        want = {os.path.basename(d) for d in unlinked_devices()}
        missing = [n for n in want if not re.search(rf"(^|\s){re.escape(n)}(\s|$)", out, re.M)]
        return r == 0 and want and not missing, f"missing {missing[:10]}"

    def c_json(r, out):
        try:
            doc = json.loads(out)
        except ValueError as e:
            return False, e
        names = sorted(d.get("name") for d in doc.get("devices", []))
        return (r == 0 and names == sorted(os.listdir(q35 + "/class/net")) and
                all(set(d) == {"name", "driver", "module"} for d in doc["devices"]), names)

    def c_block(r, out):
        return r == 0 and re.search(r"\bvda\b", out) and re.search(r"\bsda\b", out), out[:300]

    def c_stats(r, out):
        return r == 0 and "device" in out, out[:300]

    def c_openmetrics(r, out):
        with open(os.path.join(tmp, "sysdev.prom")) as f:
            prom = f.read()
        return r == 0 and "# TYPE" in prom and prom.rstrip().endswith("# EOF"), prom[-200:]

    def c_jsonl(r, out):
        try:
            lines = [json.loads(x) for x in out.splitlines()]
        except ValueError as e:
            return False, e
        return r == 1 and len(lines) > 0, out[:300]

    def c_power(r, out):
        return r == 0 and "power:" in out, out[:300]

    def c_tree_json(r, out):
        try:
            with open(os.path.join(tmp, "tree.json")) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            return False, e
        return r == 0 and isinstance(doc, dict), str(doc)[:200]

    def c_explain(r, out):
        return r == 0 and "/devices/virtual/net" in out, out

    # man command -> (root for --root or None, {page text: scratch text}, check)
    table = {
        "sysdev-tree --sysname vda -o NAME,SUBSYSTEM,DRIVER,MODULE": (q35, {}, c_disk),
        "sysdev-tree --parents /dev/vda": (q35, {"/dev/vda": "block:vda"}, c_parents),
        "sysdev-tree -P -s pci -o NAME,DRIVER,VENDOR,MODEL | grep 'DRIVER=\"\"'":
            (q35, {}, c_nodriver),
        "sysdev-tree -l -s pci -s usb -o +VENDOR,MODEL": (q35, {}, c_names),
        "sysdev-tree -r -n -o DEVPATH,DRIVER,MODULE -s pci": (q35, {}, c_raw_pci),
        "sysdev-tree -l -s pci -o DEVPATH,DRIVER,VENDOR,MODEL": (q35, {}, c_list_pci),
        "sysdev-tree -J -l --match power/pm_qos_latency_tolerance_us=*":
            (article, {}, c_json_latency),
        "sysdev-tree --unlinked": (q35, {}, c_unlinked_tree),
        'eval "$(sysdev-tree --properties --export pci:0000:00:02.0)"; '
        'echo "$ID_MODEL_FROM_DATABASE"': (q35, {}, c_eval),
        "sysdev-tree --capture /var/tmp/sysfs.before":
            (q35, {"/var/tmp": tmp}, c_capture),
        "sysdev-tree --capture /var/tmp/sysfs.after": (q35, {"/var/tmp": tmp}, c_capture),
        "sysdev-tree --diff /var/tmp/sysfs.before /var/tmp/sysfs.after":
            (None, {"/var/tmp": tmp}, c_diff_same),
        "sysdev-tree -l --match 'power/pm_qos_latency_tolerance_us=*' -o "
        "DEVPATH,DRIVER,LATENCY_TOLERANCE": (article, {}, c_latency),
        "sysdev-tree --set-latency-tolerance 100 /devices/platform/omap_i2c.2/i2c-2/2-0045":
            (article, {}, c_set_lt),
        "sysdev-tree -l --unlinked -o DEVPATH,SUBSYSTEM": (q35, {}, c_unlinked),
        "sysdev-tree -l --driver 'virtio*' -o DEVPATH,DRIVER,MODULE": (q35, {}, c_virtio),
        "sysdev-tree -J -l -s net -o NAME,DRIVER,MODULE": (q35, {}, c_json),
        "sysdev-tree --root machine.sysfs -s block":
            (None, {"machine.sysfs": q35_archive}, c_block),
        "sysdev-tree --root /mnt/other-system --stats":
            (None, {"/mnt/other-system": sysroot}, c_stats),
        "sysdev-tree --stats --format=openmetrics > "
        "/var/lib/prometheus/node-exporter/sysdev.prom":
            (q35, {"/var/lib/prometheus/node-exporter": tmp}, c_openmetrics),
        "sysdev-tree --diff before.sysfs after.sysfs --format=jsonl":
            (None, {"before.sysfs": q35_archive,
                    "after.sysfs": os.path.join(FIXTURES, "qemu-pc.sysfs")}, c_jsonl),
        "umockdev-run -d recording.umockdev -- sysdev-tree": None,
        "sysdev-tree --power /devices/platform": (article, {}, c_power),
        "sysdev-tree --json --all --root ./captured > tree.json": (None, {}, c_tree_json),
        "sysdev-tree --explain /sys/devices/virtual/net": (q35, {}, c_explain),
    }
    cmds = man_examples()
    check("the man page has EXAMPLES to run", len(cmds) >= 15, cmds)
    for cmd in cmds:
        if cmd not in table:
            check(f"an example this test knows: {cmd}", False,
                  "add it to the table of tests/cli/test_examples.py")
            continue
        entry = table[cmd]
        if entry is None:
            # umockdev-run needs a recording and LD_PRELOAD: tests/fleet/test_umockdev.py
            # runs sysdev-tree under it
            check(f"{cmd}: run by the fleet suite (tests/fleet/test_umockdev.py)",
                  os.path.exists(os.path.join(os.path.dirname(MAN), "..", "tests", "fleet",
                                              "test_umockdev.py")))
            continue
        root, subst, fn = entry
        line = cmd
        for a, b in subst.items():
            line = line.replace(a, b)
        if root:
            line = line.replace("sysdev-tree ", f"sysdev-tree --root {root} ")
        env = dict(os.environ, PATH=os.path.dirname(TOOL) + ":" + os.environ["PATH"])
        env.pop("NO_COLOR", None)
        r = subprocess.run(["bash", "-c", line], capture_output=True, timeout=300, cwd=tmp,
                           env=env)
        out = r.stdout.decode("utf-8", "replace")
        ok, detail = fn(r.returncode, out)
        check(f"{cmd}", ok, f"$ {line}\nexit {r.returncode}\n{detail}\n"
              f"{r.stderr.decode(errors='replace')}")
    for cmd in table:
        check(f"the page still shows: {cmd}", cmd in cmds)
    # what the firmware-update example is for: a change shows
    shutil.rmtree(os.path.join(tmp, "sysfs.after", "devices", "pci0000:00", "0000:00:07.0"),
                  ignore_errors=True)
    r = subprocess.run([TOOL, "--diff", os.path.join(tmp, "sysfs.before"),
                        os.path.join(tmp, "sysfs.after")], capture_output=True, timeout=300)
    check("--diff after a device went away: exit 1 and a '-' line for it",
          r.returncode == 1 and b"- /devices/pci0000:00/0000:00:07.0" in r.stdout, r.stdout[:500])


main()
sys.exit(C.summary())
