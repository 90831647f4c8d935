#!/usr/bin/env bash
# The cardkit CLI beside what bounds it, in one table: per input, each of
#   - reading the file from the page cache (dd bs=4M to /dev/null),
#   - the parse floor: serde_json reading the file into IgnoredAny (the
#     parse_floor example; it reads the whole file into memory first),
#   - `cardkit validate --kind set` on 1 thread (--jobs 1),
#   - the same on JOBS threads (--jobs JOBS, 2 by default: two cores),
# is run once a round, in turn, for RUNS rounds (alternating rounds: a
# machine whose speed drifts moves every row alike). Printed per row: the
# median wall time, MB/s (MB = 10^6 bytes), the floor's time over the row's
# (x floor: 1.00 is as fast as the floor, more is faster), and the peak RSS
# (/usr/bin/time's "Maximum resident set size", largest of the rounds).
#
# The inputs are generated under target/bench-data when missing:
#   - catalogs of SIZES MB made by ../shared/bench/make_allprintings.py
#     from the corpus's mightstone BRO set (--neutral, seed 1);
#   - with INVALID=1, the 100 MB catalog with a defect in every card
#     (bench/make_invalid.py).
#
# Usage: bench/run.sh            (RUNS=5 SIZES=100 JOBS=2 by default)
#        RUNS=7 SIZES="100 500" INVALID=1 bench/run.sh
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
SIZES=${SIZES:-100}
JOBS=${JOBS:-2}
INVALID=${INVALID:-0}
SHARED=${CARDKIT_SHARED:-../shared}
DATA=target/bench-data
SET=$SHARED/corpus/raw/set/mightstone_set_BRO.json
mkdir -p "$DATA"

catalogs=$SIZES
[ "$INVALID" = 1 ] && catalogs="$catalogs 100"
for mb in $catalogs; do
  out=$DATA/catalog-$mb.json
  [ -f "$out" ] || python3 "$SHARED/bench/make_allprintings.py" "$SET" \
    --size-mb "$mb" --seed 1 --neutral -o "$out" >&2
done
if [ "$INVALID" = 1 ] && [ ! -f "$DATA/invalid-100.json" ]; then
  python3 bench/make_invalid.py "$DATA/catalog-100.json" -o "$DATA/invalid-100.json" >&2
fi

# CARDKIT=path measures that binary instead (an earlier build, say).
if [ -z "${CARDKIT:-}" ]; then
  cargo build --release -q -p cardkit-cli
  CARDKIT=target/release/cardkit
fi
cargo build --release -q -p cardkit --example parse_floor
FLOOR=target/release/examples/parse_floor

# Runs a command once; prints "seconds peak-RSS-KB" (wall time from
# nanosecond clock readings).
once() {
  local start end report rss
  report=$(mktemp)
  start=$(date +%s.%N)
  /usr/bin/time -o "$report" -f "%M" "$@" >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  rss=$(tail -n 1 "$report")
  rm -f "$report"
  awk -v a="$start" -v b="$end" -v m="$rss" 'BEGIN {printf "%.4f %d\n", b - a, m}'
}

# The median of the numbers on standard input.
median() {
  sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr); $(date -u +%Y-%m-%d)"
echo "rounds: $RUNS, each row once a round in turn (median time, largest peak RSS)"
echo
printf '| %-20s | %7s | %-28s | %8s | %8s | %8s | %9s |\n' \
  input MB tool seconds MB/s "x floor" "peak RSS"
echo "|----------------------|---------|------------------------------|----------|----------|----------|-----------|"

inputs=()
for mb in $SIZES; do inputs+=("$DATA/catalog-$mb.json"); done
[ "$INVALID" = 1 ] && inputs+=("$DATA/invalid-100.json")

names=("read (dd bs=4M)" "parse floor (serde_json)" "cardkit --kind set, 1 thread" "cardkit --kind set, --jobs $JOBS")
for input in "${inputs[@]}"; do
  commands=(
    "dd if=$input of=/dev/null bs=4M status=none"
    "$FLOOR $input"
    "$CARDKIT validate --no-config --quiet --format json --kind set --jobs 1 $input"
    "$CARDKIT validate --no-config --quiet --format json --kind set --jobs $JOBS $input"
  )
  cat "$input" >/dev/null # into the page cache
  declare -A times=() rss=()
  for _ in $(seq "$RUNS"); do
    for i in "${!commands[@]}"; do
      read -r seconds peak < <(once ${commands[$i]})
      times[$i]="${times[$i]:-} $seconds"
      ((peak > ${rss[$i]:-0})) && rss[$i]=$peak
    done
  done
  bytes=$(stat -L -c %s "$input")
  floor=$(printf '%s\n' ${times[1]} | median)
  for i in "${!commands[@]}"; do
    seconds=$(printf '%s\n' ${times[$i]} | median)
    printf '| %-20s | %7.1f | %-28s | %8s | %8.0f | %8.2f | %6.0f MB |\n' \
      "$(basename "$input")" "$(awk -v b="$bytes" 'BEGIN {print b / 1e6}')" "${names[$i]}" "$seconds" \
      "$(awk -v b="$bytes" -v s="$seconds" 'BEGIN {print (s > 0 ? b / 1e6 / s : 0)}')" \
      "$(awk -v f="$floor" -v s="$seconds" 'BEGIN {print (s > 0 ? f / s : 0)}')" \
      "$(awk -v k="${rss[$i]}" 'BEGIN {print k / 1024}')"
  done
  unset times rss
done
echo
echo "x floor: the parse floor's time over the row's (above 1: faster than the floor)."
