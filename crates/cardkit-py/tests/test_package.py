"""What the package shows of itself: its version, its public names only,
and each file's note worded with Python's keyword arguments."""

from __future__ import annotations

import importlib.metadata
import json
import pathlib
import re

import cardkit

from conftest import ROOT, SHARED, missing

RAW_SET = SHARED / "corpus" / "raw" / "set" / "jsonsets_LEA.json"


def test_version_is_the_crates() -> None:
    cargo = (ROOT / "Cargo.toml").read_text()
    workspace = cargo.split("[workspace.package]", 1)[1]
    version = re.search(r'^version = "([^"]+)"', workspace, re.M)
    assert version is not None
    assert cardkit.__version__ == version.group(1)
    assert importlib.metadata.version("cardkit") == cardkit.__version__


def test_dir_shows_the_public_api_only() -> None:
    shown = dir(cardkit)
    assert shown == sorted([*cardkit.__all__, "__version__"])
    assert [name for name in shown if name.startswith("_") and name != "__version__"] == []
    for name in ("io", "json", "os", "pathlib", "dataclass", "Any", "Optional"):
        assert name not in shown, name
    for name in cardkit.__all__:
        assert hasattr(cardkit, name), name


def test_a_file_checked_as_of_its_version_has_a_note(tmp_path: pathlib.Path) -> None:
    document = {"meta": {"version": "5.0.0+20200101"}, "data": cardkit.dummy("set")}
    path = tmp_path / "set.json"
    path.write_text(json.dumps(document))
    [file] = cardkit.validate(path).files
    assert file.reading is not None and file.reading == file.raw["reading"]
    assert file.reading["as_of"] == "v5.0.0" and file.reading["version_from"] == "declared"
    assert "checked as of v5.0.0, the version its meta.version declares" in file.reading["note"]
    assert file.note is None
    [latest] = cardkit.validate(path, as_of="latest").files
    assert latest.reading is not None and latest.reading["version_from"] == "asked"


def test_hints_name_the_keyword_arguments() -> None:
    if not RAW_SET.exists():
        missing(f"no published set at {RAW_SET}")
    [file] = cardkit.validate(RAW_SET).files
    assert file.reading is not None and file.reading["names"] == "upstream"
    assert file.note is None
    [file] = cardkit.validate(RAW_SET, names="spec").files
    # The publishers' names (keyruneCode...) read under the spec's: the
    # way out names Python's keyword argument, not the command line's flag.
    assert file.note is not None and 'names="auto"' in file.note, file.note
    assert "--" not in file.note
