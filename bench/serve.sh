#!/usr/bin/env bash
# Load on loopback against `cardkit serve` (release build), with wrk at a
# fixed duration and connection count, beside the command line on the same
# inputs. Prints, for each input: requests/s, p50 and p99 latency, MB/s
# through the service, the CLI's MB/s (median of hyperfine runs), and the
# server's peak RSS (VmHWM, a server started for each phase). Then a 500 MB
# catalog is streamed in with curl (-T: sent as it is read, never held), and
# the server's peak RSS is set beside the CLI's on the same file.
#
# Usage: bench/serve.sh     (DURATION=15 CONNECTIONS=4 THREADS=2 by default)
# Needs wrk, hyperfine and curl (Debian: apt-get install wrk hyperfine curl).
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-15}
CONNECTIONS=${CONNECTIONS:-4}
THREADS=${THREADS:-2}
SHARED=${CARDKIT_SHARED:-../shared}
SET=$SHARED/corpus/neutral/set/mightstone_set_BRO.json
MIGRATION=examples/valid/migration.json
DATA=target/bench-data
CATALOG=$DATA/catalog-500.json
mkdir -p "$DATA"
[ -f "$CATALOG" ] || python3 "$SHARED/bench/make_allprintings.py" \
  "$SHARED/corpus/raw/set/mightstone_set_BRO.json" --size-mb 500 --seed 1 --neutral -o "$CATALOG" >&2

cargo build --release -q -p cardkit-cli
CARDKIT=target/release/cardkit
WORK=$(mktemp -d)
trap 'kill "$SERVER" 2>/dev/null || true; rm -rf "$WORK"' EXIT

# Starts a fresh server; sets SERVER (its pid) and URL.
start() {
  "$CARDKIT" serve --addr 127.0.0.1:0 2>"$WORK/serve.log" &
  SERVER=$!
  for _ in $(seq 100); do
    grep -q 'listening on' "$WORK/serve.log" 2>/dev/null && break
    sleep 0.05
  done
  URL=$(grep -o 'http://[0-9.:]*' "$WORK/serve.log")
}
stop() { kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; }
peak_mb() { awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVER/status"; }

echo "wrk: ${THREADS} threads, ${CONNECTIONS} connections, ${DURATION} s; $(nproc) cores"
printf '%-22s %10s %9s %9s %12s %12s %10s\n' input 'req/s' 'p50' 'p99' 'service MB/s' 'CLI MB/s' 'peak RSS'
for input in "$MIGRATION" "$SET"; do
  bytes=$(stat -c %s "$input")
  cat >"$WORK/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local file = io.open("$input", "rb")
wrk.body = file:read("*a")
file:close()
LUA
  start
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/post.lua" \
    "$URL/v1/validate" >"$WORK/wrk.txt"
  rss=$(peak_mb)
  stop
  rps=$(awk '/Requests\/sec/ { print $2 }' "$WORK/wrk.txt")
  p50=$(awk '$1 == "50%" { print $2 }' "$WORK/wrk.txt")
  p99=$(awk '$1 == "99%" { print $2 }' "$WORK/wrk.txt")
  errors=$(grep -E 'Non-2xx|Socket errors' "$WORK/wrk.txt" || true)
  [ -z "$errors" ] || echo "  wrk: $errors"
  hyperfine -N --warmup 3 --runs 30 --export-json "$WORK/cli.json" \
    "$CARDKIT validate -q --format json $input" >/dev/null
  cli_s=$(python3 -c "import json; print(json.load(open('$WORK/cli.json'))['results'][0]['median'])")
  awk -v name="$(basename "$input")" -v rps="$rps" -v p50="$p50" -v p99="$p99" \
      -v bytes="$bytes" -v cli_s="$cli_s" -v rss="$rss" 'BEGIN {
    printf "%-22s %10s %9s %9s %12.1f %12.1f %8s MB\n", name, rps, p50, p99,
      rps * bytes / 1e6, bytes / 1e6 / cli_s, rss }'
done

echo
echo "A 500 MB catalog streamed in ($(stat -c %s "$CATALOG") bytes):"
start
idle=$(peak_mb)
seconds=$(curl -sS -X POST -H 'Content-Type: application/json' -T "$CATALOG" \
  -o "$WORK/report.json" -w '%{time_total}' "$URL/v1/validate")
streamed=$(peak_mb)
stop
python3 -c "import json; r = json.load(open('$WORK/report.json')); s = r['summary']; \
  assert s['bytes'] == $(stat -c %s "$CATALOG"), s; print(f\"  service: {s['documents']} documents, {s['invalid']} invalid\")"
/usr/bin/time -v "$CARDKIT" validate -q --format json "$CATALOG" >/dev/null 2>"$WORK/time.txt" || true
cli_rss=$(awk -F: '/Maximum resident/ { printf "%.1f", $2 / 1024 }' "$WORK/time.txt")
cli_wall=$(awk '/Elapsed \(wall/ { print $NF }' "$WORK/time.txt")
echo "  service: ${seconds} s, peak RSS ${idle} MB idle, ${streamed} MB after the catalog"
echo "  CLI:     ${cli_wall} (m:ss), peak RSS ${cli_rss} MB"
