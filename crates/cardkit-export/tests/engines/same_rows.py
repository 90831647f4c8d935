"""Compares two Parquet exports table by table, as DuckDB reads them.

    same_rows.py DIR_A DIR_B TABLE[:uuid] ...

For each table (`:uuid`: only its rows whose uuid is not NULL), prints the
rows of each, and how many rows of each the other does not hold (as
multisets: a row held twice in one and once in the other counts), as one
JSON object: {"TABLE": [rows_a, rows_b, a_not_b, b_not_a], ...}.
"""

import json
import sys

import duckdb


def main():
    a, b, *tables = sys.argv[1:]
    con = duckdb.connect()
    out = {}
    for spec in tables:
        table, _, keyed = spec.partition(":")
        where = " WHERE uuid IS NOT NULL" if keyed else ""

        def rows(directory):
            return (
                f"SELECT * FROM read_parquet('{directory}/{table}/**/*.parquet', "
                f"hive_partitioning = true, hive_types_autocast = false){where}"
            )

        count = lambda d: con.execute(f"SELECT COUNT(*) FROM ({rows(d)})").fetchone()[0]
        differ = lambda x, y: con.execute(
            f"SELECT COUNT(*) FROM ({rows(x)} EXCEPT ALL {rows(y)})"
        ).fetchone()[0]
        out[table] = [count(a), count(b), differ(a, b), differ(b, a)]
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
