#!/usr/bin/env bash
# `cardkit export` to each target beside `cardkit validate` on the same
# input: median wall time of RUNS runs, MB/s of input (MB = 10^6 bytes),
# rows/s, peak RSS (largest of the runs), and the ratio of the time to
# validate's.
#
# The input is the 500 MB catalog of bench/run.sh (target/bench-data, made
# by ../shared/bench/make_allprintings.py from the corpus's BRO set when
# missing). PostgreSQL is a throwaway server in a temporary directory on a
# Unix socket (initdb and pg_ctl, as `postgres` when run as root); each run
# exports the same build again, which replaces it.
#
# Usage: bench/export.sh                 (RUNS=5 MB=500 JOBS=2 by default)
#        RUNS=3 MB=100 bench/export.sh
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
MB=${MB:-500}
JOBS=${JOBS:-2}
SHARED=${CARDKIT_SHARED:-../shared}
DATA=target/bench-data
INPUT=$DATA/catalog-$MB.json
mkdir -p "$DATA"
[ -f "$INPUT" ] || python3 "$SHARED/bench/make_allprintings.py" \
  "$SHARED/corpus/raw/set/mightstone_set_BRO.json" --size-mb "$MB" --seed 1 --neutral -o "$INPUT" >&2

cargo build --release -q -p cardkit-cli
CARDKIT=$PWD/target/release/cardkit
WORK=$(mktemp -d)
chmod 755 "$WORK"
AS_POSTGRES=()
[ "$(id -u)" = 0 ] && AS_POSTGRES=(runuser -u postgres --) && chown postgres "$WORK"
PG_BIN=$(dirname "$(command -v pg_ctl || ls /usr/lib/postgresql/*/bin/pg_ctl | tail -1)")
cleanup() {
  "${AS_POSTGRES[@]}" "$PG_BIN/pg_ctl" -D "$WORK/pg" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
"${AS_POSTGRES[@]}" "$PG_BIN/initdb" -D "$WORK/pg" -U postgres -A trust --no-sync -E UTF8 >/dev/null
"${AS_POSTGRES[@]}" "$PG_BIN/pg_ctl" -D "$WORK/pg" -l "$WORK/pg.log" \
  -o "-k $WORK -c listen_addresses='' -c fsync=off" -w start >/dev/null
PG_URL="postgresql://postgres@/postgres?host=$WORK"

# Prints "seconds peak-RSS-KB rows": the median wall time of RUNS runs, the
# largest peak RSS, and the rows the last run wrote.
measure() {
  local times=() rss=0 start end m report out rows=0
  report=$(mktemp)
  out=$(mktemp)
  for _ in $(seq "$RUNS"); do
    start=$(date +%s.%N)
    /usr/bin/time -o "$report" -f "%M" "$@" >"$out" 2>/dev/null || true
    end=$(date +%s.%N)
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.4f", b - a}')")
    m=$(tail -n 1 "$report")
    ((m > rss)) && rss=$m
    rows=$(sed -n 's/.*: \([0-9]*\) rows .*/\1/p' "$out" | head -1)
  done
  rm -f "$report" "$out"
  local median
  median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$median $rss ${rows:-0}"
}

bytes=$(stat -c %s "$INPUT")
printf '| %-28s | %8s | %8s | %10s | %9s | %10s |\n' tool seconds MB/s rows/s "peak RSS" "x validate"
printf '|%s|%s|%s|%s|%s|%s|\n' ------------------------------ ---------- ---------- ------------ ----------- ------------
base=
row() {
  local name=$1 seconds=$2 rss=$3 rows=$4
  [ -z "$base" ] && base=$seconds
  awk -v n="$name" -v s="$seconds" -v b="$bytes" -v r="$rss" -v w="$rows" -v v="$base" 'BEGIN {
    printf "| %-28s | %8.2f | %8.0f | %10s | %6.0f MB | %10.2f |\n",
      n, s, b / s / 1e6, (w > 0 ? sprintf("%.0f", w / s) : "-"), r / 1024, s / v }'
}

read -r s r w < <(measure "$CARDKIT" validate --quiet --jobs "$JOBS" "$INPUT")
row "validate, $JOBS threads" "$s" "$r" "$w"
read -r s r w < <(measure "$CARDKIT" export --jobs "$JOBS" --build bench --to "parquet:$WORK/parquet" "$INPUT")
row "export to Parquet" "$s" "$r" "$w"
read -r s r w < <(measure "$CARDKIT" export --jobs "$JOBS" --build bench --to "sqlite:$WORK/export.db" "$INPUT")
row "export to SQLite" "$s" "$r" "$w"
read -r s r w < <(measure "$CARDKIT" export --jobs "$JOBS" --build bench --to "$PG_URL" "$INPUT")
row "export to PostgreSQL" "$s" "$r" "$w"
echo
echo "input: $INPUT ($bytes bytes), $RUNS runs each, $(nproc) cores"
