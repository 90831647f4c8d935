"""cardkit in Spark: validation and the export's tables in parallel, through
`mapInArrow` (each task runs cardkit on its own batch of rows, its
threads released from the GIL).

    diagnostics(spark, paths): a DataFrame with one row per diagnostic of
        the JSON Lines files `paths` (one document per line, one line per
        row), as `cardkit validate` reports them on the same files.
    cards(spark, paths, on_invalid): the `cards` table of the set files
        `paths`, read in parallel: the rows `cardkit export --on-invalid
        ON_INVALID --to parquet:DIR` writes.

Run: python spark_recipe.py FILE.jsonl | SET.json...  (local mode)
"""

from __future__ import annotations

import pathlib
import sys
from typing import Iterator, List

import pyarrow as pa
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.pandas.types import from_arrow_schema

import cardkit

DIAGNOSTICS = pa.schema(
    [
        ("path", pa.string()),
        ("document", pa.string()),  # the document's pointer in its line
        ("code", pa.string()),
        ("pointer", pa.string()),
        ("line", pa.int64()),  # in the file, as the command line counts
        ("column", pa.int64()),
        ("message", pa.string()),
    ]
)


def validate_lines(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """Each row's document validated; its diagnostics as rows, placed in
    the file by the row's line."""
    for batch in batches:
        rows = {name: [] for name in DIAGNOSTICS.names}
        for path, line, text in zip(*(batch.column(c).to_pylist() for c in ("path", "line", "text"))):
            report = cardkit.validate(text=text, name=path, kind="card", jobs=1)
            for document in report.documents:
                for found in document.diagnostics:
                    rows["path"].append(path)
                    rows["document"].append(document.pointer)
                    rows["code"].append(found.code)
                    rows["pointer"].append(found.pointer)
                    rows["line"].append(None if found.line is None else line + found.line - 1)
                    rows["column"].append(found.column)
                    rows["message"].append(found.message)
        yield pa.RecordBatch.from_pydict(rows, schema=DIAGNOSTICS)


def diagnostics(spark: SparkSession, paths: List[str]) -> DataFrame:
    lines = [
        (path, number, text)
        for path in paths
        for number, text in enumerate(pathlib.Path(path).read_text(encoding="utf-8").splitlines(), 1)
        if text.strip()
    ]
    frame = spark.createDataFrame(lines, "path string, line long, text string")
    return frame.mapInArrow(validate_lines, from_arrow_schema(DIAGNOSTICS))


def storage(schema: pa.Schema) -> pa.Schema:
    """The schema with extension types (the JSON of `extra`) as their
    storage, which Spark reads."""
    return pa.schema(
        [
            field.with_type(field.type.storage_type if isinstance(field.type, pa.BaseExtensionType) else field.type)
            for field in schema
        ]
    )


# The cards table's columns, as every read gives them.
CARDS = storage(cardkit.read_tables(cardkit.dummy("set"))["cards"].schema)


def cards(spark: SparkSession, paths: List[str], on_invalid: str = "fail") -> DataFrame:
    def read_cards(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        """Each row's set file read as the export's tables; its cards."""
        for batch in batches:
            for path in batch.column("path").to_pylist():
                tables = cardkit.read_tables(pathlib.Path(path), on_invalid=on_invalid, jobs=1)
                yield from tables["cards"].cast(CARDS).to_batches()

    frame = spark.createDataFrame([(p,) for p in paths], "path string")
    # A task per file.
    frame = frame.repartition(len(paths))
    return frame.mapInArrow(read_cards, from_arrow_schema(CARDS))


if __name__ == "__main__":
    spark = SparkSession.builder.master("local[2]").getOrCreate()
    files = sys.argv[1:]
    if files and all(f.endswith(".jsonl") for f in files):
        diagnostics(spark, files).show(truncate=False)
    else:
        print(cards(spark, files).groupBy("parent_set_code").count().collect())
    spark.stop()
