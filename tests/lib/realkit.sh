# Sourced by the tests that read a real kit of ../shared/wdk: the kit
# argument made absolute and symlink-free (the clang overlay needs that),
# or the test skipped (exit 77, ctest's SKIP_RETURN_CODE) with a message
# when ../shared is absent.
#   realkit_or_skip KIT_ARG    sets $kit
realkit_or_skip() {
    if [ ! -d "$1" ]; then
        echo "SKIP: no real WDK at $1 (../shared is absent): nothing tested"
        exit 77
    fi
    kit=$(cd "$1" && pwd -P)
}
