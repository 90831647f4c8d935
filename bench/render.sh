#!/usr/bin/env bash
# Rendering the corpus's Dimirova card to PNG, at full size (1500 x 2100)
# and at 0.25 scale, with the release CLI (`cardkit render`), beside the
# reference library's renderer (PyPI `mightstone`, CardConjurer.render) on
# the same card with the same assets, offline.
#
# Both read one folder made here under target/bench-data/render: the
# stand-in assets of crates/cardkit-render/tests/assets (frames, masks,
# symbols), stand-ins for the symbols the template lists but the tests do
# not draw (mightstone reads every symbol of the template), the Angular
# template in the spec's shape (mightstone reads that shape, not the design
# tool's), and OpenSans-Regular.ttf from the corpus under the names of the
# template's two fonts, so both set text in the same font. mightstone has
# no scale: its 0.25 figure is its full render followed by a resize with
# Pillow, as a user of it would do.
#
# Figures: the median wall time of RUNS runs of the whole command (process
# start, reading, rendering, writing the PNG) and the largest peak RSS of
# them (/usr/bin/time -v). mightstone runs in a virtual environment made
# under target/bench-venv (pip install mightstone); when it cannot be
# installed or does not run, the script says why and goes on.
#
# Usage: bench/render.sh            (RUNS=5 by default)
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
SHARED=${CARDKIT_SHARED:-../shared}
DIR=target/bench-data/render
VENV=target/bench-venv
CARD=$SHARED/corpus/raw/card/mightstone_dimirova-smiley_head.json

rm -rf "$DIR"
mkdir -p "$DIR/custom/font"
cp -r crates/cardkit-render/tests/assets/. "$DIR/"
rm -f "$DIR/make_assets.py"
for symbol in gray green purple red white yellow 0 1 2 4 5 6 7 8 9 10 ccw; do
  cp "$DIR/custom/11-20-22/symbol/3.svg" "$DIR/custom/11-20-22/symbol/$symbol.svg"
done
cp "$DIR/general/icon/palette.svg" "$DIR/general/icon/camera.svg"
cp "$SHARED/corpus/design-tool/OpenSans-Regular.ttf" "$DIR/custom/font/Quango.otf"
cp "$SHARED/corpus/design-tool/OpenSans-Regular.ttf" "$DIR/custom/font/Montserrat-Regular.ttf"
cp "$CARD" "$DIR/card.json"

cargo build --release -q -p cardkit-cli
CARDKIT=target/release/cardkit

# The template in the spec's shape, where the card names it.
"$CARDKIT" import "$SHARED/corpus/raw/template/mightstone_template-angular.json" \
  -o "$DIR/custom/11-20-22/template.json" >/dev/null

# Prints "seconds peak-RSS-KB": the median wall time of RUNS runs and the
# largest peak RSS of them; fails when a run fails.
measure() {
  local times=() rss=0 start end m report
  report=$(mktemp)
  for _ in $(seq "$RUNS"); do
    start=$(date +%s.%N)
    /usr/bin/time -v -o "$report" "$@" >/dev/null 2>"$report.err" || {
      echo "render.sh: failed: $*" >&2
      cat "$report.err" >&2
      return 1
    }
    end=$(date +%s.%N)
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", b - a}')")
    m=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$report")
    ((m > rss)) && rss=$m
  done
  rm -f "$report" "$report.err"
  printf '%s\n' "${times[@]}" | sort -g | awk -v rss="$rss" \
    '{a[NR]=$1} END {print a[int((NR+1)/2)], rss}'
}

rows=()
row() {
  local tool=$1 scale=$2 seconds rss
  shift 2
  read -r seconds rss < <(measure "$@")
  rows+=("$(printf '| %-28s | %5s | %8s | %6.0f MB |' "$tool" "$scale" "$seconds" \
    "$(awk -v k="$rss" 'BEGIN {print k / 1024}')")")
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr); $(date -u +%Y-%m-%d)"
echo "card: $CARD; runs per figure: $RUNS (median time, largest peak RSS)"
echo

for scale in 1 0.25; do
  row "cardkit render" "$scale" "$CARDKIT" render "$DIR/card.json" \
    --template "$DIR/custom/11-20-22/template.json" --assets "$DIR" \
    --year 2023 --scale "$scale" --png "$DIR/cardkit-$scale.png"
done
echo "cardkit's report for the card: $("$CARDKIT" render "$DIR/card.json" \
  --template "$DIR/custom/11-20-22/template.json" --assets "$DIR" --year 2023 \
  --svg /dev/null 2>&1 | wc -l) lines"

cat >"$DIR/mightstone_render.py" <<'PY'
import sys
from mightstone.services.cardconjurer import CardConjurer
card_path, out, scale = sys.argv[1], sys.argv[2], float(sys.argv[3])
client = CardConjurer()
image = client.render(client.card(card_path))
if scale != 1:
    image = image.resize((round(image.width * scale), round(image.height * scale)))
image.save(out)
PY
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import mightstone' 2>/dev/null; then
  python3 -m venv "$VENV" && "$VENV/bin/pip" install -q mightstone >&2 ||
    echo "mightstone: could not be installed into $VENV; skipped" >&2
fi
if "$VENV/bin/python" -c 'import mightstone' 2>/dev/null; then
  version=$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("mightstone"))')
  for scale in 1 0.25; do
    row "mightstone $version" "$scale" "$VENV/bin/python" "$DIR/mightstone_render.py" \
      "$DIR/card.json" "$DIR/mightstone-$scale.png" "$scale"
  done
fi

echo
printf '| %-28s | %5s | %8s | %9s |\n' tool scale seconds "peak RSS"
echo "|------------------------------|-------|----------|-----------|"
printf '%s\n' "${rows[@]}"
