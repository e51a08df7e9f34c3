#!/usr/bin/env bash
# Where ddigen writes (issue 10, items 9 and 10): -o through a symlink
# replaces the target and keeps the link, a FIFO or device is written in
# place, a replaced file keeps its mode, a killed run's PATH.tmp.PID is
# removed by the next run, a full stdout is an error, and every subcommand
# answers --help with its usage and exit 0.
#   output_safety.sh DDIGEN SPEC HEADER WORK
set -u
ddigen=$1 spec=$2 header=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
failures=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
cd "$work" || exit 1
# A command that writes a file: emit's spec goes in, a diff report comes out
# ("-o" is the common writer, ddigen_write_file, for every stage).
write_to() { "$ddigen" docs --no-syntax -q "$docs_page" -o "$1"; }
docs_page=$work/page.md
cat > "$docs_page" <<'MD'
---
UID: NS:fixture._TINY
title: TINY (fixture.h)
---

# TINY structure

## -struct-fields

### -field Size

The size in bytes.
MD

# symlink: the target is replaced, the link stays a link
echo old > real.xml
ln -s real.xml link.xml
write_to link.xml
[ -L link.xml ] && grep -q "<page " real.xml && ok "-o through a symlink writes its target, the link stays" ||
    fail "-o through a symlink: link $( [ -L link.xml ] && echo kept || echo replaced)"
# dangling symlink: the file is created where it points
ln -s made.xml dangling.xml
write_to dangling.xml
[ -L dangling.xml ] && [ -f made.xml ] && ok "-o through a dangling symlink creates its target" ||
    fail "-o through a dangling symlink"

# mode of a replaced file
echo old > mode.xml && chmod 0640 mode.xml
write_to mode.xml
[ "$(stat -c %a mode.xml)" = 640 ] && ok "a replaced file keeps its mode (0640)" ||
    fail "mode after replace: $(stat -c %a mode.xml)"
umask 027
write_to new.xml
[ "$(stat -c %a new.xml)" = 640 ] && ok "a new file follows the umask" || fail "new file mode $(stat -c %a new.xml)"
umask 022

# FIFO: written in place, stays a FIFO
mkfifo pipe
cat pipe > from-pipe.xml &
reader=$!
write_to pipe
wait $reader
[ -p pipe ] && grep -q "<page " from-pipe.xml && ok "-o FIFO is written through and stays a FIFO" ||
    fail "-o FIFO: $( [ -p pipe ] && echo 'still a FIFO, nothing read' || echo replaced)"
# a character device (root only: a null device of our own, never /dev/null)
if mknod -m 666 null c 1 3 2>/dev/null; then
    write_to null
    [ -c null ] && ok "-o character device is written through and stays a device" || fail "-o device replaced"
else
    echo "SKIPPED: mknod needs root"
fi
mkdir folder.xml
write_to folder.xml 2>err.txt
[ $? -eq 1 ] && grep -q "output is a folder" err.txt && ok "-o a folder: error" || fail "-o a folder"

# leftovers of a killed run: PATH.tmp.PID with a dead PID go, live ones stay
sleep 30 & live=$!
( exit 0 ) & dead=$!; wait $dead
touch "out.xml.tmp.$dead" "out.xml.tmp.$live" other.xml.tmp.99999999
write_to out.xml
[ ! -e "out.xml.tmp.$dead" ] && [ -e "out.xml.tmp.$live" ] && [ -e other.xml.tmp.99999999 ] &&
    ok "stale out.xml.tmp.PID of a dead run removed; a live run's and other files' kept" ||
    fail "stale temporary files: $(ls | grep tmp | tr '\n' ' ')"
# a SIGKILLed run: nothing of ours is left after the next run
mkdir kill && cp "$spec" kill/spec.xml
"$ddigen" emit --spec kill/spec.xml -o kill/out >/dev/null 2>&1 &
victim=$!
sleep 0.05; kill -9 $victim 2>/dev/null; wait $victim 2>/dev/null
"$ddigen" emit --spec kill/spec.xml -o kill/out >/dev/null 2>&1
left=$(find kill -name "*.tmp.*" | wc -l)
[ "$left" -eq 0 ] && ok "after a SIGKILLed emit the next run leaves no *.tmp.*" || fail "$left temporary files left"
# temporary folders and files of a killed layout run (TMPDIR/ddigen-KIND-PID-*)
mkdir -p tmp/ddigen-pch-$dead-AbCdEf tmp/ddigen-pch-$live-AbCdEf
touch tmp/ddigen-pch-$dead-AbCdEf/prefix-x64.pch tmp/ddigen-overlay-$dead-XyZ123
mkdir -p precious && touch precious/keep.txt && ln -s ../precious tmp/ddigen-pch-$dead-Planted
TMPDIR=$work/tmp "$ddigen" layout -q --header "$header" -o layout.xml >/dev/null 2>err.txt ||
    { fail "layout of $header"; cat err.txt; }
[ -e precious/keep.txt ] && ok "a planted symlink named like a leftover is not followed" ||
    fail "a symlink named like a leftover was followed: precious/keep.txt deleted"
rm -f tmp/ddigen-pch-$dead-Planted
[ ! -e tmp/ddigen-pch-$dead-AbCdEf ] && [ ! -e tmp/ddigen-overlay-$dead-XyZ123 ] && [ -d tmp/ddigen-pch-$live-AbCdEf ] &&
    [ -z "$(ls tmp | grep -v -- "-$live-")" ] &&
    ok "a killed run's temporary folder and overlay removed by the next layout; nothing of its own left" ||
    fail "temporary folders: $(ls tmp | tr '\n' ' ')"

kill $live 2>/dev/null

# full stdout
"$ddigen" docs --no-syntax -q "$docs_page" -o - > /dev/full 2>err.txt
[ $? -eq 1 ] && grep -q "No space left" err.txt && ok "docs -o - to a full stdout: exit 1" || fail "docs to /dev/full"
"$ddigen" validate --help > /dev/full 2>err.txt
[ $? -eq 1 ] && ok "usage to a full stdout: exit 1" || fail "usage to /dev/full"

# --help on every subcommand, from a folder that has a file named --help
touch -- --help
for c in layout docs diff spec lint emit generate validate overlay; do
    "$ddigen" $c --help > help.txt 2>err.txt
    rc=$?
    [ $rc -eq 0 ] && grep -qi "usage" help.txt && ! grep -q "error" err.txt && ok "$c --help: usage, exit 0" ||
        { fail "$c --help: exit $rc"; cat err.txt; }
done

echo "$failures failed"
[ $failures -eq 0 ]
