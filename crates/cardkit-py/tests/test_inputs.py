"""The kinds of source, the report's objects, the errors raised, and inputs
that must never crash the interpreter."""

from __future__ import annotations

import concurrent.futures
import gzip
import io
import pathlib
import subprocess
import sys
import zipfile

import pytest

import cardkit

from conftest import CONFORMANCE, renamed

SET = CONFORMANCE / "set" / "as-of-v5.0.0-newer-fields-warn.json"


def test_report_objects() -> None:
    report = cardkit.validate(b'{"code": "LEA"}', kind="card")
    assert not report.valid and report.status == 1
    [file] = report.files
    assert file.path == "<bytes>" and not file.valid and file.error is None
    [document] = file.documents
    assert document.pointer == "" and document.kind == "card" and not document.valid
    first = document.diagnostics[0]
    assert first.code == "missing_field" and first.severity == "error"
    assert (first.line, first.column, first.offset) == (1, 1, 0)
    assert first.field is not None and first.message
    assert first.to_dict() == report.to_dict()["files"][0]["documents"][0]["diagnostics"][0]
    assert report.summary["invalid"] == 1
    assert report.diagnostics == document.diagnostics
    assert "valid=False" in repr(report)


def test_valid_document() -> None:
    report = cardkit.validate(SET, kind="set", as_of="v5.0.0")
    assert report.valid and report.status == 0
    assert all(d.severity == "warning" for d in report.diagnostics)


def test_sources_agree() -> None:
    data = SET.read_bytes()
    expected = renamed(cardkit.validate(SET).to_dict(), "x")
    for source in (
        data,
        bytearray(data),
        memoryview(data),
        io.BytesIO(data),
        gzip.compress(data),
        io.BytesIO(gzip.compress(data)),
    ):
        assert renamed(cardkit.validate(source).to_dict(), "x") == expected, type(source)
    assert renamed(cardkit.validate(text=data.decode()).to_dict(), "x") == expected


def test_compressed_file(tmp_path: pathlib.Path) -> None:
    packed = tmp_path / "set.json.gz"
    packed.write_bytes(gzip.compress(SET.read_bytes()))
    report = cardkit.validate(packed)
    assert renamed(report.to_dict(), "x") == renamed(cardkit.validate(SET).to_dict(), "x")
    assert report.files[0].path == str(packed)


def test_json_lines_told_from_bytes() -> None:
    lines = b'{"code": "LEA"}\n{"code": "LEB"}\n'
    report = cardkit.validate(lines, kind="card")
    assert [d.line for d in report.documents] == [1, 2]
    assert report.files[0].raw["layout"] == "array"


def test_names() -> None:
    report = cardkit.validate(b"{}", name="mine.json")
    assert report.files[0].path == "mine.json"
    with open(SET, "rb") as file:
        assert cardkit.validate(file).files[0].path == str(SET)
    assert cardkit.validate(io.BytesIO(b"{}")).files[0].path == "<stream>"
    assert cardkit.validate(text="{}").files[0].path == "<str>"


@pytest.mark.parametrize(
    "options",
    [
        {"kind": "deck"},
        {"as_of": "v1.0.0"},
        {"as_of": "newest"},
        {"names": "mine"},
        {"jobs": 0},
        {"jobs": -1},
        {"jobs": cardkit.MAX_JOBS + 1},
        # As of the latest, no field is newer (by default each file is
        # checked as of its own version, whose newer fields then are errors).
        {"strict_version": True, "as_of": "latest"},
    ],
)
def test_bad_options_raise_value_error(options: dict) -> None:
    with pytest.raises(ValueError):
        cardkit.validate(b"{}", **options)


@pytest.mark.parametrize("jobs", [2**64, 2**70, -(2**70)])
def test_jobs_beyond_64_bits_raise_value_error(jobs: int) -> None:
    # Every function that takes jobs refuses a count too large for any
    # integer type as it refuses -1: a ValueError naming it, no OverflowError.
    calls = [
        lambda: cardkit.validate(b"{}", jobs=jobs),
        lambda: cardkit.iter_documents(b"{}", jobs=jobs),
        lambda: cardkit.read_tables(b"{}", jobs=jobs),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=f"^jobs is {jobs}: expected 1 to "):
            call()
    with pytest.raises(ValueError, match="^jobs is -1: expected 1 to "):
        cardkit.validate(b"{}", jobs=-1)
    with pytest.raises(TypeError):
        cardkit.validate(b"{}", jobs="2")


def test_unreadable_path_raises_os_error(tmp_path: pathlib.Path) -> None:
    with pytest.raises(FileNotFoundError) as raised:
        cardkit.validate(tmp_path / "missing.json")
    assert raised.value.filename == str(tmp_path / "missing.json")
    assert "os error" not in str(raised.value)


def test_bad_sources_raise() -> None:
    with pytest.raises(TypeError):
        cardkit.validate(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        cardkit.validate(io.StringIO("{}"))  # type: ignore[arg-type]
    closed = io.BytesIO(b"{}")
    closed.close()
    with pytest.raises(ValueError):
        cardkit.validate(closed)


def test_text_that_is_not_unicode_raises_value_error() -> None:
    # A lone surrogate cannot be UTF-8: UnicodeEncodeError, a ValueError.
    with pytest.raises(ValueError):
        cardkit.validate(text='{"name": "\udc80"}')


def test_file_object_exception_raised_again() -> None:
    class Failing(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def read(self, n: int = -1) -> bytes:
            raise RuntimeError("the disk is gone")

    with pytest.raises(RuntimeError, match="the disk is gone"):
        cardkit.validate(Failing())


def test_file_object_giving_text_raises() -> None:
    class Texty:
        def read(self, n: int) -> str:
            return "{}"

    with pytest.raises(TypeError, match="binary mode"):
        cardkit.validate(Texty())


def test_file_object_read_in_small_chunks() -> None:
    class Trickle:
        def __init__(self, data: bytes) -> None:
            self.data = data

        def read(self, n: int) -> bytes:
            step = min(7, n)
            chunk, self.data = self.data[:step], self.data[step:]
            return chunk

    data = SET.read_bytes()
    expected = renamed(cardkit.validate(data).to_dict(), "x")
    assert renamed(cardkit.validate(Trickle(data)).to_dict(), "x") == expected


def test_directory(tmp_path: pathlib.Path) -> None:
    empty = cardkit.validate(tmp_path)
    assert empty.status == 2 and not empty.valid and empty.files == []
    (tmp_path / "a.json").write_bytes(SET.read_bytes())
    (tmp_path / "b.jsonl").write_bytes(b'{"code": "LEA"}\n')
    report = cardkit.validate(tmp_path)
    assert [f.path for f in report.files] == [str(tmp_path / "a.json"), str(tmp_path / "b.jsonl")]


def test_zip_archive(tmp_path: pathlib.Path) -> None:
    archive = tmp_path / "sets.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("LEA.json", SET.read_bytes())
    report = cardkit.validate(archive)
    assert report.files[0].path.endswith("sets.zip!LEA.json")
    # A zip archive cannot be read as a stream: reported, not raised.
    streamed = cardkit.validate(archive.read_bytes())
    assert streamed.status == 2 and streamed.files[0].error


def test_threads_give_the_same_reports() -> None:
    sources = [p.read_bytes() for p in sorted((CONFORMANCE / "set").glob("*.json"))]
    expected = [cardkit.validate(s, jobs=1).to_dict()["files"] for s in sources]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        for _ in range(3):
            got = list(pool.map(lambda s: cardkit.validate(s).to_dict()["files"], sources))
            assert got == expected


HOSTILE = {
    "deep arrays": "b'[' * 1_000_000",
    "deep objects": "b'{\"a\":' * 1_000_000",
    "deep arrays, closed": "b'[' * 1_000_000 + b']' * 1_000_000",
    "deep in a card": "b'{\"name\":' + b'[' * 1_000_000",
    "deep JSON Lines": "b'{}\\n' + b'[' * 1_000_000 + b'\\n{}\\n'",
    "invalid UTF-8": "b'{\"name\": \"\\xff\\xfe\\xc3\"}'",
    "UTF-16": "'{}'.encode('utf-16')",
    "NUL bytes": "b'\\x00' * 1000",
    "empty": "b''",
    "random": "bytes(range(256)) * 64",
    "truncated gzip": "__import__('gzip').compress(b'{}' * 1000)[:20]",
    "huge number": "b'1' * 1_000_000",
    "long string": "b'\"' + b'a' * 5_000_000",
}


@pytest.mark.parametrize("expression", HOSTILE.values(), ids=HOSTILE.keys())
@pytest.mark.parametrize("jobs", [1, 4])
def test_hostile_input_never_crashes(expression: str, jobs: int) -> None:
    # In a process of its own: a crash would otherwise end the test run.
    script = (
        "import cardkit\n"
        f"data = {expression}\n"
        f"report = cardkit.validate(data, jobs={jobs})\n"
        "assert report.status in (1, 2), report.to_dict()\n"
        f"text = cardkit.validate(text=data.decode('latin-1'), jobs={jobs})\n"
        "print(report.status)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]


def test_hostile_file_never_crashes(tmp_path: pathlib.Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_bytes(b"[" * 1_000_000)
    script = f"import cardkit, pathlib\nprint(cardkit.validate(pathlib.Path({str(deep)!r})).status)\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    assert done.stdout.strip() == b"1"
