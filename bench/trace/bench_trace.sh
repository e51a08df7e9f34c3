#!/usr/bin/env bash
# Cost per call of `ddigen trace` (read, rebuild the record's bytes, check
# the documented rules, print): a trace of CALLS calls against the same
# trace of its own calls once, so that loading the spec and lowering its
# rules cancel out. Best of RUNS. Not a test.
#   bench_trace.sh DDIGEN SPEC TRACE [REPEAT] [RUNS]
# TRACE is a CBOR sequence (a marshaller's trace); it is repeated REPEAT
# times (default 2000) to make the long one.
set -eu
ddigen=$1 spec=$2 trace=$3 repeat=${4:-2000} runs=${5:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for _ in $(seq "$repeat"); do cat "$trace"; done >"$work/long.cbor"
calls=$("$ddigen" trace "$trace" --spec "$spec" | grep -c '^call ')
best() { # file -> best wall seconds of RUNS
    local b=
    for _ in $(seq "$runs"); do
        local t0 t1
        t0=$(date +%s.%N)
        "$ddigen" trace "$1" --spec "$spec" -o /dev/null
        t1=$(date +%s.%N)
        b=$(echo "$t1 $t0 ${b:-}" | awk '{d = $1 - $2; if ($3 == "" || d < $3) print d; else print $3}')
    done
    echo "$b"
}
short=$(best "$trace")
long=$(best "$work/long.cbor")
awk -v s="$short" -v l="$long" -v n="$calls" -v r="$repeat" 'BEGIN {
    per = (l - s) / (n * (r - 1));
    printf "trace: %d calls %.3f s, %d calls %.3f s (spec load and lowering included in both)\n", n, s, n * r, l;
    printf "trace: %.1f us per call\n", per * 1e6 }'
