#!/usr/bin/env bash
# `cardkit diff` and `cardkit migrate apply` on generated inputs, with their
# wall time and peak RSS (/usr/bin/time -v's "Maximum resident set size"):
#   - two catalogs of MB megabytes each (the tests' seeded generator of build
#     pairs: crates/cardkit-diff/tests/support/pairs.rs) with CHANGES changes
#     of every kind, diffed, beside `validate` of both (the diff's target is
#     within 4x of that);
#   - NOTICES Migration notices (merges in chains, and deletes) applied to a
#     CSV of ROWS rows.
# The inputs are made under target/bench-data/diff when missing.
#
# Usage: bench/diff.sh     (MB=500 CHANGES=3000 NOTICES=100000 ROWS=1000000)
set -euo pipefail
cd "$(dirname "$0")/.."

MB=${MB:-500}
CHANGES=${CHANGES:-3000}
NOTICES=${NOTICES:-100000}
ROWS=${ROWS:-1000000}
source bench/lib.sh
DATA=$DATA/diff-$MB
mkdir -p "$DATA"

cardkit_binary
cargo build --release -q -p cardkit-diff --example bench_data
GEN=target/release/examples/bench_data
[ -f "$DATA/new.json" ] || "$GEN" pair "$DATA" "$MB" "$CHANGES" >&2
[ -f "$DATA/refs.csv" ] || "$GEN" notices "$DATA" "$NOTICES" "$ROWS" >&2

# Prints "| what | seconds | peak RSS MB |".
row() {
  local what=$1 seconds kb
  shift
  read -r seconds _ kb < <(once "$@")
  printf '| %-58s | %8s | %8s |\n' "$what" "$seconds" "$((kb / 1024))"
}

machine
echo "inputs: $(du -m "$DATA/old.json" | cut -f1) MB and $(du -m "$DATA/new.json" | cut -f1) MB catalogs," \
  "$(wc -l < "$DATA/notices.jsonl") notices, a CSV of $(($(wc -l < "$DATA/refs.csv") - 1)) rows"
echo
printf '| %-58s | %8s | %8s |\n' command seconds "RSS MB"
printf '|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..60})" "$(printf -- '-%.0s' {1..10})" "$(printf -- '-%.0s' {1..10})"
row "validate old.json new.json" "$CARDKIT" validate -q "$DATA/old.json" "$DATA/new.json"
row "validate old.json new.json --jobs 1" "$CARDKIT" validate -q --jobs 1 "$DATA/old.json" "$DATA/new.json"
row "diff old.json new.json --emit-migrations" "$CARDKIT" diff --emit-migrations "$DATA/emitted.jsonl" "$DATA/old.json" "$DATA/new.json"
row "diff old.json new.json --jobs 1" "$CARDKIT" diff --jobs 1 "$DATA/old.json" "$DATA/new.json"
row "diff old.json old.json (no change)" "$CARDKIT" diff "$DATA/old.json" "$DATA/old.json"
row "diff old.json new.json --references" "$CARDKIT" diff --references "$DATA/old.json" "$DATA/new.json"
row "migrate apply: notices to refs.csv (-o)" "$CARDKIT" migrate apply --migrations "$DATA/notices.jsonl" --column catalog_id -o "$DATA/out.csv" "$DATA/refs.csv"
row "migrate apply: again, on the output (nothing changes)" "$CARDKIT" migrate apply --migrations "$DATA/notices.jsonl" --column catalog_id --dry-run "$DATA/out.csv"
