#!/usr/bin/env bash
# Options that change nothing must cost nothing: `cardkit validate --kind set
# --jobs 1` on a catalog with the default options (`--as-of auto --names
# auto`: the version its meta declares, the names its members use) beside
# the same run with each option that changes no verdict on it:
#   - `--as-of latest`, and `--as-of vX.Y.Z` naming the latest version tag;
#   - the default (`--as-of auto`) on a copy of the catalog whose
#     meta.version declares the latest tag (made once under
#     target/bench-data: the catalog's first bytes rewritten);
#   - `--names spec` (the names not told from the members), and
#     `--as-of latest --names spec` (nothing told from the file: the
#     defaults before `auto`);
#   - with UPSTREAM=1, a catalog in the publishers' names (made without
#     --neutral): the default there (the names told from its members)
#     beside `--names upstream`.
# First each row's JSON report is checked to equal its reference's (the
# default on the same input) apart from where the report says how the file
# was read (`reading`'s note, `declared` and `*_from`) and the time. Then
# every row runs once a round, in turn, for RUNS rounds (alternating rounds:
# a machine whose speed drifts moves every row alike; each round starts one
# row further on). Printed per row: the median wall time, its ratio to the
# reference's median, the median of the per-round ratios (each against the
# reference's run of the same round); the median CPU time (user and system)
# and its per-round ratio; and the largest peak RSS. --quiet, --format
# json, report to /dev/null.
#
# With COUNT=1, each row's instructions too (valgrind's callgrind, one run
# each: deterministic where this machine has no hardware counters; about
# 80 s a row on the 500 MB catalog).
#
# Usage: bench/options.sh               (RUNS=7 MB=500 by default)
#        CATALOG=path/to/catalog.json RUNS=9 COUNT=1 bench/options.sh
#        CARDKIT=/path/to/cardkit UPSTREAM=1 MB=100 bench/options.sh
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-7}
MB=${MB:-500}
COUNT=${COUNT:-0}
UPSTREAM=${UPSTREAM:-0}
source bench/lib.sh
CATALOG=${CATALOG:-$(catalog "$MB")}
cardkit_binary

# The latest version tag, as the report of `--as-of latest` states it.
LATEST=$(echo '{"code": "X"}' |
  { "$CARDKIT" validate --no-config --format json --kind set --as-of latest - || true; } |
  grep -o '"as_of":"[^"]*"' | head -n 1 | cut -d '"' -f 4)
[ -n "$LATEST" ] || { echo "no latest version tag in the report of --as-of latest" >&2; exit 1; }

# The catalog declaring the latest tag: its meta.version, in its first
# bytes, rewritten (its build suffix kept, and spaces after it when the tag
# is shorter, so that every later byte stays where it was); the rest copied
# as it is.
DECLARES=$DATA/$(basename "$CATALOG" .json)-declares-$LATEST.json
if [ ! -f "$DECLARES" ] || [ "$CATALOG" -nt "$DECLARES" ]; then
  python3 - "$CATALOG" "$DECLARES" "${LATEST#v}" <<'EOF'
import re, shutil, sys
source, target, latest = sys.argv[1:]
with open(source, "rb") as inp, open(target + ".part", "wb") as out:
    head = inp.read(1 << 16)
    meta = re.search(rb'"meta"\s*:\s*\{[^{}]*?"version"\s*:\s*"([^"+-]*)[^"]*"', head)
    if meta is None:
        sys.exit(f"{source}: no meta.version in its first 64 KiB")
    shorter = (meta.end(1) - meta.start(1)) - len(latest)
    if shorter < 0:
        sys.exit(f"{source}: its meta.version is shorter than {latest}")
    rewritten = head[: meta.start(1)] + latest.encode() + head[meta.end(1) : meta.end(0)]
    out.write(rewritten + b" " * shorter + head[meta.end(0) :])
    shutil.copyfileobj(inp, out, 1 << 22)
shutil.move(target + ".part", target)
EOF
fi

[ "$UPSTREAM" = 1 ] && UPSTREAM_CATALOG=$(catalog "$MB" upstream)

VALIDATE="$CARDKIT validate --no-config --quiet --format json --kind set --jobs 1"

# The rows: name | options | input | the row it is compared with (its index).
ROWS=(
  "default (--as-of auto --names auto)||$CATALOG|0"
  "--as-of latest|--as-of latest|$CATALOG|0"
  "--as-of $LATEST|--as-of $LATEST|$CATALOG|0"
  "default, the file declares $LATEST||$DECLARES|0"
  "--names spec|--names spec|$CATALOG|0"
  "--as-of latest --names spec|--as-of latest --names spec|$CATALOG|0"
)
if [ "$UPSTREAM" = 1 ]; then
  ROWS+=(
    "publishers' names: default||$UPSTREAM_CATALOG|6"
    "publishers' names: --names upstream|--names upstream|$UPSTREAM_CATALOG|6"
  )
fi
field() { echo "$1" | cut -d '|' -f "$2"; }

# The JSON report of a row, without what differs by design: how the file was
# read (the note, the version declared, where the version and the names came
# from), its path and the time.
comparable() {
  { $VALIDATE $(field "$1" 2) "$(field "$1" 3)" || true; } | python3 -c '
import json, sys
report = json.load(sys.stdin)
for file in report["files"]:
    file["path"] = "<input>"
    for key in ("note", "version_from", "names_from", "declared"):
        file.get("reading", {}).pop(key, None)
del report["summary"]["seconds"]
print(json.dumps(report, sort_keys=True))'
}

for i in "${!ROWS[@]}"; do
  reference=$(field "${ROWS[$i]}" 4)
  [ "$reference" = "$i" ] && continue
  if ! cmp -s <(comparable "${ROWS[$i]}") <(comparable "${ROWS[$reference]}"); then
    echo "$(field "${ROWS[$i]}" 1): the report differs from the default's: this option changes something here" >&2
    exit 1
  fi
done

# Runs a row once; prints "wall-seconds CPU-seconds peak-RSS-KB".
row_once() {
  once $VALIDATE $(field "$1" 2) "$(field "$1" 3)"
}

machine
echo "input: $CATALOG ($(stat -L -c %s "$CATALOG") bytes); the latest tag: $LATEST"
echo "rounds: $RUNS, each row once a round in turn; every row's report equals its reference's (how the file was read aside)"
echo

for i in "${!ROWS[@]}"; do
  cat "$(field "${ROWS[$i]}" 3)" >/dev/null # into the page cache
done
# The ratio of two numbers.
ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.4f", a / b; else printf "nan"}'
}

declare -A times=() cpus=() rss=() ratios=() cpu_ratios=()
for r in $(seq 0 $((RUNS - 1))); do
  declare -A round=() round_cpu=()
  # Each round starts one row further on, so that no row is always first
  # (or always after the same one).
  for k in "${!ROWS[@]}"; do
    i=$(((k + r) % ${#ROWS[@]}))
    read -r seconds cpu peak < <(row_once "${ROWS[$i]}")
    round[$i]=$seconds
    round_cpu[$i]=$cpu
    times[$i]="${times[$i]:-} $seconds"
    cpus[$i]="${cpus[$i]:-} $cpu"
    ((peak > ${rss[$i]:-0})) && rss[$i]=$peak
  done
  for i in "${!ROWS[@]}"; do
    reference=$(field "${ROWS[$i]}" 4)
    ratios[$i]="${ratios[$i]:-} $(ratio "${round[$i]}" "${round[$reference]}")"
    cpu_ratios[$i]="${cpu_ratios[$i]:-} $(ratio "${round_cpu[$i]}" "${round_cpu[$reference]}")"
  done
  unset round round_cpu
done

if [ "$COUNT" = 1 ]; then
  declare -A instructions=()
  for i in "${!ROWS[@]}"; do
    out=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file="$out" \
      $VALIDATE $(field "${ROWS[$i]}" 2) "$(field "${ROWS[$i]}" 3)" >/dev/null 2>&1 || true
    instructions[$i]=$(awk '/^summary:/ {print $2}' "$out")
    rm -f "$out"
  done
fi

printf '| %-45s | %7s | %9s | %11s | %5s | %11s | %8s |' \
  row "wall s" "x default" "per-round x" "CPU s" "per-round x" "peak RSS"
[ "$COUNT" = 1 ] && printf ' %15s | %9s |' instructions "x default"
echo
printf '|%s|--------:|----------:|------------:|------:|------------:|---------:|' \
  "-----------------------------------------------"
[ "$COUNT" = 1 ] && printf '%s' "----------------:|----------:|"
echo
for i in "${!ROWS[@]}"; do
  reference=$(field "${ROWS[$i]}" 4)
  seconds=$(printf '%s\n' ${times[$i]} | median)
  base=$(printf '%s\n' ${times[$reference]} | median)
  printf '| %-45s | %7.3f | %9.3f | %11.3f | %5.3f | %11.3f | %5.0f MB |' \
    "$(field "${ROWS[$i]}" 1)" "$seconds" "$(ratio "$seconds" "$base")" \
    "$(printf '%s\n' ${ratios[$i]} | median)" \
    "$(printf '%s\n' ${cpus[$i]} | median)" \
    "$(printf '%s\n' ${cpu_ratios[$i]} | median)" \
    "$(awk -v k="${rss[$i]}" 'BEGIN {print k / 1024}')"
  if [ "$COUNT" = 1 ]; then
    printf ' %15s | %9.4f |' "${instructions[$i]}" "$(ratio "${instructions[$i]}" "${instructions[$reference]}")"
  fi
  echo
done
echo
echo "x default: the row's median wall time over its reference's (the default on the same catalog);"
echo "per-round x: the median of the row's ratios to its reference's run of the same round (wall, then CPU);"
echo "below 1.02 is within the 2% an option that changes nothing may cost."
