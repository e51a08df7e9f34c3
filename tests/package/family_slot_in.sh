#!/usr/bin/env bash
# A family's templates slot in by name: examples/refdriver configured with
# OUTPUTS "asserts;validate" against a templates folder that has the validate
# family (tests/package/standin-validate: the contract's declarations and one
# rule, standing in for issue 12's templates) builds the generated
# ddi_validate.c into the host harness and the Windows objects, runs the
# validators before the engine in Debug and not in Release; against the
# installed templates (no validate family yet) configure fails naming it.
#   family_slot_in.sh CMAKE BUILD_DIR SOURCE_DIR GENERATOR WORK
set -u
cmake=$1 build=$2 src=$3 gen=$4 work=$5
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }
templates=$work/templates
cp -r "$prefix/share/ddigen/templates" "$templates"
cp "$src/tests/package/standin-validate/"*.xsl "$templates/"
common=(-G "$gen" -DCMAKE_PREFIX_PATH="$prefix" -DREFDRIVER_DOCS= "-DREFDRIVER_OUTPUTS=asserts;validate")

# Installed templates: no validate family yet -> configure stops, naming it.
"$cmake" -S "$src/examples/refdriver" -B "$work/absent" "${common[@]}" >"$work/absent.log" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "output family 'validate' has no templates" "$work/absent.log" &&
    ok "OUTPUTS validate without its templates: configure fails naming the family" ||
    { cat "$work/absent.log"; fail "configure with an absent family: exit $rc"; }

for config in Debug Release; do
    ex=$work/$config
    "$cmake" -S "$src/examples/refdriver" -B "$ex" "${common[@]}" -DCMAKE_BUILD_TYPE=$config \
        -DREFDRIVER_TEMPLATES="$templates" >"$work/$config-configure.log" 2>&1 ||
        { cat "$work/$config-configure.log"; fail "$config: configure"; continue; }
    "$cmake" --build "$ex" >"$work/$config-build.log" 2>&1 || { cat "$work/$config-build.log"; fail "$config: build"; continue; }
    grep -q "generating asserts,validate" "$work/$config-build.log" && [ -s "$ex/ddi/include/ddi_validate.c" ] &&
        ok "$config: ddigen_generate rendered the validate family" || fail "$config: validate family not generated"
    grep -q "ddi_validate.c.o" "$work/$config-build.log" && ok "$config: generated ddi_validate.c compiled into the harness" ||
        fail "$config: ddi_validate.c not compiled"
    for arch in x86_64 aarch64; do
        [ -s "$ex/msvc-$arch/ddi_validate.obj" ] && ok "$config: ddi_validate.obj for $arch-pc-windows-msvc" ||
            fail "$config: no $arch ddi_validate.obj"
    done
    "$ex/refdriver_harness" >"$work/$config-harness.txt" 2>&1 || { cat "$work/$config-harness.txt"; fail "$config: harness"; }
    if [ $config = Debug ]; then
        grep -q "zero-byte FILL refused (standin.DXGKARG_BUILDPAGINGBUFFER.Fill.FillSize:nonzero)" "$work/$config-harness.txt" &&
            ok "Debug: the validator ran before the engine and its rule was reported" ||
            { cat "$work/$config-harness.txt"; fail "Debug: validators did not run"; }
    else
        ! grep -q "validators" "$work/$config-harness.txt" && ok "Release: no validators" ||
            fail "Release: validators ran"
    fi
    (cd "$ex" && ctest >"$work/$config-ctest.log" 2>&1) && ok "$config: example's ctest, ddigen_check with the same templates" ||
        { cat "$work/$config-ctest.log"; fail "$config: example's ctest"; }
done
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
