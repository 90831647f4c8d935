"""A report's diagnostics are cheap: each is held as its attributes, the
text that many of them repeat (code, message, what was expected and
found) held once, and the report's JSON read into them without a dict per
diagnostic on the way. Measured with tracemalloc in a fresh interpreter,
per diagnostic: at the peak (the report's JSON text and the objects made
from it) and once made (the report alone)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

#: A card whose group holds `N` numbers where layers go: one `wrong_type`
#: diagnostic each, three bytes of input apiece.
MEASURE = r"""
import gc, json, sys, tracemalloc
import cardkit

n = int(sys.argv[1])
data = ('{"name": "x", "width": 10, "height": 10, "data": {"type": "group", "children": ['
        + ",".join(["1"] * n) + "]}}").encode()
gc.collect()
tracemalloc.start()
base = tracemalloc.get_traced_memory()[0]
report = cardkit.validate(data, kind="card", jobs=1)
count = len(report.diagnostics)
gc.collect()
current, peak = tracemalloc.get_traced_memory()
first = report.diagnostics[0]
print(json.dumps({
    "count": count,
    "held": (current - base) / count,
    "peak": (peak - base) / count,
    "first": first.to_dict(),
    "document": report.files[0].documents[0].raw["diagnostics"][1],
}))
"""

#: Diagnostics generated: enough that what each costs dwarfs the rest.
COUNT = 20_000


def test_each_diagnostic_costs_a_few_hundred_bytes() -> None:
    run = subprocess.run(
        [sys.executable, "-c", MEASURE, str(COUNT)],
        capture_output=True,
        text=True,
        check=True,
    )
    measured = json.loads(run.stdout)
    assert measured["count"] == COUNT
    # The report's own JSON is about 300 bytes a diagnostic; a dict per
    # diagnostic (as the report was read before) held about 1,600 bytes
    # each, and more at the peak.
    assert measured["held"] < 400, measured
    assert measured["peak"] < 900, measured
    # Read back as the JSON report has them, members in its order.
    assert list(measured["first"]) == [
        "code", "severity", "pointer", "field", "message", "expected", "found",
        "offset", "line", "column",
    ]
    assert measured["first"]["pointer"] == "/data/children/0"
    assert measured["document"]["pointer"] == "/data/children/1"


def test_raw_and_to_dict_give_the_json_report() -> None:
    import cardkit

    data = b'{"name": "x", "width": 10, "height": 10, "data": {"type": "group", "children": [1, 2]}}'
    report = cardkit.validate(data, kind="card")
    expected = json.loads(json.dumps(report.to_dict()))
    [file] = expected["files"]
    assert report.files[0].raw == file
    assert report.files[0].documents[0].raw == file["documents"][0]
    assert [d.raw for d in report.diagnostics] == file["documents"][0]["diagnostics"]
    # Each call gives a copy: changing it changes nothing held.
    report.diagnostics[0].raw["code"] = "changed"
    report.to_dict()["files"].clear()
    assert report.diagnostics[0].code == report.diagnostics[0].raw["code"] != "changed"
    assert report.to_dict()["files"]
    with pytest.raises(AttributeError):
        report.diagnostics[0].code = "x"  # type: ignore[misc]
