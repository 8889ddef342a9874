#!/usr/bin/env python3
"""The kunit suite's judge, on hand-written consoles (no kernel needed).

Each case is a console as a 6.1 kernel prints it (printk timestamps, KTAP
indented by four spaces, kmemleak's report between /init's markers), and
whether kunit.py's checks must all pass on it. A complete, clean run must
pass; a missing or truncated suite, a test more, a renamed or failed test,
a kernel problem report, a missing or unstable kmemleak scan, any leak after
the fix must each fail. Before the fix the suite leaks 65 requests and
kmemleak may miss a few (a stale pointer is enough): all 65 or most of them
(more than half: 33) pass; 32, a single one (the old rule's evidence), none,
more than were leaked or one of a wrong size fail. Prints `PASS: case` /
`FAIL: case: why`, then `N passed, N failed`.
"""

import io
import os
import sys
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

import kunit  # noqa: E402

LEAK = """\
unreferenced object 0xffff8880002c1c00 (size 96):
  comm "kunit_try_catch", pid 28, jiffies 4294892930
  hex dump (first 32 bytes):
    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  ................
  backtrace:
    [<(____ptrval____)>] __kmem_cache_alloc_node+0xcd/0xe0
    [<(____ptrval____)>] kmalloc_trace+0x1f/0x49
    [<(____ptrval____)>] dev_pm_qos_update_user_latency_tolerance+0x68/0xe4
    [<(____ptrval____)>] lt_test_flush_on_unregister+0x23/0x3ac
    [<(____ptrval____)>] kunit_try_run_case+0x73/0x93"""

# One of the 64 requests lt_test_unregister_many leaks; %x: its address.
MANY_LEAK = """\
unreferenced object 0xffff888000%06x (size 96):
  comm "kunit_try_catch", pid 29, jiffies 4294892990
  hex dump (first 32 bytes):
    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  ................
  backtrace:
    [<(____ptrval____)>] __kmem_cache_alloc_node+0xcd/0xe0
    [<(____ptrval____)>] kmalloc_trace+0x1f/0x49
    [<(____ptrval____)>] dev_pm_qos_update_user_latency_tolerance+0x68/0xe4
    [<(____ptrval____)>] lt_test_unregister_many+0x2e/0x1c0
    [<(____ptrval____)>] kunit_try_run_case+0x73/0x93"""


def leaks(n, first=True, size=96):
    """n reports of the leaked request: the one of lt_test_flush_on_unregister
    (unless not first) and n - 1 (or n) of lt_test_unregister_many."""
    out = [LEAK] if first and n else []
    out += [MANY_LEAK % (0x3c0000 + 0x60 * i) for i in range(n - len(out))]
    return "\n".join(out).replace("(size 96)", "(size %d)" % size)


ALL_LEAKS = leaks(65)


def as_612(text):
    """The same reports as 6.12.118 prints them (from a console of the
    suite's "before" kernel): the backtrace line carries the checksum,
    each frame is the symbol alone (no [<address>]), and the allocator's
    own frames have other names."""
    return (text.replace("  backtrace:", "  backtrace (crc 0):")
            .replace("[<(____ptrval____)>] ", "")
            .replace("__kmem_cache_alloc_node+0xcd/0xe0",
                     "slab_post_alloc_hook.constprop.0+0x61/0x7b\n"
                     "    slab_alloc_node.isra.0+0x8e/0x9d")
            .replace("kmalloc_trace+0x1f/0x49",
                     "__kmalloc_cache_noprof+0x18/0x42"))

OTHER_LEAK = """\
unreferenced object 0xffff888000300000 (size 32):
  comm "swapper/0", pid 1, jiffies 4294892930
  backtrace:
    [<(____ptrval____)>] kmalloc_trace+0x1f/0x49
    [<(____ptrval____)>] some_driver_probe+0x10/0x40"""


def console(suites=None, top_plan=2, extra=(), leaks="", scanned=True,
            suite_ok=True, scans=None):
    if suites is None:
        suites = [(name, list(tests)) for name, tests in kunit.SUITES]
    out = ["Linux version 6.1.192+ (gcc 12)", "KTAP version 1",
           "1..%d" % top_plan]
    for i, (name, tests) in enumerate(suites, 1):
        out += ["    KTAP version 1", "    # Subtest: " + name,
                "    1..%d" % len(tests)]
        for j, t in enumerate(tests, 1):
            out.append("    " + (t if t.startswith(("ok", "not ok"))
                                 else "ok %d %s" % (j, t)))
        out.append("%s %d %s" % ("ok" if suite_ok else "not ok", i, name))
    out += list(extra)
    out.append("@@KUNIT-INIT kernel 6.1.192+")
    n = leaks.count("unreferenced object")
    for k in (scans if scans is not None else [0, n, n]):
        out.append("@@KMEMLEAK-SCAN %d reports" % k)
    if scanned:
        out.append("@@KMEMLEAK-SCANNED")
    else:
        out.append("@@KMEMLEAK-UNSTABLE after 10 scans")
    out += ["@@KMEMLEAK-BEGIN"] + (leaks.split("\n") if leaks else []) + \
        ["@@KMEMLEAK-END", "@@SDT-DONE rc=0"]
    return ["[    1.%06d] %s" % (n, x) if not x.startswith("@@")
            and not x.startswith(("unreferenced", " ")) else x
            for n, x in enumerate(out)]


def judge(stage, text_lines):
    c = kunit.T.Checker()
    lines = [kunit.re.sub(r"^\[\s*\d+\.\d+\] ", "", x) for x in text_lines]
    res = {"done": True, "timed_out": False, "rc": 0, "seconds": 1.0,
           "log": "console"}
    with redirect_stdout(io.StringIO()) as buf:
        reports = kunit.check_boot(c, stage, res, lines)
        kunit.check_leaks(c, stage, reports)
    return c.failed, buf.getvalue()


def main():
    lt = [t for n, t in kunit.SUITES if n == "pm-qos-latency-tolerance"][0]
    qos = [t for n, t in kunit.SUITES if n == "qos-kunit-test"][0]
    assert kunit.LEAKED_REQUESTS == 65 and kunit.LEAK_MIN == 33
    cases = [
        ("complete run before the fix, all 65 leaks reported", "before",
         console(leaks=ALL_LEAKS), True),
        ("before the fix, 60 of 65 reported (stale pointers hid 5)",
         "before", console(leaks=leaks(60)), True),
        ("before the fix, 33 of 65 reported (more than half)", "before",
         console(leaks=leaks(33)), True),
        ("before the fix, the one of lt_test_flush_on_unregister missed",
         "before", console(leaks=leaks(64, first=False)), True),
        ("complete run after the fix, no leak", "after", console(), True),
        ("6.12's format: before the fix, all 65 leaks reported", "before",
         console(leaks=as_612(ALL_LEAKS)), True),
        ("6.12's format: before the fix, 33 of 65 reported", "before",
         console(leaks=as_612(leaks(33))), True),
        ("6.12's format: before the fix, 32 of 65 reported", "before",
         console(leaks=as_612(leaks(32))), False),
        ("6.12's format: after the fix with one of the many leaks", "after",
         console(leaks=as_612(leaks(1, first=False))), False),
        ("6.12's format: another leak after the fix", "after",
         console(leaks=as_612(OTHER_LEAK)), False),
        ("before the fix, 32 of 65 reported (half)", "before",
         console(leaks=leaks(32)), False),
        ("before the fix, a single leak reported", "before",
         console(leaks=LEAK), False),
        ("before the fix without the leak", "before", console(), False),
        ("before the fix, 66 reports: more than were leaked", "before",
         console(leaks=leaks(66)), False),
        ("before the fix, the leaks of another size", "before",
         console(leaks=leaks(65, size=128)), False),
        ("after the fix with the leak", "after", console(leaks=LEAK), False),
        ("after the fix with one of the many leaks", "after",
         console(leaks=leaks(1, first=False)), False),
        ("after the fix with all the leaks", "after",
         console(leaks=ALL_LEAKS), False),
        ("another leak after the fix", "after", console(leaks=OTHER_LEAK),
         False),
        ("another leak besides the expected ones", "before",
         console(leaks=ALL_LEAKS + "\n" + OTHER_LEAK), False),
        ("kmemleak never scanned", "after",
         console(scanned=False, scans=[]), False),
        ("kmemleak count still changing after 10 scans", "before",
         console(leaks=ALL_LEAKS, scanned=False,
                 scans=[0, 50, 65, 60, 65, 61, 64, 62, 65, 63]), False),
        ("a suite missing", "after",
         console(suites=[("qos-kunit-test", qos)], top_plan=1), False),
        ("suites in the other order", "after",
         console(suites=[("pm-qos-latency-tolerance", lt),
                         ("qos-kunit-test", qos)]), False),
        ("a suite truncated", "after",
         console(suites=[("qos-kunit-test", qos),
                         ("pm-qos-latency-tolerance", lt[:5])]), False),
        ("console cut off inside a suite", "after",
         [x for x in console()
          if not any(t in x for t in lt[5:]) and "ok 2 pm-qos" not in x],
         False),
        ("a test more", "after",
         console(suites=[("qos-kunit-test", qos),
                         ("pm-qos-latency-tolerance", lt + ["lt_extra"])]),
         False),
        ("a test failed", "after",
         console(suites=[("qos-kunit-test", qos),
                         ("pm-qos-latency-tolerance",
                          lt[:3] + ["not ok 4 " + lt[3]] + lt[4:])]),
         False),
        ("a test skipped", "after",
         console(suites=[("qos-kunit-test", qos),
                         ("pm-qos-latency-tolerance",
                          lt[:3] + ["ok 4 %s # SKIP no device" % lt[3]]
                          + lt[4:])]), False),
        ("a suite result not ok", "after", console(suite_ok=False), False),
        ("a WARNING", "after",
         console(extra=["WARNING: CPU: 0 PID: 1 at drivers/base/core.c:1"]),
         False),
        ("a lockdep splat", "after",
         console(extra=["WARNING: possible circular locking dependency "
                        "detected"]), False),
        ("a UBSAN report", "after",
         console(extra=["UBSAN: shift-out-of-bounds in lib/foo.c:1:2"]),
         False),
        ("a hung task", "after",
         console(extra=["INFO: task kworker/0:1:12 blocked for more than "
                        "10 seconds."]), False),
        ("a BUG", "after",
         console(extra=["BUG: sleeping function called from invalid "
                        "context"]), False),
    ]
    passed = failed = 0
    for name, stage, lines, want_pass in cases:
        nfail, out = judge(stage, lines)
        ok = (nfail == 0) == want_pass
        if ok:
            passed += 1
            print("PASS: %s: judged %s" % (name, "clean" if want_pass
                                            else "failing (%d)" % nfail))
        else:
            failed += 1
            print("FAIL: %s: %d failed checks, want %s\n%s"
                  % (name, nfail, "none" if want_pass else "some", out))
    for name, ok, why in series_checks():
        if ok:
            passed += 1
            print("PASS: " + name)
        else:
            failed += 1
            print("FAIL: %s: %s" % (name, why))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


FIXES = ('Fixes: 2d984ad132a8 ("PM / QoS: Introcuce latency tolerance '
         'device PM QoS type")')


def message(path):
    """The commit message of a format-patch file: from the blank line
    after the headers to the `---` before the diffstat."""
    with open(path) as f:
        lines = f.read().split("\n")
    start = lines.index("") + 1
    return lines[start:lines.index("---", start)]


def series_checks():
    """The series' upstream form and the cache key, on the files as they
    are in the checkout: (name, ok, why)."""
    out = []
    cover = os.path.join(HERE, kunit.COVER_LETTER)
    for kernel in sorted(kunit.KERNELS):
        names = [os.path.basename(p) for p in kunit.series(kernel)]
        out.append(("%s: the series is 0001 onward, in order, without the "
                    "cover letter" % kernel,
                    len(names) >= 2 and kunit.COVER_LETTER not in names
                    and [n[:4] for n in names]
                    == ["%04d" % (i + 1) for i in range(len(names))],
                    names))
    patches = kunit.series("6.1")
    fix = [p for p in patches
           if os.path.basename(p).startswith(kunit.FIX_PATCH)]
    msg = message(fix[0]) if len(fix) == 1 else []
    tags = [x for x in msg if x.startswith(("Fixes:", "Cc:", "Signed-off"))]
    out.append(("the fix carries Fixes: 2d984ad132a8 and Cc: stable, "
                "before its Signed-off-by",
                FIXES in tags and "Cc: stable@vger.kernel.org" in tags
                and tags[-1].startswith("Signed-off-by:"), tags))
    for p in patches:
        m = message(p)
        out.append(("%s: a commit message that says why (10 lines or "
                    "more, Signed-off-by)" % os.path.basename(p),
                    len(m) >= 10 and any(x.startswith("Signed-off-by: ")
                                         for x in m), len(m)))
    with open(cover) as f:
        text = f.read()
    n = len(patches)
    subjects = []
    for p in patches:
        with open(p) as f:
            head = f.read().split("\n\n", 1)[0].replace("\n ", " ")
        subj = [x for x in head.split("\n") if x.startswith("Subject: ")]
        subjects.append(subj[0].split("] ", 1)[1] if subj else "?")
    out.append(("the cover letter is [PATCH 0/%d], to the PM core's "
                "maintainer and list, and names every patch" % n,
                "Subject: [PATCH 0/%d] " % n in text
                and "rafael@kernel.org" in text
                and "linux-pm@vger.kernel.org" in text
                and "*** SUBJECT HERE ***" not in text
                and "*** BLURB HERE ***" not in text
                and all(s in text.replace("\n ", " ") for s in subjects),
                subjects))
    # The cache key: what the kernels are built from, not the mail.
    name = os.path.basename(patches[0])
    with open(patches[0], "rb") as f:
        orig = f.read()
    key = kunit.cache_key("6.1", "v")
    keys = {
        "message": kunit.cache_key("6.1", "v", {name: orig.replace(
            b"Subject: [PATCH", b"Subject: [PATCH v2", 1)}),
        "diff": kunit.cache_key("6.1", "v", {name: orig.replace(
            b"+#define LT_TEST_MANY 64", b"+#define LT_TEST_MANY 65", 1)}),
    }
    out.append(("cache key: the same after a commit message edit, another "
                "after a diff edit, another per kernel and source version",
                keys["message"] == key and keys["diff"] != key
                and kunit.cache_key("6.1", "v") == key
                and kunit.cache_key("6.12", "v") != key
                and kunit.cache_key("6.1", "w") != key
                and key.startswith("6.1-"), (key, keys)))
    return out


if __name__ == "__main__":
    sys.exit(main())
