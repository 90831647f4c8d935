"""What the tests share: the repository's folders, and the command line to
compare with (its path in CARDKIT_BIN)."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
from typing import Any, Dict, List, Optional

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
CONFORMANCE = ROOT / "crates" / "cardkit" / "tests" / "conformance"
SHARED = pathlib.Path(os.environ.get("CARDKIT_SHARED", ROOT.parent / "shared"))
CORPUS = SHARED / "corpus" / "neutral"


def cli_path() -> Optional[str]:
    return os.environ.get("CARDKIT_BIN") or None


@pytest.fixture(scope="session")
def cli() -> str:
    path = cli_path()
    if not path:
        missing("CARDKIT_BIN names no cardkit command to compare with")
    return path


def missing(why: str) -> None:
    """Skips a test that needs what is missing; fails it on CI (CI=true),
    where everything must be there."""
    if os.environ.get("CI") == "true":
        pytest.fail(why)
    pytest.skip(why)


def run_cli(cli: str, args: List[str], stdin: Optional[bytes] = None) -> Dict[str, Any]:
    """`cardkit validate --format json` with `args`: its report, its notes
    worded as the package words them."""
    done = subprocess.run(
        [cli, "validate", "--format", "json", "--no-config", "--quiet", *args],
        input=stdin,
        capture_output=True,
        check=False,
    )
    assert done.returncode in (0, 1, 2), done.stderr.decode(errors="replace")
    report = json.loads(done.stdout)
    report["status"] = done.returncode
    for entry in report["files"]:
        if "note" in entry:
            entry["note"] = python_worded(entry["note"])
        way_out = entry.get("reading", {}).get("way_out")
        if way_out:
            way_out["said"] = python_worded(way_out["said"])
    ways_out = report["summary"].get("ways_out")
    if ways_out:
        report["summary"]["ways_out"] = {python_worded(k): v for k, v in ways_out.items()}
    return report


#: The command line's flags in its reports' hints, and the keyword
#: arguments the package's reports name instead: the one way the two
#: reports differ.
KEYWORDS = {
    "--as-of auto": 'as_of="auto"',
    "--names auto": 'names="auto"',
    "--names upstream": 'names="upstream"',
}


def python_worded(note: str) -> str:
    """A note of the command line's report as the package words it."""
    for flag, keyword in KEYWORDS.items():
        note = note.replace(flag, keyword)
    assert "--" not in note, f"a flag with no keyword argument in {note!r}"
    return note


def timeless(report: Dict[str, Any]) -> Dict[str, Any]:
    """A report without its timing (the one member that differs between
    two runs)."""
    report = json.loads(json.dumps(report))
    report["summary"].pop("seconds", None)
    return report


def renamed(report: Dict[str, Any], name: str) -> Dict[str, Any]:
    """A report of one input with the input's path replaced by `name`."""
    report = timeless(report)
    for entry in report["files"]:
        entry["path"] = name
    return report
