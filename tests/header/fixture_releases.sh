#!/usr/bin/env bash
# The two fixture releases are copies of one another except for the
# differences tests/fixtures/wdk/README.md lists, all in d3dkmddi.h and
# d3dukmdt.h: an edit made to one release only is caught here.
#   fixture_releases.sh FIXTURE_WDK_DIR
set -u
root=$1
differ=$(cd "$root" && diff -rq 10.0.22621.0 10.0.26100.0 | sed 's/^Files 10.0.22621.0\/\([^ ]*\) and .*/\1/' | sort)
want=$(printf '%s\n' km/d3dkmddi.h shared/d3dukmdt.h)
if [ "$differ" = "$want" ]; then
    echo "ok   the releases differ only in km/d3dkmddi.h and shared/d3dukmdt.h"
    echo "1 passed, 0 failed"
else
    echo "FAIL the releases differ in:"; echo "$differ"
    echo "0 passed, 1 failed"
    exit 1
fi
