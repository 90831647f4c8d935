"""The examples in the docstrings run, and every public function explains
its arguments."""

from __future__ import annotations

import doctest
import inspect
import pathlib

import cardkit


def test_docstring_examples_run() -> None:
    failed, tried = doctest.testmod(
        cardkit, extraglobs={"cardkit": cardkit}, optionflags=doctest.ELLIPSIS
    )
    assert tried >= 5 and failed == 0


def test_every_argument_is_documented() -> None:
    for name in ("validate", "iter_documents", "read_tables", "schema", "fields", "explain", "dummy"):
        function = getattr(cardkit, name)
        doc = inspect.getdoc(function) or ""
        assert "Example:" in doc, name
        for argument in inspect.signature(function).parameters:
            assert f"{argument}:" in doc, (name, argument)


def test_every_validating_function_takes_the_options_python_names() -> None:
    # The native module reads them by the names of the options' one table
    # (the command line's flags, the configuration's keys, the service's
    # parameters): each function that validates takes them all.
    from cardkit import _native

    assert "as_of" in _native.VALIDATION_KEYWORDS
    for name in ("validate", "iter_documents", "read_tables"):
        parameters = inspect.signature(getattr(cardkit, name)).parameters
        missing = set(_native.VALIDATION_KEYWORDS) - set(parameters)
        assert not missing, (name, missing)


def test_the_books_and_the_readmes_examples_run(tmp_path, monkeypatch, capsys) -> None:
    import gzip
    import json
    import re

    from conftest import ROOT

    # The book's Python chapter, every example of it, and the README's
    # Python section.
    chapter = (ROOT / "docs" / "python.md").read_text()
    readme = (ROOT / "README.md").read_text()
    section = readme.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    book_blocks = re.findall(r"```python\n(.*?)```", chapter, re.S)
    readme_blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert book_blocks, "the book's Python chapter (docs/python.md) has no example"
    assert readme_blocks, "the README's Python section has no example"
    (tmp_path / "sets").mkdir()
    (tmp_path / "sets" / "LEA.json.gz").write_bytes(
        gzip.compress(json.dumps(cardkit.dummy("set")).encode())
    )
    card = json.dumps(cardkit.dummy("card"))
    (tmp_path / "cards.jsonl").write_text(f"{card}\n{card}\n")
    monkeypatch.chdir(tmp_path)
    for source, blocks in (("docs/python.md", book_blocks), ("README.md", readme_blocks)):
        for block in blocks:
            exec(compile(block, source, "exec"), {})
    assert "True" in capsys.readouterr().out


def test_type_stubs_match_the_package() -> None:
    import subprocess
    import sys

    import pytest

    pytest.importorskip("mypy")
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "cardkit"],
        capture_output=True,
        text=True,
        cwd="/",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    package = pathlib.Path(cardkit.__file__).parent
    assert (package / "py.typed").exists() and (package / "__init__.pyi").exists()
