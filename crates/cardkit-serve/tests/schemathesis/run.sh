#!/usr/bin/env bash
# Property-based API tests: schemathesis generates requests from the service's
# own OpenAPI document (/openapi.json) and checks every response: no 5xx,
# statuses, content types, headers and bodies as the document says, schema-
# invalid requests refused, schema-valid ones taken.
#
# Usage: crates/cardkit-serve/tests/schemathesis/run.sh [CARDKIT] [EXAMPLES]
#   CARDKIT   the cardkit binary (default target/debug/cardkit, built here)
#   EXAMPLES  examples generated per operation (default 100)
# Needs schemathesis (SCHEMATHESIS, default: schemathesis on PATH).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../../.."

CARDKIT=${1:-target/debug/cardkit}
EXAMPLES=${2:-100}
SCHEMATHESIS=${SCHEMATHESIS:-schemathesis}
[ "$CARDKIT" != target/debug/cardkit ] || cargo build -q -p cardkit-cli

log=$(mktemp)
"$CARDKIT" serve --addr 127.0.0.1:0 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do
  grep -q 'listening on' "$log" && break
  sleep 0.05
done
url=$(grep -o 'http://[0-9.:]*' "$log")

cd "$here"
# One worker: with two, two operations that have query parameters
# (/v1/validate, /v1/render) may describe hypothesis's filters for the first
# time at once, from two threads, and CPython 3.11's ast.parse then fails
# with "SystemError: AST constructor recursion depth mismatch" (seen with
# /v1/validate as well as /v1/render): an error of the tool, not an answer
# of the service. One worker runs the whole suite in about 15 s.
"$SCHEMATHESIS" run "$url/openapi.json" \
  --checks all \
  --max-examples "$EXAMPLES" \
  --workers 1 \
  --seed 1 \
  --warnings off
# The service is still up and well after all of it.
python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1] + "/healthz")' "$url"
if grep -q panicked "$log"; then
  cat "$log" >&2
  echo "the service panicked" >&2
  exit 1
fi
