# Sourced by test scripts: the count of checks and their lines.
#   ok TEXT / fail TEXT    one check passed / failed
#   checks_done            prints the counts; returns 1 when any failed
failures=0 passed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
checks_done() {
    echo "$passed passed, $failures failed"
    [ $failures -eq 0 ]
}
