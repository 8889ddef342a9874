#!/usr/bin/env python3
"""The shell completions of sysdev-fixture, and --format of sysdev-tree's by
mode, run by the shells themselves as test_completion.py runs them: bash
with bash-completion loaded and the completion function called as readline
calls it, COMPREPLY compared with what the files say (os.listdir) and with
what the program's --help says; zsh interactive in a pseudo-terminal,
completing lines with TAB.

usage: test_completion_fixture.py SYSDEV_TREE SYSDEV_FIXTURE SHELL_COMPLETION_DIR
"""
import fcntl
import os
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
FIXTURE = os.path.abspath(sys.argv[2])
COMPLETION = os.path.abspath(sys.argv[3])
BASH_COMPLETION = "/usr/share/bash-completion/bash_completion"
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import sysdevtest as T  # noqa: E402

C = T.Checker()


def shq(s):
    return "'" + s.replace("'", "'\\''") + "'"


def bash_complete(prog, func, line, cwd):
    """COMPREPLY for @line (words split on blanks; '=' and ':' stand alone)."""
    words = [prog]
    for w in line.split(" "):
        if w:
            words.extend(p for p in re.split("([:=])", w) if p)
    if line.endswith(" ") or not line:
        words.append("")
    quoted = " ".join(shq(w) for w in words)
    script = f"""
source {BASH_COMPLETION}
source {COMPLETION}/bash/{prog}
complete -p {prog} >/dev/null || exit 3
COMP_WORDS=({quoted})
COMP_CWORD={len(words) - 1}
COMP_LINE={shq(prog + " " + line)}
COMP_POINT=${{#COMP_LINE}}
COMP_TYPE=9
{func} {prog} "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    env = dict(os.environ, PATH=os.path.dirname(TOOL) + ":" + os.environ.get("PATH", ""))
    r = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], capture_output=True,
                       timeout=120, env=env, cwd=cwd)
    if r.returncode != 0:
        return None, r.stderr.decode(errors="replace")
    return sorted(x for x in r.stdout.decode("utf-8", "surrogateescape").split("\n") if x), ""


def expect_bash(prog, func, label, line, want, cwd):
    got, err = bash_complete(prog, func, line, cwd)
    C.check(f"bash: {label}: '{prog} {line}'", got == sorted(want),
            f"want {sorted(want)[:20]}\ngot  {(got or [])[:20]}\n{err}")


def zsh_session(lines, cwd, timeout=60):
    """An interactive zsh in a pseudo-terminal: type each line and TAB, yield
    what it showed (escape sequences removed)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(cwd)
        os.environ.update(TERM="dumb", HOME=os.environ.get("TMPDIR", "/tmp"),
                          PATH=os.path.dirname(TOOL) + ":" + os.environ.get("PATH", ""))
        os.execvp("zsh", ["zsh", "-f", "-i"])
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
        yield re.sub(rb"\x1b\[[0-9;?]*[a-zA-Z]|\r", b"", out[start:]).decode("utf-8", "replace")
    os.write(fd, b"exit\n")
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def fixture_commands():
    """The commands sysdev-fixture's --help names ('Usage: P CMD' lines)."""
    r = subprocess.run([FIXTURE, "--help"], capture_output=True, timeout=60)
    return sorted({m.group(1) for m in re.finditer(r"sysdev-fixture ([a-z]+)\b",
                                                   r.stdout.decode())})


def main():
    if not os.path.exists(BASH_COMPLETION):
        C.check(f"bash-completion is installed ({BASH_COMPLETION})", False)
        return C.summary()
    tmp = tempfile.mkdtemp(prefix="completion-fixture-")
    try:
        # a directory to complete in: archives, recordings, directories, other files
        for f in ("a.sysfs", "b.sysfs", "rec.umockdev", "notes.txt"):
            open(os.path.join(tmp, f), "w").close()
        for d in ("tree", "tmpdir"):
            os.mkdir(os.path.join(tmp, d))
        root = os.path.join(tmp, "tree")
        t = T.Tree(root)
        t.device("/devices/platform")
        t.device("/devices/platform/serial8250")
        t.device("/devices/pnp0")
        entries = sorted(os.listdir(tmp))
        dirs = sorted(e for e in entries
                      if os.path.isdir(os.path.join(tmp, e)))
        sysfs = sorted(e for e in entries if e.endswith(".sysfs"))
        commands = fixture_commands()
        C.check("sysdev-fixture --help names its commands", commands == sorted(
            ["pack", "unpack", "check", "capture", "export", "import"]), commands)
        fx = ("sysdev-fixture", "_sysdev_fixture")
        expect_bash(*fx, "the commands and -h -V", "", commands +
                    ["-h", "--help", "-V", "--version"], tmp)
        expect_bash(*fx, "a command by prefix", "ca", ["capture"], tmp)
        expect_bash(*fx, "pack DIR: directories", "pack ", dirs, tmp)
        expect_bash(*fx, "unpack F.sysfs: archives and directories", "unpack ",
                    sysfs + dirs, tmp)
        expect_bash(*fx, "unpack F.sysfs DIR: directories", "unpack a.sysfs ", dirs, tmp)
        expect_bash(*fx, "check F.sysfs", "check ", sysfs + dirs, tmp)
        expect_bash(*fx, "capture's options", "capture --", ["--full", "--root", "--sanitize"],
                    tmp)
        expect_bash(*fx, "capture NAME.sysfs START: devpaths below --root",
                    "capture --root tree x.sysfs /devices/p",
                    ["/devices/platform/", "/devices/pnp0/"], tmp)
        expect_bash(*fx, "export: --umockdev first", "export ", ["--umockdev"], tmp)
        expect_bash(*fx, "export --umockdev TREE: files", "export --umockdev ", entries, tmp)
        expect_bash(*fx, "import FILE.umockdev", "import ", ["rec.umockdev"] + dirs, tmp)
        expect_bash(*fx, "import FILE DIR: directories", "import rec.umockdev ", dirs, tmp)
        # sysdev-tree's --format: each mode's formats, no other
        tr = ("sysdev-tree", "_sysdev_tree")
        expect_bash(*tr, "--format of --stats", "--stats --format ",
                    ["json", "openmetrics", "text"], tmp)
        expect_bash(*tr, "--format of --diff", "--diff a.sysfs b.sysfs --format ",
                    ["json", "jsonl", "text"], tmp)
        expect_bash(*tr, "--format of the tree", "--format ", ["dot", "json", "text"], tmp)
        expect_bash(*tr, "--format of a list", "-l --format ", ["json", "text"], tmp)
        expect_bash(*tr, "--format= of -S", "-S --format=", ["json", "openmetrics", "text"], tmp)

        if not shutil.which("zsh"):
            C.check("zsh is installed", False)
            return C.summary()
        r = subprocess.run(["zsh", "-n", f"{COMPLETION}/zsh/_sysdev-fixture"],
                           capture_output=True)
        C.check("zsh -n: the zsh completion of sysdev-fixture parses", r.returncode == 0,
                r.stderr.decode())
        cases = [
            ("the commands", "sysdev-fixture ", commands, []),
            ("unpack: archives", "sysdev-fixture unpack ", sysfs, ["notes.txt"]),
            ("capture's options", "sysdev-fixture capture --", ["--full", "--root", "--sanitize"],
             []),
            ("import: recordings", "sysdev-fixture import ", ["rec.umockdev"], ["a.sysfs"]),
            ("sysdev-tree --format of --stats", "sysdev-tree --stats --format=",
             ["text", "json", "openmetrics"], ["jsonl"]),
            ("sysdev-tree --format of --diff", "sysdev-tree --diff a.sysfs b.sysfs --format=",
             ["text", "json", "jsonl"], ["openmetrics"]),
        ]
        outs = list(zsh_session([c[1] for c in cases], tmp))
        for (label, line, want, unwanted), out in zip(cases, outs):
            words = set(re.findall(r"[^\s]+", out))
            missing = [w for w in want if w not in words and not any(x.endswith(w) for x in words)]
            extra = [w for w in unwanted if w in words]
            C.check(f"zsh: {label}: '{line}'", want and not missing and not extra,
                    f"missing {missing[:10]} extra {extra}\n{out[-1500:]}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return C.summary()


if __name__ == "__main__":
    sys.exit(main())
