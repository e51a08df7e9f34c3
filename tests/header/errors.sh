#!/usr/bin/env bash
# Error paths of `ddigen layout`, `emit` and `validate`: each gives a clear
# message (with file:line where there is one), a nonzero exit, and leaves
# an existing output file untouched.
set -u
ddigen=$1 inputs=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0

check() { # name, expected exit (nonzero|N), stderr pattern, command...
    local name=$1 want=$2 pattern=$3
    shift 3
    "$@" >"$work/out.txt" 2>"$work/err.txt"
    local rc=$?
    if { [ "$want" = nonzero ] && [ $rc -eq 0 ]; } || { [ "$want" != nonzero ] && [ $rc -ne "$want" ]; }; then
        echo "FAIL $name: exit $rc, wanted $want"; cat "$work/err.txt"; failures=$((failures + 1)); return
    fi
    if ! grep -Eq -- "$pattern" "$work/err.txt"; then
        echo "FAIL $name: stderr does not match /$pattern/:"; cat "$work/err.txt"; failures=$((failures + 1)); return
    fi
    echo "ok   $name"; passed=$((passed + 1))
}

keep="precious content the user already had"
printf '%s' "$keep" >"$work/kept.xml"

check "missing WDK folder" 1 "no/such/wdk: error: WDK include folder does not exist" \
    "$ddigen" layout --wdk "$work/no/such/wdk" -o "$work/kept.xml"
check "not a WDK folder" 1 "error: not a WDK Include/<version> folder" \
    "$ddigen" layout --wdk "$inputs" -o "$work/kept.xml"
check "missing header" 1 "nothere.h: error: header file does not exist" \
    "$ddigen" layout --header "$work/nothere.h" -o "$work/kept.xml"
check "unknown arch" 2 "unknown architecture 'mips'" \
    "$ddigen" layout --header "$inputs/unit.h" --arch x64,mips -o "$work/kept.xml"
check "unknown DDI version" 1 "unknown DDI version 'WDDM9_9'" \
    "$ddigen" layout --header "$inputs/unit.h" --ddi-version WDDM9_9 -o "$work/kept.xml"
check "header that fails to parse" 1 "missing_include.h:3: error: 'no_such_header.h' file not found" \
    "$ddigen" layout --header "$inputs/missing_include.h" -o "$work/kept.xml"
check "record asked for but missing" 1 "record NOT_THERE was asked for but not found" \
    "$ddigen" layout --header "$inputs/unit.h" --record NOT_THERE -q -o "$work/kept.xml"
check "unwritable output" 1 "cannot create output" \
    "$ddigen" layout --header "$inputs/unit.h" -q -o "$work/no/dir/out.xml"
check "schema rejects a broken spec at its line" 1 "broken_spec.xml:6: error: .*kind=\"klass\"" \
    "$ddigen" validate "$inputs/broken_spec.xml"
check "emit refuses a broken spec" 1 "broken_spec.xml:6: error" \
    "$ddigen" emit --spec "$inputs/broken_spec.xml" -o "$work/gen"
check "emit with a missing templates folder" 1 "cannot open the templates folder" \
    "$ddigen" emit --spec "$inputs/broken_spec.xml" --templates "$work/none" -o "$work/gen"
check "unknown command" 2 "unknown command 'frobnicate'" "$ddigen" frobnicate
# a record whose members libclang would measure in quadratic time (issue 10)
python3 -c "print('#define DXGKDDI_INTERFACE_VERSION_A 1'); print('typedef struct _WIDE {');
print(''.join('    unsigned int F%d;\\n' % i for i in range(100000)) + '} WIDE;')" >"$work/wide.h"
check "record of 100,000 members refused at its line" 1 "wide.h:2: error: record WIDE has more than 1024 members" \
    "$ddigen" layout --header "$work/wide.h" --arch x64 -q -o "$work/kept.xml"

if [ "$(cat "$work/kept.xml")" != "$keep" ]; then
    echo "FAIL a failed run changed an existing output file"; failures=$((failures + 1))
else
    echo "ok   existing output untouched by failed runs"; passed=$((passed + 1))
fi
if ls "$work"/*.tmp.* >/dev/null 2>&1 || [ -e "$work/gen" ]; then
    echo "FAIL a failed run left files behind"; failures=$((failures + 1))
else
    echo "ok   no half-written files"; passed=$((passed + 1))
fi
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
