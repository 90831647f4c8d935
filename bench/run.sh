#!/usr/bin/env bash
# Runs the cardkit CLI and the parse floor side by side on catalog-sized
# inputs and prints, per input: the median wall time of RUNS runs, MB/s (MB =
# 10^6 bytes), the ratio to the parse floor's MB/s, and the peak RSS
# (/usr/bin/time -v's "Maximum resident set size", largest of the runs).
#
# The inputs are generated under target/bench-data when missing:
#   - the real set of the corpus (mightstone BRO, 2.8 MB);
#   - catalogs of SIZES MB made by ../shared/bench/make_allprintings.py
#     from that set (--neutral, seed 1);
#   - the 100 MB catalog with a defect in every card (bench/make_invalid.py).
#
# The parse floor is serde_json reading the file into IgnoredAny (the
# parse_floor example): it reads the whole file into memory first.
#
# Usage: bench/run.sh            (RUNS=5 SIZES="100 500" by default)
#        RUNS=3 SIZES=100 bench/run.sh
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
SIZES=${SIZES:-"100 500"}
SHARED=${CARDKIT_SHARED:-../shared}
DATA=target/bench-data
SET=$SHARED/corpus/raw/set/mightstone_set_BRO.json
mkdir -p "$DATA"

for mb in $SIZES 100; do
  out=$DATA/catalog-$mb.json
  [ -f "$out" ] || python3 "$SHARED/bench/make_allprintings.py" "$SET" \
    --size-mb "$mb" --seed 1 --neutral -o "$out" >&2
done
[ -f "$DATA/invalid-100.json" ] ||
  python3 bench/make_invalid.py "$DATA/catalog-100.json" -o "$DATA/invalid-100.json" >&2

cargo build --release -q -p cardkit-cli
cargo build --release -q -p cardkit --example parse_floor
CARDKIT=target/release/cardkit
FLOOR=target/release/examples/parse_floor
CORES=$(nproc)

# Prints "seconds peak-RSS-KB": the median wall time of RUNS runs (timed
# with nanosecond clock readings) and the largest peak RSS of them.
measure() {
  local times=() rss=0 start end m report
  report=$(mktemp)
  for _ in $(seq "$RUNS"); do
    start=$(date +%s.%N)
    /usr/bin/time -o "$report" -f "%M" "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.4f", b - a}')")
    m=$(tail -n 1 "$report")
    ((m > rss)) && rss=$m
  done
  rm -f "$report"
  local median
  median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$median $rss"
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr); $(date -u +%Y-%m-%d)"
echo "runs per figure: $RUNS (median time, largest peak RSS)"
echo
printf '| %-26s | %7s | %-24s | %8s | %8s | %8s | %9s |\n' \
  input MB tool seconds MB/s "x floor" "peak RSS"
printf '|%s|%s|%s|%s|%s|%s|%s|\n' \
  "$(printf -- '-%.0s' {1..28})" "$(printf -- '-%.0s' {1..9})" "$(printf -- '-%.0s' {1..26})" \
  "$(printf -- '-%.0s' {1..10})" "$(printf -- '-%.0s' {1..10})" "$(printf -- '-%.0s' {1..10})" \
  "$(printf -- '-%.0s' {1..11})"

row() {
  local input=$1 tool=$2 floor_rate=$3
  shift 3
  read -r seconds rss < <(measure "$@")
  local bytes rate ratio
  bytes=$(stat -c %s "$input")
  rate=$(awk -v b="$bytes" -v s="$seconds" 'BEGIN {printf "%.0f", (s > 0 ? b / 1e6 / s : 0)}')
  if [ -n "$floor_rate" ]; then
    ratio=$(awk -v r="$rate" -v f="$floor_rate" 'BEGIN {printf "%.2f", r / f}')
  else
    ratio=1.00
  fi
  printf '| %-26s | %7.1f | %-24s | %8s | %8s | %8s | %6.0f MB |\n' \
    "$(basename "$input")" "$(awk -v b="$bytes" 'BEGIN {print b / 1e6}')" "$tool" \
    "$seconds" "$rate" "$ratio" "$(awk -v k="$rss" 'BEGIN {print k / 1024}')"
  LAST_RATE=$rate
}

inputs=("$SHARED/corpus/neutral/set/mightstone_set_BRO.json")
for mb in $SIZES; do inputs+=("$DATA/catalog-$mb.json"); done
inputs+=("$DATA/invalid-100.json")

for input in "${inputs[@]}"; do
  row "$input" "parse floor (serde_json)" "" "$FLOOR" "$input"
  floor=$LAST_RATE
  row "$input" "cardkit, 1 thread" "$floor" "$CARDKIT" validate --quiet --format json --jobs 1 "$input"
  row "$input" "cardkit, $CORES threads" "$floor" "$CARDKIT" validate --quiet --format json --jobs "$CORES" "$input"
done
