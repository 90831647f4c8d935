"""The examples in the docstrings run, and every public function explains
its arguments."""

from __future__ import annotations

import doctest
import inspect

import cardkit


def test_docstring_examples_run() -> None:
    failed, tried = doctest.testmod(
        cardkit, extraglobs={"cardkit": cardkit}, optionflags=doctest.ELLIPSIS
    )
    assert tried >= 5 and failed == 0


def test_every_argument_is_documented() -> None:
    for name in ("validate", "schema", "fields", "explain", "dummy"):
        function = getattr(cardkit, name)
        doc = inspect.getdoc(function) or ""
        assert "Example:" in doc, name
        for argument in inspect.signature(function).parameters:
            assert f"{argument}:" in doc, (name, argument)
