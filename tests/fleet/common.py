# SPDX-License-Identifier: LGPL-2.1-or-later
"""Shared helpers of the fleet tests: the checker, the oracle's counts, the exposition parser."""
import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fixtures"))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import sysfs_oracle  # noqa: E402
import sysdevtest as T  # noqa: E402

# the checks of every fleet test, counted together (one test per process)
C = T.Checker()


def oracle_counts(root):
    """Independent counts from the filesystem (the oracle shares no code with the tool)."""
    nodes = sysfs_oracle.classify(root)
    devices, kinds = {}, {}
    for n in nodes.values():
        kinds[n["kind"]] = kinds.get(n["kind"], 0) + 1
        if n["kind"] == "device":
            key = (n["subsystem"] or "", n["subsystem_kind"] or "")
            devices[key] = devices.get(key, 0) + 1
    bus = set(os.listdir(os.path.join(root, "bus"))) if os.path.isdir(os.path.join(root, "bus")) else set()
    cls = set(os.listdir(os.path.join(root, "class"))) if os.path.isdir(os.path.join(root, "class")) else set()
    # the article's own pipelines, as sysdev(7) defines the measurement: cat
    # joins a file without a final newline to the next one, and so does --stats
    status = {}
    for kind, pattern in (("class", "class/*/*/power/runtime_status"),
                          ("bus", "bus/*/devices/*/power/runtime_status")):
        out = subprocess.run(["bash", "-c", 'cat "$1"/' + pattern + ' 2>/dev/null | sort | uniq -c',
                              "-", root], capture_output=True,
                             env=dict(os.environ, LC_ALL="C")).stdout
        for line in out.decode("utf-8", "surrogateescape").splitlines():
            n, _, value = line.strip().partition(" ")
            status[(kind, value)] = status.get((kind, value), 0) + int(n)
    lt = {}
    for devpath, n in nodes.items():
        if n["kind"] != "device":
            continue
        f = os.path.join(root, devpath.lstrip("/"), "power", "pm_qos_latency_tolerance_us")
        if os.path.isfile(f) and not os.path.islink(f):
            text = open(f).read().strip()
            if text == "auto":
                lt[devpath] = -1.0
            elif text == "any":
                lt[devpath] = 2147.483647
            elif text.isdigit():
                lt[devpath] = int(text) / 1e6
    return {"devices": devices, "kinds": kinds, "bus_class_names": len(bus & cls),
            "runtime_status": status, "latency": lt}


def unescape_label(v):
    out, i = [], 0
    while i < len(v):
        if v[i] == "\\" and i + 1 < len(v):
            out.append({"\\": "\\", '"': '"', "n": "\n"}[v[i + 1]])
            i += 2
        else:
            out.append(v[i])
            i += 1
    return "".join(out)


def parse_exposition(text, prefix="sysdev_"):
    """{family: {labels-tuple: value}} for the samples whose name starts with prefix,
    and the set of families declared by '# TYPE'."""
    samples, types = {}, {}
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, typ = line.split(" ", 3)
            types[name] = typ
            continue
        if not line or line.startswith("#") or not line.startswith(prefix):
            continue
        if "{" in line:
            name, rest = line.split("{", 1)
            labels_s, value = rest.rsplit("} ", 1)
            labels, i = [], 0
            while i < len(labels_s):
                eq = labels_s.index("=", i)
                key = labels_s[i:eq]
                j = eq + 2
                buf = []
                while labels_s[j] != '"':
                    if labels_s[j] == "\\":
                        buf.append(labels_s[j:j + 2])
                        j += 2
                    else:
                        buf.append(labels_s[j])
                        j += 1
                labels.append((key, unescape_label("".join(buf))))
                i = j + 1
                if i < len(labels_s) and labels_s[i] == ",":
                    i += 1
            labels = tuple(sorted(labels))
        else:
            name, value = line.split(" ", 1)
            labels = ()
        samples.setdefault(name, {})[labels] = float(value.split(" ")[0])
    return samples, types


def compare_metrics(label, samples, expect):
    """Compare parsed sysdev_ samples with the oracle's counts."""
    got_dev = {(dict(k)["subsystem"], dict(k)["subsystem_kind"]): v
               for k, v in samples.get("sysdev_devices", {}).items()}
    want_dev = {k: float(v) for k, v in expect["devices"].items()}
    C.check(label + ": sysdev_devices by subsystem and kind equal the filesystem's", got_dev == want_dev,
            "only in output: %s; only in filesystem: %s" % (
                {k: v for k, v in got_dev.items() if want_dev.get(k) != v},
                {k: v for k, v in want_dev.items() if got_dev.get(k) != v}))
    got_kinds = {dict(k)["kind"]: v for k, v in samples.get("sysdev_directories", {}).items()}
    want_kinds = {k: float(expect["kinds"].get(k, 0)) for k in
                  ("root", "container", "device", "class-dir", "attr-group", "unknown")}
    C.check(label + ": sysdev_directories by kind", got_kinds == want_kinds, (got_kinds, want_kinds))
    C.check(label + ": sysdev_bus_class_names",
            samples.get("sysdev_bus_class_names", {}).get(()) == expect["bus_class_names"],
            (samples.get("sysdev_bus_class_names"), expect["bus_class_names"]))
    got_st = {(dict(k)["subsystem_kind"], dict(k)["status"]): v
              for k, v in samples.get("sysdev_runtime_status_devices", {}).items()}
    want_st = {k: float(v) for k, v in expect["runtime_status"].items()}
    C.check(label + ": sysdev_runtime_status_devices", got_st == want_st, (got_st, want_st))
    got_lt = {dict(k)["devpath"]: v for k, v in samples.get("sysdev_latency_tolerance_seconds", {}).items()}
    C.check(label + ": sysdev_latency_tolerance_seconds", got_lt == expect["latency"],
            (got_lt, expect["latency"]))
    errs = {dict(k)["what"]: v for k, v in samples.get("sysdev_walk_errors", {}).items()}
    C.check(label + ": sysdev_walk_errors are 0",
            errs == {"unreadable": 0.0, "vanished": 0.0, "too_deep": 0.0}, errs)
    dur = samples.get("sysdev_walk_duration_seconds", {}).get(())
    C.check(label + ": sysdev_walk_duration_seconds present", dur is not None and dur >= 0, dur)
