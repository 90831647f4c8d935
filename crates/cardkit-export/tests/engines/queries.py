#!/usr/bin/env python3
"""The same queries on an export, run by one engine; prints the answers as JSON.

    queries.py sqlite PATH.db
    queries.py duckdb DIR          (the Parquet export: DIR/<table>/build=LABEL/*.parquet)
    queries.py spark DIR           (the same, with Apache Spark in local mode)
    queries.py postgres URL        (with psql)

Every answer is a sorted list of rows of strings (NULL as null), so that the
engines' answers compare as they are, whatever their types and row order.
The tests of cardkit-export run it for each engine and compare the answers;
bench/RESULTS.md records a run of the Spark one.
"""

import csv
import io
import json
import subprocess
import sys

TABLES = [
    "sets", "cards", "identifiers", "legalities", "purchase_urls", "foreign_data",
    "rulings", "leadership_skills", "related_cards", "tokens", "sealed_products",
    "set_translations", "migrations", "meta", "reference_findings",
]

QUERIES = {
    # Rows per table and build.
    "counts": " UNION ALL ".join(
        f"SELECT '{t}' AS tbl, build, COUNT(*) AS n FROM {t} GROUP BY build" for t in TABLES
    ),
    # Cards with their identifiers and legalities.
    "cards_identifiers_legalities": """
        SELECT c.build, c.uuid, c.name, i.shop_c_id, i.platform_a_id, l.commander, l.modern
        FROM cards c
        JOIN identifiers i ON i.uuid = c.uuid AND i.build = c.build
        JOIN legalities l ON l.uuid = c.uuid AND l.build = c.build""",
    # Cards per set per build.
    "cards_per_set_per_build": """
        SELECT build, parent_set_code, COUNT(*) AS n, COUNT(DISTINCT uuid) AS uuids
        FROM cards GROUP BY build, parent_set_code""",
    # The findings of the references (`--references`).
    "reference_findings": """
        SELECT build, set_code, code, kind, position, field, item, value, severity, message,
               input, pointer, line, related_input, related_pointer
        FROM reference_findings""",
    # Dates, integers and booleans as the engines read them.
    "sets": """
        SELECT build, code, name, release_date, base_set_size, is_foil_only FROM sets""",
}

# Text lists: JSON text in SQLite, native lists elsewhere (PostgreSQL's
# `text[]` turned into JSON text by the server, as psql shows only text).
LIST_QUERIES = {
    "card_colors": "SELECT build, uuid, colors, availability FROM cards",
}
POSTGRES_LIST_QUERIES = {
    "card_colors": "SELECT build, uuid, array_to_json(colors)::text, "
    "array_to_json(availability)::text FROM cards",
}


def text(value):
    if value is None:
        return None
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (list, tuple)):
        return json.dumps(list(value), ensure_ascii=False, separators=(",", ":"))
    if hasattr(value, "tolist"):
        return text(value.tolist())
    return str(value)


def answer(rows):
    return sorted(([text(v) for v in row] for row in rows), key=lambda r: json.dumps(r))


def sqlite(path, queries):
    import sqlite3

    db = sqlite3.connect(path)
    return {name: answer(db.execute(sql).fetchall()) for name, sql in queries.items()}


def duckdb(directory, queries):
    import duckdb as ddb

    con = ddb.connect()
    for t in TABLES:
        con.execute(
            f"CREATE VIEW {t} AS SELECT * FROM read_parquet('{directory}/{t}/**/*.parquet', "
            "hive_partitioning = true, hive_types_autocast = false)"
        )
    return {name: answer(con.execute(sql).fetchall()) for name, sql in queries.items()}


def spark(directory, queries):
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("cardkit-export-check")
        .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    for t in TABLES:
        session.read.parquet(f"{directory}/{t}").createOrReplaceTempView(t)
    out = {name: answer(session.sql(sql).collect()) for name, sql in queries.items()}
    session.stop()
    return out


def postgres(url, queries):
    out = {}
    for name, sql in queries.items():
        result = subprocess.run(
            ["psql", "--csv", "--no-psqlrc", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql],
            check=True,
            capture_output=True,
            text=True,
        )
        rows = list(csv.reader(io.StringIO(result.stdout)))[1:]
        # psql writes NULL as an empty field, booleans as t and f.
        rows = [
            tuple(None if v == "" else {"t": "1", "f": "0"}.get(v, v) for v in row) for row in rows
        ]
        out[name] = answer(rows)
    return out


def main():
    engine, where = sys.argv[1], sys.argv[2]
    queries = dict(QUERIES)
    queries.update(POSTGRES_LIST_QUERIES if engine == "postgres" else LIST_QUERIES)
    run = {"sqlite": sqlite, "duckdb": duckdb, "spark": spark, "postgres": postgres}[engine]
    json.dump(run(where, queries), sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
