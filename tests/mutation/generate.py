"""Mechanical mutants: made from the C source itself, not from a list.

A small C lexer finds, in every .c file of src/ and tools/, the places where
a realistic one-token bug can be planted, and yields one mutant for each:

  relop      `<` `<=` `>` `>=` swapped (`<` -> `>`) and its boundary moved (`<` -> `<=`)
  eqop       `==` <-> `!=`
  logic      `&&` <-> `||`
  negate     the condition of an `if`/`while` negated
  drop       the condition of an `if` dropped (always true, always false)
  exit       an early `return ...;`, `continue;` or `break;` under an `if` removed
  const      an integer constant moved by one (up and down)
  cmplen     the length of a `strncmp`/`memcmp`/`strncasecmp` moved by one
  string     one byte of a string literal changed
  callfail   a call whose result is checked made to fail (`-EIO` for a
             `< 0` check, `NULL` for a `!x` or `== NULL` check)

Each mutant has a key that stays the same while its line's text does
(FILE@HASH.O.N:KIND: HASH of the stripped line, O its order among the
file's lines of the same text, N the mutant's place in that line), so
equivalent mutants can be marked by hand in equivalent.txt with a reason.
Preprocessor lines and comments are never mutated.
"""
import hashlib
import os
import re

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
NUMBER = re.compile(r"(0[xX][0-9a-fA-F]+|[0-9]+)([uUlL]*)")
PUNCT3 = ("<<=", ">>=", "...")
PUNCT2 = ("<=", ">=", "==", "!=", "&&", "||", "->", "++", "--", "<<", ">>", "+=", "-=",
          "*=", "/=", "%=", "&=", "|=", "^=")
CMP_LEN_CALLS = ("strncmp", "memcmp", "strncasecmp")


class Token:
    __slots__ = ("kind", "text", "start", "end", "line")

    def __init__(self, kind, text, start, end, line):
        self.kind, self.text, self.start, self.end, self.line = kind, text, start, end, line


def lex(src):
    """Tokens of C source: ident, num, str, chr, punct; comments and
    preprocessor lines (with their continuations) are skipped."""
    toks, i, n, line = [], 0, len(src), 1
    at_line_start = True
    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
            at_line_start = True
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if at_line_start and c == "#":
            while i < n and src[i] != "\n":
                if src[i] == "\\" and i + 1 < n and src[i + 1] == "\n":
                    line += 1
                    i += 1
                i += 1
            continue
        at_line_start = False
        if src.startswith("//", i):
            while i < n and src[i] != "\n":
                i += 1
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += src.count("\n", i, j)
            i = j
            continue
        if c in "\"'":
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            j = min(j + 1, n)
            toks.append(Token("str" if c == '"' else "chr", src[i:j], i, j, line))
            i = j
            continue
        m = IDENT.match(src, i)
        if m:
            toks.append(Token("ident", m.group(), i, m.end(), line))
            i = m.end()
            continue
        if c.isdigit():
            m = re.compile(r"[0-9A-Za-z_.]+").match(src, i)
            toks.append(Token("num", m.group(), i, m.end(), line))
            i = m.end()
            continue
        for p in PUNCT3 + PUNCT2:
            if src.startswith(p, i):
                toks.append(Token("punct", p, i, i + len(p), line))
                i += len(p)
                break
        else:
            toks.append(Token("punct", c, i, i + 1, line))
            i += 1
    return toks


def matching(toks, k, open_="(", close=")"):
    """Index of the token closing the bracket opened at toks[k]."""
    depth = 0
    for j in range(k, len(toks)):
        if toks[j].text == open_:
            depth += 1
        elif toks[j].text == close:
            depth -= 1
            if depth == 0:
                return j
    return None


class GenMutant:
    """A mutant at a place in a file: replace src[start:end] (== old) by new."""

    def __init__(self, file, line, start, end, old, new, kind, key):
        self.file, self.line_no, self.start, self.end = file, line, start, end
        self.old, self.new, self.kind, self.key = old, new, kind, key
        self.id = key
        self.line = line
        self.breaks = f"line {line}: {kind}: `{old}` -> `{new}`"

    def describe(self):
        return f"{self.id}  {self.file}:{self.line_no}  {self.kind}: `{self.old}` -> `{self.new}`"

    def check(self, text):
        if text[self.start:self.end] != self.old:
            return f"{self.file}:{self.line_no}: the text at the mutant's place changed"
        return None

    def apply(self, text):
        return text[:self.start] + self.new + text[self.end:]

    def diff(self, text):
        ls = text.rfind("\n", 0, self.start) + 1
        le = text.find("\n", self.end)
        le = len(text) if le < 0 else le
        before = text[ls:le]
        after = text[ls:self.start] + self.new + text[self.end:le]
        return (f"--- a/{self.file}\n+++ b/{self.file}\n@@ line {self.line_no} @@\n"
                f"-{before}\n+{after}")


def _int_value(text):
    """(value, suffix, base) of an integer literal, or None (floats, odd forms)."""
    m = NUMBER.fullmatch(text)
    if not m:
        return None
    body, suffix = m.groups()
    if body.startswith(("0x", "0X")):
        return int(body, 16), suffix, 16
    if len(body) > 1 and body.startswith("0"):
        return (int(body, 8), suffix, 8) if re.fullmatch(r"[0-7]+", body) else None
    return int(body), suffix, 10


def _int_text(value, suffix, base):
    return {16: hex(value), 8: "0%o" % value, 10: str(value)}[base] + suffix


def _string_byte_change(lit):
    """The literal with one byte changed, or None: the first letter or digit
    that is not part of a conversion (`%d`) or an escape (`\\n`)."""
    body = lit[1:-1]
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "%":
            m = re.compile(r"%[-+ #0]*[0-9*]*(\.[0-9*]+)?(hh|h|ll|l|z|j|t|L)?[a-zA-Z%]").match(body, i)
            i = m.end() if m else i + 1
            continue
        if ch.isalnum():
            repl = "X" if ch != "X" else "Y"
            return '"' + body[:i] + repl + body[i + 1:] + '"'
        i += 1
    return None


def mutants_of(rel, text):
    toks = lex(text)
    lines = text.split("\n")
    per_line = {}
    out = []
    # lines with the same text are told apart by their order in the file
    occurrence, seen_text = [], {}
    for ln in lines:
        st = ln.strip()
        occurrence.append(seen_text.get(st, 0))
        seen_text[st] = occurrence[-1] + 1

    def add(tok_line, start, end, new, kind):
        old = text[start:end]
        if old == new:
            return
        stripped = lines[tok_line - 1].strip()
        h = hashlib.sha1(stripped.encode("utf-8", "surrogateescape")).hexdigest()[:8]
        k = per_line.get((tok_line, kind), 0)
        per_line[(tok_line, kind)] = k + 1
        key = f"{rel}@{h}.{occurrence[tok_line - 1]}.{k}:{kind}"
        out.append(GenMutant(rel, tok_line, start, end, old, new, kind, key))

    # '<' and '>' only compare in C: #include lines are skipped by the lexer
    for idx, t in enumerate(toks):
        prev = toks[idx - 1] if idx else None
        nxt = toks[idx + 1] if idx + 1 < len(toks) else None
        if t.kind == "punct":
            if t.text in ("<", "<=", ">", ">="):
                swap = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[t.text]
                bound = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}[t.text]
                add(t.line, t.start, t.end, bound, "relop-boundary")
                add(t.line, t.start, t.end, swap, "relop-swap")
            elif t.text in ("==", "!="):
                add(t.line, t.start, t.end, "!=" if t.text == "==" else "==", "eqop")
            elif t.text in ("&&", "||"):
                add(t.line, t.start, t.end, "||" if t.text == "&&" else "&&", "logic")
        elif t.kind == "ident" and t.text in ("if", "while") and nxt is not None and nxt.text == "(":
            close = matching(toks, idx + 1)
            if close is None:
                continue
            a, b = toks[idx + 1].end, toks[close].start
            cond = text[a:b]
            if "\n" in cond and len(cond) > 400:
                continue
            add(t.line, a, b, "!(" + cond + ")", "negate")
            if t.text == "if":
                add(t.line, a, b, "1", "drop-true")
                add(t.line, a, b, "0", "drop-false")
            # an early exit that is the whole body of this if
            if t.text == "if" and close + 1 < len(toks):
                body = toks[close + 1]
                if body.text in ("continue", "break") and close + 2 < len(toks) \
                        and toks[close + 2].text == ";":
                    add(body.line, body.start, toks[close + 2].end, ";", "exit-removed")
                elif body.text == "return":
                    j = close + 2
                    depth = 0
                    while j < len(toks) and not (toks[j].text == ";" and depth == 0):
                        depth += toks[j].text in "([{"
                        depth -= toks[j].text in ")]}"
                        j += 1
                    if j < len(toks):
                        add(body.line, body.start, toks[j].end, ";", "exit-removed")
        elif t.kind == "num":
            v = _int_value(t.text)
            if v is None:
                continue
            val, suffix, base = v
            # array sizes and bit widths move too: a realistic off-by-one
            for d, kind in ((1, "const-up"), (-1, "const-down")):
                if val + d >= 0:
                    add(t.line, t.start, t.end, _int_text(val + d, suffix, base), kind)
        elif t.kind == "str" and len(t.text) > 2:
            if prev is not None and prev.text in ("include",):
                continue
            new = _string_byte_change(t.text)
            if new:
                add(t.line, t.start, t.end, new, "string")
        if t.kind == "ident" and t.text in CMP_LEN_CALLS and nxt is not None and nxt.text == "(":
            close = matching(toks, idx + 1)
            if close is None:
                continue
            depth, last_comma = 0, None
            for j in range(idx + 1, close):
                if toks[j].text in ("(", "[", "{"):
                    depth += 1
                elif toks[j].text in (")", "]", "}"):
                    depth -= 1
                elif toks[j].text == "," and depth == 1:
                    last_comma = j
            if last_comma is None:
                continue
            a, b = toks[last_comma + 1].start, toks[close].start
            arg = text[a:b].strip()
            b = a + len(text[a:b].rstrip())
            add(t.line, a, b, f"({arg}) + 1", "cmplen-up")
            add(t.line, a, b, f"({arg}) - 1", "cmplen-down")
        # `x = f(...);` followed by a check of x: make the call fail
        if t.kind == "ident" and nxt is not None and nxt.text == "=" and idx + 3 < len(toks):
            f = toks[idx + 2]
            if f.kind != "ident" or toks[idx + 3].text != "(" or f.text in ("sizeof",):
                continue
            close = matching(toks, idx + 3)
            if close is None or close + 1 >= len(toks) or toks[close + 1].text != ";":
                continue
            var = t.text
            rest = toks[close + 2:close + 9]
            seq = " ".join(x.text for x in rest)
            if seq.startswith(f"if ( {var} < 0 )"):
                add(f.line, f.start, toks[close].end, "-EIO", "callfail")
            elif seq.startswith(f"if ( ! {var} )") or seq.startswith(f"if ( {var} == NULL )"):
                add(f.line, f.start, toks[close].end, "NULL", "callfail")
    return out


def generate(repo, dirs=("src", "tools")):
    """Every mechanical mutant of the .c files under dirs, in file order."""
    out = []
    for d in dirs:
        for root, subdirs, files in os.walk(os.path.join(repo, d)):
            subdirs.sort()
            for name in sorted(files):
                if not name.endswith(".c"):
                    continue
                path = os.path.join(root, name)
                rel = os.path.relpath(path, repo)
                with open(path, encoding="utf-8", errors="surrogateescape") as f:
                    out.extend(mutants_of(rel, f.read()))
    return out


def read_equivalent(path):
    """KEY -> reason from equivalent.txt ('KEY REASON' a line, # comments)."""
    marks, errors = {}, []
    if not os.path.exists(path):
        return marks, errors
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            key, _, reason = line.partition(" ")
            if not reason.strip():
                errors.append(f"{path}:{n}: {key} has no reason")
            marks[key] = reason.strip()
    return marks, errors
