#!/usr/bin/env bash
# What warnings cost: `cardkit validate --kind set` on the catalog of
# bench/run.sh (MB MB; about 36,000 `unknown_field` warnings per 100 MB, for
# `Legalities.alchemy`, `Legalities.oathbreaker` and `Set.tokenSetCode`)
# beside its twin without them: the same bytes but each of those members
# blanked out with spaces (made once under target/bench-data), so that both
# files are read alike and only the warnings differ. The twin's report is
# checked to hold no warning, the catalog's to hold only `unknown_field`
# ones. Each file runs once a round in turn for RUNS rounds, with --jobs 1
# and --jobs JOBS; printed per row: the median wall and CPU time, and their
# ratio to the twin's (the target: at most 1.05).
#
# Usage: bench/warnings.sh       (RUNS=7 MB=500 JOBS=2 by default)
#        CARDKIT=/path/to/cardkit RUNS=9 MB=100 bench/warnings.sh
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-7}
MB=${MB:-500}
JOBS=${JOBS:-2}
source bench/lib.sh
CATALOG=$(catalog "$MB")
TWIN=$DATA/catalog-$MB-no-warnings.json
cardkit_binary

if [ ! -f "$TWIN" ]; then
  python3 - "$CATALOG" "$TWIN.part" <<'EOF'
import re, sys
# The members warned about, with the comma before them (or after them, when
# first in their object): blanked, not removed, so that the twin has the
# same length.
name = rb'"(?:alchemy|oathbreaker|tokenSetCode)":"[^"\\]*"'
members = re.compile(rb',' + name + rb'|(?<=\{)' + name + rb',')
with open(sys.argv[1], "rb") as inp, open(sys.argv[2], "wb") as out:
    for line in inp:
        out.write(members.sub(lambda m: b" " * len(m.group(0)), line))
EOF
  mv "$TWIN.part" "$TWIN"
fi

# The warnings of a file's report, by code.
warnings() {
  { "$CARDKIT" validate --no-config --statistics --kind set "$1" 2>&1 || true; } | grep '^warnings' || echo "warnings: 0"
}
catalog_warnings=$(warnings "$CATALOG")
twin_warnings=$(warnings "$TWIN")
[ "$twin_warnings" = "warnings: 0" ] || { echo "the twin is warned about: $twin_warnings" >&2; exit 1; }
case $catalog_warnings in
  *"(unknown_field "*")") ;;
  *) echo "the catalog's warnings are not only unknown_field: $catalog_warnings" >&2; exit 1 ;;
esac

machine
echo "input: $CATALOG ($(stat -L -c %s "$CATALOG") bytes, $catalog_warnings); twin: $TWIN ($(stat -L -c %s "$TWIN") bytes, none)"
echo "rounds: $RUNS, each row once a round in turn"
echo
cat "$CATALOG" "$TWIN" >/dev/null # into the page cache

printf '| %-34s | %8s | %8s | %8s | %8s |\n' row seconds "x twin" "CPU s" "x twin"
echo "|------------------------------------|----------|----------|----------|----------|"
for jobs in 1 "$JOBS"; do
  declare -A wall=() cpu=()
  for _ in $(seq "$RUNS"); do
    for file in "$TWIN" "$CATALOG"; do
      read -r w c _ < <(once "$CARDKIT" validate --no-config --quiet --format json --kind set --jobs "$jobs" "$file")
      wall[$file]="${wall[$file]:-} $w"
      cpu[$file]="${cpu[$file]:-} $c"
    done
  done
  tw=$(printf '%s\n' ${wall[$TWIN]} | median)
  tc=$(printf '%s\n' ${cpu[$TWIN]} | median)
  for file in "$TWIN" "$CATALOG"; do
    w=$(printf '%s\n' ${wall[$file]} | median)
    c=$(printf '%s\n' ${cpu[$file]} | median)
    name="twin, no warnings"
    [ "$file" = "$CATALOG" ] && name="catalog, warnings"
    printf '| %-34s | %8s | %8.3f | %8s | %8.3f |\n' "$name, --jobs $jobs" "$w" \
      "$(awk -v a="$w" -v b="$tw" 'BEGIN {print a / b}')" "$c" "$(awk -v a="$c" -v b="$tc" 'BEGIN {print a / b}')"
  done
  unset wall cpu
done
