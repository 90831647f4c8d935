#!/usr/bin/env bash
# Throughput on compressed catalogs: the catalog of bench/run.sh (MB MB),
# compressed with the command-line tools gzip, zstd, xz and bzip2 (each at
# its default level; a format whose tool is missing is skipped, and said),
# validated by the release CLI as it is (told by its magic bytes, decoded on
# a thread of its own as it is read). For each: the JSON report must equal
# the plain file's (path and time aside); then, the plain file and each
# format run once a round in turn for RUNS rounds (alternating rounds), the
# median wall time, its ratio to the plain file's (x plain: the plain time
# over the format's, 1.00 is as fast as the plain file), MB/s on the
# compressed bytes and on the expanded (validated) bytes, and the largest
# peak RSS of the rounds (/usr/bin/time -v's "Maximum resident set size").
# --jobs JOBS (2 by default: two cores), --quiet, --format json, report to
# /dev/null.
#
# Inputs are made under target/bench-data when missing (the catalog as
# bench/run.sh makes it; each compressed file once, kept for the next run).
#
# Usage: bench/compressed.sh            (RUNS=3 MB=500 JOBS=2 by default)
#        CARDKIT=/path/to/cardkit RUNS=7 MB=100 bench/compressed.sh
#        RUNS=7 MB=100 bench/compressed.sh
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
MB=${MB:-500}
JOBS=${JOBS:-2}
source bench/lib.sh
PLAIN=$(catalog "$MB")
cardkit_binary

# The formats: name, tool, its command to compress standard input, ending.
FORMATS=(
  "gzip|gzip|gzip -c|gz"
  "zstd|zstd|zstd -q -c|zst"
  "xz|xz|xz -c -T2|xz"
  "bzip2|bzip2|bzip2 -c|bz2"
)

# Validates FILE once; prints "wall-seconds CPU-seconds peak-RSS-KB".
validate_once() {
  once "$CARDKIT" validate --no-config --quiet --format json --jobs "$JOBS" "$1"
}

# The JSON report of FILE, without its path and time, to compare.
comparable() {
  { "$CARDKIT" validate --no-config --quiet --format json "$1" || true; } | python3 -c '
import json, sys
report = json.load(sys.stdin)
for file in report["files"]:
    file["path"] = "<input>"
del report["summary"]["seconds"]
print(json.dumps(report, sort_keys=True))'
}

expanded=$(stat -L -c %s "$PLAIN")
machine
echo "input: $PLAIN, $(awk -v b="$expanded" 'BEGIN {printf "%.1f", b / 1e6}') MB expanded"
echo "rounds: $RUNS, each file once a round in turn (median time, largest peak RSS); --jobs $JOBS"
echo

expected=$(mktemp)
trap 'rm -f "$expected"' EXIT
comparable "$PLAIN" >"$expected"

formats=(plain)
files=("$PLAIN")
for entry in "${FORMATS[@]}"; do
  IFS='|' read -r format tool command ending <<<"$entry"
  if ! command -v "$tool" >/dev/null; then
    echo "$format: skipped, no $tool on this machine"
    continue
  fi
  file=$PLAIN.$ending
  if [ ! -f "$file" ]; then
    start=$(date +%s.%N)
    $command <"$PLAIN" >"$file.part"
    mv "$file.part" "$file"
    echo "$format: compressed with \`$command\` in $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.0f", b - a}') s" >&2
  fi
  if ! cmp -s "$expected" <(comparable "$file"); then
    echo "compressed.sh: the report of $file differs from the plain file's" >&2
    exit 1
  fi
  echo "$format: the JSON report equals the plain file's; text summary: $("$CARDKIT" validate --no-config --quiet "$file" | grep '^read ' || true)"
  formats+=("$format")
  files+=("$file")
done

declare -A times=() rss=()
for _ in $(seq "$RUNS"); do
  for i in "${!files[@]}"; do
    read -r seconds _ peak < <(validate_once "${files[$i]}")
    times[$i]="${times[$i]:-} $seconds"
    ((peak > ${rss[$i]:-0})) && rss[$i]=$peak
  done
done
plain=$(printf '%s\n' ${times[0]} | median)
rows=()
for i in "${!files[@]}"; do
  seconds=$(printf '%s\n' ${times[$i]} | median)
  stored=$(stat -L -c %s "${files[$i]}")
  rows+=("$(printf '| %-6s | %9.1f | %6.1f%% | %8s | %7.2f | %9.0f | %9.0f | %6.0f MB |' "${formats[$i]}" \
    "$(awk -v b="$stored" 'BEGIN {print b / 1e6}')" \
    "$(awk -v s="$stored" -v e="$expanded" 'BEGIN {print 100 * s / e}')" \
    "$seconds" \
    "$(awk -v p="$plain" -v s="$seconds" 'BEGIN {print p / s}')" \
    "$(awk -v b="$stored" -v s="$seconds" 'BEGIN {print b / 1e6 / s}')" \
    "$(awk -v b="$expanded" -v s="$seconds" 'BEGIN {print b / 1e6 / s}')" \
    "$(awk -v k="${rss[$i]}" 'BEGIN {print k / 1024}')")")
done

echo
printf '| %-6s | %9s | %7s | %8s | %7s | %9s | %9s | %9s |\n' \
  format "stored MB" "of size" seconds "x plain" "MB/s in" "MB/s out" "peak RSS"
echo "|--------|-----------|---------|----------|---------|-----------|-----------|-----------|"
printf '%s\n' "${rows[@]}"
echo
echo "x plain: the plain file's time over the format's; MB/s in: compressed (stored) bytes per second; out: expanded bytes validated per second."
