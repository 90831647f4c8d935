"""Every conformance case gives, through Python, the report the command line
gives in JSON, with the same options; and the same whether the case is given
as a path, bytes, text or a file object."""

from __future__ import annotations

import pathlib
from typing import Any, Dict, List, Tuple

import pytest

import cardkit

from conftest import CONFORMANCE, CORPUS, missing, run_cli, timeless


def case_options(path: pathlib.Path) -> Tuple[Dict[str, Any], List[str]]:
    """A case's options, as keyword arguments and as flags (the layout of
    crates/cardkit/tests/support/cases.rs)."""
    kwargs: Dict[str, Any] = {}
    flags: List[str] = []
    folder = path.parent.name
    if folder != "auto":
        kwargs["kind"] = folder
        flags += ["--kind", folder]
    if path.name.startswith("deny-unknown-"):
        kwargs["deny_unknown_fields"] = True
    options = path.with_suffix(".options")
    if options.exists():
        for line in options.read_text().splitlines():
            line = line.strip()
            if not line:
                continue
            key, _, value = (part.strip() for part in line.partition("="))
            if key in ("strict_version", "warn_deprecated", "deny_unknown_fields"):
                kwargs[key] = True
            elif key in ("as_of", "names"):
                kwargs[key] = value
            else:
                raise AssertionError(f"{options}: unknown option {line!r}")
    if kwargs.get("deny_unknown_fields"):
        flags.append("--deny-unknown-fields")
    if "as_of" in kwargs:
        flags += ["--as-of", kwargs["as_of"]]
    if kwargs.get("strict_version"):
        flags.append("--strict-version")
    if kwargs.get("warn_deprecated"):
        flags += ["--warn", "deprecated"]
    if "names" in kwargs:
        flags += ["--names", kwargs["names"]]
    return kwargs, flags


CASES = sorted(
    p for p in CONFORMANCE.rglob("*") if p.suffix in (".json", ".jsonl")
)


def case_id(path: pathlib.Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def test_cases_found() -> None:
    assert len(CASES) >= 50, f"only {len(CASES)} cases in {CONFORMANCE}"


@pytest.mark.parametrize("path", CASES, ids=case_id)
def test_case_as_the_command_line(cli: str, path: pathlib.Path) -> None:
    kwargs, flags = case_options(path)
    expected = run_cli(cli, [*flags, str(path)])
    report = cardkit.validate(path, **kwargs)
    assert report.status == expected.pop("status")
    assert timeless(report.to_dict()) == timeless(expected)
    # Bytes with no name are told JSON Lines by their content, as standard
    # input is.
    expected = run_cli(cli, [*flags, "-"], stdin=path.read_bytes())
    report = cardkit.validate(path.read_bytes(), name="<stdin>", **kwargs)
    assert report.status == expected.pop("status")
    assert timeless(report.to_dict()) == timeless(expected)


@pytest.mark.parametrize("path", CASES, ids=case_id)
def test_case_same_from_every_source(path: pathlib.Path) -> None:
    kwargs, _ = case_options(path)
    by_path = cardkit.validate(path, **kwargs)
    data = path.read_bytes()
    expected = by_path.to_dict()
    expected["summary"].pop("seconds")
    # Named as the file, so that JSON Lines is told by the name as for it.
    from_bytes = cardkit.validate(data, name=str(path), **kwargs)
    assert timeless(from_bytes.to_dict()) == expected
    assert from_bytes.status == by_path.status
    with open(path, "rb") as file:
        assert timeless(cardkit.validate(file, **kwargs).to_dict()) == expected
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    assert timeless(cardkit.validate(text=text, name=str(path), **kwargs).to_dict()) == expected


CORPUS_FILES = sorted(CORPUS.rglob("*.json")) if CORPUS.is_dir() else []


def test_corpus_found() -> None:
    if not CORPUS_FILES:
        missing(f"no corpus at {CORPUS}: set CARDKIT_SHARED to the shared folder")


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_as_the_command_line(cli: str, path: pathlib.Path) -> None:
    expected = run_cli(cli, [str(path)])
    report = cardkit.validate(path)
    assert report.status == expected.pop("status")
    assert timeless(report.to_dict()) == timeless(expected)


def test_directory_as_the_command_line(cli: str) -> None:
    folder = CONFORMANCE / "auto"
    expected = run_cli(cli, [str(folder)])
    report = cardkit.validate(folder)
    assert report.status == expected.pop("status")
    assert timeless(report.to_dict()) == timeless(expected)
    assert len(report.files) > 1


@pytest.mark.parametrize(
    "options,flags",
    [
        ({"jobs": 1}, ["--jobs", "1"]),
        ({"warning_limit": 0}, ["--warning-limit", "0"]),
        ({"error_limit": 1}, ["--error-limit", "1"]),
        ({"as_of": "auto"}, ["--as-of", "auto"]),
        ({"names": "upstream"}, ["--names", "upstream"]),
    ],
)
def test_options_as_the_command_line(cli: str, options: Dict[str, Any], flags: List[str]) -> None:
    folder = CONFORMANCE / "set"
    expected = run_cli(cli, [*flags, str(folder)])
    report = cardkit.validate(folder, **options)
    assert report.status == expected.pop("status")
    assert timeless(report.to_dict()) == timeless(expected)
