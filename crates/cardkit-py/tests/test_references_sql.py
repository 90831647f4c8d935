"""The reference rules written as SQL over the export's tables
(crates/cardkit-export/sql/references, printed by `cardkit export
--describe`), run in DuckDB and in Spark (local mode) over a Parquet export,
find what `cardkit validate --references` finds on the same file: each case
of the references' conformance suite (the rules of a whole catalog only
over those that are catalogs), a catalog of corpus sets and a generated
one. Left out of the comparison, and only these: the duplicates of an id or
code whose first is in another set, as an export keeps one set's rows of a
uuid (docs/references.md says so). The export's own table of findings
(`cardkit export --references`, `reference_findings`) holds every finding
of the check, those too: it is the queries' rows and those duplicates."""

from __future__ import annotations

import collections
import json
import os
import pathlib
import shutil
import subprocess
import sys
from typing import Any, Counter, Dict, Iterator, List, Optional, Tuple

import pytest

from conftest import ROOT, SHARED, missing

SQL = ROOT / "crates" / "cardkit-export" / "sql" / "references"
CASES = ROOT / "crates" / "cardkit" / "tests" / "references"
RAW_SETS = sorted((SHARED / "corpus" / "raw" / "set").glob("jsonsets_*.json"))
MAKE_ALLPRINTINGS = SHARED / "bench" / "make_allprintings.py"

#: The rules, one query each, in the order `--describe` prints them.
RULES = [
    "duplicate_id",
    "duplicate_printing",
    "set_code_mismatch",
    "asymmetric_faces",
    "variation_elsewhere",
    "dangling_reference",
    "dangling_reference_catalog",
]
CODES = {
    "duplicate_id",
    "duplicate_printing",
    "set_code_mismatch",
    "asymmetric_faces",
    "variation_elsewhere",
    "dangling_reference",
}
TABLES = ["sets", "cards", "tokens", "sealed_products", "related_cards"]
KINDS = {"cards": "card", "tokens": "token", "sealedProduct": "sealed"}

#: A finding: code, set code, record kind, record position, field, item
#: position, value.
Finding = Tuple[str, str, str, Optional[int], str, Optional[int], str]


def whole_catalog(path: pathlib.Path) -> bool:
    """The file is a catalog: a run over it alone reads a whole catalog."""
    return "data" in json.loads(path.read_text())


def resolve(document: Any, parts: List[str]) -> Any:
    for part in parts:
        document = document[int(part)] if isinstance(document, list) else document[part]
    return document


def streaming(cli: str, path: pathlib.Path) -> Tuple[Counter[Finding], List[Finding]]:
    """The command line's findings on the catalog at `path`, as tuples; and
    apart, the duplicates of an id or code whose first is in another set,
    which an export does not hold (it keeps one set's rows of a uuid)."""
    done = subprocess.run(
        [cli, "validate", "--references", "--format", "json", "--no-config", "--quiet",
         "--warning-limit", "0", str(path)],
        capture_output=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
    report = json.loads(done.stdout)
    catalog = json.loads(path.read_text())
    found: Counter[Finding] = collections.Counter()
    across: List[Finding] = []
    for entry in report["files"]:
        for document in entry["documents"]:
            for diagnostic in document["diagnostics"]:
                if diagnostic["code"] not in CODES:
                    continue
                parts = [p.replace("~1", "/").replace("~0", "~") for p in diagnostic["pointer"].split("/")[1:]]
                if parts[0] == "data":
                    key, rest = parts[1], parts[2:]
                    set_code = catalog["data"][key]["code"]
                    within = f"/data/{key}/"
                else:
                    rest, set_code, within = parts, catalog["code"], "/"
                value = resolve(catalog, parts)
                item = int(rest[-1]) if rest[-1].isdigit() else None
                if item is not None:
                    rest = rest[:-1]
                if rest[0] in KINDS:
                    kind, position, field = KINDS[rest[0]], int(rest[1]), ".".join(rest[2:])
                else:
                    kind, position, field = "set", None, ".".join(rest)
                finding = (diagnostic["code"], set_code, kind, position, field, item, value)
                related = diagnostic.get("related", {}).get("pointer", "")
                if diagnostic["code"] == "duplicate_id" and (
                    kind == "set" or not related.startswith(within)
                ):
                    across.append(finding)
                else:
                    found[finding] += 1
    return found, across


def export(cli: str, path: pathlib.Path, out: pathlib.Path) -> None:
    done = subprocess.run(
        [cli, "export", "--quiet", "--no-config", "--references", "--on-invalid", "keep",
         "--to", f"parquet:{out}", str(path)],
        capture_output=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")


def query(name: str) -> str:
    return (SQL / f"{name}.sql").read_text()


def as_finding(row: Any) -> Finding:
    code, set_code, kind, position, field, item, value = tuple(row)
    return (
        code,
        set_code,
        kind,
        None if position is None else int(position),
        field,
        None if item is None else int(item),
        value,
    )


def rules(whole: bool) -> List[str]:
    """The rules to run: those of a whole catalog only over one."""
    return RULES if whole else [r for r in RULES if r != "dangling_reference_catalog"]


def in_duckdb(out: pathlib.Path, whole: bool) -> Counter[Finding]:
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    for table in TABLES:
        con.execute(
            f"CREATE VIEW {table} AS SELECT * FROM read_parquet('{out / table}/**/*.parquet', hive_partitioning = true)"
        )
    con.execute(f"CREATE VIEW reference_records AS {query('reference_records')}")
    con.execute(f"CREATE VIEW reference_items AS {query('reference_items')}")
    found: Counter[Finding] = collections.Counter()
    for rule in rules(whole):
        found.update(as_finding(row) for row in con.execute(query(rule)).fetchall())
    return found


def in_table(out: pathlib.Path) -> Counter[Finding]:
    """The rows of the export's `reference_findings`, read by DuckDB from
    its Parquet files."""
    duckdb = pytest.importorskip("duckdb")
    rows = duckdb.connect().execute(
        "SELECT code, set_code, kind, position, field, item, value FROM "
        f"read_parquet('{out / 'reference_findings'}/**/*.parquet', hive_partitioning = true)"
    ).fetchall()
    return collections.Counter(as_finding(row) for row in rows)


def in_spark(spark: Any, out: pathlib.Path, whole: bool) -> Counter[Finding]:
    for table in TABLES:
        spark.read.parquet(str(out / table)).createOrReplaceTempView(table)
    spark.sql(query("reference_records")).createOrReplaceTempView("reference_records")
    spark.sql(query("reference_items.spark")).createOrReplaceTempView("reference_items")
    found: Counter[Finding] = collections.Counter()
    for rule in rules(whole):
        found.update(as_finding(row) for row in spark.sql(query(rule)).collect())
    return found


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    try:
        import pyspark  # noqa: F401
    except ImportError:
        missing("pyspark is not installed")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        missing("Spark needs Java: no java on PATH")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("cardkit reference rules")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    yield session
    session.stop()


def corpus_catalog(tmp: pathlib.Path) -> pathlib.Path:
    """The corpus's set files as one catalog, each set under its code."""
    if not RAW_SETS:
        missing(f"no corpus set files under {SHARED}")
    data: Dict[str, Any] = {}
    for path in RAW_SETS:
        document = json.loads(path.read_text())
        one = document.get("data", document)
        data.setdefault(one["code"], one)
    path = tmp / "corpus-catalog.json"
    path.write_text(json.dumps({"meta": {"date": "2024-01-01", "version": "5.2.1+20240101"}, "data": data}))
    return path


def generated_catalog(tmp: pathlib.Path) -> pathlib.Path:
    """A catalog of copies of corpus sets, each with its own code and
    uuids, as the benchmarks make them."""
    if not MAKE_ALLPRINTINGS.is_file() or not RAW_SETS:
        missing(f"no {MAKE_ALLPRINTINGS}")
    path = tmp / "generated-catalog.json"
    inputs = [str(p) for p in RAW_SETS if p.stem in ("jsonsets_NEO", "jsonsets_10E", "jsonsets_SNC")]
    subprocess.run(
        [sys.executable, str(MAKE_ALLPRINTINGS), *inputs, "--size-mb", "5", "--seed", "1", "-o", str(path)],
        check=True,
    )
    return path


def compare(cli: str, catalog: pathlib.Path, out: pathlib.Path, spark: Any) -> Counter[Finding]:
    expected, across = streaming(cli, catalog)
    export(cli, catalog, out)
    whole = whole_catalog(catalog)
    duck = in_duckdb(out, whole)
    assert duck == expected, (
        f"DuckDB only: {sorted(duck - expected, key=str)[:20]}; "
        f"streaming only: {sorted(expected - duck, key=str)[:20]}"
    )
    # The export's table is the check's findings, those the queries cannot
    # find (duplicates whose first is in another set) too.
    table = in_table(out)
    everything = expected + collections.Counter(across)
    assert table == everything, (
        f"table only: {sorted(table - everything, key=str)[:20]}; "
        f"streaming only: {sorted(everything - table, key=str)[:20]}"
    )
    sparked = in_spark(spark, out, whole)
    assert sparked == expected, (
        f"Spark only: {sorted(sparked - expected, key=str)[:20]}; "
        f"streaming only: {sorted(expected - sparked, key=str)[:20]}"
    )
    # What is left out: only duplicates whose first is in another set.
    assert all(f[0] == "duplicate_id" for f in across), across
    return expected


@pytest.mark.parametrize("case", sorted(CASES.glob("*.json")), ids=lambda p: p.stem)
def test_the_rules_in_sql_find_what_the_check_finds_on_a_case(
    case: pathlib.Path, cli: str, spark: Any, tmp_path: pathlib.Path
) -> None:
    compare(cli, case, tmp_path / "out", spark)


def test_the_rules_in_sql_find_what_the_check_finds_on_corpus_sets(
    cli: str, spark: Any, tmp_path: pathlib.Path
) -> None:
    found = compare(cli, corpus_catalog(tmp_path), tmp_path / "out", spark)
    # The corpus's defects are among them: ANEO's tokens given twice.
    codes = {f[0] for f in found}
    assert {"duplicate_id", "duplicate_printing", "dangling_reference"} <= codes, codes


def test_the_rules_in_sql_find_what_the_check_finds_on_a_generated_catalog(
    cli: str, spark: Any, tmp_path: pathlib.Path
) -> None:
    compare(cli, generated_catalog(tmp_path), tmp_path / "out", spark)


def test_describe_prints_every_rule(cli: str) -> None:
    described = subprocess.run([cli, "export", "--describe"], capture_output=True, check=True).stdout.decode()
    for name in ["reference_records", "reference_items", "reference_items.spark", *RULES]:
        assert query(name).strip() in described, name


def test_an_invalid_list_is_left_out_by_both(cli: str, spark: Any, tmp_path: pathlib.Path) -> None:
    # The streaming check skips a list with an invalid item (the validator
    # reports it), and the export keeps it as NULL: neither checks its
    # valid items. A list of plain strings is read as it is.
    document = json.loads((CASES / "dangling_reference-variations-fails.json").read_text())
    card = document["cards"][0]
    card["variations"] = ["not-a-uuid", *card["variations"]]
    card["otherFaceIds"] = ["not-a-uuid", "00000009-0000-4000-8000-000000000009"]
    path = tmp_path / "invalid-list.json"
    path.write_text(json.dumps(document, indent=1))
    found = compare(cli, path, tmp_path / "out", spark)
    assert {(f[4], f[5]) for f in found} == {("otherFaceIds", 0), ("otherFaceIds", 1)}, found
