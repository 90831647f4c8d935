"""What each function that reads takes, as Python users expect: a `str` or
`os.PathLike` is a path (a file, a folder, an archive, compressed or not),
text goes as `text=`, a parsed `dict` or `list` is serialised."""

from __future__ import annotations

import errno
import gzip
import json
import pathlib
from typing import Any, Dict

import pytest

import cardkit

from conftest import CONFORMANCE, renamed

SET = CONFORMANCE / "set" / "as-of-v5.0.0-newer-fields-warn.json"


def without_paths(report: cardkit.Report) -> Dict[str, Any]:
    return renamed(report.to_dict(), "x")


@pytest.fixture
def folder(tmp_path: pathlib.Path) -> pathlib.Path:
    (tmp_path / "sets").mkdir()
    (tmp_path / "sets" / "a.json").write_bytes(SET.read_bytes())
    (tmp_path / "sets" / "b.json.gz").write_bytes(gzip.compress(SET.read_bytes()))
    return tmp_path / "sets"


def test_a_str_is_a_path_to_a_file() -> None:
    report = cardkit.validate(str(SET))
    assert report.valid
    assert [f.path for f in report.files] == [str(SET)]
    assert report.to_dict()["files"] == cardkit.validate(SET).to_dict()["files"]


def test_a_str_or_a_path_reads_a_folder(folder: pathlib.Path) -> None:
    expected = [str(folder / "a.json"), str(folder / "b.json.gz")]
    for source in (folder, str(folder)):
        report = cardkit.validate(source)
        assert [f.path for f in report.files] == expected, type(source)
        assert report.valid and report.summary["documents"] == 2


def test_a_str_or_a_path_reads_a_compressed_file(folder: pathlib.Path) -> None:
    packed = folder / "b.json.gz"
    expected = without_paths(cardkit.validate(SET))
    for source in (packed, str(packed)):
        report = cardkit.validate(source)
        assert report.files[0].path == str(packed)
        assert without_paths(report) == expected, type(source)


def test_a_relative_str_is_from_the_working_directory(
    folder: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(folder.parent)
    report = cardkit.validate("sets/b.json.gz")
    assert report.valid and report.files[0].path == "sets/b.json.gz"


def test_a_list_of_str_paths_is_read_in_turn(folder: pathlib.Path) -> None:
    report = cardkit.validate([str(folder / "b.json.gz"), folder / "a.json"])
    assert [f.path for f in report.files] == [str(folder / "b.json.gz"), str(folder / "a.json")]


def test_text_goes_as_text() -> None:
    text = SET.read_text()
    report = cardkit.validate(text=text)
    assert report.files[0].path == "<str>"
    assert without_paths(report) == without_paths(cardkit.validate(SET))
    lines = cardkit.iter_documents(text='{"name": "a"}\n{"name": "b"}\n', kind="card")
    assert [d.line for d in lines] == [1, 2]


def test_a_parsed_document_is_serialised_and_validated() -> None:
    document = json.loads(SET.read_text())
    report = cardkit.validate(document)
    assert report.files[0].path == "<dict>"
    assert report.valid == cardkit.validate(SET).valid
    broken = cardkit.dummy("card")
    del broken["name"]
    report = cardkit.validate(broken, kind="card", name="card.json")
    assert report.files[0].path == "card.json" and not report.valid
    missing = [d for d in report.diagnostics if d.code == "missing_field"]
    assert missing and missing[0].line == 1


def test_a_parsed_list_is_an_array_of_documents() -> None:
    card = cardkit.dummy("card")
    report = cardkit.validate([card, dict(card, name=3)], kind="card")
    assert report.files[0].path == "<list>"
    assert [d.valid for d in report.documents] == [True, False]
    assert report.documents[1].pointer == "/1"


def test_a_missing_str_path_raises_naming_it(tmp_path: pathlib.Path) -> None:
    missing = str(tmp_path / "sets" / "LEA.json.gz")
    for call in (cardkit.validate, cardkit.iter_documents, cardkit.read_tables):
        with pytest.raises(FileNotFoundError) as raised:
            call(missing)
        assert raised.value.errno == errno.ENOENT
        assert raised.value.filename == missing
        assert missing in str(raised.value)
        assert "text=" not in str(raised.value)


def test_json_text_given_as_a_path_says_to_pass_text() -> None:
    text = json.dumps(cardkit.dummy("set"))
    with pytest.raises(FileNotFoundError, match=r"to validate text, pass text=") as raised:
        cardkit.validate(text)
    # A long text is shortened where it is named.
    assert len(str(raised.value)) < 200
    with pytest.raises(FileNotFoundError, match=r"pass text="):
        cardkit.read_tables('  [{"code": "LEA"}]')


def test_source_and_text_are_one_or_the_other() -> None:
    with pytest.raises(TypeError, match="not both"):
        cardkit.validate(b"{}", text="{}")
    with pytest.raises(TypeError, match="give a source"):
        cardkit.validate()
    with pytest.raises(TypeError, match="expected str"):
        cardkit.validate(text=b"{}")  # type: ignore[arg-type]


def test_values_that_are_not_json_raise_type_error() -> None:
    with pytest.raises(TypeError, match="cannot be JSON"):
        cardkit.validate({"when": object()})
    with pytest.raises(TypeError, match="a tuple holds paths"):
        cardkit.validate(({"code": "LEA"},))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="empty list"):
        cardkit.validate([])
