#!/bin/bash
# Build the libFuzzer targets with clang and run each for a bounded time.
# Fails (exit 1) on any finding: a crash, a sanitizer report, a broken
# invariant (abort), a leak, a timeout of one input or running out of memory.
#
#   tests/fuzz/run.sh [SECONDS-PER-TARGET] [TARGET...]
#        default 60 s, all targets (uevent udev-db latency device archive escape uevent-message umockdev sanitize names module-aliases)
#   env: BUILDDIR (default build-fuzz), FUZZ_JOBS (default 1)
#
# New inputs found go to a scratch corpus (the seed corpus in
# tests/fuzz/corpus/NAME stays as committed).  A crash is saved as
# $BUILDDIR/fuzz-artifacts/NAME/crash-*: to keep it as a regression test,
# copy it into tests/fuzz/corpus/NAME/ (the 'fuzz' suite replays it in every
# build) once the bug is fixed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(uevent udev-db latency device archive escape uevent-message umockdev sanitize names module-aliases)
builddir=${BUILDDIR:-$top/build-fuzz}

if [ ! -d "$builddir" ]; then
    CC=clang meson setup "$builddir" "$top" -Dfuzz=true -Dqemu_tests=false -Dbuildtype=debugoptimized
fi
ninja -C "$builddir" $(for t in "${targets[@]}"; do echo tests/fuzz/fuzz-$t; done)

export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
status=0
# executions per target, for .ci/summary: one "TARGET N" line each
execs=$builddir/fuzz-artifacts/executions.txt
mkdir -p "$builddir/fuzz-artifacts"
: > "$execs"
for t in "${targets[@]}"; do
    work=$(mktemp -d "${TMPDIR:-/tmp}/sysdev-fuzz-corpus-$t-XXXXXX")
    art=$builddir/fuzz-artifacts/$t
    mkdir -p "$art"
    log=$builddir/fuzz-artifacts/$t.log
    echo "== fuzz-$t: $secs s"
    jobs=()
    # parallel jobs write fuzz-N.log into the current directory: run in $art
    [ "${FUZZ_JOBS:-1}" -gt 1 ] && jobs=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS")
    if (cd "$art" && "$builddir/tests/fuzz/fuzz-$t" "$work" "$here/corpus/$t" \
        -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
        "${jobs[@]}" -artifact_prefix="$art/" -print_final_stats=1 >"$log" 2>&1); then
        grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb|^#[0-9]+.*DONE' "$log" | sed "s/^/   /" || true
        n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | awk '{s += $1} END {print s + 0}')
        echo "$t $n" >> "$execs"
    else
        status=1
        echo "FAIL: fuzz-$t found something; log: $log; artifacts: $art" >&2
        grep -E 'ERROR|invariant|SUMMARY|Test unit written' "$log" | head -20 >&2 || true
    fi
    rm -rf "$work"
done
exit $status
