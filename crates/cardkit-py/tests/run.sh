#!/usr/bin/env bash
# Builds the Python package into a virtual environment and runs its tests.
#
#   crates/cardkit-py/tests/run.sh VENV [CARDKIT_BIN]
#
# VENV is made when it does not exist (python3 -m venv); maturin, pytest and
# mypy (and the readers of its tables: pyarrow, pandas, DuckDB, PySpark) are
# installed into it at the versions pinned here, then the package from
# this checkout (`pip install ./crates/cardkit-py`, as the README says). The
# conformance cases are compared with the command line at CARDKIT_BIN (the
# second argument, else the variable, else target/debug/cardkit, built when
# missing).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
crate="$(dirname "$here")"
root="$(cd "$crate/../.." && pwd)"
venv="${1:?usage: $0 VENV [CARDKIT_BIN]}"
target="${CARGO_TARGET_DIR:-$root/target}"
bin="${2:-${CARDKIT_BIN:-$target/debug/cardkit}}"
# Relative paths are the caller's: made absolute before the tests change
# directory.
absolute() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
venv="$(absolute "$venv")"
target="$(absolute "$target")"
bin="$(absolute "$bin")"

MATURIN_VERSION=1.16.0
PYTEST_VERSION=9.2.0
# The type stubs are checked against the package with mypy's stubtest.
MYPY_VERSION=2.4.1
# read_tables gives pyarrow tables; pandas and DuckDB read them in the
# tests as the book shows (docs/python.md). PySpark runs its Spark recipe in
# local mode (on the machine's Java), at the version .ci/run pins.
PYARROW_VERSION=26.0.1
# pandas 2: PySpark 4.3 warns that it does not fully support pandas 3.
PANDAS_VERSION=2.3.3
DUCKDB_VERSION=2.0.0
PYSPARK_VERSION=4.3.0

if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "maturin==$MATURIN_VERSION" "pytest==$PYTEST_VERSION" "mypy==$MYPY_VERSION" \
    "pyarrow==$PYARROW_VERSION" "pandas==$PANDAS_VERSION" "duckdb==$DUCKDB_VERSION" \
    "pyspark==$PYSPARK_VERSION"
if [ ! -x "$bin" ]; then
    (cd "$root" && cargo build --quiet --bin cardkit)
fi
# The build's own isolated environment would fetch maturin again: the one
# just installed builds it (its Python hook runs `maturin` from PATH). The
# wheel is built in the test build's profile, as `cargo test` builds (see
# "The test build" in CONTRIBUTING.md).
PATH="$venv/bin:$PATH" CARGO_TARGET_DIR="$target" MATURIN_PEP517_ARGS="--profile dev" \
    "$venv/bin/python" -m pip install --quiet \
    --disable-pip-version-check --no-build-isolation --force-reinstall --no-deps "$crate"
cd "$crate"
CARDKIT_BIN="$bin" "$venv/bin/python" -m pytest -p no:cacheprovider -q tests
