#!/usr/bin/env bash
# Throughput on compressed catalogs: the 500 MB catalog of bench/run.sh,
# compressed with the command-line tools gzip, zstd, xz and bzip2 (each at
# its default level; a format whose tool is missing is skipped, and said),
# validated by the release CLI as it is (told by its magic bytes, decoded as
# it is read). For each: the JSON report must equal the plain file's (path
# and time aside); then the median wall time of RUNS runs, MB/s on the
# compressed bytes and on the expanded (validated) bytes, and the largest
# peak RSS of the runs (/usr/bin/time -v's "Maximum resident set size").
# Default --jobs, --quiet, --format json, report to /dev/null.
#
# Inputs are made under target/bench-data when missing (the catalog as
# bench/run.sh makes it; each compressed file once, kept for the next run).
#
# Usage: bench/compressed.sh            (RUNS=3 MB=500 by default)
#        RUNS=1 MB=100 bench/compressed.sh
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
MB=${MB:-500}
SHARED=${CARDKIT_SHARED:-../shared}
DATA=target/bench-data
SET=$SHARED/corpus/raw/set/mightstone_set_BRO.json
PLAIN=$DATA/catalog-$MB.json
mkdir -p "$DATA"

[ -f "$PLAIN" ] || python3 "$SHARED/bench/make_allprintings.py" "$SET" \
  --size-mb "$MB" --seed 1 --neutral -o "$PLAIN" >&2

cargo build --release -q -p cardkit-cli
CARDKIT=target/release/cardkit

# The formats: name, tool, its command to compress standard input, ending.
FORMATS=(
  "gzip|gzip|gzip -c|gz"
  "zstd|zstd|zstd -q -c|zst"
  "xz|xz|xz -c -T2|xz"
  "bzip2|bzip2|bzip2 -c|bz2"
)

# Prints "seconds peak-RSS-KB": the median wall time of RUNS runs (timed
# with nanosecond clock readings) and the largest peak RSS of them.
measure() {
  local times=() rss=0 start end m report
  report=$(mktemp)
  for _ in $(seq "$RUNS"); do
    start=$(date +%s.%N)
    /usr/bin/time -v -o "$report" "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", b - a}')")
    m=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$report")
    ((m > rss)) && rss=$m
  done
  rm -f "$report"
  printf '%s\n' "${times[@]}" | sort -g | awk -v rss="$rss" \
    '{a[NR]=$1} END {print a[int((NR+1)/2)], rss}'
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

expanded=$(stat -c %s "$PLAIN")
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr); $(date -u +%Y-%m-%d)"
echo "input: $PLAIN, $(awk -v b="$expanded" 'BEGIN {printf "%.1f", b / 1e6}') MB expanded"
echo "runs per figure: $RUNS (median time, largest peak RSS); default --jobs ($(nproc))"
echo

expected=$(mktemp)
trap 'rm -f "$expected"' EXIT
comparable "$PLAIN" >"$expected"

rows=()
row() {
  local format=$1 file=$2 seconds rss stored
  read -r seconds rss < <(measure "$CARDKIT" validate --no-config --quiet --format json "$file")
  stored=$(stat -c %s "$file")
  rows+=("$(printf '| %-6s | %9.1f | %6.1f%% | %8s | %9.0f | %9.0f | %6.0f MB |' "$format" \
    "$(awk -v b="$stored" 'BEGIN {print b / 1e6}')" \
    "$(awk -v s="$stored" -v e="$expanded" 'BEGIN {print 100 * s / e}')" \
    "$seconds" \
    "$(awk -v b="$stored" -v s="$seconds" 'BEGIN {print b / 1e6 / s}')" \
    "$(awk -v b="$expanded" -v s="$seconds" 'BEGIN {print b / 1e6 / s}')" \
    "$(awk -v k="$rss" 'BEGIN {print k / 1024}')")")
}

row plain "$PLAIN"
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
  row "$format" "$file"
done

echo
printf '| %-6s | %9s | %7s | %8s | %9s | %9s | %9s |\n' \
  format "stored MB" "of size" seconds "MB/s in" "MB/s out" "peak RSS"
echo "|--------|-----------|---------|----------|-----------|-----------|-----------|"
printf '%s\n' "${rows[@]}"
echo
echo "MB/s in: compressed (stored) bytes per second; out: expanded bytes validated per second."
