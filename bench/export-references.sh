#!/usr/bin/env bash
# `cardkit export --references` on a generated catalog of MB megabytes
# (../shared/bench/make_allprintings.py from the corpus' sets, seed 1, the
# spec's names), beside the export alone, into a new SQLite database and a
# new Parquet directory: wall time and peak RSS (/usr/bin/time's "%M"),
# medians of ROUNDS alternating rounds, and the time ratio.
#
# Usage: bench/export-references.sh     (MB=500 ROUNDS=3 JOBS=2)
set -euo pipefail
cd "$(dirname "$0")/.."

MB=${MB:-500}
ROUNDS=${ROUNDS:-3}
JOBS=${JOBS:-2}
source bench/lib.sh
CATALOG=$(catalog "$MB" mixed)
cardkit_binary

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Exports into a new target once; prints "wall-seconds CPU-seconds
# peak-RSS-KB".
export_once() {
  rm -rf "$out/export.db" "$out/parquet"
  once "$CARDKIT" export -q --no-config --jobs "$JOBS" --on-invalid keep "$@" "$CATALOG"
}

machine
echo "input: $(du -m "$CATALOG" | cut -f1) MB catalog, --jobs $JOBS, medians of $ROUNDS alternating rounds"
echo
printf '| %-44s | %8s | %8s |\n' command seconds "RSS MB"
printf '|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..46})" "$(printf -- '-%.0s' {1..10})" "$(printf -- '-%.0s' {1..10})"
for target in "$out/export.db" "parquet:$out/parquet"; do
  plain_t=() plain_m=() refs_t=() refs_m=()
  for _ in $(seq "$ROUNDS"); do
    read -r t _ m < <(export_once --to "$target")
    plain_t+=("$t") plain_m+=("$m")
    read -r t _ m < <(export_once --references --to "$target")
    refs_t+=("$t") refs_m+=("$m")
  done
  pt=$(printf '%s\n' "${plain_t[@]}" | median)
  rt=$(printf '%s\n' "${refs_t[@]}" | median)
  pm=$(printf '%s\n' "${plain_m[@]}" | median)
  rm_=$(printf '%s\n' "${refs_m[@]}" | median)
  shown=${target/$out\//}
  printf '| %-44s | %8s | %8s |\n' "export --to $shown" "$pt" "$((pm / 1024))"
  printf '| %-44s | %8s | %8s |\n' "export --references --to $shown" "$rt" "$((rm_ / 1024))"
  awk -v a="$rt" -v b="$pt" -v t="$shown" 'BEGIN { printf "time ratio (--references / plain), %s: %.3f\n", t, a / b }' >&2
done
