#!/usr/bin/env bash
# Runs the structural index's tests under Miri, which checks every memory
# access and every SIMD intrinsic it interprets: the portable path as built
# for any x86-64, then built for AVX2 and for AVX-512 so that the SIMD
# module's loads and intrinsics run under Miri too (the only way the
# AVX-512 path runs on a processor without it). Interpreted about a
# thousand times slower than native, so the tests take their smaller sets
# under `cfg(miri)` and the property tests few cases; even so each build's
# run of every index test takes most of an hour on one core. Not part of
# CI (it needs the nightly toolchain's `miri` and `rust-src` components).
#
#   bash fuzz/miri.sh                       # every index test, each build
#   TESTS='index::tests::string_stops index::tests::the_simd' bash fuzz/miri.sh
#   BUILDS=avx512 bash fuzz/miri.sh         # one build: portable, avx2, avx512
set -euo pipefail
cd "$(dirname "$0")/.."

TESTS=${TESTS:-index::}
export PROPTEST_CASES=${PROPTEST_CASES:-8}
# Proptest's failure files and forking are not for the interpreter.
export PROPTEST_DISABLE_FAILURE_PERSISTENCE=1
export MIRIFLAGS=${MIRIFLAGS:-"-Zmiri-disable-isolation"}

if ! cargo +nightly miri --version >/dev/null 2>&1; then
    echo "miri.sh: needs Miri: rustup component add miri rust-src --toolchain nightly" >&2
    exit 2
fi

run() {
    local label=$1
    shift
    echo "== $label"
    local start=$SECONDS
    # shellcheck disable=SC2086 # several filters, split on spaces
    "$@" cargo +nightly miri test -p cardkit-json --lib -- $TESTS
    echo "== $label: $((SECONDS - start)) s"
}

BUILDS=${BUILDS:-portable avx2 avx512}
for build in $BUILDS; do
    case $build in
    portable) run "portable (x86-64 baseline)" env ;;
    avx2)
        run "AVX2 (built with -C target-feature=+avx2)" \
            env RUSTFLAGS="-C target-feature=+avx2" CARGO_TARGET_DIR=target/miri-avx2
        ;;
    avx512)
        run "AVX-512 (built with -C target-feature=+avx512f,+avx512bw)" \
            env RUSTFLAGS="-C target-feature=+avx512f,+avx512bw" CARGO_TARGET_DIR=target/miri-avx512
        ;;
    *)
        echo "miri.sh: unknown build $build (portable, avx2, avx512)" >&2
        exit 2
        ;;
    esac
done
