#!/usr/bin/env bash
# The cost of check-driver over the sample miniport next to compiling the
# same four sources with clang -fsyntax-only, same kit, target and MSVC-mode
# flags (the lower bound: check-driver parses each source once, then walks its
# AST and lexes the files it includes for SAL). Not a test: prints wall and CPU
# seconds of each, best of RUNS.
#   measure.sh DDIGEN CLANG SOURCE_DIR KIT_DIR SPEC [ARCH] [RUNS]
set -eu
ddigen=$1 clang=$2 src=$3 kit=$(cd "$4" && pwd -P) spec=$5 arch=${6:-x64} runs=${7:-3}
driver=$src/tests/fixtures/miniport/src
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$ddigen" overlay --wdk "$kit" -o "$work/overlay.json"
case $arch in x86) triple=i686 macro=_X86_ ;; x64) triple=x86_64 macro=_AMD64_ ;; arm64) triple=aarch64 macro=_ARM64_ ;; esac
flags=(-fsyntax-only -target $triple-pc-windows-msvc -fms-extensions -fms-compatibility -fms-compatibility-version=19.38
       -nostdlibinc -D$macro -D_KERNEL_MODE -ivfsoverlay "$work/overlay.json"
       -I"$kit/km" -I"$kit/km/crt" -I"$kit/shared" -I"$kit/um" -I"$kit/ucrt" -I"$driver")
syntax_only() {
    for f in hw_driver.cpp hw_memory.cpp hw_paging.cpp; do
        "$clang" -x c++ -std=c++17 -fno-exceptions -fno-rtti "${flags[@]}" "$driver/$f"
    done
    "$clang" -x c -std=c11 "${flags[@]}" "$driver/hw_vidpn.c"
}
check_driver() {
    (cd "$driver" && "$ddigen" check-driver hw_driver.cpp hw_memory.cpp hw_paging.cpp hw_vidpn.c \
        --spec "$spec" --wdk "$kit" --arch "$arch" -o /dev/null -- -I.)
}
best() { # name command...
    local name=$1 best_wall= best_cpu=
    shift
    for _ in $(seq "$runs"); do
        local t
        t=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>&1; } 2>&1 | tail -1)
        read -r wall user sys <<<"$t"
        local cpu
        cpu=$(echo "$user + $sys" | bc)
        if [ -z "$best_wall" ] || [ "$(echo "$wall < $best_wall" | bc)" = 1 ]; then best_wall=$wall best_cpu=$cpu; fi
    done
    printf '%-34s wall %6.2f s   cpu %6.2f s\n' "$name" "$best_wall" "$best_cpu"
}
best "clang -fsyntax-only (4 sources)" syntax_only
best "ddigen check-driver (4 sources)" check_driver
