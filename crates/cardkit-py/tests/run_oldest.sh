#!/usr/bin/env bash
# The package's tests on the oldest CPython its abi3 wheel is for (3.9):
#
#   crates/cardkit-py/tests/run_oldest.sh PYTHON3.9 VENV [CARDKIT_BIN]
#
# PYTHON3.9 makes VENV (pyenv's `$(pyenv root)/versions/3.9.*/bin/python3.9`
# on this machine; Debian's apt has none); the newest releases for 3.9 of
# pytest, pyarrow, pandas and DuckDB are installed there, and the package
# from this checkout. PySpark 4 needs 3.10 and mypy is not installed: the
# Spark recipe's tests and the book's examples (which hold the recipe) are
# left out, and the check of the type stubs skips.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
crate="$(dirname "$here")"
root="$(cd "$crate/../.." && pwd)"
python="${1:?usage: $0 PYTHON3.9 VENV [CARDKIT_BIN]}"
venv="${2:?usage: $0 PYTHON3.9 VENV [CARDKIT_BIN]}"
target="${CARGO_TARGET_DIR:-$root/target}"
bin="${3:-${CARDKIT_BIN:-$target/debug/cardkit}}"
absolute() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
venv="$(absolute "$venv")"
target="$(absolute "$target")"
bin="$(absolute "$bin")"

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    maturin==1.16.0 pytest==8.4.2 pyarrow==21.0.0 pandas==2.3.3 duckdb==1.4.5
if [ ! -x "$bin" ]; then
    (cd "$root" && cargo build --quiet --bin cardkit)
fi
PATH="$venv/bin:$PATH" CARGO_TARGET_DIR="$target" "$venv/bin/python" -m pip install --quiet \
    --disable-pip-version-check --no-build-isolation --force-reinstall --no-deps "$crate"
cd "$crate"
CARDKIT_BIN="$bin" "$venv/bin/python" -m pytest -p no:cacheprovider -q tests \
    --ignore tests/test_spark.py --deselect tests/test_docs.py::test_the_books_and_the_readmes_examples_run
