#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The exported symbols (src/libsysdev.sym) and the public header
(include/libsysdev.h) name the same functions: every function the header
declares is exported, and every exported name is declared.

Usage: test_sym.py HEADER SYMFILE
"""
import re
import sys


def header_functions(text):
    # comments and preprocessor lines say nothing about what is declared
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'^\s*#.*$', ' ', text, flags=re.M)
    # the C++ guard's braces enclose the whole header
    text = re.sub(r'extern\s+"C"\s*\{', ' ', text)
    names = set()
    # a declaration ends at ';' at the top level; function pointer types
    # ("(*name)") and struct members are not functions of the library
    depth = 0
    stmt = []
    for ch in text:
        if ch == '{':
            depth += 1
        elif ch == '}':
            depth -= 1
            stmt = []
            continue
        if depth:
            continue
        if ch == ';':
            s = ''.join(stmt)
            stmt = []
            if 'typedef' in s:
                continue
            m = re.search(r'\b(sysdev_\w+)\s*\(', s)
            if m:
                names.add(m.group(1))
            continue
        stmt.append(ch)
    return names


def sym_functions(text):
    text = re.sub(r'#.*$', '', text, flags=re.M)
    names = set()
    for block in re.findall(r'global:(.*?)(?:local:|\})', text, flags=re.S):
        names.update(n.strip() for n in block.split(';') if n.strip())
    return names


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        declared = header_functions(f.read())
    with open(sys.argv[2]) as f:
        exported = sym_functions(f.read())
    if len(declared) < 50 or len(exported) < 50:
        # a parser that finds almost nothing would make the comparison empty
        print(f'too few names: {len(declared)} declared, {len(exported)} exported')
        return 1
    bad = 0
    for n in sorted(declared - exported):
        print(f'declared in the header but not exported: {n}')
        bad += 1
    for n in sorted(exported - declared):
        print(f'exported but not declared in the header: {n}')
        bad += 1
    if bad:
        return 1
    print(f'ok: {len(declared)} functions, header and symbol list agree')
    return 0


if __name__ == '__main__':
    sys.exit(main())
