#!/usr/bin/env bash
# `cardkit export` to each target beside `cardkit validate` on the same
# input: median wall time of RUNS rounds, MB/s of input (MB = 10^6 bytes),
# rows/s, peak RSS (largest of the rounds), and the ratio of the time to
# validate's. Each round runs every tool once, in turn, so that a machine
# whose speed drifts during the run affects them all alike.
#
# Parquet is measured four times: a new build (the directory removed
# first), one set added to that build (a set of the catalog under a code and
# uuids of its own: a run file of its own, nothing rewritten), one set of
# the catalog exported again (its rows taken out of the first run's files,
# which are written again), and the whole catalog exported again (every
# earlier file removed whole). The one-set runs are compared with validate
# of the same one-set file (`validate, one set`).
#
# SQLite is measured three times: into a new database (made under a
# temporary name and renamed), into the same database again (which adds to
# it: each set replaces itself, in a WAL transaction), and again with
# --replace (the build emptied first). PostgreSQL exports the same build
# again each round with --replace.
#
# The input is the 500 MB catalog of bench/run.sh (target/bench-data, made
# by ../shared/bench/make_allprintings.py from the corpus's BRO set when
# missing). PostgreSQL is a throwaway server in a temporary directory on a
# Unix socket (initdb and pg_ctl, as `postgres` when run as root).
#
# Usage: bench/export.sh                 (RUNS=5 MB=500 JOBS=2 by default)
#        RUNS=3 MB=100 bench/export.sh
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
MB=${MB:-500}
JOBS=${JOBS:-2}
source bench/lib.sh
INPUT=$(catalog "$MB")

# One set of the catalog, as exported again, and as a set of its own.
ONE_SET=$DATA/catalog-$MB-one-set.json
NEW_SET=$DATA/catalog-$MB-new-set.json
[ -f "$NEW_SET" ] || python3 - "$INPUT" "$ONE_SET" "$NEW_SET" <<'PY'
import json, re, sys, uuid
catalog = json.load(open(sys.argv[1]))
code, one = next(iter(catalog["data"].items()))
json.dump({"meta": catalog.get("meta", {}), "data": one}, open(sys.argv[2], "w"))
text = json.dumps(one).replace(json.dumps(code), json.dumps("ZZNEW"))
pattern = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
text = re.sub(pattern, lambda m: str(uuid.uuid5(uuid.NAMESPACE_URL, m.group(0))), text)
json.dump({"meta": catalog.get("meta", {}), "data": json.loads(text)}, open(sys.argv[3], "w"))
PY

cardkit_binary
# The server runs as `postgres` in a directory of its own: the path whole.
CARDKIT=$(realpath "$CARDKIT")
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

TOOLS=(validate validate-one parquet parquet-add-one parquet-replace-one parquet-again
  sqlite-new sqlite-again sqlite-replace postgres)
declare -A NAME=(
  [validate]="validate, $JOBS threads"
  [validate-one]="validate, one set"
  [parquet]="export to Parquet, new build"
  [parquet-add-one]="Parquet: one set added"
  [parquet-replace-one]="Parquet: one set exported again"
  [parquet-again]="Parquet: same build again"
  [sqlite-new]="export to SQLite, new file"
  [sqlite-again]="export to SQLite, same build again"
  [sqlite-replace]="export to SQLite, again, --replace"
  [postgres]="export to PostgreSQL"
)
declare -A TIMES RSS ROWS

# Runs one tool once; adds its wall time, peak RSS and rows to the tables.
run() {
  local tool=$1 report out start end m rows
  local command=()
  case $tool in
    validate) command=("$CARDKIT" validate --quiet --jobs "$JOBS" "$INPUT") ;;
    validate-one) command=("$CARDKIT" validate --quiet --jobs "$JOBS" "$ONE_SET") ;;
    parquet)
      rm -rf "$WORK/parquet"
      command=("$CARDKIT" export --jobs "$JOBS" --build bench --to "parquet:$WORK/parquet" "$INPUT") ;;
    parquet-add-one)
      command=("$CARDKIT" export --jobs "$JOBS" --build bench --to "parquet:$WORK/parquet" "$NEW_SET") ;;
    parquet-replace-one)
      command=("$CARDKIT" export --jobs "$JOBS" --build bench --to "parquet:$WORK/parquet" "$ONE_SET") ;;
    parquet-again)
      command=("$CARDKIT" export --jobs "$JOBS" --build bench --to "parquet:$WORK/parquet" "$INPUT") ;;
    sqlite-new)
      rm -f "$WORK/export.db"
      command=("$CARDKIT" export --jobs "$JOBS" --build bench --to "sqlite:$WORK/export.db" "$INPUT") ;;
    sqlite-again)
      command=("$CARDKIT" export --jobs "$JOBS" --build bench --to "sqlite:$WORK/export.db" "$INPUT") ;;
    sqlite-replace)
      command=("$CARDKIT" export --jobs "$JOBS" --build bench --replace --to "sqlite:$WORK/export.db" "$INPUT") ;;
    postgres)
      command=("$CARDKIT" export --jobs "$JOBS" --build bench --replace --to "$PG_URL" "$INPUT") ;;
  esac
  report=$(mktemp)
  out=$(mktemp)
  start=$(date +%s.%N)
  /usr/bin/time -o "$report" -f "%M" "${command[@]}" >"$out" 2>/dev/null || true
  end=$(date +%s.%N)
  TIMES[$tool]+="$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.4f", b - a}') "
  m=$(tail -n 1 "$report")
  ((m > ${RSS[$tool]:-0})) && RSS[$tool]=$m
  rows=$(sed -n 's/.*: \([0-9]*\) rows .*/\1/p' "$out" | head -1)
  ROWS[$tool]=${rows:-0}
  rm -f "$report" "$out"
}

for _ in $(seq "$RUNS"); do
  for tool in "${TOOLS[@]}"; do
    run "$tool"
  done
done


bytes=$(stat -c %s "$INPUT")
base=$(printf "%s\n" ${TIMES[validate]} | median)
printf '| %-34s | %8s | %8s | %10s | %9s | %10s |\n' tool seconds MB/s rows/s "peak RSS" "x validate"
printf '|%s|%s|%s|%s|%s|%s|\n' ------------------------------------ ---------- ---------- ------------ ----------- ------------
one_bytes=$(stat -c %s "$ONE_SET")
base_one=$(printf "%s\n" ${TIMES[validate-one]} | median)
for tool in "${TOOLS[@]}"; do
  # The one-set runs beside validate of one set.
  b=$bytes v=$base
  case $tool in validate-one | parquet-*-one) b=$one_bytes v=$base_one ;; esac
  awk -v n="${NAME[$tool]}" -v s="$(printf "%s\n" ${TIMES[$tool]} | median)" -v b="$b" -v r="${RSS[$tool]}" \
    -v w="${ROWS[$tool]}" -v v="$v" 'BEGIN {
    printf "| %-34s | %8.2f | %8.0f | %10s | %6.0f MB | %10.2f |\n",
      n, s, b / s / 1e6, (w > 0 ? sprintf("%.0f", w / s) : "-"), r / 1024, s / v }'
done
echo
echo "input: $INPUT ($bytes bytes), one set: $ONE_SET ($one_bytes bytes), $RUNS rounds, $(nproc) cores"
for tool in "${TOOLS[@]}"; do
  echo "$tool: ${TIMES[$tool]}"
done
