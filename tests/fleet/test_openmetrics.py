#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""sysdev-tree --stats --format=openmetrics, checked with the real components.

- promtool check metrics (Debian's prometheus package) passes on the output
  of every fixture and of the live /sys;
- the numbers equal a hand-written expectation on the article's tree, and
  an independent count from the filesystem (tests/fixtures/sysfs_oracle.py)
  on every fixture;
- the example systemd service (built from tools/sysdev-textfile.service.in)
  passes systemd-analyze verify, and its ExecStart, run as systemd would run
  it, writes the file atomically into a textfile directory;
- Debian's prometheus-node-exporter, started on 127.0.0.1 (a free port) with
  only the textfile collector on that directory, serves the sysdev_
  families over HTTP with the expected values.

Usage: test_openmetrics.py SYSDEV_TREE SYSDEV_FIXTURE FIXTURES_DIR SERVICE TIMER
"""
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from common import C, oracle_counts, parse_exposition, compare_metrics  # noqa: E402
import sysdevtest as T  # noqa: E402  (common.py puts tests/lib on the path)

TREE, FIXTURE, FIXTURES, SERVICE, TIMER = sys.argv[1:6]

# The article's tree (article() in tests/lib/sysdevtest/tree.py), counted by hand from that function.
ARTICLE = {
    "devices": {("", ""): 3, ("platform", "bus"): 1, ("i2c", "bus"): 2, ("leds", "class"): 2,
                ("block", "class"): 2, ("net", "class"): 1, ("cpu", "bus"): 1, ("mei", "bus"): 1},
    "kinds": {"root": 1, "container": 3, "device": 13, "class-dir": 4, "attr-group": 20},
    "bus_class_names": 1,
    "runtime_status": {("class", "unsupported"): 5, ("bus", "active"): 1,
                       ("bus", "suspended"): 1, ("bus", "unsupported"): 3},
    "latency": {"/devices/platform/omap_i2c.2/i2c-2/2-0045": -1.0},
}


def promtool(label, text):
    p = subprocess.run(["promtool", "check", "metrics"], input=text.encode(), capture_output=True)
    C.check(label + ": promtool check metrics passes", p.returncode == 0,
            (p.stdout + p.stderr).decode(errors="replace")[:2000])


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def scrape(port, deadline):
    while True:
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=5) as r:
                return r.read().decode()
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def exec_start(service):
    """The service's ExecStart as systemd runs it: $$ is a literal $."""
    for line in open(service):
        if line.startswith("ExecStart="):
            return shlex.split(line[len("ExecStart="):].strip().replace("$$", "$"))
    raise SystemExit("no ExecStart in " + service)


def main():
    tmp = tempfile.mkdtemp(prefix="sysdev-om.")
    try:
        # 1. the article's tree, by hand
        art = os.path.join(tmp, "article")
        T.article(art)
        rc, out, err = T.run3([TREE, "--root", art, "--stats", "--format=openmetrics"], timeout=300)
        C.check("article: exit 0", rc == 0, err)
        C.check("article: ends with # EOF", out.endswith("# EOF\n"), out[-40:])
        promtool("article", out)
        samples, types = parse_exposition(out)
        C.check("article: every family is a gauge",
                all(types.get(f) == "gauge" for f in samples) and len(types) == 7, types)
        compare_metrics("article (hand-written)", samples, ARTICLE)

        # 1b. latency samples in byte order of devpath, whatever the walk's order: the walk
        # enters p/c before p-2, and byte order puts "-" (0x2d) before "/" (0x2f)
        lt = os.path.join(tmp, "latency")
        t = T.Tree(lt)
        t.dirs("bus", "class")
        want = [("/devices/platform/p", "5"), ("/devices/platform/p-2", "any"),
                ("/devices/platform/p/c", "auto")]
        t.device("/devices/platform")
        for devpath, value in sorted(want, key=lambda x: x[0].replace("-", "~")):
            t.device(devpath)
            t.file(devpath[1:] + "/power/pm_qos_latency_tolerance_us", value + "\n")
        rc, out, err = T.run3([TREE, "--root", lt, "--stats", "--format=openmetrics"], timeout=300)
        got = [line.split('"')[1] for line in out.splitlines()
               if line.startswith("sysdev_latency_tolerance_seconds{")]
        C.check("latency samples in devpath byte order", rc == 0 and got == [d for d, _ in want],
                (got, err))

        # 1c. a devpath label of every UTF-8 length kept as it is, and bytes that are
        # not UTF-8 (a lone continuation, an overlong form, a surrogate, a cut
        # sequence) written \\xHH: the file stays UTF-8 and promtool reads it
        u8 = os.path.join(tmp, "utf8")
        t = T.Tree(u8)
        t.dirs("bus", "class")
        t.device("/devices/platform")
        names = {"d\u00e9": "d\u00e9", "\u20ac": "\u20ac", "\U0001f600": "\U0001f600",
                 b"x\x80": "x\\\\x80", b"o\xc0\xaf": "o\\\\xc0\\\\xaf",
                 b"s\xed\xa0\x80": "s\\\\xed\\\\xa0\\\\x80", b"c\xe2\x82": "c\\\\xe2\\\\x82",
                 # a space and "~" are printable and kept; the control bytes below
                 # and DEL are written \\xHH
                 "a b~": "a b~", b"t\x1f": "t\\\\x1f", b"q\x7f": "q\\\\x7f"}
        for name in names:
            dp = b"devices/platform/" + (name if isinstance(name, bytes) else name.encode())
            t.device(b"/" + dp)
            t.file(dp + b"/power/pm_qos_latency_tolerance_us", "auto\n")
        rc, out, err = T.run3([TREE, "--root", u8, "--stats", "--format=openmetrics"], timeout=300)
        labels = sorted(line.split('{devpath="')[1].split('"}')[0] for line in out.splitlines()
                        if line.startswith("sysdev_latency_tolerance_seconds{"))
        want = sorted("/devices/platform/" + v for v in names.values())
        C.check("label values: UTF-8 of 2, 3 and 4 bytes and printable ASCII (a space) kept, "
                "other bytes as \\\\xHH",
                rc == 0 and labels == want, (labels, want, err))
        promtool("utf8 labels", out)

        # 2. every fixture, against the filesystem
        for name in sorted(os.listdir(FIXTURES)):
            if not name.endswith(".sysfs"):
                continue
            d = os.path.join(tmp, "fx-" + name[:-6])
            rc, _, err = T.run3([FIXTURE, "unpack", os.path.join(FIXTURES, name), d], timeout=300)
            C.check(name + ": unpacks", rc == 0, err)
            rc, out, err = T.run3([TREE, "--root", d, "--stats", "--format=openmetrics"], timeout=300)
            C.check(name + ": exit 0", rc == 0, err)
            promtool(name, out)
            compare_metrics(name, parse_exposition(out)[0], oracle_counts(d))
            # the archive itself as --root gives the same numbers
            rc, out2, err = T.run3([TREE, "--root", os.path.join(FIXTURES, name), "--stats",
                                    "--format=openmetrics"], timeout=300)
            strip = lambda t: [line for line in t.splitlines() if "walk_duration" not in line]
            C.check(name + ": the archive as --root gives the same metrics",
                    rc == 0 and strip(out) == strip(out2), err)
            shutil.rmtree(d, ignore_errors=True)

        # 3. the live /sys passes promtool (values change while it runs)
        rc, out, err = T.run3([TREE, "--stats", "--format=openmetrics"], timeout=300)
        C.check("live /sys: exit 0", rc == 0, err)
        promtool("live /sys", out)

        # 4. the systemd example: verify, then run its ExecStart
        units = os.path.join(tmp, "units")
        os.mkdir(units)
        shutil.copy(SERVICE, units)
        shutil.copy(TIMER, units)
        p = subprocess.run(["systemd-analyze", "verify", "--man=no",
                            os.path.join(units, os.path.basename(SERVICE)),
                            os.path.join(units, os.path.basename(TIMER))],
                           capture_output=True)
        C.check("systemd-analyze verify passes on the service and timer", p.returncode == 0,
                (p.stdout + p.stderr).decode(errors="replace"))
        textdir = os.path.join(tmp, "textfile")
        os.mkdir(textdir)
        argv = exec_start(SERVICE)
        C.check("the service runs sysdev-tree --stats --format=openmetrics",
                "sysdev-tree --stats --format=openmetrics" in argv[-1], argv)
        bindir = os.path.join(tmp, "bin")
        os.mkdir(bindir)
        # the unit names the installed path: point it at the built program on the article tree
        wrapper = os.path.join(bindir, "sysdev-tree")
        with open(wrapper, "w") as f:
            f.write("#!/bin/sh\nexec %s --root %s \"$@\"\n" % (shlex.quote(os.path.abspath(TREE)),
                                                         shlex.quote(art)))
        os.chmod(wrapper, 0o755)
        script = argv[-1]
        prog = script.split(" --stats")[0].split()[-1]
        argv[-1] = script.replace(prog, shlex.quote(wrapper))
        env = dict(os.environ, TEXTFILE_DIR=textdir)
        p = subprocess.run(argv, env=env, capture_output=True)
        C.check("the service's command exits 0", p.returncode == 0, p.stderr.decode(errors="replace"))
        C.check("it leaves exactly sysdev.prom (no temporary file)",
                os.listdir(textdir) == ["sysdev.prom"], os.listdir(textdir))
        # a failing run keeps the old file and leaves no temporary file behind
        old = open(os.path.join(textdir, "sysdev.prom")).read()
        with open(wrapper, "w") as f:
            f.write("#!/bin/sh\necho '# HELP half' ; exit 1\n")
        p = subprocess.run(argv, env=env, capture_output=True)
        C.check("a failing run exits non-zero", p.returncode != 0)
        C.check("a failing run keeps the old file and no temporary one",
                os.listdir(textdir) == ["sysdev.prom"]
                and open(os.path.join(textdir, "sysdev.prom")).read() == old, os.listdir(textdir))

        # 5. node_exporter serves it over loopback
        exporter = shutil.which("prometheus-node-exporter") or shutil.which("node_exporter")
        C.check("prometheus-node-exporter is installed", exporter is not None)
        if exporter:
            for attempt in range(5):
                port = free_port()
                proc = subprocess.Popen([exporter, "--web.listen-address=127.0.0.1:%d" % port,
                                         "--collector.disable-defaults", "--collector.textfile",
                                         "--collector.textfile.directory=" + textdir],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                try:
                    body = scrape(port, time.monotonic() + 30)
                    break
                except OSError:
                    body = None
                finally:
                    proc.terminate()
                    proc.wait(timeout=30)
            C.check("node_exporter answered on 127.0.0.1", body is not None)
            if body:
                samples, types = parse_exposition(body)
                errs = parse_exposition(body, "node_textfile_scrape_error")[0]
                C.check("node_exporter read the file without error",
                        errs.get("node_textfile_scrape_error", {}).get(()) == 0.0, errs)
                C.check("node_exporter serves the 7 sysdev_ families as gauges",
                        sorted(f for f in types if f.startswith("sysdev_")) == sorted([
                            "sysdev_devices", "sysdev_directories", "sysdev_runtime_status_devices",
                            "sysdev_bus_class_names", "sysdev_latency_tolerance_seconds",
                            "sysdev_walk_duration_seconds", "sysdev_walk_errors"])
                        and all(types[f] == "gauge" for f in types if f.startswith("sysdev_")), types)
                compare_metrics("node_exporter scrape (hand-written)", samples, ARTICLE)
                compare_metrics("node_exporter scrape (filesystem)", samples, oracle_counts(art))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    C.finish()


if __name__ == "__main__":
    main()
