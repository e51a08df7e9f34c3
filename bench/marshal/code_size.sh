#!/usr/bin/env bash
# Object size (text + data of `size`, -O2, host compiler) of what each peer of
# bench_marshal needs for the same records: ours (the generated ddi_marshal.c),
# protobuf-c and nanopb (the code their generators write from the bench's
# .proto, and the glue that fills and reads their messages from the C
# structure, which ours does not need), and each runtime library.
# Each .c is compiled with -ffunction-sections -fdata-sections and linked
# `ld -r --gc-sections` from the records' own entry points, so a file that
# covers more records (ours covers the whole fixture) counts only what those
# records reach. Not a test: prints a table.
#   code_size.sh CC WDK_DIR GEN_INCLUDE RUNTIME_DIR GLUE_DIR WORK RECORD...
set -euo pipefail
cc=$1 wdk=$2 gen=$3 rt=$4 glue=$5 work=$6
shift 6
records=("$@")
[ ${#records[@]} -gt 0 ] || { echo "code_size.sh: no record named" >&2; exit 2; }
rm -rf "$work" && mkdir -p "$work"

flags=(-O2 -ffunction-sections -fdata-sections -w -c -I"$gen" -I"$rt/include" -I"$glue" -D_KERNEL_MODE
       -isystem "$wdk/km" -isystem "$wdk/shared" -isystem "$wdk/um")

# text + data of an object (`size` counts read-only data as text).
bytes() {
    size "$1" | awk 'NR == 2 { print $1 + $2 }'
}

# compile SRC OBJ: -O2 with the flags above; OBJ.cpu gets the compiler's
# user + system seconds.
compile() {
    local TIMEFORMAT='%U %S' t
    t=$({ time "$cc" "${flags[@]}" "$1" -o "$2" 2>"$2.log"; } 2>&1) ||
        { cat "$2.log" >&2; echo "code_size.sh: cannot compile $1" >&2; exit 1; }
    awk '{ printf "%.2f", $1 + $2 }' <<<"$t" >"$2.cpu"
}

# keep OBJ OUT SYMBOL...: what the symbols reach, the rest collected.
keep() {
    local obj=$1 out=$2 roots=() defined
    shift 2
    defined=$(nm "$obj")
    for s in "$@"; do
        grep -q " [TDRB] $s\$" <<<"$defined" || { echo "code_size.sh: $obj defines no $s" >&2; exit 1; }
        roots+=(-u "$s")
    done
    ld -r --gc-sections "${roots[@]}" "$obj" -o "$out"
}

# The message of each record (the glue names it, record IDs differ by spec).
message() {
    sed -n "s/^#define BENCH_PB_$1 \\(.*\\)\$/\\1/p" "$glue/bench_glue.h"
}

ours_roots=() pbc_roots=() np_roots=() pb_glue=() np_glue=()
for r in "${records[@]}"; do
    m=$(message "$r")
    [ -n "$m" ] || { echo "code_size.sh: $glue/bench_glue.h has no message for $r" >&2; exit 1; }
    lower=$(printf '%s' "$m" | tr 'A-Z' 'a-z')
    ours_roots+=("ddi_marshal_enc_$r" "ddi_marshal_dec_$r")
    pbc_roots+=("${lower}__init" "${lower}__pack" "${lower}__unpack" "${lower}__free_unpacked")
    np_roots+=("np_${m}_msg")
    pb_glue+=("pb_put_$m" "pb_get_$m")
    np_glue+=("np_put_$m" "np_get_$m")
done

# The glue of the protobuf peers, kept by a table of its top functions (its
# 8 bytes an entry are taken off below).
glue_tu() { # OUT HEADER FUNCTION...
    local out=$1 header=$2
    shift 2
    {
        printf '#include <dispmprt.h>\n#include <ntddk.h>\n#include <cbor.h>\n#include <stdint.h>\n'
        printf 'cbor_item_t *bench_cbor_int(int64_t v);\nint64_t bench_cbor_get(const cbor_item_t *v);\n'
        printf '#include "%s"\nvoid (*const bench_keep[])(void) = {\n' "$header"
        printf '    (void (*)(void))%s,\n' "$@"
        printf '};\n'
    } >"$out"
}
glue_tu "$work/pb_glue.c" bench_glue.h "${pb_glue[@]}"
glue_tu "$work/np_glue.c" bench_glue_np.h "${np_glue[@]}"

compile "$gen/ddi_marshal.c" "$work/ours.o"
compile "$glue/bench_records.pb-c.c" "$work/pbc.o"
compile "$glue/bench_records_np.pb.c" "$work/np.o"
compile "$work/pb_glue.c" "$work/pb_glue.o"
compile "$work/np_glue.c" "$work/np_glue.o"
rt_objs=()
for src in "$rt"/src/ddi_marshal_rt.c "$rt"/src/ddi_cbor.c; do
    compile "$src" "$work/$(basename "$src" .c).o"
    rt_objs+=("$work/$(basename "$src" .c).o")
done
ld -r "${rt_objs[@]}" -o "$work/ours_rt.o"
keep "$work/ours.o" "$work/ours_kept.o" "${ours_roots[@]}"
keep "$work/pbc.o" "$work/pbc_kept.o" "${pbc_roots[@]}"
keep "$work/np.o" "$work/np_kept.o" "${np_roots[@]}"
keep "$work/pb_glue.o" "$work/pb_glue_kept.o" bench_keep
keep "$work/np_glue.o" "$work/np_glue_kept.o" bench_keep

# The libraries as installed (Debian's own flags): protobuf-c's shared
# library, nanopb's static one (pb_encode, pb_decode, pb_common).
lib_size() { # NAME...: the first file found
    for f in "$@"; do
        [ -e "$f" ] && { size "$f" | awk 'NR > 1 { s += $1 + $2 } END { print s }'; return; }
    done
    echo "?"
}
pbc_lib=$(lib_size /usr/lib/x86_64-linux-gnu/libprotobuf-c.so.1 /usr/lib/*/libprotobuf-c.so.1)
np_lib=$(lib_size /usr/lib/x86_64-linux-gnu/libprotobuf-nanopb.a /usr/lib/*/libprotobuf-nanopb.a)

ours=$(bytes "$work/ours_kept.o") ours_rt=$(bytes "$work/ours_rt.o") ours_all=$(bytes "$work/ours.o")
pbc=$(bytes "$work/pbc_kept.o") pbc_all=$(bytes "$work/pbc.o")
np=$(bytes "$work/np_kept.o") np_all=$(bytes "$work/np.o")
pb_glue_b=$(($(bytes "$work/pb_glue_kept.o") - 8 * ${#pb_glue[@]}))
np_glue_b=$(($(bytes "$work/np_glue_kept.o") - 8 * ${#np_glue[@]}))
cpu() { cat "$work/$1.o.cpu"; }
echo "code size for ${records[*]}: text + data bytes, $("$cc" --version | head -1) -O2, x86_64 host"
printf '%-11s %10s %10s %10s %10s   %-24s %s\n' peer generated glue runtime total "(generated file whole)" \
    "compile cpu s: generated, glue"
printf '%-11s %10d %10s %10d %10d   %-24d %s\n' ours "$ours" - "$ours_rt" $((ours + ours_rt)) "$ours_all" \
    "$(cpu ours), -"
printf '%-11s %10d %10d %10s %10s   %-24d %s\n' protobuf-c "$pbc" "$pb_glue_b" "$pbc_lib" \
    "$([ "$pbc_lib" = "?" ] && echo "?" || echo $((pbc + pb_glue_b + pbc_lib)))" "$pbc_all" "$(cpu pbc), $(cpu pb_glue)"
printf '%-11s %10d %10d %10s %10s   %-24d %s\n' nanopb "$np" "$np_glue_b" "$np_lib" \
    "$([ "$np_lib" = "?" ] && echo "?" || echo $((np + np_glue_b + np_lib)))" "$np_all" "$(cpu np), $(cpu np_glue)"
echo "generated: what the records' entry points reach (ours: enc + dec; protobuf-c: init, pack, unpack, free;"
echo "nanopb: the message descriptors); glue: filling and reading the messages from the C structure, written"
echo "from the spec by gen_bench_glue.py; runtime: ddi_marshal_rt.c + ddi_cbor.c compiled here, the peers'"
echo "libraries as Debian ships them (libprotobuf-c.so.1 whole, libprotobuf-nanopb.a). Compile time: of the whole"
echo "file (ours: every record of the fixture, not only these), one process on a shared machine."
