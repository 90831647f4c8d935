#!/usr/bin/env bash
# `cardkit validate --references` on a generated catalog of MB megabytes
# (../shared/bench/make_allprintings.py from the corpus' sets, seed 1, the
# spec's names), beside `validate` alone: wall time and peak RSS
# (/usr/bin/time -v's "Maximum resident set size"), medians of ROUNDS
# alternating rounds, and the time ratio. Targets: the ratio at most 1.3,
# peak RSS under 200 MB at 500 MB.
#
# Usage: bench/references.sh     (MB=500 ROUNDS=5 JOBS=2)
set -euo pipefail
cd "$(dirname "$0")/.."

MB=${MB:-500}
ROUNDS=${ROUNDS:-5}
JOBS=${JOBS:-2}
source bench/lib.sh
CATALOG=$(catalog "$MB" mixed)
cardkit_binary

plain_t=() plain_m=() refs_t=() refs_m=()
for _ in $(seq "$ROUNDS"); do
  read -r t _ m < <(once "$CARDKIT" validate -q --jobs "$JOBS" "$CATALOG")
  plain_t+=("$t") plain_m+=("$m")
  read -r t _ m < <(once "$CARDKIT" validate -q --jobs "$JOBS" --references "$CATALOG")
  refs_t+=("$t") refs_m+=("$m")
done
pt=$(printf '%s\n' "${plain_t[@]}" | median)
rt=$(printf '%s\n' "${refs_t[@]}" | median)
pm=$(printf '%s\n' "${plain_m[@]}" | median)
rm_=$(printf '%s\n' "${refs_m[@]}" | median)
machine
echo "input: $(du -m "$CATALOG" | cut -f1) MB catalog, --jobs $JOBS, medians of $ROUNDS alternating rounds"
echo
printf '| %-36s | %8s | %8s |\n' command seconds "RSS MB"
printf '|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..38})" "$(printf -- '-%.0s' {1..10})" "$(printf -- '-%.0s' {1..10})"
printf '| %-36s | %8s | %8s |\n' "validate" "$pt" "$((pm / 1024))"
printf '| %-36s | %8s | %8s |\n' "validate --references" "$rt" "$((rm_ / 1024))"
echo
awk -v a="$rt" -v b="$pt" 'BEGIN { printf "time ratio (--references / plain): %.3f\n", a / b }'
"$CARDKIT" validate --references --statistics "$CATALOG" 2>/dev/null | grep -E "^warnings|^errors|references" || true
