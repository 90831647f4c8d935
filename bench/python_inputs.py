#!/usr/bin/env python3
"""The inputs of bench/python.sh, made once into DATA:

  neo.json, neo-upstream.json   the corpus's real NEO set (the spec's wire
                                names, and the publishers' for mightstone)
                                with one defect in each of its first cards
  catalog.json, catalog-upstream.json
                                a generated catalog of MB MB (the same one
                                under both names), with the same defects
                                in its first set
  big.json                      a generated catalog of BIG MB, valid
  sets/                         the sets of the catalog, a file each, valid
                                (the threads' run)
  schema-set.json, schema-catalog.json
                                `cardkit schema set` for a wrapped set file
                                and for a catalog
  defects-neo.json, defects-cat.json
                                each defect: the JSON Pointer of the value
                                spoiled (or dropped) and the field's name

The defects are bench/make_invalid.py's kinds, one per record in turn.

    python_inputs.py SHARED DATA MB BIG CARDKIT
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

DEFECTS = (
    ("drop", "rarity"),
    ("type", "manaValue", "three"),
    ("uuid", "uuid", "not-a-uuid"),
    ("null", "name", None),
    ("type", "colors", "R"),
    ("drop", "identifiers"),
)
# Records spoiled: every 7th of the first cards.
SPOILED = [7 * n + 1 for n in range(len(DEFECTS) * 2)]


def spoil(document: dict, at: str, cards: list) -> list:
    """Spoils `cards` (the list at `at`); the defects' pointers."""
    defects = []
    for turn, index in enumerate(SPOILED):
        kind, field, *value = DEFECTS[turn % len(DEFECTS)]
        record = cards[index]
        if kind == "drop":
            record.pop(field, None)
        else:
            record[field] = value[0]
        defects.append({"pointer": f"{at}/{index}/{field}", "field": field})
    return defects


def write(document: dict, path: pathlib.Path) -> None:
    with open(path, "w", encoding="utf-8") as out:
        json.dump(document, out, ensure_ascii=False, separators=(",", ":"))


def generate(shared: pathlib.Path, size: float, neutral: bool, path: pathlib.Path) -> None:
    if path.exists():
        return
    command = [
        sys.executable,
        str(shared / "bench" / "make_allprintings.py"),
        str(shared / "corpus" / "raw" / "set" / "mightstone_set_BRO.json"),
        "--size-mb",
        str(size),
        "--seed",
        "1",
        "-o",
        str(path),
    ]
    subprocess.run(command + (["--neutral"] if neutral else []), check=True, capture_output=True)


def main() -> None:
    shared, data, mb, big, cardkit = (
        pathlib.Path(sys.argv[1]),
        pathlib.Path(sys.argv[2]),
        float(sys.argv[3]),
        float(sys.argv[4]),
        sys.argv[5],
    )
    data.mkdir(parents=True, exist_ok=True)
    for name, folder in (("neo.json", "neutral"), ("neo-upstream.json", "raw")):
        document = json.loads((shared / "corpus" / folder / "set" / "jsonsets_NEO.json").read_text())
        defects = spoil(document, "/data/cards", document["data"]["cards"])
        write(document, data / name)
    (data / "defects-neo.json").write_text(json.dumps(defects))

    for name, neutral in (("catalog.json", True), ("catalog-upstream.json", False)):
        plain = data / f"plain-{mb:g}-{name}"
        generate(shared, mb, neutral, plain)
        if not (data / name).exists() or (data / name).stat().st_mtime < plain.stat().st_mtime:
            document = json.loads(plain.read_text())
            code = next(iter(document["data"]))
            defects = spoil(document, f"/data/{code}/cards", document["data"][code]["cards"])
            write(document, data / name)
            (data / "defects-cat.json").write_text(json.dumps(defects))
    generate(shared, big, True, data / f"big-{big:g}.json")
    big_link = data / "big.json"
    if big_link.is_symlink() or big_link.exists():
        big_link.unlink()
    big_link.symlink_to(f"big-{big:g}.json")

    sets = data / "sets"
    if not sets.exists():
        sets.mkdir()
        catalog = json.loads((data / f"plain-{mb:g}-catalog.json").read_text())
        for code, document in catalog["data"].items():
            write({"meta": catalog["meta"], "data": document}, sets / f"{code}.json")

    for name, container in (("schema-set.json", "wrapped"), ("schema-catalog.json", "catalog")):
        schema = subprocess.run(
            [cardkit, "schema", "set", "--container", container], check=True, capture_output=True
        ).stdout
        (data / name).write_bytes(schema)


if __name__ == "__main__":
    main()
