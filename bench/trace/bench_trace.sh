#!/usr/bin/env bash
# Cost per call of `ddigen trace` (read, rebuild the record's bytes, check
# the documented rules, print): a trace of CALLS calls against the same
# trace of its own calls once, so that loading the spec and lowering its
# rules cancel out. Best of RUNS, wall and CPU time. Not a test.
#   bench_trace.sh DDIGEN SPEC TRACE [REPEAT] [RUNS]
# TRACE is a CBOR sequence (a marshaller's trace); it is repeated REPEAT
# times (default 2000) to make the long one.
set -eu
ddigen=$1 spec=$2 trace=$3 repeat=${4:-2000} runs=${5:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for _ in $(seq "$repeat"); do cat "$trace"; done >"$work/long.cbor"
calls=$("$ddigen" trace "$trace" --spec "$spec" | grep -c '^call ')
best() { # file -> best wall and best CPU (user + system) seconds of RUNS
    local bw= bc=
    for _ in $(seq "$runs"); do
        local w c
        read -r w c < <({ TIMEFORMAT='%R %U %S'; time "$ddigen" trace "$1" --spec "$spec" -o /dev/null; } 2>&1 >/dev/null |
                        awk '{print $1, $2 + $3}')
        bw=$(awk -v a="$w" -v b="${bw:-}" 'BEGIN {print (b == "" || a < b) ? a : b}')
        bc=$(awk -v a="$c" -v b="${bc:-}" 'BEGIN {print (b == "" || a < b) ? a : b}')
    done
    echo "$bw $bc"
}
read -r sw sc < <(best "$trace")
read -r lw lc < <(best "$work/long.cbor")
awk -v sw="$sw" -v sc="$sc" -v lw="$lw" -v lc="$lc" -v n="$calls" -v r="$repeat" 'BEGIN {
    k = n * (r - 1);
    printf "trace: %d calls %.3f s wall %.3f s cpu, %d calls %.3f s wall %.3f s cpu (spec load and lowering in both)\n",
           n, sw, sc, n * r, lw, lc;
    printf "trace: %.1f us wall, %.1f us cpu per call\n", (lw - sw) / k * 1e6, (lc - sc) / k * 1e6 }'
