"""`cardkit.read_tables` gives the export's tables: row for row what `cardkit
export` writes to SQLite, and exactly the Parquet files' columns and values;
invalid documents as `--on-invalid` says."""

from __future__ import annotations

import datetime
import json
import pathlib
import sqlite3
import subprocess
import sys
from typing import Any, Dict, List, Tuple

import pytest

import cardkit

from conftest import CORPUS, ROOT, SHARED, missing

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

CORPUS_SETS = sorted((CORPUS / "set").glob("*.json")) if CORPUS.is_dir() else []


def export(cli: str, paths: List[pathlib.Path], to: str, *flags: str) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [cli, "export", "--quiet", "--to", to, *flags, *map(str, paths)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return done


def as_sqlite(value: Any) -> Any:
    """A value of a pyarrow table as the SQLite export stores it: booleans
    as integers, dates as text, lists of strings as JSON text."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, list):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return value


def key(row: Tuple[Any, ...]) -> Tuple[Tuple[bool, str], ...]:
    """Rows of mixed types and NULLs sorted in one order."""
    return tuple((value is None, repr(value)) for value in row)


def sqlite_rows(database: pathlib.Path, table: str, columns: List[str]) -> List[Tuple[Any, ...]]:
    with sqlite3.connect(database) as connection:
        listed = ", ".join(f'"{c}"' for c in columns)
        rows = connection.execute(f'SELECT {listed} FROM "{table}"').fetchall()
    return sorted(rows, key=key)


def arrow_rows(table: Any) -> List[Tuple[Any, ...]]:
    columns = [table.column(name).to_pylist() for name in table.column_names]
    rows = [tuple(as_sqlite(v) for v in row) for row in zip(*columns)]
    return sorted(rows, key=key)


def assert_same_as_sqlite(tables: Dict[str, Any], database: pathlib.Path) -> int:
    """Every table of `tables` holds the SQLite export's rows; the rows
    compared."""
    compared = 0
    for name, table in tables.items():
        expected = sqlite_rows(database, name, table.column_names)
        got = arrow_rows(table)
        # Lists are JSON text in SQLite: read back and written as Python
        # writes them, so that spacing does not differ.
        lists = [
            i
            for i, field in enumerate(table.schema)
            if pa.types.is_list(field.type)
        ]
        if lists:
            expected = sorted(
                (
                    tuple(
                        as_sqlite(json.loads(v)) if i in lists and v is not None else v
                        for i, v in enumerate(row)
                    )
                    for row in expected
                ),
                key=key,
            )
        assert len(got) == len(expected), name
        assert got == expected, name
        compared += len(got)
    return compared


def test_corpus_found() -> None:
    if not CORPUS_SETS:
        missing(f"no corpus sets at {CORPUS / 'set'}: set CARDKIT_SHARED to the shared folder")


@pytest.mark.parametrize("on_invalid", ["skip", "keep"])
def test_corpus_sets_equal_the_sqlite_export(cli: str, tmp_path: pathlib.Path, on_invalid: str) -> None:
    if not CORPUS_SETS:
        missing(f"no corpus sets at {CORPUS / 'set'}")
    database = tmp_path / "export.db"
    export(cli, CORPUS_SETS, f"sqlite:{database}", "--on-invalid", on_invalid)
    tables = cardkit.read_tables(CORPUS_SETS, on_invalid=on_invalid)
    with sqlite3.connect(database) as connection:
        stored = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert set(tables) <= stored
    # Most of the corpus's sets are older than the spec: `skip` leaves
    # them out, `keep` reads them with NULLs.
    assert tables["cards"].num_rows > (100 if on_invalid == "skip" else 5000)
    assert assert_same_as_sqlite(tables, database) > 1000


@pytest.fixture(scope="session")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """A small catalog made by the benchmark's generator from a real set."""
    generator = SHARED / "bench" / "make_allprintings.py"
    real = SHARED / "corpus" / "raw" / "set" / "mightstone_set_BRO.json"
    if not generator.exists() or not real.exists():
        missing(f"no catalog generator or set at {generator}, {real}")
    path = tmp_path_factory.mktemp("catalog") / "catalog.json"
    subprocess.run(
        [sys.executable, str(generator), str(real), "--sets", "3", "--seed", "1", "--neutral", "-o", str(path)],
        check=True,
        capture_output=True,
    )
    return path


def test_generated_catalog_equals_the_sqlite_export(cli: str, tmp_path: pathlib.Path, catalog: pathlib.Path) -> None:
    database = tmp_path / "export.db"
    export(cli, [catalog], f"sqlite:{database}", "--keep-unknown")
    tables = cardkit.read_tables(catalog, keep_unknown=True)
    assert tables["sets"].num_rows == 3
    assert assert_same_as_sqlite(tables, database) > 1000


def test_tables_are_the_parquet_files(cli: str, tmp_path: pathlib.Path, catalog: pathlib.Path) -> None:
    """The same schema (types, the JSON type of `extra`) and values as the
    Parquet export; DuckDB reads the files with the `build` partition as
    its last column, which a read has not."""
    out = tmp_path / "parquet"
    export(cli, [catalog], f"parquet:{out}", "--build", "b", "--keep-unknown")
    tables = cardkit.read_tables(catalog, keep_unknown=True, jobs=1)
    for name, table in tables.items():
        # The file alone (one run: one file per table), without the
        # partition that its folder names.
        (stored_file,) = (out / name / "build=b").glob("*.parquet")
        stored = pq.ParquetFile(stored_file).read()
        assert table.schema.equals(stored.schema), name
        assert table.combine_chunks().equals(stored.combine_chunks()), name
    duckdb = pytest.importorskip("duckdb")
    read = duckdb.sql(
        f"SELECT * FROM read_parquet('{out}/cards/*/*.parquet', hive_partitioning = true)"
    )
    assert read.columns == tables["cards"].column_names + ["build"]
    assert read.count("*").fetchall() == [(tables["cards"].num_rows,)]


def test_every_layout_table_is_there_in_order(catalog: pathlib.Path, cli: str) -> None:
    described = subprocess.run([cli, "export", "--describe"], capture_output=True, text=True, check=True).stdout
    tables = cardkit.read_tables(catalog)
    positions = [described.find(f"\n{name}: ") for name in tables]
    assert all(p >= 0 for p in positions), list(tables)
    assert positions == sorted(positions)
    assert tables["meta"].column("input").to_pylist() == [str(catalog)]


def test_references_are_read_into_their_table_as_the_export_writes_them(
    cli: str, tmp_path: pathlib.Path
) -> None:
    case = ROOT / "crates" / "cardkit" / "tests" / "references" / "variation_elsewhere-fails.json"
    database = tmp_path / "export.db"
    export(cli, [case], f"sqlite:{database}", "--references")
    tables = cardkit.read_tables(case, references=True)
    table = tables["reference_findings"]
    assert table.column("code").to_pylist() == ["variation_elsewhere"]
    assert table.column("pointer").to_pylist() == ["/data/TST/cards/0/variations/0"]
    assert assert_same_as_sqlite({"reference_findings": table}, database) == 1
    # Not asked, not checked: the table is there, empty.
    assert cardkit.read_tables(case)["reference_findings"].num_rows == 0
    # As errors, under "fail", the document is invalid: nothing is read.
    with pytest.raises(cardkit.InvalidDocumentsError):
        cardkit.read_tables(case, references="error")


def test_same_tables_from_every_source(catalog: pathlib.Path) -> None:
    expected = cardkit.read_tables(catalog)
    data = catalog.read_bytes()
    with open(catalog, "rb") as file:
        reads = [
            cardkit.read_tables(source, name=str(catalog))
            for source in (data, file, [catalog], str(catalog), [str(catalog)])
        ]
    reads.append(cardkit.read_tables(text=data.decode(), name=str(catalog)))
    for got in reads:
        assert list(got) == list(expected)
        for name in expected:
            assert got[name].equals(expected[name]), name


def test_same_tables_whatever_the_jobs(catalog: pathlib.Path) -> None:
    one = cardkit.read_tables(catalog, jobs=1)
    two = cardkit.read_tables(catalog, jobs=2)
    for name in one:
        assert one[name].equals(two[name]), name


def invalid_set() -> bytes:
    document = cardkit.dummy("set")
    document["code"] = "BAD"
    document["releaseDate"] = "not a date"
    return json.dumps(document).encode()


def valid_set(code: str) -> bytes:
    document = cardkit.dummy("set")
    document["code"] = code
    return json.dumps(document).encode()


def lines(*documents: bytes) -> bytes:
    return b"".join(d + b"\n" for d in documents)


def test_invalid_under_fail_raises_with_the_report() -> None:
    source = lines(valid_set("AAA"), invalid_set())
    with pytest.raises(cardkit.InvalidDocumentsError) as raised:
        cardkit.read_tables(source, name="sets.jsonl")
    error = raised.value
    assert isinstance(error, ValueError)
    assert "1 of 2 documents" in str(error) and "on_invalid='skip'" in str(error)
    assert not error.report.valid
    # Only the invalid document is listed, with its line and diagnostics.
    [document] = error.report.documents
    assert document.line == 2 and not document.valid
    alone = cardkit.validate(invalid_set(), kind="set").diagnostics
    assert [(d.code, d.pointer, d.message) for d in document.diagnostics] == [
        (d.code, d.pointer, d.message) for d in alone
    ]
    assert error.report.summary["documents"] == 2
    assert error.note_count == 1 and "sets.jsonl:2" in error.notes[0]


def test_skip_leaves_the_invalid_out_and_keep_reads_it_with_nulls() -> None:
    source = lines(valid_set("AAA"), invalid_set(), valid_set("CCC"))
    skipped = cardkit.read_tables(source, on_invalid="skip", name="sets.jsonl")
    assert skipped["sets"].column("code").to_pylist() == ["AAA", "CCC"]
    kept = cardkit.read_tables(source, on_invalid="keep", name="sets.jsonl")
    assert kept["sets"].column("code").to_pylist() == ["AAA", "BAD", "CCC"]
    assert kept["sets"].column("release_date").to_pylist()[1] is None


def test_a_set_read_twice_is_kept_as_the_later() -> None:
    first = cardkit.dummy("set")
    second = dict(first, name="The later one")
    source = lines(json.dumps(first).encode(), json.dumps(second).encode())
    tables = cardkit.read_tables(source, name="sets.jsonl")
    assert tables["sets"].column("name").to_pylist() == ["The later one"]


def test_keep_unknown_fills_extra() -> None:
    document = cardkit.dummy("set")
    document["price"] = 3
    source = json.dumps(document)
    assert cardkit.read_tables(text=source)["sets"].column("extra").to_pylist() == [None]
    extra = cardkit.read_tables(text=source, keep_unknown=True)["sets"].column("extra").to_pylist()
    assert [json.loads(e) for e in extra] == [{"price": 3}]


def test_an_unreadable_input_fails_the_read_or_is_left_out(tmp_path: pathlib.Path) -> None:
    (tmp_path / "good.json").write_bytes(valid_set("AAA"))
    (tmp_path / "broken.json.gz").write_bytes(b"\x1f\x8b\x08\x00 not gzip")
    with pytest.raises(cardkit.InvalidDocumentsError, match="1 input could not be read") as raised:
        cardkit.read_tables(tmp_path)
    assert [f.error is not None for f in raised.value.report.files].count(True) == 1
    tables = cardkit.read_tables(tmp_path, on_invalid="skip")
    assert tables["sets"].column("code").to_pylist() == ["AAA"]


@pytest.mark.parametrize(
    "arguments,message",
    [
        ({"on_invalid": "ignore"}, "on_invalid is \"ignore\": expected 'fail', 'skip' or 'keep'"),
        ({"kind": "deck"}, "kind is \"deck\""),
        ({"jobs": 0}, "jobs is 0"),
        ({"strict_version": True, "as_of": "latest"}, "strict_version needs as_of"),
    ],
)
def test_bad_arguments_are_refused(arguments: Dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as raised:
        cardkit.read_tables(valid_set("AAA"), **arguments)
    assert message in str(raised.value)


def test_bad_sources_are_refused(tmp_path: pathlib.Path) -> None:
    with pytest.raises(FileNotFoundError):
        cardkit.read_tables(tmp_path / "missing.json")
    with pytest.raises(TypeError, match="a list holds paths"):
        cardkit.read_tables([b"{}"])
    with pytest.raises(ValueError, match="empty list"):
        cardkit.read_tables([])
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no input was found"):
        cardkit.read_tables(tmp_path / "empty")


def test_a_template_is_out_of_scope() -> None:
    template = cardkit.dummy("template")
    with pytest.raises(cardkit.InvalidDocumentsError) as raised:
        cardkit.read_tables(template)
    assert "out of the export's scope" in raised.value.notes[0]
    assert cardkit.read_tables(template, on_invalid="skip")["sets"].num_rows == 0


def test_pandas_and_duckdb_read_the_tables(catalog: pathlib.Path) -> None:
    pandas = pytest.importorskip("pandas")
    duckdb = pytest.importorskip("duckdb")
    tables = cardkit.read_tables(catalog)
    cards = tables["cards"]
    frame = cards.to_pandas()
    assert isinstance(frame, pandas.DataFrame) and len(frame) == cards.num_rows
    counted = duckdb.sql("SELECT parent_set_code, count(*) AS n FROM cards GROUP BY parent_set_code ORDER BY parent_set_code").fetchall()
    by_pandas = sorted(frame.groupby("parent_set_code").size().items())
    assert counted == [(code, n) for code, n in by_pandas]


def test_skip_returns_what_it_skipped_and_warns_once() -> None:
    source = lines(valid_set("AAA"), invalid_set(), valid_set("CCC"))
    with pytest.warns(cardkit.SkippedWarning) as warned:
        tables = cardkit.read_tables(source, on_invalid="skip", name="sets.jsonl")
    assert len(warned) == 1
    message = str(warned[0].message)
    assert "left out 1 of 3 documents (1 invalid)" in message
    assert isinstance(tables, dict) and tables["sets"].num_rows == 2
    skipped = tables.skipped
    assert skipped and (skipped.document_count, skipped.invalid_count, skipped.read_count) == (1, 1, 3)
    [document] = skipped.documents
    assert (document.path, document.line, document.kind) == ("sets.jsonl", 2, "set")
    assert document.reason == "it is invalid"
    assert document.error is not None and document.error.severity == "error"
    first = cardkit.validate(invalid_set(), kind="set").diagnostics[0]
    assert (document.error.code, document.error.pointer) == (first.code, first.pointer)
    # The warning names the first reason.
    assert document.error.code in message and "sets.jsonl:2" in message


def test_skip_says_why_a_valid_document_is_left_out(recwarn: pytest.WarningsRecorder) -> None:
    tables = cardkit.read_tables(cardkit.dummy("template"), on_invalid="skip")
    [document] = tables.skipped.documents
    assert document.error is None and "out of the export's scope" in document.reason
    assert tables.skipped.invalid_count == 0
    assert len(recwarn.list) == 1 and "out of the export's scope" in str(recwarn.list[0].message)


def test_an_unreadable_input_skipped_is_named(tmp_path: pathlib.Path) -> None:
    (tmp_path / "good.json").write_bytes(valid_set("AAA"))
    (tmp_path / "broken.json.gz").write_bytes(b"\x1f\x8b\x08\x00 not gzip")
    with pytest.warns(cardkit.SkippedWarning, match="1 input that could not be read"):
        tables = cardkit.read_tables(str(tmp_path), on_invalid="skip")
    [(path, why)] = tables.skipped.unreadable
    assert path == str(tmp_path / "broken.json.gz") and why
    assert tables.skipped.unreadable_count == 1 and tables.skipped.document_count == 0


def test_nothing_skipped_warns_nothing() -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tables = cardkit.read_tables(valid_set("AAA"), on_invalid="skip")
    assert not tables.skipped and tables.skipped.documents == []


def test_published_sets_skipped_say_why_and_how_to_read_them() -> None:
    raw = SHARED / "corpus" / "raw" / "set" / "jsonsets_LEA.json"
    if not raw.exists():
        missing(f"no published set at {raw}")
    with pytest.warns(cardkit.SkippedWarning) as warned:
        tables = cardkit.read_tables(str(raw), on_invalid="skip", names="spec")
    assert len(warned) == 1 and 'names="auto"' in str(warned[0].message)
    [document] = tables.skipped.documents
    assert document.path == str(raw) and document.error is not None
    assert document.note is not None and 'names="auto"' in document.note
    # Read as it declares itself, by default, it is not skipped.
    tables = cardkit.read_tables(str(raw), on_invalid="skip")
    assert not tables.skipped and tables["cards"].num_rows > 0


def test_extra_as_text_is_plain_strings() -> None:
    document = cardkit.dummy("set")
    document["price"] = 3
    tables = cardkit.read_tables(document, keep_unknown=True)
    assert isinstance(tables["sets"].schema.field("extra").type, pa.BaseExtensionType)
    plain = tables.extra_as_text()
    assert plain.skipped is tables.skipped and list(plain) == list(tables)
    for name, table in plain.items():
        assert not any(isinstance(f.type, pa.BaseExtensionType) for f in table.schema), name
        assert table.num_rows == tables[name].num_rows
    extra = plain["sets"].column("extra")
    assert extra.type == pa.string() and json.loads(extra[0].as_py()) == {"price": 3}
