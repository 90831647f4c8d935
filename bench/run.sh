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
source bench/lib.sh

inputs=()
for mb in $SIZES; do inputs+=("$(catalog "$mb")"); done
if [ "$INVALID" = 1 ]; then
  [ -f "$DATA/invalid-100.json" ] ||
    python3 bench/make_invalid.py "$(catalog 100)" -o "$DATA/invalid-100.json" >&2
  inputs+=("$DATA/invalid-100.json")
fi

cardkit_binary
cargo build --release -q -p cardkit --example parse_floor
FLOOR=target/release/examples/parse_floor

machine
echo "rounds: $RUNS, each row once a round in turn (median time, largest peak RSS)"
echo
printf '| %-20s | %7s | %-28s | %8s | %8s | %8s | %9s |\n' \
  input MB tool seconds MB/s "x floor" "peak RSS"
echo "|----------------------|---------|------------------------------|----------|----------|----------|-----------|"

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
      read -r seconds _ peak < <(once ${commands[$i]})
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
