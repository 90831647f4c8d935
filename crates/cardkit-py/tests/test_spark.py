"""The Spark recipe of the book (docs/python.md; examples/spark_recipe.py), run in local
mode: its diagnostics are the command line's on the same JSON Lines file,
and its cards table is the Parquet export's of the same set files."""

from __future__ import annotations

import importlib.util
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
from typing import Any, Iterator, List, Tuple

import pytest

import cardkit

from conftest import CORPUS, ROOT, missing

RECIPE = ROOT / "crates" / "cardkit-py" / "examples" / "spark_recipe.py"
SETS = sorted((CORPUS / "set").glob("jsonsets_*.json"))[:6] if CORPUS.is_dir() else []


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    try:
        import pyspark  # noqa: F401
    except ImportError:
        missing("pyspark is not installed")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        missing("Spark needs Java: no java on PATH")
    # The workers run this Python, where cardkit is installed.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("cardkit recipe")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    yield session
    session.stop()


@pytest.fixture(scope="module")
def recipe() -> Any:
    spec = importlib.util.spec_from_file_location("spark_recipe", RECIPE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_book_shows_the_recipe_as_it_is_tested() -> None:
    chapter = (ROOT / "docs" / "python.md").read_text()
    shown = re.search(r"<!-- spark_recipe.py -->\n```python\n(.*?)```", chapter, re.S)
    assert shown, "the book's Python chapter (docs/python.md) shows no Spark recipe"
    assert shown.group(1) == RECIPE.read_text()


def cards_with_defects(tmp_path: pathlib.Path) -> pathlib.Path:
    """JSON Lines of a real set's cards, every fifth with a defect."""
    if not SETS:
        missing(f"no corpus sets at {CORPUS / 'set'}")
    document = json.loads((CORPUS / "set" / "jsonsets_NEO.json").read_text())
    document = document.get("data", document)
    path = tmp_path / "cards.jsonl"
    with open(path, "w", encoding="utf-8") as out:
        for n, card in enumerate(document["cards"][:200]):
            if n % 5 == 1:
                card.pop("rarity", None)
            elif n % 5 == 3:
                card["manaValue"] = "three"
            out.write(json.dumps(card, ensure_ascii=False) + "\n")
    return path


def cli_diagnostics(cli: str, path: pathlib.Path) -> List[Tuple[Any, ...]]:
    done = subprocess.run(
        [cli, "validate", "--format", "json", "--no-config", "--quiet", "--kind", "card",
         "--warning-limit", "0", "--error-limit", "0", str(path)],
        capture_output=True, text=True, check=False,
    )
    report = json.loads(done.stdout)
    return sorted(
        (file["path"], document.get("pointer", ""), d["code"], d.get("pointer", ""),
         d.get("line"), d.get("column"), d.get("message", ""))
        for file in report["files"]
        for document in file["documents"]
        for d in document.get("diagnostics", [])
    )


def test_diagnostics_as_the_command_line(spark: Any, recipe: Any, cli: str, tmp_path: pathlib.Path) -> None:
    path = cards_with_defects(tmp_path)
    expected = cli_diagnostics(cli, path)
    assert len(expected) >= 80
    rows = recipe.diagnostics(spark, [str(path)]).collect()
    got = sorted(tuple(row) for row in rows)
    assert got == expected


def test_cards_as_the_parquet_export(spark: Any, recipe: Any, cli: str, tmp_path: pathlib.Path) -> None:
    if not SETS:
        missing(f"no corpus sets at {CORPUS / 'set'}")
    import pyarrow.parquet as pq

    out = tmp_path / "parquet"
    done = subprocess.run(
        [cli, "export", "--quiet", "--on-invalid", "keep", "--to", f"parquet:{out}", *map(str, SETS)],
        capture_output=True, text=True, check=False,
    )
    # The corpus's sets are older than the spec: read with NULLs.
    assert done.returncode in (0, 1), done.stderr
    # One run of the export: one file per table.
    (cards_file,) = (out / "cards").glob("*.parquet")
    expected = pq.ParquetFile(cards_file).read().cast(recipe.CARDS)
    frame = recipe.cards(spark, [str(p) for p in SETS], on_invalid="keep")
    assert frame.rdd.getNumPartitions() == len(SETS)
    got = frame.toArrow()
    assert got.num_rows == expected.num_rows > 1000

    def rows(table: Any) -> List[str]:
        return sorted(json.dumps(row, default=str, sort_keys=True) for row in table.to_pylist())

    assert rows(got) == rows(expected)
