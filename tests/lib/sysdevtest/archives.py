# SPDX-License-Identifier: LGPL-2.1-or-later
"""Crafted archives that cost a careless reader quadratic work (issue 18,
item 8), shared by the hostile tests, the fuzz seeds and the benchmark.

- deep_chain(depth): directories devices/a/a/... depth deep, a file in each;
  a reader that reopens each entry's parent from the top does depth^2/2
  openat calls.
- colliding_names(n) / random_names(n): n files in one directory whose
  paths ("d/NAME") share the low BITS bits of their 64-bit FNV-1a hash
  (the archive's old path index: unkeyed FNV-1a, linear probing), and n
  random names of the same length for comparison.  The names are found by
  meeting in the middle: the low bits of FNV-1a depend only on the low bits
  of the state, so a random prefix is completed by a suffix looked up in a
  table built backwards from the target.
"""
import random

# the offset basis as the old index spelled it: the standard one
# (14695981039346656037) without its last digit
FNV_OFFSET = 1469598103934665603
FNV_PRIME = 0x100000001b3
ALPHABET = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
BITS = 22
PREFIX_LEN = 9
HEADER = "sysdev-archive 1\n"


def fnv1a64(data, h=FNV_OFFSET):
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


def deep_chain(depth):
    """The archive text of a chain of @depth directories (devices/a/a/...),
    each with a file: a sysfs root whose tree is one long chain."""
    lines = [HEADER]
    path = ""
    for level in range(1, depth + 1):
        path = path + "/a" if path else "devices"
        lines.append('d 0755 "%s"\n' % path)
        if level < 4096:  # a path holds at most 4096 components
            lines.append('f 0644 "%s/f" "x"\n' % path)
    return "".join(lines)


def colliding_names(n, bits=BITS, seed=1):
    """@n distinct names whose paths "d/NAME" agree in the low @bits bits of FNV-1a."""
    mask = (1 << bits) - 1
    inv = pow(FNV_PRIME, -1, 1 << bits)
    target = 0x2a5a5 & mask
    # states three bytes before the target, and the bytes that lead there
    back = {}
    for c3 in ALPHABET:
        s3 = ((target * inv) & mask) ^ c3
        for c2 in ALPHABET:
            s2 = ((s3 * inv) & mask) ^ c2
            for c1 in ALPHABET:
                back.setdefault(((s2 * inv) & mask) ^ c1, bytes((c1, c2, c3)))
    rng = random.Random(seed)
    base = fnv1a64(b"d/")
    names, seen = [], set()
    while len(names) < n:
        prefix = bytes(rng.choice(ALPHABET) for _ in range(PREFIX_LEN))
        s = fnv1a64(prefix, base) & mask
        for c0 in ALPHABET:
            s1 = ((s ^ c0) * FNV_PRIME) & mask
            tail = back.get(s1)
            if tail is None:
                continue
            name = prefix + bytes((c0,)) + tail
            if name not in seen:
                seen.add(name)
                names.append(name.decode())
                if len(names) == n:
                    break
    return names


def random_names(n, seed=2):
    """@n distinct random names as long as colliding_names() gives."""
    rng = random.Random(seed)
    names, seen = [], set()
    while len(names) < n:
        name = "".join(chr(rng.choice(ALPHABET)) for _ in range(PREFIX_LEN + 4))
        if name not in seen:
            seen.add(name)
            names.append(name)
    return names


def names_archive(names):
    """An archive with directory "d" holding an empty file per name."""
    return HEADER + 'd 0755 "d"\n' + "".join('f 0644 "d/%s" ""\n' % nm for nm in names)
