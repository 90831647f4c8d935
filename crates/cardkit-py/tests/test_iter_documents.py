"""iter_documents yields, one at a time, the documents validate reports."""

from __future__ import annotations

import gc
import io
import itertools
import json
import pathlib

import pytest

import cardkit

from conftest import CONFORMANCE

CASES = sorted(p for p in CONFORMANCE.rglob("*") if p.suffix in (".json", ".jsonl"))


def entries(report: cardkit.Report):
    return [(f["path"], d) for f in report.to_dict()["files"] for d in f["documents"]]


@pytest.mark.parametrize("folder", ["auto", "set", "card", "template", "migration"])
def test_equals_validate(folder: str) -> None:
    path = CONFORMANCE / folder
    expected = entries(cardkit.validate(path))
    got = [(d.path, d.raw) for d in cardkit.iter_documents(path)]
    assert got == expected
    assert len(got) > 0


def test_every_source() -> None:
    data = (CONFORMANCE / "auto").joinpath("json-lines-mixed-kinds.jsonl").read_bytes()
    expected = [d.raw for d in cardkit.validate(data).documents]
    for source in (data, io.BytesIO(data)):
        assert [d.raw for d in cardkit.iter_documents(source)] == expected
    assert [d.raw for d in cardkit.iter_documents(text=data.decode())] == expected


def make_catalog(documents: int) -> bytes:
    card = cardkit.dummy("card")
    return "".join(
        json.dumps(dict(card, name=f"card {i}")) + "\n" for i in range(documents)
    ).encode()


def test_a_large_input_streams_and_may_be_left() -> None:
    data = make_catalog(5000)
    stream = cardkit.iter_documents(data, kind="card", jobs=2)
    first = list(itertools.islice(stream, 3))
    assert [d.line for d in first] == [1, 2, 3]
    # Left before its end: the validation thread stops when it sees nobody
    # listens.
    del stream
    gc.collect()
    assert len(list(cardkit.iter_documents(data, kind="card"))) == 5000


def test_arguments_checked_when_called(tmp_path: pathlib.Path) -> None:
    with pytest.raises(ValueError):
        cardkit.iter_documents(b"{}", kind="deck")
    with pytest.raises(FileNotFoundError):
        cardkit.iter_documents(tmp_path / "missing.json")


def test_file_object_exception_raised_while_iterating() -> None:
    class Failing(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def read(self, n: int = -1) -> bytes:
            raise RuntimeError("the disk is gone")

    with pytest.raises(RuntimeError, match="the disk is gone"):
        list(cardkit.iter_documents(Failing()))


def test_a_truncated_input_raises_after_its_documents() -> None:
    import gzip

    data = gzip.compress(make_catalog(100))[:-30]
    seen = []
    with pytest.raises(OSError):
        for document in cardkit.iter_documents(data, kind="card"):
            seen.append(document)
    report = cardkit.validate(data, kind="card")
    assert [d.raw for d in seen] == [d.raw for d in report.documents]
