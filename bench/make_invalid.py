#!/usr/bin/env python3
"""Make an invalid-heavy catalog from a valid one: every card and token gets
one defect (a required field dropped, a value of the wrong type, a broken
uuid or date, null where it is not allowed), chosen in turn, so that a
validator has to find, locate and describe an error in every record.

Standard library only; the output keeps the input's layout (compact).

    make_invalid.py CATALOG.json -o INVALID.json
"""

from __future__ import annotations

import argparse
import json

DEFECTS = (
    ("drop", "rarity"),
    ("type", "manaValue", "three"),
    ("uuid", "uuid", "not-a-uuid"),
    ("null", "name", None),
    ("type", "colors", "R"),
    ("drop", "identifiers"),
)


def spoil(record: dict, turn: int) -> None:
    kind, field, *value = DEFECTS[turn % len(DEFECTS)]
    if kind == "drop":
        record.pop(field, None)
    else:
        record[field] = value[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("catalog", help="a catalog {\"meta\": ..., \"data\": {CODE: Set}}")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    with open(args.catalog, encoding="utf-8") as f:
        catalog = json.load(f)
    turn = 0
    for card_set in catalog["data"].values():
        for record in card_set.get("cards", []) + card_set.get("tokens", []):
            spoil(record, turn)
            turn += 1
    with open(args.output, "w", encoding="utf-8") as f:
        json.dump(catalog, f, ensure_ascii=False, separators=(",", ":"))
    print(f"spoiled {turn} records into {args.output}")


if __name__ == "__main__":
    main()
