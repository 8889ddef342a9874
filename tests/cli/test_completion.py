#!/usr/bin/env python3
"""The shell completions of sysdev-tree, run by the shells themselves.

bash: bash-completion and shell-completion/bash/sysdev-tree loaded, the
completion function called with COMP_WORDS/COMP_CWORD/COMP_LINE as readline
splits a line, COMPREPLY compared with what the files say (os.listdir of the
root's bus/, class/, drivers) and with what the program says (--help,
--list-columns).  zsh: `zsh -n`, then a real interactive zsh (in a
pseudo-terminal) completing lines with TAB.

usage: test_completion.py SYSDEV_TREE SYSDEV_FIXTURE FIXTURES_DIR SHELL_COMPLETION_DIR
"""
import os
import fcntl
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import time

TOOL = os.path.abspath(sys.argv[1])
FIXTURE_TOOL = os.path.abspath(sys.argv[2])
FIXTURES = os.path.abspath(sys.argv[3])
COMPLETION = os.path.abspath(sys.argv[4])
BASH_COMPLETION = "/usr/share/bash-completion/bash_completion"
FALLBACK_COLUMNS = ("DEVPATH NAME KIND SUBSYSTEM SUBSYSTEM_KIND DRIVER MODULE PARENT CLASS_DIR "
                    "PLACEMENT DEVNUM DEVID DEVNAME DEVTYPE MODALIAS VENDOR MODEL RUNTIME_STATUS "
                    "LATENCY_TOLERANCE").split()
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402

C = T.Checker()
check = C.check


# --- what the files and the program say -------------------------------------

def ls(path):
    try:
        return os.listdir(path)
    except OSError:
        return []


def subsystems(root):
    return sorted(set(ls(root + "/bus") + ls(root + "/class")))


def drivers(root):
    """As bash inserts them: a blank written '\\ '."""
    return sorted({d.replace(" ", "\\ ") for b in ls(root + "/bus")
                   for d in ls(f"{root}/bus/{b}/drivers")})


def devices(root):
    res = {f"{c}:{n}" for c in ls(root + "/class") for n in ls(f"{root}/class/{c}")}
    res |= {f"{b}:{n}" for b in ls(root + "/bus") for n in ls(f"{root}/bus/{b}/devices")}
    return sorted(res)


def columns():
    r = subprocess.run([TOOL, "--list-columns"], capture_output=True, timeout=60)
    cols = [line.split()[0] for line in r.stdout.decode().splitlines() if line.split()]
    return cols if r.returncode == 0 and cols else FALLBACK_COLUMNS


def help_options():
    """The options --help lists: the lines that start with one (after blanks)."""
    r = subprocess.run([TOOL, "--help"], capture_output=True, timeout=60)
    res = set()
    for line in r.stdout.decode().splitlines():
        m = re.match(r"\s+(-[a-zA-Z], )?(--[a-z][a-z-]*)", line)
        if m:
            res.add(m.group(2))
            if m.group(1):
                res.add(m.group(1)[:2])
    return sorted(res)


def check_help_against_manual():
    """--help and sysdev-tree(1) name the same options: each option a list item of
    the manual's OPTIONS section names (.TP or .TQ) is on an option line of
    --help, and each option of --help is in the manual."""
    with open(os.path.join(os.path.dirname(COMPLETION), "man", "sysdev-tree.1")) as f:
        page = f.read().replace("\\-", "-")
    lines = page[page.index(".SH OPTIONS"):page.index(".SH NAMES")].split("\n")
    items = {"--" + m for i, ln in enumerate(lines[1:], 1) if lines[i - 1] in (".TP", ".TQ")
             for m in re.findall(r"--([a-z][a-z-]*[a-z])", ln)}
    r = subprocess.run([TOOL, "--help"], capture_output=True, timeout=60)
    helped = {"--" + m for ln in r.stdout.decode().splitlines() if re.match(r"\s+-", ln)
              for m in re.findall(r"--([a-z][a-z-]*[a-z])", re.split(r"\s{2,}", ln.strip())[0])}
    check("every option the manual's OPTIONS items name is on an option line of --help",
          len(items) > 30 and not items - helped, sorted(items - helped))
    check("every option of --help is in the manual",
          not {o for o in helped if o not in page}, sorted(o for o in helped if o not in page))


# --- bash ------------------------------------------------------------------

BREAKS = ":="  # of COMP_WORDBREAKS, what may stand inside our words


def comp_words(line):
    """COMP_WORDS as readline splits the line: blanks separate words, and each
    word-break character stands as a word of its own."""
    words = []
    for w in line.split(" "):
        if w == "" and words:
            continue
        parts = re.split(f"([{re.escape(BREAKS)}])", w)
        words.extend(p for p in parts if p != "") if w else None
    if line.endswith(" ") or not words:
        words.append("")
    return words


def shq(s):
    return "'" + s.replace("'", "'\\''") + "'"


def bash_complete(line):
    words = ["sysdev-tree"] + comp_words(line)
    quoted = " ".join(shq(w) for w in words)
    script = f"""
source {BASH_COMPLETION}
source {COMPLETION}/bash/sysdev-tree
complete -p sysdev-tree >/dev/null || exit 3
COMP_WORDS=({quoted})
COMP_CWORD={len(words) - 1}
COMP_LINE={shq("sysdev-tree " + line)}
COMP_POINT=${{#COMP_LINE}}
COMP_TYPE=9
_sysdev_tree sysdev-tree "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    env = dict(os.environ, PATH=os.path.dirname(TOOL) + ":" + os.environ.get("PATH", ""))
    r = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], capture_output=True,
                       timeout=120, env=env)
    if r.returncode != 0:
        return None, r.stderr.decode(errors="replace")
    return sorted(x for x in r.stdout.decode("utf-8", "surrogateescape").split("\n") if x), ""


def expect_bash(label, line, want):
    got, err = bash_complete(line)
    check(f"bash: {label}: '{line}'", got == sorted(want),
          f"want {sorted(want)[:20]}\ngot  {(got or [])[:20]}\n{err}")


def after_colon(items, cur):
    """What bash inserts for a word with colons: the part after the last colon of cur."""
    cut = cur.rfind(":") + 1
    return [i[cut:] for i in items if i.startswith(cur)]


def bash_tests(root, archive):
    if not os.path.exists(BASH_COMPLETION):
        check(f"bash-completion is installed ({BASH_COMPLETION})", False)
        return
    subs, drvs, devs = subsystems(root), drivers(root), devices(root)
    check("the fixture has subsystems, drivers and devices to complete",
          len(subs) > 10 and len(drvs) > 10 and len(devs) > 50, (len(subs), len(drvs), len(devs)))
    for r, what in ((root, "dir"), (archive, "archive")):
        expect_bash(f"{what}: -s lists S/bus and S/class", f"--root {r} -s ", subs)
        expect_bash(f"{what}: --subsystem= with a prefix", f"--root={r} --subsystem=n",
                    [s for s in subs if s.startswith("n")])
        expect_bash(f"{what}: --driver lists S/bus/*/drivers", f"--root {r} --driver ", drvs)
        expect_bash(f"{what}: a DEVICE as SUBSYSTEM:NAME", f"--root {r} --properties net:",
                    after_colon(devs, "net:"))
        expect_bash(f"{what}: a DEVICE with colons in its name", f"--root {r} pci:0000:00:0",
                    after_colon(devs, "pci:0000:00:0"))
        expect_bash(f"{what}: the positional DEVICE, subsystem prefix", f"--root {r} bl",
                    [d for d in devs if d.startswith("bl")])
        expect_bash(f"{what}: --sysname lists the names", f"--root {r} --sysname nvme",
                    sorted({d.split(":", 1)[1] for d in devs
                            if d.split(":", 1)[1].startswith("nvme")}))
    expect_bash("a devpath below the root", f"--root {root} /devices/virt", ["/devices/virtual/"])
    expect_bash("the live /sys without --root: -s", "-s ", subsystems("/sys"))
    expect_bash("the live /sys: --properties DEVICE", "--properties net:",
                after_colon(devices("/sys"), "net:"))
    cols = columns()
    expect_bash("-o: the program's columns", "-o ", cols)
    expect_bash("-o +LIST,: the last name of a list", "-o +VENDOR,MO",
                ["+VENDOR," + c for c in cols if c.startswith("MO")])
    expect_bash("--output=: the column names", "--output=DEV",
                [c for c in cols if c.startswith("DEV")])
    expect_bash("--format of --stats", "--stats --format ", ["json", "openmetrics", "text"])
    expect_bash("--color=", "--color=a", ["always", "auto"])
    expect_bash("--match KEY=", "--match DEV", ["DEVNAME=", "DEVTYPE="])
    got, err = bash_complete("-")
    check_help_against_manual()
    missing = [o for o in help_options() if o not in (got or [])]
    check("bash: every option of --help is offered", got and not missing, f"{missing}\n{err}")
    for o in ("--properties", "--export", "--output", "--list-columns", "--list", "--raw",
              "--pairs", "--noheadings", "--ascii", "--driver", "--sysname", "--match",
              "--unlinked", "--root", "--parents", "-l", "-r", "-P", "-o", "-n", "-i"):
        check(f"bash: {o} is offered", o in (got or []), got)


# --- zsh -------------------------------------------------------------------

def zsh_session(lines, timeout=60):
    """Run an interactive zsh in a pseudo-terminal, type @lines, return what it
    showed (escape sequences removed)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(TERM="dumb", HOME=os.environ.get("TMPDIR", "/tmp"),
                          PATH=os.path.dirname(TOOL) + ":" + os.environ.get("PATH", ""))
        os.execvp("zsh", ["zsh", "-f", "-i"])
    # a tall, wide terminal: the whole listing at once
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 1000, 250, 0, 0))
    out = b""
    setup = (f"fpath=({COMPLETION}/zsh $fpath); autoload -Uz compinit; compinit -u -D; "
             "zstyle ':completion:*' menu no; "
             "LISTMAX=100000; unsetopt beep; PS1='%% '; print READY$((40+2))\n")
    os.write(fd, setup.encode())

    def read_until(token, limit):
        nonlocal out
        end = time.time() + limit
        while time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.2)
            if r:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    break
                if not data:
                    break
                out += data
                if token and token in out:
                    return True
        return False

    if not read_until(b"READY42", timeout):
        raise SystemExit(f"Bail out! zsh did not start: {out[-500:]!r}")
    for line in lines:
        start = len(out)
        os.write(fd, line.encode() + b"\t")
        read_until(None, 3)
        os.write(fd, b"\x03")  # ^C: drop the line
        read_until(None, 0.5)
        yield re.sub(rb"\x1b\[[0-9;?]*[a-zA-Z]|\r", b"", out[start:]).decode(
            "utf-8", "replace")
    os.write(fd, b"exit\n")
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def zsh_tests(root):
    z = shutil.which("zsh")
    if not z:
        check("zsh is installed", False)
        return
    r = subprocess.run(["zsh", "-n", f"{COMPLETION}/zsh/_sysdev-tree"], capture_output=True)
    check("zsh -n: the zsh completion parses", r.returncode == 0, r.stderr.decode())
    subs = subsystems(root)
    nets = [d.split(":", 1)[1] for d in devices(root) if d.startswith("net:")]
    cases = [
        ("-s lists S/bus and S/class", f"sysdev-tree --root {root} -s ", subs),
        ("--driver lists the drivers", f"sysdev-tree --root {root} --driver ",
         [d for d in drivers(root) if " " not in d]),
        ("a DEVICE as SUBSYSTEM:NAME", f"sysdev-tree --root {root} --properties net:",
         ["net:" + n for n in nets] if len(nets) > 1 else nets),
        ("-o lists the columns", "sysdev-tree -o ", columns()),
        ("--format", "sysdev-tree --stats --format=", ["text", "json", "openmetrics"]),
        ("the options", "sysdev-tree --propert", ["--properties", "--property"]),
    ]
    outs = list(zsh_session([c[1] for c in cases]))
    for (label, line, want), out in zip(cases, outs):
        words = set(re.findall(r"[^\s]+", out))
        missing = [w for w in want if w not in words and not any(x.endswith(w) for x in words)]
        check(f"zsh: {label}: '{line}'", want and not missing,
              f"missing {missing[:10]}\n{out[-1500:]}")


tmp = tempfile.mkdtemp(prefix="completion-")
try:
    archive = os.path.join(FIXTURES, "qemu-q35.sysfs")
    root = os.path.join(tmp, "q35")
    r = subprocess.run([FIXTURE_TOOL, "unpack", archive, root], capture_output=True)
    if r.returncode != 0:
        raise SystemExit(f"Bail out! cannot unpack {archive}: {r.stderr!r}")
    bash_tests(root, archive)
    zsh_tests(root)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
sys.exit(C.summary())
