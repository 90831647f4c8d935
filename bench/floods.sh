#!/usr/bin/env bash
# A flood of errors, folded: `cardkit validate` on a catalog of about 200 MB
# made from the corpus's 10E and NEO sets (in turn, seed 1), whose every card
# misses `language` and every token `language` and `relatedCards` (fields of
# v5.2.1 that these sets lack): about 40,000 errors and 21,000 warnings.
#
# Prints the lines of the default text report (folded: the target is under
# 2,000) and of `--error-limit 0` (every error), then for the text report
# (default and `--error-limit 0`), `--format json` and `--statistics`: the
# median wall time of RUNS runs (report to /dev/null), the ratio to the JSON
# report's median, and the largest peak RSS of the runs (/usr/bin/time -v's
# "Maximum resident set size"). Release build, default --jobs, --quiet.
#
# The catalog is generated under target/bench-data when missing.
#
# Usage: bench/floods.sh            (RUNS=5 MB=200 by default)
#        RUNS=3 bench/floods.sh
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
MB=${MB:-200}
source bench/lib.sh
SETS=$SHARED/corpus/neutral/set
INPUT=$DATA/floods-$MB.json

[ -f "$INPUT" ] || python3 "$SHARED/bench/make_allprintings.py" \
  "$SETS/jsonsets_10E.json" "$SETS/jsonsets_NEO.json" \
  --size-mb "$MB" --seed 1 -o "$INPUT" >&2

cardkit_binary
# The catalog is invalid: its status, 1, is checked once below.
validate() { "$CARDKIT" validate --no-config --quiet "$@" "$INPUT" || true; }
# The same, timed: /usr/bin/time runs a program, not a shell function.
timed() { measure "$CARDKIT" validate --no-config --quiet "$@" "$INPUT"; }

# Prints "seconds peak-RSS-KB": the median wall time of RUNS runs and the
# largest peak RSS of them.
measure() {
  local times=() rss=0 seconds peak
  for _ in $(seq "$RUNS"); do
    read -r seconds _ peak < <(once "$@")
    times+=("$seconds")
    ((peak > rss)) && rss=$peak
  done
  echo "$(printf '%s\n' "${times[@]}" | median) $rss"
}

bytes=$(stat -c %s "$INPUT")
machine
echo "input: $INPUT, $(awk -v b="$bytes" 'BEGIN {printf "%.1f", b / 1e6}') MB"
validate --statistics | sed 's/^/  /'
echo

status=0
"$CARDKIT" validate --no-config --quiet "$INPUT" >/dev/null || status=$?
[ "$status" -eq 1 ] || { echo "floods.sh: expected status 1, got $status" >&2; exit 1; }

folded=$(validate | wc -l)
every=$(validate --error-limit 0 | wc -l)
echo "lines of the text report: $folded by default (target: under 2,000), $every with --error-limit 0"
[ "$folded" -lt 2000 ] || echo "floods.sh: the folded report is over 2,000 lines" >&2
echo
echo "runs per figure: $RUNS (median time, largest peak RSS)"
echo
printf '| %-28s | %8s | %7s | %9s |\n' report seconds "x json" "peak RSS"
printf '|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..30})" "$(printf -- '-%.0s' {1..10})" \
  "$(printf -- '-%.0s' {1..9})" "$(printf -- '-%.0s' {1..11})"

read -r json_seconds json_rss < <(timed --format json)
row() {
  local label=$1 seconds=$2 rss=$3
  printf '| %-28s | %8s | %7s | %6.0f MB |\n' "$label" "$seconds" \
    "$(awk -v s="$seconds" -v j="$json_seconds" 'BEGIN {printf "%.2f", s / j}')" \
    "$(awk -v k="$rss" 'BEGIN {print k / 1024}')"
}
read -r seconds rss < <(timed)
row "text (folded)" "$seconds" "$rss"
read -r seconds rss < <(timed --error-limit 0)
row "text, --error-limit 0" "$seconds" "$rss"
row "json" "$json_seconds" "$json_rss"
read -r seconds rss < <(timed --statistics)
row "--statistics" "$seconds" "$rss"
