#!/usr/bin/env python3
"""CLI tests of sysdev-tree: output against expected files, JSON validity,
exit codes, and the live /sys against an independent os.walk.

usage: test_cli.py SYSDEV_TREE [--update]   (--update rewrites expected/)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import sysdevtest as T  # noqa: E402

TOOL = os.path.abspath(sys.argv[1])
UPDATE = "--update" in sys.argv
CLIENT = "/devices/platform/omap_i2c.2/i2c-2/2-0045"
C = T.Checker()


def run(*args, env=None):
    return T.run([TOOL, *args], env=T.environ(NO_COLOR=None, **(env or {})))


def expect_file(name, args, root):
    r = run(*args)
    out = r.stdout.decode("utf-8", "surrogateescape").replace(root, "ROOT")
    path = os.path.join(HERE, "expected", name)
    if UPDATE:
        with open(path, "w") as f:
            f.write(out)
    with open(path) as f:
        want = f.read()
    C.check(f"{name}: exit 0", r.returncode == 0, r.stderr.decode(errors="replace"))
    C.check(f"{name}: matches expected/{name}", out == want,
            "\n".join(difflines(want, out)))


def difflines(a, b):
    import difflib
    return list(difflib.unified_diff(a.splitlines(), b.splitlines(), "expected", "actual",
                                     lineterm=""))


def walk_dirs(top):
    """Every directory below top/devices (symlinks not followed), as devpaths,
    with whether it holds a regular uevent file."""
    res = {}
    base = os.path.join(top, "devices")
    for dirpath, dirnames, filenames in os.walk(base, followlinks=False):
        rel = "/devices" + dirpath[len(base):]
        ue = os.path.join(dirpath, "uevent")
        try:
            st = os.lstat(ue)
            res[rel] = (st.st_mode & 0o170000) == 0o100000
        except OSError:
            res[rel] = False
    return res


def json_nodes(doc):
    out = []

    def w(n):
        out.append(n)
        names = [c["name"] for c in n["children"]]
        assert names == sorted(names, key=lambda s: s.encode("utf-8", "surrogateescape")), names
        for c in n["children"]:
            w(c)
    for n in doc["nodes"]:
        w(n)
    return out


def shell_stats(root):
    q = shlex_quote(root)
    both = subprocess.run(["bash", "-c", f"comm -12 <(ls {q}/bus) <(ls {q}/class)"],
                          capture_output=True, text=True).stdout.split()

    def uniq(glob):
        out = subprocess.run(["bash", "-c", f"cat {q}/{glob} 2>/dev/null | sort | uniq -c"],
                             capture_output=True, text=True).stdout
        res = {}
        for line in out.splitlines():
            n, _, status = line.strip().partition(" ")
            res[status] = int(n)
        return res
    return both, uniq("class/*/*/power/runtime_status"), uniq("bus/*/devices/*/power/runtime_status")


def shlex_quote(s):
    import shlex
    return shlex.quote(s)


def check_tree_json(label, root, start=None):
    args = ["--root", root, "--json", "--all"] + ([start] if start else [])
    r = run(*args)
    C.check(f"{label}: --json --all exits 0", r.returncode == 0, r.stderr.decode(errors="replace"))
    try:
        doc = json.loads(r.stdout.decode("utf-8"))
    except ValueError as e:
        C.check(f"{label}: --json --all is valid JSON", False, e)
        return None
    C.check(f"{label}: --json --all is valid JSON", True)
    nodes = json_nodes(doc)
    paths = [n["path"] for n in nodes]
    dirs = walk_dirs(root)
    C.check(f"{label}: every directory appears exactly once",
            len(paths) == len(set(paths)) and set(paths) == set(dirs),
            f"missing {sorted(set(dirs) - set(paths))[:10]} extra {sorted(set(paths) - set(dirs))[:10]}"
            f" dups {len(paths) - len(set(paths))}")
    devs = {n["path"] for n in nodes if n["kind"] == "device"}
    want = {p for p, has in dirs.items() if has}
    C.check(f"{label}: devices are exactly the directories with a regular uevent",
            devs == want, f"missing {sorted(want - devs)[:10]} extra {sorted(devs - want)[:10]}")
    for n in nodes:
        if n["kind"] == "device":
            keys = {"subsystem", "subsystem_kind", "driver", "parent", "class_dir", "placement",
                    "devnum", "devtype", "devname"}
            if not keys <= set(n):
                C.check(f"{label}: device fields present", False, n["path"])
                break
    else:
        C.check(f"{label}: device fields present on every device", True)
    return doc


def main():
    tmp = tempfile.mkdtemp(prefix="sysdev-cli-")
    try:
        root = os.path.join(tmp, "article")
        os.mkdir(root)
        T.article(root)

        expect_file("article-tree.txt", ["--root", root], root)
        expect_file("article-all.txt", ["--root", root, "--all"], root)
        expect_file("article-power.txt", ["--root", root, "--power", "i2c:2-0045"], root)
        expect_file("article-attrs.txt", ["--root", root, "--attrs", "--depth", "1",
                                          "/devices/platform/omap_i2c.2/i2c-2/2-0045/leds"], root)
        expect_file("article-parents.txt", ["--root", root, "--parents", "leds:gta04:green:power"],
                    root)
        expect_file("article-parents.json", ["--root", root, "--json", "--parents", "/dev/sda1"],
                    root)
        expect_file("article-parents-attrs.txt", ["--root", root, "--attrs", "--parents",
                                                  "leds:gta04:green:power"], root)
        expect_file("article-subsystem.txt", ["--root", root, "--subsystem", "block", "--raw",
                                            "--noheadings", "-o", "DEVPATH,DEVNAME"], root)
        expect_file("article-stats.txt", ["--root", root, "--stats"], root)
        # --parents --power: a device without a power/ group says so on its power line
        nopower = os.path.join(root, CLIENT[1:], "nopower")
        os.mkdir(nopower)
        open(os.path.join(nopower, "uevent"), "w").close()
        r = run("--root", root, "--parents", "--power", CLIENT + "/nopower")
        C.check("--parents --power: a device without power/ has the line 'power: none (no power/ "
                "group)'", r.returncode == 0 and r.stdout.decode().splitlines()[:3] == [
                    "  device  %s/nopower" % CLIENT,
                    "          subsystem: none (no subsystem link)  driver: none",
                    "          power: none (no power/ group)"], r.stdout)
        shutil.rmtree(nopower)
        for i, p in enumerate([CLIENT + "/leds", CLIENT + "/net", CLIENT + "/engine/state0",
                               "/devices/virtual/leds", "/devices/system/memory",
                               "/devices/system/cpu", "/devices"]):
            expect_file(f"article-explain-{i}.txt", ["--root", root, "--explain", p], root)

        doc = check_tree_json("article", root)
        if doc:
            C.check("article: sysfs member names the root", doc.get("sysfs") == root)

        # --stats --json against the article's shell pipelines
        r = run("--root", root, "--stats", "--json")
        st = json.loads(r.stdout)
        both, cls, bus = shell_stats(root)
        C.check("article: bus_class_names == comm -12", st["bus_class_names"] == both,
                f"{st['bus_class_names']} vs {both}")
        C.check("article: class runtime_status == cat|sort|uniq -c",
                st["runtime_status"]["class"] == cls, f"{st['runtime_status']['class']} vs {cls}")
        C.check("article: bus runtime_status == cat|sort|uniq -c",
                st["runtime_status"]["bus"] == bus, f"{st['runtime_status']['bus']} vs {bus}")

        # JSON without --all leaves attr-groups out and keeps devices below them
        r = run("--root", root, "--json")
        nodes = json_nodes(json.loads(r.stdout))
        C.check("--json without --all has no attr-group",
                all(n["kind"] != "attr-group" for n in nodes))
        C.check("--json without --all keeps every device",
                {n["path"] for n in nodes if n["kind"] == "device"} ==
                {p for p, has in walk_dirs(root).items() if has})

        # latency tolerance on the temp copy
        ltf = os.path.join(root, CLIENT[1:], "power/pm_qos_latency_tolerance_us")
        for v, want in [("100", "100"), ("any", "any"), ("auto", "auto")]:
            r = run("--root", root, "--set-latency-tolerance", v, CLIENT)
            g = run("--root", root, "--get-latency-tolerance", CLIENT)
            C.check(f"latency tolerance {v} round-trips", r.returncode == 0 and
                    g.stdout.decode().strip() == want and open(ltf).read() == want + "\n",
                    r.stderr + g.stdout)
        for v in ["-5", "garbage", "", "99999999999", "2147483648", "abc"]:
            r = run("--root", root, "--set-latency-tolerance", v, CLIENT)
            err = r.stderr.decode()
            C.check(f"latency tolerance '{v}' refused with EINVAL, exit 2 (usage)", r.returncode == 2 and
                    "EINVAL" in err and err.count("\n") == 1 and open(ltf).read() == "auto\n", err)
        r = run("--root", root, "--set-latency-tolerance", "100", "/devices/platform/omap_i2c.2/i2c-2")
        err = r.stderr.decode()
        C.check("device without the attribute: clear message, exit 1",
                r.returncode == 1 and "has no power/pm_qos_latency_tolerance_us" in err and
                err.count("\n") == 1, err)
        r = run("--root", root, "--get-latency-tolerance", "i2c:i2c-2")
        C.check("--get-latency-tolerance on a device without it exits 1", r.returncode == 1, r.stderr)
        r = run("--root", root, "--set-latency-tolerance", "100", "net:nonexistent")
        C.check("--set-latency-tolerance on a missing device: exit 1, names it",
                r.returncode == 1 and b"net:nonexistent" in r.stderr, r.stderr)
        r = run("--root", root, "--set-latency-tolerance", "100", "/etc/passwd")
        C.check("--set-latency-tolerance outside the root: exit 1", r.returncode == 1 and
                b"outside the sysfs root" in r.stderr, r.stderr)

        # usage errors: exit 2
        for args in (["--bogus"], ["--depth"], ["--depth", "-1"], ["--depth", "abc"],
                     ["--depth", "99999999999999"], ["a", "b"], ["--stats", "--parents", "x"],
                     ["--set-latency-tolerance", "5"], ["--color=sometimes"]):
            r = run("--root", root, *args)
            C.check(f"usage error {args}: exit 2, message", r.returncode == 2 and r.stderr, r.stderr)
        r = run("--root", os.path.join(tmp, "nope"))
        C.check("missing root: exit 1 with one line", r.returncode == 1 and
                r.stderr.decode().count("\n") == 1 and b"nope" in r.stderr, r.stderr)
        r = run("--root", root, "/devices/nonexistent")
        C.check("missing start: exit 1", r.returncode == 1 and b"nonexistent" in r.stderr, r.stderr)
        for args in (["--help"], ["--version"]):
            r = run(*args)
            C.check(f"{args[0]} exits 0", r.returncode == 0 and r.stdout, r.stderr)
        # the exit statuses, as sysdev-tree(1)'s EXIT STATUS gives them
        C.check("--help ends with the exit statuses and the manual page",
                b"Exit status: 0 success (also when the reader of the output goes away),\n"
                b"1 runtime error, 2 bad usage; --diff and --check-udev: 1 when they differ.\n"
                b"See sysdev-tree(1).\n" in run("--help").stdout)

        # colours: only when asked or on a terminal; NO_COLOR honoured
        r = run("--root", root, "--color=always")
        C.check("--color=always colours", b"\033[" in r.stdout)
        # each part in the colour sysdev-tree(1) gives it (SGR codes, as ls and lsblk use)
        art = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures",
                           "article.sysfs")
        r = run("--root", art, "--color=always", "-o", "NAME,KIND,SUBSYSTEM,DRIVER,DEVNAME")
        text = r.stdout.decode()
        for what, want in (
                ("the top (no device): blue", "\033[34m/devices/\033[0m  \033[34m[root]\033[0m"),
                ("a device's name: bold", "\033[1m2-0045\033[0m"),
                ("its subsystem: yellow", "\033[33mbus:i2c\033[0m"),
                ("its driver: magenta", "\033[35mdriver:leds-tca6507\033[0m"),
                ("a class directory: cyan", "\033[36mleds/\033[0m  \033[36m[class-dir]\033[0m"),
                ("a device node: green", "\033[32m/dev/i2c-2 (89:2)\033[0m")):
            C.check("--color=always: " + what, want in text, ascii(text[:600]))
        r = run("--root", root)
        C.check("no colour into a pipe", b"\033[" not in r.stdout)
        r = run("--root", root, "--color=never")
        C.check("--color=never", b"\033[" not in r.stdout)

        # on a terminal (a pseudo-terminal here): colour, unless NO_COLOR is set or TERM is dumb
        def on_tty(**env):
            master, slave = os.openpty()
            p = subprocess.Popen([TOOL, "--root", root], stdout=slave, stderr=subprocess.DEVNULL,
                                 env=T.environ(**env))
            os.close(slave)
            out = b""
            while True:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the other side closed
                    break
                if not chunk:
                    break
                out += chunk
            os.close(master)
            return p.wait(timeout=60), out
        rc, out = on_tty(NO_COLOR=None, TERM="xterm")
        C.check("on a terminal: colours", rc == 0 and b"\033[" in out, out[:200])
        rc, out = on_tty(NO_COLOR="1", TERM="xterm")
        C.check("on a terminal with NO_COLOR=1: no colour", rc == 0 and out and b"\033[" not in out,
                out[:200])
        rc, out = on_tty(NO_COLOR="", TERM="xterm")
        C.check("on a terminal with NO_COLOR empty: colours (no-color.org: set and not empty)",
                rc == 0 and b"\033[" in out, out[:200])
        rc, out = on_tty(NO_COLOR=None, TERM="dumb")
        C.check("on a terminal with TERM=dumb: no colour", rc == 0 and out and b"\033[" not in out,
                out[:200])

        # a closed pipe ends the walk quietly
        p = subprocess.run(f"{shlex_quote(TOOL)} --root {shlex_quote(root)} --all | head -1",
                           shell=True, capture_output=True)
        C.check("output into a closed pipe: no error noise", p.returncode == 0 and
                len(p.stdout.splitlines()) == 1, p.stderr)

        # the live /sys, against os.walk
        if os.path.isdir("/sys/devices"):
            doc = check_tree_json("live /sys", "/sys")
            r = run("--stats", "--json")
            st = json.loads(r.stdout)
            both, cls, bus = shell_stats("/sys")
            C.check("live /sys: bus_class_names == comm -12", st["bus_class_names"] == both)
            C.check("live /sys: class runtime_status == pipeline",
                    st["runtime_status"]["class"] == cls, f"{st['runtime_status']['class']} vs {cls}")
            C.check("live /sys: bus runtime_status == pipeline",
                    st["runtime_status"]["bus"] == bus, f"{st['runtime_status']['bus']} vs {bus}")
            r = run()
            C.check("live /sys: default tree exits 0", r.returncode == 0, r.stderr)
            # on sysfs itself (found by its magic number) the walk does not enter
            # attribute groups it does not show: every directory it read is a node
            r = run("--json")
            doc = json.loads(r.stdout)
            shown = len(json_nodes(doc))
            C.check("live /sys: the default walk reads only the directories it shows "
                    "(no power/, queue/)", doc["walk"]["directories"] == shown,
                    f"{doc['walk']['directories']} read, {shown} shown")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return C.summary()


if __name__ == "__main__":
    sys.exit(main())
