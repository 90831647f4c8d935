#!/usr/bin/env python3
"""One measurement of bench/python.sh, in a process of its own (so that its
peak RSS is its own): times one tool on one input, in the process (the
interpreter's start and imports not counted), and prints one JSON line:
{"seconds": ..., "found": [pointers of the defects it reported]}.

    python_measure.py TOOL INPUT [DEFECTS.json] [SCHEMA.json | set | catalog]

TOOL is one of:
  cardkit           cardkit.validate(path)
  cardkit-tables    cardkit.read_tables(path)
  pandas            json.load + pandas.json_normalize of every set's cards
  jsonschema-rs     json.loads + a jsonschema-rs validator of cardkit's schema
  mightstone        mightstone's pydantic Set model in the file's container
                    (`set` or `catalog`), model_validate_json(bytes)
  cardkit-threads   cardkit.validate of each file of INPUT (a directory of
                    set files), on 2 threads at once (jobs=1 each)
  cardkit-serial    the same files one after the other (jobs=1)
  cli-report        not timed: the defects that a JSON report of the
                    command line at INPUT names

DEFECTS.json lists the defects injected (bench/python_inputs.py): the JSON
Pointer of each value spoiled or dropped, and its field's name.
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys
import time
from typing import Any, Dict, Iterable, List, Tuple


def found(reported: Iterable[Tuple[str, str]], defects: List[Dict[str, str]]) -> List[str]:
    """The defects reported: an error at the value's pointer (or under it),
    or at its record's naming the field (a required member missing)."""
    reported = list(reported)
    hits = []
    for defect in defects:
        at, field = defect["pointer"], defect["field"]
        record = at.rsplit("/", 1)[0]
        if any(
            p == at or p.startswith(at + "/") or (p == record and field in message)
            for p, message in reported
        ):
            hits.append(at)
    return hits


def pointer(path: Iterable[Any]) -> str:
    return "".join(f"/{part}" for part in path)


def main() -> None:
    tool, path = sys.argv[1], pathlib.Path(sys.argv[2])
    defects = json.loads(pathlib.Path(sys.argv[3]).read_text() or "[]") if len(sys.argv) > 3 else []
    reported: List[Tuple[str, str]] = []
    # Imported before the clock starts: the imports below are then lookups.
    modules = {
        "cardkit": ["cardkit"],
        "cardkit-tables": ["cardkit", "pyarrow"],
        "cardkit-threads": ["cardkit"],
        "cardkit-serial": ["cardkit"],
        "pandas": ["pandas"],
        "jsonschema-rs": ["jsonschema_rs"],
        "mightstone": ["pydantic", "mightstone.services.mtgjson.models"],
    }
    for module in modules.get(tool, []):
        importlib.import_module(module)
    began = time.perf_counter()
    if tool == "cardkit":
        import cardkit

        report = cardkit.validate(path, jobs=2, error_limit=0)
        reported = [(d.pointer, d.message) for d in report.diagnostics if d.severity == "error"]
    elif tool == "cardkit-tables":
        import cardkit

        tables = cardkit.read_tables(path, on_invalid="skip", jobs=2)
        assert tables["cards"].num_rows > 0
    elif tool == "pandas":
        import pandas

        with open(path, "rb") as f:
            document = json.load(f)
        data = document["data"]
        sets = [data] if "cards" in data else list(data.values())
        frame = pandas.concat([pandas.json_normalize(s["cards"]) for s in sets])
        assert len(frame) > 0
    elif tool == "jsonschema-rs":
        import jsonschema_rs

        schema = json.loads(pathlib.Path(sys.argv[4]).read_text())
        validator = jsonschema_rs.validator_for(schema)
        instance = json.loads(path.read_bytes())
        reported = [(pointer(e.instance_path), e.message) for e in validator.iter_errors(instance)]
    elif tool == "mightstone":
        from typing import Dict as Mapping

        import pydantic
        from mightstone.services.mtgjson.models import Set

        data = path.read_bytes()
        # mightstone's Set model, in the file's container (the fourth
        # argument): a set file ({"meta", "data": Set}) or a catalog
        # ({"meta", "data": {code: Set}}).
        inner = Mapping[str, Set] if sys.argv[4] == "catalog" else Set
        model = pydantic.create_model("File", meta=(dict, ...), data=(inner, ...))
        try:
            model.model_validate_json(data)
        except pydantic.ValidationError as error:
            reported = [(pointer(e["loc"]), e["msg"]) for e in error.errors()]
    elif tool == "cli-report":
        # Not a measurement: the defects a report of `cardkit validate
        # --format json` (at INPUT) names.
        report = json.loads(path.read_text())
        reported = [
            (d.get("pointer", ""), d.get("message", ""))
            for file in report["files"]
            for document in file["documents"]
            for d in document.get("diagnostics", [])
            if d["severity"] == "error"
        ]
    elif tool in ("cardkit-threads", "cardkit-serial"):
        from concurrent.futures import ThreadPoolExecutor

        import cardkit

        files = sorted(path.glob("*.json"))
        if tool == "cardkit-serial":
            reports = [cardkit.validate(f, jobs=1) for f in files]
        else:
            with ThreadPoolExecutor(2) as pool:
                reports = list(pool.map(lambda f: cardkit.validate(f, jobs=1), files))
        assert len(reports) == len(files)
    else:
        raise SystemExit(f"unknown tool {tool}")
    seconds = time.perf_counter() - began
    print(json.dumps({"seconds": seconds, "found": found(reported, defects)}))


if __name__ == "__main__":
    main()
