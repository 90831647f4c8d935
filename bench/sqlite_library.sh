#!/usr/bin/env bash
# Two builds of cardkit side by side on the 500 MB catalog of bench/run.sh,
# in alternating rounds: validate, then each build's export into a new
# SQLite file and into the same file again (the new build also with
# --replace). Prints one line per run: tool, wall seconds, peak RSS (KB),
# rows written.
#
# Usage: OLD=/path/to/old/cardkit NEW=target/release/cardkit bench/sqlite_library.sh
set -u
cd "$(dirname "$0")/.."
IN=${INPUT:-target/bench-data/catalog-500.json}
OLD=${OLD:?the older build}
NEW=${NEW:-target/release/cardkit}
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
t() { # name, command...
  local name=$1; shift
  local s e
  s=$(date +%s.%N)
  /usr/bin/time -o $W/rss -f "%M" "$@" > $W/out 2>/dev/null
  e=$(date +%s.%N)
  echo "$name $(awk -v a=$s -v b=$e 'BEGIN{printf "%.3f", b-a}') $(tail -1 $W/rss) $(head -1 $W/out | sed 's/.*: \([0-9]*\) rows.*/\1/')"
}
for r in $(seq ${RUNS:-3}); do
  t validate $NEW validate --quiet --jobs 2 $IN
  rm -f $W/old.db; t old-new $OLD export --jobs 2 --build bench --to sqlite:$W/old.db $IN
  rm -f $W/new.db; t new-new $NEW export --jobs 2 --build bench --to sqlite:$W/new.db $IN
  t old-again $OLD export --jobs 2 --build bench --to sqlite:$W/old.db $IN
  t new-again-append $NEW export --jobs 2 --build bench --to sqlite:$W/new.db $IN
  t new-again-replace $NEW export --jobs 2 --build bench --replace --to sqlite:$W/new.db $IN
done
