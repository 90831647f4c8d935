#!/usr/bin/env bash
# The Python package beside the command line and other Python validators,
# side by side in one run: median wall time of RUNS rounds (each round runs
# every tool once, in turn), MB/s of input (MB = 10^6 bytes), the ratio to
# `cardkit validate`'s time, peak RSS (/usr/bin/time -v of the process), and
# how many of a fixed list of injected defects each tool reports.
#
#   cardkit validate       the release command line, 2 threads
#   cardkit.validate       the release wheel, cardkit.validate(path), jobs=2
#   jsonschema-rs          json.loads + jsonschema-rs on `cardkit schema set`
#                          (the catalog: `--container catalog`)
#   mightstone             the upstream library's pydantic models,
#                          model_validate_json (the input with the
#                          publishers' wire names, which its models read)
#   cardkit.read_tables    the export's tables as pyarrow
#   json + pandas          json.load + pandas.json_normalize of the cards
#
# Python tools are timed inside their process (the interpreter's start and
# imports not counted); the command line as a whole process. Inputs: a
# real set (jsonsets_NEO) and generated catalogs of MB (default 100) and
# BIG (default 500) MB, made by ../shared/bench/make_allprintings.py from
# the corpus's BRO set with and without --neutral; the first records get
# one defect each (bench/make_invalid.py's kinds).
#
# Usage: bench/python.sh            (RUNS=3 MB=100 BIG=500)
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
MB=${MB:-100}
BIG=${BIG:-500}
SHARED=${CARDKIT_SHARED:-../shared}
TARGET=$(realpath -m "${CARGO_TARGET_DIR:-target}")
DATA=$TARGET/bench-data/python
VENV=$TARGET/bench-venv
MIGHTSTONE_VENV=$TARGET/bench-mightstone-venv
mkdir -p "$DATA"

cargo build --release -q --bin cardkit
CARDKIT=$TARGET/release/cardkit

# The release wheel, with the readers and jsonschema-rs, in one venv;
# mightstone (its own pins of pydantic) in another.
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
  maturin==1.16.0 pyarrow==26.0.1 pandas==2.3.3 jsonschema-rs==0.60.3
(cd crates/cardkit-py && CARGO_TARGET_DIR=$TARGET "$VENV/bin/maturin" build \
  --quiet --release -i "$VENV/bin/python" -o "$TARGET/wheels" >/dev/null)
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps \
  "$(ls -t "$TARGET"/wheels/cardkit-*manylinux*.whl | head -1)"
[ -x "$MIGHTSTONE_VENV/bin/python" ] || python3 -m venv "$MIGHTSTONE_VENV"
MIGHTSTONE_ERROR=""
if ! "$MIGHTSTONE_VENV/bin/python" -m pip install --quiet --disable-pip-version-check mightstone==0.12.0 \
    2>"$DATA/mightstone-install.log"; then
  MIGHTSTONE_ERROR=$(tail -1 "$DATA/mightstone-install.log")
fi

# The inputs, each with its defects, and their JSON Pointers.
"$VENV/bin/python" bench/python_inputs.py "$SHARED" "$DATA" "$MB" "$BIG" "$CARDKIT"
# Inputs without defects list none.
for input in big sets; do echo "[]" >"$DATA/defects-$input.json"; done

MEASURE=bench/python_measure.py
# name | command (INPUT is replaced) | input | MB of input
declare -a ROWS=(
  "set|cli|neo"
  "set|cardkit|neo"
  "set|jsonschema-rs|neo"
  "set|mightstone|neo"
  "catalog|cli|cat"
  "catalog|cardkit|cat"
  "catalog|jsonschema-rs|cat"
  "catalog|mightstone|cat"
  "catalog|cardkit-tables|cat"
  "catalog|pandas|cat"
  "big|cli|big"
  "big|cardkit-tables|big"
  "sets|cardkit-serial|sets"
  "sets|cardkit-threads|sets"
)
input_of() { # input name, tool -> path
  case $1 in
    neo) [ "$2" = mightstone ] && echo "$DATA/neo-upstream.json" || echo "$DATA/neo.json" ;;
    cat) [ "$2" = mightstone ] && echo "$DATA/catalog-upstream.json" || echo "$DATA/catalog.json" ;;
    big) echo "$DATA/big.json" ;;
    sets) echo "$DATA/sets" ;;
  esac
}
schema_of() { case $1 in neo) echo "$DATA/schema-set.json" ;; *) echo "$DATA/schema-catalog.json" ;; esac; }

declare -A TIMES RSS FOUND
for round in $(seq "$RUNS"); do
  for row in "${ROWS[@]}"; do
    IFS='|' read -r _ tool input <<<"$row"
    path=$(input_of "$input" "$tool")
    [ "$tool" = mightstone ] && [ -n "$MIGHTSTONE_ERROR" ] && continue
    out=$(mktemp)
    if [ "$tool" = cli ]; then
      start=$(date +%s.%N)
      /usr/bin/time -v -o "$out.time" "$CARDKIT" validate --quiet --jobs 2 "$path" >"$out" 2>/dev/null || true
      end=$(date +%s.%N)
      seconds=$(echo "$end - $start" | bc -l)
      "$CARDKIT" validate --format json --error-limit 0 --quiet "$path" >"$out.json" 2>/dev/null || true
      found=$("$VENV/bin/python" "$MEASURE" cli-report "$out.json" "$DATA/defects-$input.json" |
        "$VENV/bin/python" -c "import json,sys; print(len(json.load(sys.stdin)['found']))")
      rm -f "$out.json"
    else
      python=$VENV/bin/python
      [ "$tool" = mightstone ] && python=$MIGHTSTONE_VENV/bin/python
      args=("$tool" "$path")
      args+=("$DATA/defects-$input.json")
      [ "$tool" = jsonschema-rs ] && args+=("$(schema_of "$input")")
      [ "$tool" = mightstone ] && args+=("$([ "$input" = neo ] && echo set || echo catalog)")
      /usr/bin/time -v -o "$out.time" "$python" "$MEASURE" "${args[@]}" >"$out" 2>"$out.err" || {
        echo "$tool on $input failed: $(tail -3 "$out.err")" >&2; rm -f "$out"*; continue; }
      seconds=$("$VENV/bin/python" -c "import json,sys; print(json.load(open('$out'))['seconds'])")
      found=$("$VENV/bin/python" -c "import json,sys; print(len(json.load(open('$out'))['found']))")
    fi
    rss=$(awk -F': ' '/Maximum resident/ {print $2}' "$out.time")
    key="$input|$tool"
    TIMES[$key]="${TIMES[$key]:-} $seconds"
    [ "${RSS[$key]:-0}" -lt "$rss" ] && RSS[$key]=$rss
    FOUND[$key]=$found
    rm -f "$out" "$out.time" "$out.err"
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
size_mb() { if [ -d "$1" ]; then cat "$1"/*.json | wc -c | awk '{print $1/1e6}'; else stat -L -c %s "$1" | awk '{print $1/1e6}'; fi; }
declare -A NAME=(
  [cli]="cardkit validate (CLI, 2 threads)"
  [cardkit]="cardkit.validate (jobs=2)"
  [jsonschema-rs]="json.loads + jsonschema-rs"
  [mightstone]="mightstone model_validate_json"
  [cardkit-tables]="cardkit.read_tables (jobs=2)"
  [pandas]="json.load + pandas.json_normalize"
  [cardkit-serial]="cardkit.validate, files one after another (jobs=1)"
  [cardkit-threads]="cardkit.validate, 2 Python threads (jobs=1 each)"
)
declare -A DEFECT_COUNT
for input in neo cat; do
  DEFECT_COUNT[$input]=$("$VENV/bin/python" -c "import json; print(len(json.load(open('$DATA/defects-$input.json'))))")
done
echo "| input | tool | median s | MB/s | × CLI | peak RSS MB | defects found |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
for row in "${ROWS[@]}"; do
  IFS='|' read -r _ tool input <<<"$row"
  key="$input|$tool"
  [ -n "${TIMES[$key]:-}" ] || { echo "| $input | ${NAME[$tool]} | ${MIGHTSTONE_ERROR:-failed} | | | | |"; continue; }
  t=$(echo "${TIMES[$key]}" | median)
  mb=$(size_mb "$(input_of "$input" "$tool")")
  base=cli
  [ "$input" = sets ] && base=cardkit-serial
  b=$(echo "${TIMES[$input|$base]:-$t}" | median)
  defects="-"
  [ -n "${DEFECT_COUNT[$input]:-}" ] && [ "$tool" != cardkit-tables ] && [ "$tool" != pandas ] &&
    defects="${FOUND[$key]} of ${DEFECT_COUNT[$input]}"
  printf '| %s (%.0f MB) | %s | %.3f | %.0f | %.2f | %.0f | %s |\n' "$input" "$mb" "${NAME[$tool]}" "$t" \
    "$(echo "$mb / $t" | bc -l)" "$(echo "$t / $b" | bc -l)" "$(echo "${RSS[$key]} / 1024" | bc -l)" "$defects"
done
