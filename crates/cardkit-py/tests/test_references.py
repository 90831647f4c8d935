"""references=True: the references between the documents read, as the
command line's --references reports them."""

from __future__ import annotations

import json
import subprocess

import pytest

import cardkit
from conftest import ROOT

CASES = ROOT / "crates" / "cardkit" / "tests" / "references"


def test_references_are_checked_when_asked_and_are_the_command_lines(cli: str) -> None:
    path = CASES / "variation_elsewhere-fails.json"
    report = cardkit.validate(path, references=True)
    found = [d for d in report.diagnostics if d.code == "variation_elsewhere"]
    assert len(found) == 1
    assert found[0].pointer == "/data/TST/cards/0/variations/0"
    assert report.valid
    command = subprocess.run(
        [cli, "validate", "--format", "json", "--references", str(path)],
        capture_output=True,
        check=False,
    )
    theirs = json.loads(command.stdout)
    related = [
        d["related"]
        for f in theirs["files"]
        for doc in f["documents"]
        for d in doc["diagnostics"]
        if d["code"] == "variation_elsewhere"
    ]
    assert found[0].raw["related"] == related[0]
    # Not asked, not checked.
    assert not [d for d in cardkit.validate(path).diagnostics if d.code == "variation_elsewhere"]


def test_references_as_errors_make_the_document_invalid() -> None:
    report = cardkit.validate(CASES / "duplicate_id-fails.json", references="error")
    assert not report.valid
    assert report.summary["errors"] == {"duplicate_id": 1}


def test_a_function_that_cannot_check_references_says_so() -> None:
    with pytest.raises(ValueError, match=r"iter_documents\(\) does not check references"):
        cardkit.iter_documents(CASES / "duplicate_id-fails.json", references=True)
    with pytest.raises(ValueError, match=r"references is 'maybe'"):
        cardkit.validate(CASES / "duplicate_id-fails.json", references="maybe")
