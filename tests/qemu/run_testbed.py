#!/usr/bin/env python3
"""The qemu suite: the testbed module and sysdev-tree in a QEMU guest.

Interface
---------
    run_testbed.py --mode testbed|hotplug|monitor|storm|udev --build-dir DIR
                   --cli SYSDEV_TREE [--cache DIR] [--timeout SEC] [--walks N]
                   [--smp N] [--kernel 6.1|6.12] [--montool MONTOOL]
                   [--fixture SYSDEV_FIXTURE --udev-db-tool UDEV_DB_TOOL]

--mode testbed   issue 3: golden walk of the testbed topology, whole-guest device
                 set, --stats, the latency-tolerance sequence, rmmod.
--mode udev      issue 21: systemd-udevd with the udev package's rules and hwdb
                 against --properties, libsysdev against libudev, and the
                 guest's umockdev record imported (tests/qemu/README.md).
--mode hotplug   issue 6: WALKS (--walks, default 50) walks of the whole
                 guest tree while the module is loaded and unloaded in a loop.

--kernel          which Debian kernel series the guest boots: 6.1 (bookworm's
                 default, linux-image-amd64) or 6.12 (linux-image-6.12-amd64);
                 6.12's work goes to DIR/<mode>-6.12 and DIR/module-6.12.

Steps: fetch_kernel.fetch(DIR/cache) -> build_module.build(...,
DIR/module) -> build_initramfs.build(..., guest/<mode>.sh, sysdev-tree and
its shared libraries, the module, virtio_pci and virtio_blk) -> boot.boot()
with the output disk -> the checks below, judged here on the host from
the files the guest recorded (DIR/<mode>/out) and its console
(DIR/<mode>/console.log).

Prints one line per check, `PASS: name` or `FAIL: name` (the reason
indented below it), then
`N passed, N failed`; exits 1 if any failed, 77 (skipped) when the tools
cannot be had (not root and qemu missing).
"""

import argparse
import json
import os
import re
import shlex
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree

sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import boot as bootmod  # noqa: E402
import sysdevtest as T  # noqa: E402
import build_initramfs  # noqa: E402
import build_module  # noqa: E402
import fetch_kernel  # noqa: E402

S32_MAX = 2147483647
SANITIZER_ENV = ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS",
                 "MSAN_OPTIONS", "TSAN_OPTIONS")


class Out:
    """The files the guest recorded."""

    def __init__(self, path):
        self.path = path

    def text(self, name, default=None):
        p = os.path.join(self.path, name)
        if not os.path.exists(p):
            return default
        with open(p, "rb") as f:
            return f.read().decode("utf-8", errors="replace")

    def lines(self, name):
        t = self.text(name)
        return [] if t is None else [x for x in t.splitlines() if x]

    def rc(self, step):
        t = self.text(step + ".rc")
        try:
            return int(t)
        except (TypeError, ValueError):
            return None

    def state(self, step):
        st = {}
        for line in self.lines(step + ".state"):
            k, _, v = line.partition("=")
            st[k] = v
        return st

    def json(self, step):
        """(doc, None) or (None, reason)."""
        rc = self.rc(step)
        t = self.text(step + ".out")
        if t is None:
            return None, "no output recorded"
        if rc != 0:
            return None, "exit %s, stderr: %s" % (
                rc, (self.text(step + ".err") or "").strip()[:300])
        try:
            doc = json.loads(t)
        except ValueError as e:
            return None, "invalid JSON: %s" % e
        if not isinstance(doc, dict) or not isinstance(doc.get("nodes"), list) \
                or len(doc["nodes"]) != 1:
            return None, "no single-element 'nodes' array"
        return doc, None


def nodes(node):
    yield node
    for c in node.get("children") or []:
        yield from nodes(c)


def sys_to_devpath(lines):
    return {x[len("/sys"):] for x in lines if x.startswith("/sys/")}


def find_node(root, path):
    for n in nodes(root):
        if n.get("path") == path:
            return n
    return None


DEVICE_FIELDS = ("subsystem", "subsystem_kind", "driver", "parent", "class_dir",
                 "placement", "devnum", "devtype", "devname")


def compare_node(exp, act, errors, deep):
    """Compare exp (golden) with act; with deep, attr-group children too."""
    where = exp["path"]
    if act is None:
        errors.append("%s: missing" % where)
        return
    for key in ("path", "name", "kind") + (
            DEVICE_FIELDS if exp["kind"] == "device" else ()):
        if key not in exp:
            continue
        if key not in act:
            errors.append("%s: no member %r" % (where, key))
        elif act[key] != exp[key]:
            errors.append("%s: %s is %r, want %r" % (where, key, act[key],
                                                      exp[key]))
    ec = [c["name"] for c in exp.get("children", [])]
    ac = [c.get("name") for c in act.get("children") or []]
    if ec != ac:
        errors.append("%s: children %r, want %r" % (where, ac, ec))
        return
    if deep:
        for e, a in zip(exp["children"], act["children"]):
            if e["kind"] == "attr-group":
                compare_node(e, a, errors, True)


def substitute(obj, subs):
    if isinstance(obj, dict):
        return {k: substitute(v, subs) for k, v in obj.items()}
    if isinstance(obj, list):
        return [substitute(v, subs) for v in obj]
    if isinstance(obj, str):
        for k, v in subs.items():
            obj = obj.replace(k, v)
    return obj


def expected_kinds(all_dirs, uevent_dirs, classes):
    """The kinds of sysdev(7), computed from find(1)'s view of the guest tree."""
    children = {}
    for d in all_dirs:
        children.setdefault(os.path.dirname(d), []).append(d)
    kinds = {}
    for d in sorted(all_dirs, key=lambda p: p.count("/")):
        parent = os.path.dirname(d)
        if d == "/devices":
            kinds[d] = "root"
        elif d in uevent_dirs:
            kinds[d] = "device"
        elif (os.path.basename(d) in classes
              and (kinds.get(parent) == "device" or parent == "/devices/virtual")
              and (not children.get(d)
                   or any(c in uevent_dirs for c in children[d]))):
            kinds[d] = "class-dir"
        else:
            below_device = False
            p = parent
            while p.startswith("/devices/"):
                if p in uevent_dirs:
                    below_device = True
                    break
                p = os.path.dirname(p)
            kinds[d] = "attr-group" if below_device else "container"
    return kinds


def check_walk_vs_find(c, label, root, uevent_dirs, all_dirs, classes):
    paths = [n.get("path") for n in nodes(root)]
    devs = {n.get("path") for n in nodes(root) if n.get("kind") == "device"}
    c.check("%s: device set == directories with a regular uevent file (%d)"
            % (label, len(uevent_dirs)),
            devs == uevent_dirs,
            "only in walk: %s; only with uevent: %s"
            % (sorted(devs - uevent_dirs)[:5], sorted(uevent_dirs - devs)[:5]))
    dup = sorted({p for p in paths if paths.count(p) > 1})
    c.check("%s: every directory under /sys/devices appears exactly once (%d)"
            % (label, len(all_dirs)),
            set(paths) == all_dirs and not dup,
            "duplicates %s; only in walk %s; missing %s"
            % (dup[:5], sorted(set(paths) - all_dirs)[:5],
               sorted(all_dirs - set(paths))[:5]))
    want = expected_kinds(all_dirs, uevent_dirs, classes)
    bad = ["%s is %s, want %s" % (n.get("path"), n.get("kind"),
                                  want.get(n.get("path")))
           for n in nodes(root) if want.get(n.get("path")) != n.get("kind")]
    c.check("%s: the kind of every directory follows the rules of sysdev(7)" % label,
            not bad, "; ".join(bad[:5]))


def sanitizer_check(c, out):
    reports = []
    for name in sorted(os.listdir(out.path)):
        if name.endswith(".err"):
            t = out.text(name, "")
            if re.search(r"runtime error:|AddressSanitizer|LeakSanitizer|"
                         r"UndefinedBehaviorSanitizer", t):
                reports.append(name)
    c.check("no sanitizer report in the stderr of any guest command",
            not reports, "reports in %s" % reports[:5])


KERNEL_PROBLEM = re.compile(
    r"WARNING:|BUG:|UBSAN:|Oops|general protection|refcount_t|Call Trace|"
    r"blocked for more than|INFO: task |kernel BUG|"
    r"kobject.*(not|already)|sysfs: cannot create")


def dmesg_check(c, out, console):
    """The guest's dmesg and the whole console (booted without quiet)."""
    dmesg = out.text("dmesg", "")
    bad = [line for line in dmesg.splitlines() if KERNEL_PROBLEM.search(line)]
    c.check("dmesg has no BUG, WARNING, UBSAN, hung task, Call Trace, Oops "
            "or sysfs/kobject complaint",
            dmesg != "" and not bad, "; ".join(bad[:3]) or "no dmesg recorded")
    bad = [line for line in console.splitlines()
           if KERNEL_PROBLEM.search(line)]
    c.check("console has no BUG, WARNING, UBSAN, hung task, Call Trace, Oops "
            "or sysfs/kobject complaint (%d lines)" % len(console.splitlines()),
            "Linux version" in console and not bad,
            "; ".join(bad[:3]) or "no kernel messages on the console")


def check_testbed(c, out):
    c.check("insmod sdt_testbed", out.rc("insmod") == 0,
            (out.text("insmod.err") or "").strip())

    # The golden walk.
    with open(os.path.join(HERE, "testbed.golden.json")) as f:
        golden = json.load(f)
    major = None
    section = None
    for line in out.lines("proc_devices"):
        if line.endswith(":"):
            section = line
        m = re.match(r"\s*(\d+) sdtdisk$", line)
        if m and section == "Character devices:":
            major = m.group(1)
    c.check("sdtdisk major found in /proc/devices", major is not None,
            "no 'sdtdisk' character device")
    golden = substitute(golden, {"@SDTDISK_MAJOR@": major or "?"})

    full, why = out.json("walk_all")
    c.check("sysdev-tree --json --all (whole guest) exits 0 with valid JSON",
            full is not None, why)
    root = full["nodes"][0] if full else {"path": None, "children": []}
    if full:
        c.check("walk starts at /devices, kind root",
                root.get("path") == "/devices" and root.get("kind") == "root",
                "start node %r kind %r" % (root.get("path"), root.get("kind")))

    for tree in golden["trees"]:
        for exp in nodes(tree):
            if exp["kind"] == "attr-group":
                continue
            errors = []
            compare_node(exp, find_node(root, exp["path"]), errors, True)
            desc = exp["kind"]
            if exp["kind"] == "device":
                desc += ", subsystem %s, driver %s, parent %s" % tuple(
                    json.dumps(v) for v in (
                        exp["subsystem"] and "%s (%s)" % (
                            exp["subsystem"], exp["subsystem_kind"]),
                        exp["driver"], exp["parent"]))
            c.check("golden %s [%s]: %s" % (exp["name"], exp["path"], desc),
                    not errors, "; ".join(errors[:4]))

    for tree in golden["trees"]:
        step = "start" + re.sub(r"[^A-Za-z0-9\n]", "_", tree["path"])
        doc, why = out.json(step)
        errors = []
        if doc:
            for exp in nodes(tree):
                if exp["kind"] != "attr-group":
                    compare_node(exp, find_node(doc["nodes"][0], exp["path"]),
                                 errors, True)
            if doc["nodes"][0].get("path") != tree["path"]:
                errors.insert(0, "start node is %r" % doc["nodes"][0].get("path"))
        else:
            errors.append(why)
        c.check("sysdev-tree --json --all /sys%s equals the golden subtree"
                % tree["path"], not errors, "; ".join(errors[:4]))

    classes = set(out.lines("ls_class"))
    buses = set(out.lines("ls_bus"))
    uevent = sys_to_devpath(out.lines("uevent_dirs"))
    alld = sys_to_devpath(out.lines("all_dirs")) | {"/devices"}
    if full:
        check_walk_vs_find(c, "whole guest, module loaded", root, uevent,
                           alld, classes)

    noall, why = out.json("walk_noall")
    if c.check("sysdev-tree --json (no --all) exits 0 with valid JSON",
               noall is not None, why):
        kinds = {n.get("kind") for n in nodes(noall["nodes"][0])}
        devs = {n.get("path") for n in nodes(noall["nodes"][0])
                if n.get("kind") == "device"}
        c.check("without --all: no attr-group node, the same device set",
                "attr-group" not in kinds and devs == uevent,
                "kinds %s; device set differs by %d"
                % (sorted(kinds), len(devs ^ uevent)))

    # --stats.
    both = sorted(buses & classes)
    c.check("reference: sdtcoll is both in /sys/bus and /sys/class",
            "sdtcoll" in both, "comm gives %s" % both)
    c.check("sysdev-tree --stats exits 0 and names sdtcoll",
            out.rc("stats") == 0 and "sdtcoll" in (out.text("stats.out") or ""),
            "exit %s, stderr %s" % (out.rc("stats"),
                                    (out.text("stats.err") or "").strip()[:200]))
    stats = None
    try:
        if out.rc("stats_json") == 0:
            stats = json.loads(out.text("stats_json.out"))
    except ValueError:
        pass
    names = stats.get("bus_class_names") if isinstance(stats, dict) else None
    c.check("sysdev-tree --stats --json: bus_class_names has sdtcoll and equals "
            "comm -12 <(ls /sys/bus) <(ls /sys/class)",
            names is not None and "sdtcoll" in names and sorted(names) == both,
            "got %r, want %r (exit %s)" % (names, both, out.rc("stats_json")))
    for which in ("class", "bus"):
        ref = {}
        for line in out.lines("ref_rs_" + which):
            n, _, status = line.strip().partition(" ")
            ref[status.strip()] = int(n)
        got = None
        if isinstance(stats, dict):
            got = (stats.get("runtime_status") or {}).get(which)
        c.check("sysdev-tree --stats --json: runtime_status.%s equals "
                "cat /sys/%s/*/%s/power/runtime_status | sort | uniq -c"
                % (which, which, "*" if which == "class" else "devices/*"),
                got == ref, "got %r, want %r" % (got, ref))

    if isinstance(stats, dict) and full:
        want = {}
        for kind in expected_kinds(alld, uevent, classes).values():
            want[kind] = want.get(kind, 0) + 1
        # kinds with no directory are listed with 0 (unknown: every directory is readable here)
        got = {k: v for k, v in (stats.get("kinds") or {}).items() if v}
        c.check("sysdev-tree --stats --json: kinds counts follow the rules of sysdev(7)",
                got == want, "got %r, want %r" % (got, want))

    check_latency(c, out)
    check_raw_and_driver(c, out)

    # rmmod.
    c.check("rmmod sdt_testbed", out.rc("rmmod") == 0,
            (out.text("rmmod.err") or "").strip())
    left = out.lines("left_after_rmmod") + out.lines("find_after_rmmod")
    c.check("after rmmod every testbed path is gone (sdt-host.0, sdt-2, "
            "2-0045, sdtled-orphan, sdtsys, sdtvirt, sdt-toplevel, buses, "
            "classes)", not left, "still there: %s" % left[:5])
    post, why = out.json("post_walk")
    c.check("after rmmod a new walk exits 0 with valid JSON", post is not None,
            why)
    if post:
        proot = post["nodes"][0]
        sdt = [n.get("path") for n in nodes(proot)
               if re.search(r"/(sdt|2-0045|testbed:|ep_00)", n.get("path", ""))]
        c.check("after rmmod the walk reports no testbed node", not sdt,
                "%s" % sdt[:5])
        check_walk_vs_find(c, "whole guest, module unloaded", proot,
                           sys_to_devpath(out.lines("uevent_dirs_post")),
                           sys_to_devpath(out.lines("all_dirs_post"))
                           | {"/devices"},
                           classes - {"sdtled", "sdtdisk", "sdtcoll"})
        pre, _ = out.json("pre_walk")
        if pre:
            a = {n.get("path") for n in nodes(pre["nodes"][0])}
            b = {n.get("path") for n in nodes(proot)}
            c.check("after rmmod the tree is the one before insmod",
                    a == b, "differs: %s" % sorted(a ^ b)[:5])
    check_faults(c, out)


def check_faults(c, out):
    steps = int((out.text("fault_steps") or "0").strip() or 0)
    # 9 registrations in init and 13 creations in sdt_devices_add() (the
    # 12 devices of the testbed topology and sdt-lt-early).
    c.check("fault injection: insmod succeeds only once fail_at is past the "
            "22 creation steps", steps == 23 and out.rc("fault_%d" % steps) == 0,
            "insmod succeeded at fail_at=%d (rc %s)"
            % (steps, out.rc("fault_%d" % steps)))
    for n in range(1, steps):
        left = out.lines("fault_%d.left" % n)
        c.check("fault injection at step %d: insmod fails with ENOMEM and "
                "leaves no sdt path behind" % n,
                out.rc("fault_%d" % n) not in (0, None) and not left
                and "Cannot allocate memory" in (out.text("fault_%d.err" % n) or ""),
                "rc %s, stderr %r, left %s"
                % (out.rc("fault_%d" % n),
                   (out.text("fault_%d.err" % n) or "").strip(), left[:3]))
    c.check("fault injection: afterwards /sys/devices is as before insmod",
            out.lines("all_dirs_fault") == out.lines("all_dirs_post"),
            "directories differ")


def check_latency(c, out):
    def res(step):
        return (out.rc(step), (out.text(step + ".out") or "").strip(),
                (out.text(step + ".err") or "").strip(), out.state(step))

    def eff(st):
        try:
            return int(st.get("effective"))
        except (TypeError, ValueError):
            return None

    c.check("pm_qos_latency_tolerance_us exists on 2-0045",
            out.text("lt_exists_client", "").strip() == "yes",
            "not there: set_latency_tolerance not exposed")
    c.check("pm_qos_latency_tolerance_us absent on sdt-2 (no callback)",
            out.text("lt_exists_adapter", "").strip() == "no",
            "the adapter has the file")
    for step, what in (("lt01_get_adapter", "--get-latency-tolerance"),
                       ("lt02_set_adapter", "--set-latency-tolerance 100")):
        rc, so, se, _ = res(step)
        c.check("%s on sdt-2: exit 1, message says it has no "
                "pm_qos_latency_tolerance_us" % what,
                rc == 1 and "pm_qos_latency_tolerance_us" in se
                and len(se.splitlines()) == 1,
                "exit %s, stderr %r" % (rc, se))

    def get_step(step, want_out, want_raw, want_eff, label):
        rc, so, se, st = res(step)
        e = eff(st)
        ok_eff = (e is not None and e < 0) if want_eff == "negative" \
            else e == want_eff
        c.check(label, rc == 0 and so == want_out and st.get("raw") == want_raw
                and ok_eff,
                "exit %s, printed %r (want %r), file %r (want %r), "
                "effective %r (want %s), stderr %r"
                % (rc, so, want_out, st.get("raw"), want_raw, st.get("effective"),
                   want_eff, se))

    def set_step(step, label):
        rc, so, se, _ = res(step)
        c.check(label, rc == 0, "exit %s, stderr %r" % (rc, se))

    get_step("lt03_get_initial", "auto", "auto", "negative",
             "latency 2-0045: reads auto at first, effective negative "
             "(no request at all)")
    set_step("lt04_set_100", "latency: --set-latency-tolerance 100 exits 0")
    get_step("lt05_get_100", "100", "100", 100,
             "latency: 100 round-trips (get 100, file 100, effective 100)")
    set_step("lt06_set_any", "latency: --set-latency-tolerance any exits 0")
    get_step("lt07_get_any", "any", "any", S32_MAX,
             "latency: any round-trips (get any, effective 2147483647 = S32_MAX)")
    set_step("lt08_set_auto", "latency: --set-latency-tolerance auto exits 0")
    get_step("lt09_get_auto", "auto", "auto", "negative",
             "latency: auto round-trips (get auto, effective negative: "
             "no request at all)")

    rc, _, se, st = res("lt10_kernel_50")
    c.check("latency: kernel_tolerance_us 50 (kernel request) gives effective 50",
            rc == 0 and eff(st) == 50 and st.get("kernel") == "50"
            and st.get("raw") == "auto",
            "exit %s %r, state %r" % (rc, se, st))
    set_step("lt11_set_100", "latency: user 100 with kernel 50 accepted")
    get_step("lt12_get_100", "100", "100", 50,
             "latency: kernel 50 + user 100 -> effective 50 (minimum); "
             "get via sdt:2-0045 gives 100")
    set_step("lt13_set_20", "latency: user 20 with kernel 50 accepted")
    get_step("lt14_get_20", "20", "20", 20,
             "latency: kernel 50 + user 20 -> effective 20")
    set_step("lt15_set_auto", "latency: user auto with kernel 50 accepted")
    get_step("lt16_get_auto", "auto", "auto", 50,
             "latency: kernel 50 + user auto -> effective 50 (auto leaves the "
             "kernel request)")
    rc, _, se, st = res("lt17_kernel_remove")
    c.check("latency: kernel_tolerance_us -1 removes the kernel request -> "
            "no request at all, effective negative",
            rc == 0 and eff(st) is not None and eff(st) < 0
            and st.get("kernel") == "-1",
            "exit %s %r, state %r" % (rc, se, st))
    rc, _, se, st = res("lt18_set_any")
    c.check("latency: user any alone -> effective 2147483647 (S32_MAX)",
            rc == 0 and eff(st) == S32_MAX and st.get("raw") == "any",
            "exit %s %r, state %r" % (rc, se, st))
    rc, _, se, st = res("lt19_set_100")
    c.check("latency: user 100 set before the invalid values",
            rc == 0 and eff(st) == 100 and st.get("raw") == "100",
            "exit %s %r, state %r" % (rc, se, st))
    before = st
    for step, value in (("lt20_bad_neg5", "-5"), ("lt21_bad_garbage", "garbage"),
                        ("lt22_bad_empty", ""),
                        ("lt23_bad_huge", "99999999999")):
        rc, so, se, st = res(step)
        c.check("latency: --set-latency-tolerance %r refused as bad usage: exit 2, "
                "one-line message with EINVAL, nothing changed" % value,
                rc == 2 and "EINVAL" in se and len(se.splitlines()) == 1
                and st == before,
                "exit %s, stderr %r, state %r (before %r)"
                % (rc, se, st, before))
    get_step("lt24_get_after_bad", "100", "100", 100,
             "latency: still 100 after the refused values (get, file, effective)")
    rc, _, se, st = res("lt25_set_auto")
    c.check("latency: back to auto at the end, effective negative",
            rc == 0 and st.get("raw") == "auto" and eff(st) is not None
            and eff(st) < 0,
            "exit %s %r, state %r" % (rc, se, st))


def _int(v):
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def check_raw_and_driver(c, out):
    """Issue 15: raw writes, the callback counter, kernel request updates,
    unbind/bind, sdt-lt-early (registration and flush)."""

    def res(step):
        return (out.rc(step), (out.text(step + ".err") or "").strip(),
                out.state(step))

    def calls(st):
        return _int(st.get("calls"))

    # Each step: (step, raw file, effective, calls added by this step).
    rc, se, st = res("rw01_100")
    c.check("raw: echo 100 > pm_qos_latency_tolerance_us: accepted, reads "
            "100, effective 100, one callback call",
            rc == 0 and st.get("raw") == "100" and _int(st.get("effective")) == 100
            and calls(st) is not None and calls(st) >= 1,
            "exit %s %r, state %r" % (rc, se, st))
    base = st
    n = calls(st)

    refused = (
        ("rw02_neg5", "-5\\n", "a negative number (the seed commit turned it "
         "into auto)"),
        ("rw03_neg1", "-1\\n", "-1 (the seed: auto)"),
        ("rw04_garbage", "garbage\\n", "garbage (the seed passed an "
         "uninitialised value on)"),
        ("rw05_auto_2nl", "auto\\n\\n", "auto with two newlines "
         "(sysfs_streq allows one)"),
        ("rw06_space_auto", "' auto'", "a leading space"),
        ("rw07_upper_auto", "AUTO\\n", "upper case (the comparison is exact)"),
        ("rw08_s32_over", "2147483648\\n", "S32_MAX + 1 (out of range)"),
    )
    for step, shown, why in refused:
        rc, se, st = res(step)
        c.check("raw: %s refused by the kernel: %s; write fails with EINVAL, "
                "nothing changes, no callback call" % (shown, why),
                rc not in (0, None) and "Invalid argument" in se and st == base,
                "exit %s, stderr %r, state %r (before %r)" % (rc, se, st, base))

    def accepted(step, label, raw, eff, added):
        nonlocal n
        rc, se, st = res(step)
        e = _int(st.get("effective"))
        ok_eff = (e is not None and e < 0) if eff == "negative" else e == eff
        c.check("raw: %s: reads %s, effective %s, %d callback call%s"
                % (label, raw, eff, added, "" if added == 1 else "s"),
                rc == 0 and st.get("raw") == raw and ok_eff
                and calls(st) == n + added,
                "exit %s %r, state %r, calls before %s" % (rc, se, st, n))
        if calls(st) is not None:
            n = calls(st)

    accepted("rw09_same_nonl", "100 again, without a newline (no change)",
             "100", 100, 0)
    accepted("rw10_hex_same", "0x64 is 100 (base 0; no change)", "100", 100, 0)
    accepted("rw11_hex_16", "0x10 is 16 (base 0)", "16", 16, 1)
    accepted("rw12_octal_8", "010 is 8 (base 0: octal)", "8", 8, 1)
    accepted("rw13_auto_nonl", "auto without a newline", "auto", "negative", 1)
    accepted("rw14_auto_nl", "auto with a newline, already auto (no change)",
             "auto", "negative", 0)
    accepted("rw15_any_nl", "any with a newline", "any", S32_MAX, 1)
    accepted("rw16_any_nonl", "any without a newline (no change)", "any",
             S32_MAX, 0)
    accepted("rw17_s32_max", "2147483647 is S32_MAX, which is any (no change)",
             "any", S32_MAX, 0)

    def kstep(step, label, kernel, eff, added, rc_ok=True):
        nonlocal n
        rc, se, st = res(step)
        c.check("%s: kernel %s, effective %s, %d callback call%s"
                % (label, kernel, eff, added, "" if added == 1 else "s"),
                (rc == 0) == rc_ok and st.get("kernel") == kernel
                and _int(st.get("effective")) == eff and calls(st) == n + added,
                "exit %s %r, state %r, calls before %s" % (rc, se, st, n))
        if calls(st) is not None:
            n = calls(st)

    kstep("kr01_any_kernel_50", "user any + kernel request 50 -> minimum 50",
          "50", 50, 1)
    kstep("kr02_update_30", "kernel request updated 50 -> 30", "30", 30, 1)
    kstep("kr03_same_30", "kernel request updated 30 -> 30 (no change)",
          "30", 30, 0)
    kstep("kr04_remove", "kernel request removed: back to user any", "-1",
          S32_MAX, 1)

    accepted("ub01_user_100", "100 before unbinding", "100", 100, 1)
    kstep("ub02_kernel_50", "kernel request 50 before unbinding", "50", 50, 1)
    rc, se, st = res("ub03_unbind")
    c.check("unbind sdt-client from 2-0045: the attribute is hidden, both "
            "requests dropped (1 callback call: dropping user 100 leaves the "
            "minimum at 50, dropping kernel 50 leaves none: effective -1)",
            rc == 0 and st.get("raw") == "<missing>" and st.get("driver") == ""
            and st.get("kernel") == "-1" and _int(st.get("effective")) == -1
            and calls(st) == n + 1,
            "exit %s %r, state %r, calls before %s" % (rc, se, st, n))
    n = calls(st) if calls(st) is not None else n
    rc, se, st = res("ub04_kernel_unbound")
    c.check("unbound (no callback): a kernel request is refused with EINVAL",
            rc not in (0, None) and "Invalid argument" in se
            and st.get("kernel") == "-1" and calls(st) == n,
            "exit %s %r, state %r" % (rc, se, st))
    rc, se, st = res("ub05_bind")
    c.check("bind sdt-client again: the attribute is exposed again and reads "
            "auto, no callback call",
            rc == 0 and st.get("raw") == "auto" and st.get("driver") == "sdt-client"
            and calls(st) == n,
            "exit %s %r, state %r" % (rc, se, st))

    # sdt-lt-early.
    st = out.state("el00_initial")
    c.check("sdt-lt-early (callback set before device_add, no driver): "
            "pm_qos_latency_tolerance_us exists from registration, reads auto",
            st.get("exists") == "yes" and st.get("driver") == ""
            and st.get("raw") == "auto" and st.get("calls") == "0"
            and st.get("early") == "1" and st.get("early_calls") == "0",
            "state %r" % st)
    rc, se, st = res("el01_user_70")
    c.check("sdt-lt-early: echo 70: reads 70, effective 70, 1 call",
            rc == 0 and st.get("raw") == "70" and st.get("effective") == "70"
            and st.get("calls") == "1" and st.get("early_calls") == "1",
            "exit %s %r, state %r" % (rc, se, st))
    rc, se, st = res("el02_kernel_40")
    c.check("sdt-lt-early: kernel request 40: effective 40, 2 calls",
            rc == 0 and st.get("kernel") == "40" and st.get("effective") == "40"
            and st.get("calls") == "2" and st.get("early_calls") == "2",
            "exit %s %r, state %r" % (rc, se, st))
    rc, se, st = res("el03_unregister")
    c.check("sdt-lt-early unregistered with user 70 and kernel 40 live: the "
            "device and its attribute are gone, both requests flushed (2 more "
            "callback calls, the last one negative; no request left active)",
            rc == 0 and st.get("exists") == "no" and st.get("raw") == "<missing>"
            and st.get("early") == "0" and st.get("early_calls") == "4"
            and st.get("early_effective") == "-1"
            and st.get("early_flushed") == "1",
            "exit %s %r, state %r" % (rc, se, st))
    rc, se, st = res("el04_register_again")
    c.check("sdt-lt-early registered again: the attribute is back and reads "
            "auto, no callback call",
            rc == 0 and st.get("exists") == "yes" and st.get("raw") == "auto"
            and st.get("calls") == "0" and st.get("early_calls") == "4",
            "exit %s %r, state %r" % (rc, se, st))


def check_hotplug(c, out, walks):
    """walks: what the host asked for (the guest's own count is compared to
    it, never trusted)."""
    said = out.text("walks", "").strip()
    c.check("hotplug: the guest read the %d walks the host asked for" % walks,
            said == str(walks), "guest says %r" % said)
    loaded_u = sys_to_devpath(out.lines("loaded_uevent"))
    unloaded_u = sys_to_devpath(out.lines("unloaded_uevent"))
    loaded_d = sys_to_devpath(out.lines("loaded_dirs"))
    unloaded_d = sys_to_devpath(out.lines("unloaded_dirs"))
    c.check("hotplug: references recorded (testbed devices appear when "
            "loaded, vanish when unloaded)",
            "/devices/platform/sdt-host.0/sdt-2/2-0045" in loaded_u
            and not any("sdt" in p for p in unloaded_u),
            "loaded %d, unloaded %d devices" % (len(loaded_u), len(unloaded_u)))
    cycles = int((out.text("cycles") or "0").strip() or 0)
    errors = out.lines("loop_errors")
    c.check("hotplug: insmod/rmmod loop ran (%d cycles) without a failure"
            % cycles, cycles > 0 and not errors, "; ".join(errors[:3]))
    known_u = loaded_u | unloaded_u
    known_d = loaded_d | unloaded_d | {"/devices"}
    seen_full = seen_none = seen_partial = 0
    testbed_devs = loaded_u - unloaded_u
    for i in range(1, walks + 1):
        doc, why = out.json("walk_%d" % i)
        if doc is None:
            c.check("hotplug walk %d: exit 0 with valid JSON" % i, False, why)
            continue
        all_nodes = list(nodes(doc["nodes"][0]))
        devs = {n.get("path") for n in all_nodes if n.get("kind") == "device"}
        paths = {n.get("path") for n in all_nodes}
        bad_d = sorted(devs - known_u)
        bad_p = sorted(paths - known_d)
        got = len(devs & testbed_devs)
        if got == len(testbed_devs):
            seen_full += 1
        elif got == 0:
            seen_none += 1
        else:
            seen_partial += 1
        c.check("hotplug walk %d: exit 0, valid JSON, all %d devices existed "
                "(%d testbed devices seen)" % (i, len(devs), got),
                not bad_d and not bad_p,
                "never existed: devices %s, directories %s"
                % (bad_d[:5], bad_p[:5]))
    ran = sum(1 for i in range(1, walks + 1) if out.rc("walk_%d" % i) is not None)
    c.check("hotplug: all %d walks the host asked for ran" % walks,
            walks > 0 and ran == walks, "%d ran" % ran)
    c.info("hotplug: walks saw the testbed whole %d, partly %d, not at all %d"
           % (seen_full, seen_partial, seen_none))
    c.check("hotplug: module unloaded at the end",
            not out.lines("final_loaded"), out.text("final_loaded"))


STORM_HOST = "/devices/platform/sdt-host.0"
STORM_RE = re.compile(r"^/devices/platform/sdt-host\.0/sdt_storm/(storm\d+)$")


def storm_lines(out, name):
    """A watcher's lines: (seqnum or None, action, devpath, rest) and the losses
    (count or None, first or None, last or None, evidence), in order."""
    events, losses, order = [], [], []
    for line in out.lines(name + ".out"):
        f = line.split()
        if f and f[0] == "lost" and len(f) == 4:
            cnt = None if f[1] == "-" else int(f[1])
            first, last = f[2].split("..")
            losses.append((cnt, None if first == "-" else int(first),
                           None if last == "-" else int(last), f[3]))
            order.append(("lost", losses[-1]))
        elif len(f) >= 5:
            ev = (None if f[0] == "-" else int(f[0]), f[1], f[2], f[3:])
            events.append(ev)
            order.append(("event", ev))
    return events, losses, order


def check_storm_run(c, out, name, adds, removes, small):
    rc = out.text(name + ".rc", "").strip()
    c.check("storm %s: the watcher ended with exit 0 on SIGINT" % name, rc == "0",
            "rc %r; %s" % (rc, out.text(name + ".err")))
    try:
        s0 = int(out.text(name + ".s0"))
        s1 = int(out.text(name + ".s1"))
    except (TypeError, ValueError):
        c.check("storm %s: the guest recorded the seqnum range" % name, False)
        return
    events, losses, order = storm_lines(out, name)
    want = set(range(s0 + 1, s1 + 1))
    heard = [e[0] for e in events if e[0] is not None and s0 < e[0] <= s1]
    c.check("storm %s: the burst held at least 10,000 events (%d)" % (name, s1 - s0),
            s1 - s0 >= adds + removes and adds + removes >= 10000)
    c.check("storm %s: no seqnum heard twice" % name, len(heard) == len(set(heard)))
    storm = [e for e in events if STORM_RE.match(e[2])]
    if not small:
        c.check("storm default: no loss reported", not losses, losses[:3])
        c.check("storm default: every seqnum of the burst heard, contiguous (%d of %d)"
                % (len(set(heard) & want), len(want)), set(heard) == want,
                "missing %s" % sorted(want - set(heard))[:10])
        c.check("storm default: %d adds and %d removes of storm devices heard"
                % (adds, removes),
                sum(1 for e in storm if e[1] == "add") == adds and
                sum(1 for e in storm if e[1] == "remove") == removes,
                "%d events" % len(storm))
    else:
        lost = set()
        overlap = False
        for cnt, first, last, ev in losses:
            if first is not None and last is not None:
                rng = set(range(first, last + 1))
                overlap = overlap or bool(rng & lost) or bool(rng & set(heard))
                lost |= rng
                c.check("storm small: a loss's count is its range (%s..%s: %s)"
                        % (first, last, cnt), cnt == last - first + 1)
        c.check("storm small: at least one loss reported", len(losses) >= 1)
        c.check("storm small: every loss says enobufs or seqnum",
                all(ev in ("enobufs", "seqnum") for _, _, _, ev in losses), losses)
        c.check("storm small: the losses counted exactly the missing seqnums "
                "(%d heard + %d lost = %d)" % (len(set(heard)), len(lost & want), len(want)),
                not overlap and set(heard) | (lost & want) == want and not (lost - want),
                "unaccounted %s, overlap %s" % (sorted(want - set(heard) - lost)[:10], overlap))
        c.check("storm small: a resync followed (synthesized lines)",
                any(e[0] is None and e[3][-1:] == ["synthesized"] for e in events))
        present = set(out.lines(name + ".before"))
        for kind, ev in order:
            if kind != "event":
                continue
            m = STORM_RE.match(ev[2])
            if m and ev[1] == "add":
                present.add(m.group(1))
            elif m and ev[1] == "remove":
                present.discard(m.group(1))
        after = set(out.lines(name + ".after"))
        c.check("storm small: after the resync the watcher believes present what sysfs "
                "holds (%d devices)" % len(after), present == after,
                "believed only %s, sysfs only %s" % (sorted(present - after)[:5],
                                                    sorted(after - present)[:5]))
    wrong = [e for e in storm
             if e[3][:4] != ["device", "sdt_storm", "parent=" + STORM_HOST,
                             "class_dir=sdt_storm"]]
    c.check("storm %s: every storm device's line says device sdt_storm parent=sdt-host.0 "
            "class_dir=sdt_storm (%d lines)" % (name, len(storm)), storm and not wrong,
            wrong[:3])


def check_storm(c, out):
    """The monitor in a storm: nothing lost silently, losses counted exactly."""
    errors = out.text("errors", "").strip()
    c.check("storm: the guest script met no error", not errors, errors)
    check_storm_run(c, out, "default", 6000, 4000, False)
    check_storm_run(c, out, "small", 6000, 4000, True)
    rates = {}
    for name in ("sysdev-tree", "udevadm"):
        rates[name] = []
        for k in (1, 2, 3):
            try:
                n = int(out.text("rate-%s-%d.events" % (name, k)))
                t0, t1 = (float(x) for x in out.text("rate-%s-%d.seconds" % (name, k)).split())
                rates[name].append(n / max(t1 - t0, 0.01))
            except (TypeError, ValueError):
                pass

    def median(v):
        return "%.0f" % sorted(v)[len(v) // 2] if v else "?"
    # a figure, not a pass/fail on time (tests/bench/README.md): the median of
    # three rounds that took turns, and each round
    print("BENCH storm drain under TCG: sysdev-tree --watch %s events/s, "
          "udevadm monitor -k %s events/s (medians of rounds: %s against %s)"
          % (median(rates["sysdev-tree"]), median(rates["udevadm"]),
             " ".join("%.0f" % r for r in rates["sysdev-tree"]) or "-",
             " ".join("%.0f" % r for r in rates["udevadm"]) or "-"),
          flush=True)



def check_monitor(c, out):
    """Both sources heard every testbed device come and go, in order, classified."""
    c.check("monitor: systemd-udevd started in the guest", out.text("udevd", "").strip() ==
            "started", out.text("udevd.err"))
    check_watch(c, out)
    kernel = check_events(c, out, "events", "montool.rc", "kernel")
    udev = check_events(c, out, "udev_events", "montool-udev.rc", "udev")
    c.check("monitor: udevd passed on every kernel event of a testbed device (by seqnum)",
            kernel and kernel == udev, "only kernel %s, only udev %s"
            % (sorted(kernel - udev)[:5], sorted(udev - kernel)[:5]))


def check_watch(c, out):
    """sysdev-tree --watch -J: JSON lines, the testbed's comings and goings, exit 0 on SIGINT."""
    loaded = set(out.lines("loaded_uevent"))
    testbed = {p for p in loaded if "/sdt" in p} & set(out.lines("loaded_subsystem"))
    err = out.text("watch.err", "")
    c.check("watch: sysdev-tree --watch -J exits 0 on SIGINT, its stderr one summary line "
            "with nothing dropped or lost",
            out.text("watch.rc", "").strip() == "0" and
            re.fullmatch(r"sysdev-tree: --watch: \d+ events heard, 0 synthesized, "
                         r"0 dropped, 0 lost\n", err) is not None,
            "%r %r" % (out.text("watch.rc"), err))
    evs, bad = [], []
    for line in out.lines("watch.out"):
        try:
            evs.append(json.loads(line))
        except ValueError:
            bad.append(line)
    keys = {"seqnum", "action", "devpath", "kind", "subsystem", "parent", "class_dir"}
    c.check("watch: every line is one JSON object with the seven members",
            evs and not bad and all(keys <= set(e) for e in evs), bad[:3])
    # a device can be gone before a slow reader (a sanitizer build) looks at
    # it: then its kind is null, never a wrong one
    for action in ("add", "remove"):
        mine = [e for e in evs if e.get("action") == action and e.get("devpath") in testbed]
        got = sorted(e["devpath"] for e in mine)
        want = sorted(p for p in testbed for _ in range(3))
        kinds = sorted({str(e.get("kind")) for e in mine})
        known = sum(1 for e in mine if e.get("kind") == "device")
        c.check("watch: each testbed device %s 3 times, kind device or (gone) null; %d of %d "
                "known" % ("added" if action == "add" else "removed", known, len(want)),
                got == want and set(kinds) <= {"device", "None"} and known >= len(testbed),
                "%d of %d events, kinds %s" % (len(got), len(want), kinds))


class Prefixed:
    """Checks whose names start with a prefix."""

    def __init__(self, c, prefix):
        self.c, self.prefix = c, prefix

    def check(self, name, ok, detail=""):
        return self.c.check(self.prefix + name, ok, detail)


def check_events(c, out, events, rcfile, source):
    loaded = set(out.lines("loaded_uevent"))
    # the kernel sends no uevent for a device on no bus and in no class (ep_00,
    # the bus roots sdtsys and sdtvirt): those are not expected to be heard
    testbed = {p for p in loaded if "/sdt" in p} & set(out.lines("loaded_subsystem"))
    cycles = int((out.text("cycles") or "0").strip() or 0)
    lines = out.lines(events)
    c = Prefixed(c, "monitor (%s source): " % source)
    c.check("montool ran (exit 0) and the load/unload loop too (%d cycles)" % cycles,
            out.text(rcfile, "").strip() == "0" and cycles == 3 and
            not out.lines("errors"), "%r %r" % (out.text("montool.rc"), out.lines("errors")))
    dropped = [x for x in lines if x.startswith("dropped ")]
    c.check("nothing dropped (every message came from the kernel, whole)",
            dropped == ["dropped 0"], dropped)
    evs = []
    for line in lines:
        f = line.split(" ")
        if len(f) >= 7 and f[0].isdigit():
            evs.append({"seq": int(f[0]), "action": f[1], "devpath": f[2], "kind": f[3],
                        "subsystem": f[4], "parent": f[5][len("parent="):],
                        "class_dir": f[6][len("class_dir="):]})
    if source == "kernel":
        c.check("seqnums strictly increase", all(a["seq"] < b["seq"]
                                                 for a, b in zip(evs, evs[1:])),
                [e["seq"] for e in evs][:20])
    else:
        # udevd works on unrelated devices in parallel and passes them on as
        # each is done: order holds between parents and children (checked
        # below), not in seqnum
        seqs = [e["seq"] for e in evs]
        c.check("each seqnum once", len(seqs) == len(set(seqs)), seqs[:20])
    devs = [e for e in evs if e["devpath"].startswith("/devices/")]
    for action in ("add", "remove"):
        seen = {}
        for e in devs:
            if e["action"] == action:
                seen[e["devpath"]] = seen.get(e["devpath"], 0) + 1
        want = {p: cycles for p in testbed}
        got = {p: n for p, n in seen.items() if "/sdt" in p}
        c.check("every testbed device has one %s per cycle (%d devices)"
                % (action, len(testbed)), got == want,
                "missing %s extra %s" % (sorted(set(want) - set(got))[:5],
                                         sorted((p, n) for p, n in got.items()
                                                if want.get(p) != n)[:5]))
    # no event names a device that never existed
    stray = sorted({e["devpath"] for e in devs if e["action"] in ("add", "remove") and
                    e["devpath"] not in loaded})
    c.check("no add or remove for a device the tree never held", not stray, stray[:5])
    silent = {p for p in loaded if "/sdt" in p} - testbed
    heard = sorted({e["devpath"] for e in devs} & silent)
    c.check("nothing heard of the %d testbed devices with no subsystem" % len(silent),
            silent and not heard, heard)
    # order: a parent is added before its children and removed after them
    bad = []
    first_add, last_remove = {}, {}
    for i, e in enumerate(devs):
        if e["action"] == "add":
            first_add.setdefault(e["devpath"], i)
        if e["action"] == "remove":
            last_remove[e["devpath"]] = i
    for p in testbed:
        parent = p.rsplit("/", 1)[0]
        while parent and parent not in testbed:
            parent = parent.rsplit("/", 1)[0] if "/" in parent else ""
        if parent and p in first_add and parent in first_add and first_add[parent] > first_add[p]:
            bad.append(("add", p))
        if parent and p in last_remove and parent in last_remove and \
                last_remove[parent] < last_remove[p]:
            bad.append(("remove", p))
    c.check("parents are added before their children and removed after them",
            not bad, bad[:5])
    # classification while the device exists: an add of a testbed device is a
    # device, with the nearest device directory above it as parent
    wrong = []
    for e in devs:
        if e["action"] != "add" or e["devpath"] not in testbed:
            continue
        parent = e["devpath"].rsplit("/", 1)[0]
        while parent and parent not in loaded:
            parent = parent.rsplit("/", 1)[0] if parent.count("/") > 1 else ""
        want_parent = parent if parent and parent != "/devices" else "-"
        # "-": gone before the reader looked (a slow one, under a sanitizer)
        if e["kind"] == "-" and e["parent"] == "-":
            continue
        if e["kind"] != "device" or e["parent"] != want_parent:
            wrong.append((e["devpath"], e["kind"], e["parent"], want_parent))
    classified = [e for e in devs if e["action"] == "add" and e["devpath"] in testbed and
                  e["kind"] == "device"]
    c.check("adds of testbed devices carry kind device and the right parent, or nothing "
            "once gone (%d of %d classified before they went)" % (len(classified),
                                                                  3 * len(testbed)),
            not wrong and len(classified) >= len(testbed), wrong[:5])
    # a remove says what the device was when last seen: its add's kind and parent
    last, wrong_removes, said = {}, [], 0
    for e in devs:
        if e["action"] == "add" and e["kind"] != "-":
            last[e["devpath"]] = (e["kind"], e["parent"])
        elif e["action"] == "remove" and e["devpath"] in last:
            said += 1
            if (e["kind"], e["parent"]) != last.pop(e["devpath"]):
                wrong_removes.append(e)
    c.check("removes carry the kind and parent their add said (%d removes)" % said,
            said >= len(testbed) and not wrong_removes, wrong_removes[:3])
    return {e["seq"] for e in devs if e["devpath"] in testbed}


# ---- mode udev: systemd-udevd with Debian's rules against --properties ----

OURS_PREFIX = "SYSDEV_"
DISK_UUID = "5d7e2b1c-53d7-4a9e-9c1e-0b5e6f3a2d41"
DISK_LABEL = "sdtlabel"
UDEV_SETS = ("DEVLINKS", "TAGS", "CURRENT_TAGS")


def unescape_text(v):
    """Undo the text output's escapes (a backslash as \\\\, a byte as \\xHH)."""
    return re.sub(rb"\\(\\|x([0-9a-fA-F]{2}))",
                  lambda m: b"\\" if m.group(1) == b"\\" else bytes([int(m.group(2), 16)]),
                  v.encode("utf-8", "surrogateescape")).decode("utf-8", "surrogateescape")


def export_blocks(text):
    """udevadm info --export-db: devpath -> {"E": {...}, "S": [...]}."""
    devs, cur = {}, None
    for line in text.splitlines():
        if line.startswith("P: "):
            cur = devs.setdefault(line[3:], {"E": {}, "S": []})
        elif cur is not None and line.startswith("E: "):
            k, _, v = line[3:].partition("=")
            cur["E"][k] = v
        elif cur is not None and line.startswith("S: "):
            cur["S"].append("/dev/" + line[3:])
    return devs


def property_blocks(text):
    """sysdev-tree --properties: devpath -> {KEY: VALUE} (escapes undone)."""
    devs = {}
    for block in text.split("\n\n"):
        props = {}
        for line in block.splitlines():
            if "=" in line:
                k, _, v = line.partition("=")
                props[k] = unescape_text(v)
        if "DEVPATH" in props:
            devs[props["DEVPATH"]] = props
    return devs


def udev_view(props, initialized):
    """The keys udevadm prints: ours left out, the hwdb's names kept only where
    udev initialized the device (ours come from the hwdb otherwise); the
    space- and colon-separated lists as sets."""
    out = {}
    for k, v in props.items():
        if k.startswith(OURS_PREFIX) or (k.endswith("_FROM_DATABASE") and not initialized):
            continue
        out[k] = sorted(x for x in v.split(" " if k == "DEVLINKS" else ":") if x) \
            if k in UDEV_SETS else v
    return out


def parse_dump(text):
    """udev-db-tool's dump: devpath -> {"I": [...], "L", "T", "C": [...], "E": {...}}."""
    devs, cur = {}, None
    for line in text.splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "D":
            cur = devs.setdefault(rest, {"I": [], "L": [], "T": [], "C": [], "E": {}})
        elif cur is None:
            continue
        elif kind == "E":
            k, _, v = rest.partition("=")
            cur["E"][k] = v
        elif kind in "ILTC":
            cur[kind].append(rest)
    return devs


def diff(a, b):
    return {k: (a.get(k), b.get(k)) for k in set(a) | set(b) if a.get(k) != b.get(k)}


def check_udev(c, out, cli, fixture, work):
    c.check("udev: systemd-udevd started and settled, nothing failed in the guest",
            out.text("errors", "x").strip() == "", (out.text("errors"), out.text("udevd.err")))
    export = export_blocks(out.text("export-db", ""))
    ours = property_blocks(out.text("properties", ""))
    initialized = {p for p, d in export.items() if "USEC_INITIALIZED" in d["E"]}
    c.check("udev: udevadm info --export-db and sysdev-tree --properties exit 0",
            out.text("export-db.rc", "").strip() == "0" and
            out.text("properties.rc", "").strip() == "0", out.text("properties.err"))
    listed = {p for p, d in export.items() if "SUBSYSTEM" in d["E"]}
    c.check(f"udev: --properties has a block for every device udev lists ({len(listed)})",
            listed and listed <= set(ours), sorted(listed - set(ours))[:5])
    bad = []
    for p in sorted(listed & set(ours)):
        d = diff(udev_view(ours[p], p in initialized), udev_view(export[p]["E"], True))
        if d:
            bad.append((p, d))
    c.check(f"udev: --properties of each of {len(listed & set(ours))} devices is what "
            "udevadm info --export-db prints (our SYSDEV_ keys aside)", not bad, bad[:3])
    # the disk the host made: links, serial, file system, as udev has them
    disk_u = dict(line.split("=", 1) for line in out.lines("disk.udevadm") if "=" in line)
    disk_s = property_blocks(out.text("disk.sysdev", ""))
    disk_s = next(iter(disk_s.values()), {})
    links = disk_u.get("DEVLINKS", "").split()
    c.check("udev: the disk's links (by-id, by-path, by-uuid, by-label) are udev's",
            any("/by-id/virtio-sdtdisk" == x[-len("/by-id/virtio-sdtdisk"):] for x in links) and
            any("/by-uuid/" + DISK_UUID in x for x in links) and
            any("/by-label/" + DISK_LABEL in x for x in links) and
            any("/by-path/" in x for x in links), links)
    c.check("udev: ID_FS_TYPE, ID_FS_UUID, ID_FS_LABEL and ID_SERIAL of the disk as the host "
            "made it", disk_u.get("ID_FS_TYPE") == "ext4" and
            disk_u.get("ID_FS_UUID") == DISK_UUID and disk_u.get("ID_FS_LABEL") == DISK_LABEL
            and disk_u.get("ID_SERIAL") == "sdtdisk", disk_u)
    c.check("udev: sysdev-tree --properties DISK equals udevadm info -q property DISK",
            out.text("disk.rc", "").strip() == "0" and
            not diff(udev_view(disk_s, True), udev_view(disk_u, True)),
            (out.text("disk.err"), diff(udev_view(disk_s, True), udev_view(disk_u, True))))
    by = property_blocks(out.text("bylink.sysdev", ""))
    c.check("udev: a DEVICE given as /dev/disk/by-id/virtio-sdtdisk is the disk",
            out.text("bylink.rc", "").strip() == "0" and
            [b.get("DEVNAME") for b in by.values()] == [disk_u.get("DEVNAME")],
            (out.text("bylink.err"), list(by)))
    rows = []
    try:
        rows = json.loads(out.text("list.json", ""))["devices"]
    except ValueError:
        pass
    row = next((r for r in rows if r.get("devpath") == disk_u.get("DEVPATH")), {})
    # libudev against libsysdev on udevd's own database, device by device
    du, ds = parse_dump(out.text("udev.dump", "")), parse_dump(out.text("sysdev.dump", ""))
    bad = {k: [] for k in "ILTCE"}
    for p in sorted(set(du) & set(ds)):
        for k in "ILTC":
            if sorted(du[p][k]) != sorted(ds[p][k]):
                bad[k].append((p, ds[p][k], du[p][k]))
        # DEVLINKS, TAGS, CURRENT_TAGS as sets: libudev joins them in its hash order
        d = diff(udev_view(ds[p]["E"], True), udev_view(du[p]["E"], True))
        if d:
            bad["E"].append((p, d))
    c.check(f"udev: libsysdev and libudev list the same {len(du)} devices",
            out.text("udev.dump.rc", "").strip() == "0" and
            out.text("sysdev.dump.rc", "").strip() == "0" and du and set(du) == set(ds),
            (sorted(set(du) ^ set(ds))[:5], out.text("sysdev.dump.err")))
    n_init = sum(1 for d in du.values() if d["I"] == ["1"])
    for k, what in (("I", f"is_initialized ({n_init} initialized)"), ("L", "links"),
                    ("T", "tags"), ("C", "current tags"), ("E", "properties")):
        c.check(f"udev: {what} of every device equal libudev's", not bad[k], bad[k][:3])
    ours_init = {r["devpath"] for r in rows if r.get("initialized") == "1"}
    udev_init = {p for p, d in du.items() if d["I"] == ["1"]}
    c.check(f"udev: the INITIALIZED column is 1 for exactly libudev's {len(udev_init)} "
            "initialized devices", udev_init and disk_u.get("DEVPATH") in udev_init and
            ours_init & set(du) == udev_init,
            (sorted(ours_init & set(du) - udev_init)[:3], sorted(udev_init - ours_init)[:3]))
    c.check("udev: -l -J columns of the disk: SYMLINKS (an array), SERIAL, FSTYPE, UUID, "
            "LABEL, ID_PATH, INITIALIZED, TAGS as udev has them",
            sorted(row.get("symlinks") or []) == sorted(links) and
            row.get("serial") == "sdtdisk" and row.get("fstype") == "ext4" and
            row.get("uuid") == DISK_UUID and row.get("label") == DISK_LABEL and
            row.get("id_path") == disk_u.get("ID_PATH") and row.get("initialized") == "1" and
            row.get("tags") == disk_u.get("TAGS"), (row, out.text("list.err")))
    # the guest's umockdev record, imported on the host, answers the same
    rec = os.path.join(out.path, "record.umockdev")
    if not c.check("udev: umockdev-record --all of the guest ran",
                   out.text("record.rc", "").strip() == "0" and os.path.exists(rec) and
                   os.path.getsize(rec) > 0,
                   out.text("record.err")):
        return
    tree = os.path.join(work, "imported")
    if os.path.isdir(tree):
        import shutil
        shutil.rmtree(tree)
    r = T.run([fixture, "import", rec, tree], timeout=600)
    if not c.check("udev: sysdev-fixture import of the guest's record exits 0",
                   r.returncode == 0, r.stderr[-400:]):
        return
    r = T.run([cli, "--root", tree, "--properties"], timeout=600)
    again = property_blocks(r.stdout.decode("utf-8", "surrogateescape"))
    bad = []
    for p in sorted(listed):
        if p not in again:
            bad.append((p, "missing"))
            continue
        # a umockdev record leaves out USEC_INITIALIZED, so the imported devices are
        # not initialized: the hwdb's names are ours there, and left out on both sides
        theirs = udev_view(export[p]["E"], False)
        theirs.pop("USEC_INITIALIZED", None)
        d = diff(udev_view(again[p], False), theirs)
        if d:
            bad.append((p, d))
    c.check(f"udev: the imported record: --properties of each of {len(listed)} devices "
            "udev listed in the guest is what its udevadm printed (USEC_INITIALIZED and the "
            "hwdb's names aside: the record has no initialization)", r.returncode == 0 and
            not bad, (r.stderr[-300:], bad[:3]))


def udev_binaries():
    """systemd-udevd, udevadm, the udev package's helper programs its rules run,
    and umockdev-record, from the host (Debian's packages)."""
    bins = ["/usr/lib/systemd/systemd-udevd", "/usr/bin/udevadm"]
    for name in ("ata_id", "scsi_id", "cdrom_id"):
        if os.path.exists("/usr/lib/udev/" + name):
            bins.append("/usr/lib/udev/" + name)
    for b in ("/usr/bin/umockdev-record",):
        if os.path.exists(b):
            bins.append(b)
    return [b + ":" + b for b in bins]


def udev_files():
    """The udev package's rules and compiled hwdb."""
    files = []
    rules = "/usr/lib/udev/rules.d"
    for name in sorted(os.listdir(rules)):
        if name.endswith(".rules"):
            files.append(os.path.join(rules, name) + ":" + os.path.join(rules, name))
    for hw in ("/usr/lib/udev/hwdb.bin", "/etc/udev/hwdb.bin"):
        if os.path.exists(hw):
            files.append(hw + ":" + hw)
    return files


def udev_disk(work):
    """A 16 MiB disk with an ext4 file system of a known UUID and label, attached
    as a virtio disk with serial sdtdisk."""
    img = os.path.join(work, "sdtdisk.img")
    with open(img, "wb") as f:
        f.truncate(16 << 20)
    mke2fs = next((p for p in ("/usr/sbin/mke2fs", "/sbin/mke2fs") if os.path.exists(p)),
                  "mke2fs")
    r = T.run([mke2fs, "-q", "-F", "-t", "ext4", "-L", DISK_LABEL, "-U", DISK_UUID, img],
              timeout=120)
    if r.returncode != 0:
        raise SystemExit("mke2fs failed: %s" % r.stderr.decode(errors="replace"))
    return ["-drive", "file=%s,if=none,format=raw,id=sdtdisk,readonly=on" % img,
            "-device", "virtio-blk-pci,drive=sdtdisk,serial=sdtdisk"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", choices=("testbed", "hotplug", "monitor", "storm", "udev"),
                    required=True)
    ap.add_argument("--montool", help="tests/enumerate/montool (mode monitor)")
    ap.add_argument("--fixture", help="sysdev-fixture (mode udev)")
    ap.add_argument("--udev-db-tool", help="tests/udev/udev-db-tool (mode udev)")
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--cache")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--walks", type=int, default=50)
    ap.add_argument("--smp", type=int)
    ap.add_argument("--kernel", choices=sorted(fetch_kernel.SERIES),
                    default=fetch_kernel.DEFAULT_SERIES)
    args = ap.parse_args()
    suffix = ("" if args.kernel == fetch_kernel.DEFAULT_SERIES
              else "-" + args.kernel)

    build_dir = os.path.abspath(args.build_dir)
    cache = args.cache or os.path.join(build_dir, "cache")
    work = os.path.join(build_dir, args.mode + suffix)
    os.makedirs(work, exist_ok=True)
    t0 = time.monotonic()

    if os.geteuid() != 0 and not fetch_kernel.host_tools_present():
        print("SKIP: qemu-system-x86_64, gcc-12 or make missing and not root")
        return 77
    if not os.access(args.cli, os.X_OK):
        print("FAIL: sysdev-tree not found at %s" % args.cli)
        print("0 passed, 1 failed")
        return 1

    info = fetch_kernel.fetch(cache, series=args.kernel)
    kos = build_module.build(info["kdir"], os.path.join(HERE, "testbed"),
                             os.path.join(build_dir, "module" + suffix))
    initrd = os.path.join(work, "initrd.cpio.gz")
    # Sanitizer settings of the test environment apply in the guest too.
    env_file = os.path.join(work, "guest-env")
    with open(env_file, "w") as f:
        for key in SANITIZER_ENV:
            if key in os.environ:
                f.write("export %s=%s\n" % (key, shlex.quote(os.environ[key])))
    build_initramfs.build(info, initrd,
                          os.path.join(HERE, "guest", args.mode + ".sh"),
                          modules=["virtio_pci", "virtio_blk"], kos=kos,
                          binaries=[args.cli + ":/usr/bin/sysdev-tree"] +
                          ([args.montool + ":/usr/bin/montool",
                            "/usr/lib/systemd/systemd-udevd:/usr/lib/systemd/systemd-udevd",
                            "/usr/bin/udevadm:/usr/bin/udevadm"]
                           if args.mode == "monitor" else []) +
                          (["/usr/bin/udevadm:/usr/bin/udevadm"] if args.mode == "storm" else []) +
                          (udev_binaries() + [args.udev_db_tool + ":/usr/bin/udev-db-tool"]
                           if args.mode == "udev" else []),
                          files=[env_file + ":/etc/guest-env"] +
                          (udev_files() if args.mode == "udev" else []))
    qemu_args = udev_disk(work) if args.mode == "udev" else []
    t_prep = time.monotonic() - t0
    smp = args.smp or (2 if args.mode == "hotplug" else 1)
    append = "sdt.walks=%d" % args.walks if args.mode == "hotplug" else ""
    # Without quiet: every kernel message reaches the console log too.
    res = bootmod.boot(info["vmlinuz"], initrd, timeout=args.timeout,
                       out_dir=work, smp=smp, append=append, quiet=False,
                       qemu_args=qemu_args)

    with open(res["log"], "rb") as f:
        console = f.read().decode("utf-8", errors="replace")
    print("----- guest console (%s) -----" % res["log"])
    print("\n".join(line for line in console.replace("\r", "").splitlines()
                    if not line.startswith("\x1b")))
    print("----- end of console -----")
    print("kernel %s, preparation %.1f s, boot+guest %.1f s"
          % (info["kver"], t_prep, res["seconds"]), flush=True)

    c = T.Checker()
    c.check("guest ran to the end within %d s (@@SDT-DONE, no timeout)"
            % args.timeout, res["done"] and not res["timed_out"],
            "qemu exit %s, timed out %s" % (res["rc"], res["timed_out"]))
    if res["out"] is None:
        c.check("guest output shipped to the host", False, "nothing unpacked")
        return c.summary()
    out = Out(res["out"])
    c.check("guest script exit status 0", res["guest_rc"] == 0,
            "rc %s" % res["guest_rc"])
    if args.mode == "testbed":
        version = (out.text("proc_version") or "").strip()
        c.check("the guest ran the %s kernel that was fetched (%s)"
                % (args.kernel, info["kver"]),
                version.startswith("Linux version %s " % info["kver"])
                and info["kver"].startswith(args.kernel + "."),
                "/proc/version: %r" % version[:80])
        check_testbed(c, out)
    elif args.mode == "monitor":
        check_monitor(c, out)
    elif args.mode == "storm":
        check_storm(c, out)
    elif args.mode == "udev":
        check_udev(c, out, args.cli, args.fixture, work)
    else:
        check_hotplug(c, out, args.walks)
    dmesg_check(c, out, console.replace("\r", ""))
    sanitizer_check(c, out)
    return c.summary()


if __name__ == "__main__":
    sys.exit(main())
