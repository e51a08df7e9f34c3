# shellcheck shell=bash disable=SC2034 # best is read by the scripts that source this
# Timing helpers the shell benchmarks source: best of N runs of a command,
# wall and CPU (user + system of the command and its children) in ms.
# The machine is shared: wall time moves with the load, CPU time much less,
# so both are printed and the ratios given for both.

# time_best RUNS COMMAND...: sets best="WALL_MS CPU_MS" of the fastest
# wall-clock run (the CPU figure is the lowest seen, which is how it is
# least disturbed). Output of the command is dropped; its exit status too
# (a benchmark checks its inputs once, before timing).
time_best() {
    local runs=$1 best_wall="" best_cpu="" t
    shift
    for _ in $(seq "$runs"); do
        t=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>&1 || true; } 2>&1 | tail -1)
        read -r wall user sys <<<"$t"
        local w c
        w=$(awk -v x="$wall" 'BEGIN { printf "%d", x * 1000 }')
        c=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%d", (u + s) * 1000 }')
        if [ -z "$best_wall" ] || [ "$w" -lt "$best_wall" ]; then best_wall=$w; fi
        if [ -z "$best_cpu" ] || [ "$c" -lt "$best_cpu" ]; then best_cpu=$c; fi
    done
    best="$best_wall $best_cpu"
}

# lower_of "WALL CPU" "WALL CPU": the lower wall and the lower CPU of two
# figures (an empty first one gives the second), for interleaved rounds.
lower_of() {
    [ -z "$1" ] && { echo "$2"; return; }
    awk -v a="$1" -v b="$2" 'BEGIN { split(a, x, " "); split(b, y, " ");
        printf "%d %d\n", (x[1] < y[1] ? x[1] : y[1]), (x[2] < y[2] ? x[2] : y[2]) }'
}

# row LABEL "WALL CPU"
row() {
    local wall cpu
    read -r wall cpu <<<"$2"
    printf '  %-44s %7d  %7d\n' "$1" "$wall" "$cpu"
}

# ratio LABEL "WALL CPU" "WALL CPU" TARGET(or empty)
ratio() {
    awk -v l="$1" -v a="$2" -v b="$3" -v t="$4" 'BEGIN {
        split(a, x, " "); split(b, y, " ");
        printf "ratio %s = %.3f wall, %.3f cpu", l, x[1] / y[1], x[2] / y[2];
        if (t != "") printf " (target <= %s)", t;
        printf "\n" }'
}
