"""schema, fields, explain and dummy give what the command line prints."""

from __future__ import annotations

import json
import subprocess
from typing import Any, List

import pytest

import cardkit

KINDS = ["template", "card", "set", "migration"]


def cli_json(cli: str, args: List[str]) -> Any:
    done = subprocess.run([cli, *args], capture_output=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("kind", KINDS)
def test_schema_as_the_command_line(cli: str, kind: str) -> None:
    assert cardkit.schema(kind) == cli_json(cli, ["schema", kind])
    assert cardkit.schema(
        kind, names="upstream", container="code-map", as_of="v5.0.0", annotations=True
    ) == cli_json(
        cli,
        ["schema", kind, "--names", "upstream", "--container", "code-map",
         "--as-of", "v5.0.0", "--annotations"],
    )


@pytest.mark.parametrize("kind", KINDS)
def test_fields_as_the_command_line(cli: str, kind: str) -> None:
    assert cardkit.fields(kind) == cli_json(cli, ["fields", kind, "--format", "json"])
    assert cardkit.fields(kind, since="v5.2.0", deprecated=True, names="upstream") == cli_json(
        cli,
        ["fields", kind, "--format", "json", "--since", "v5.2.0", "--deprecated",
         "--names", "upstream"],
    )


@pytest.mark.parametrize(
    "args",
    [["set", "/cards/0/uuid"], ["set", "CardSet.uuid"], ["card", "/name"], ["missing_field"],
     ["invalid_json"], ["dropped_member"], ["not_convertible"]],
)
def test_explain_as_the_command_line(cli: str, args: List[str]) -> None:
    assert cardkit.explain(*args) == cli_json(cli, ["explain", *args, "--format", "json"])


@pytest.mark.parametrize("kind", KINDS)
def test_dummy_as_the_command_line(cli: str, kind: str) -> None:
    assert cardkit.dummy(kind) == cli_json(cli, ["dummy", kind])


def test_dummy_is_valid() -> None:
    assert cardkit.dummy() == cardkit.dummy("template")
    for kind in KINDS:
        assert cardkit.validate(cardkit.dummy(kind), kind=kind).valid, kind


@pytest.mark.parametrize(
    "call",
    [
        lambda: cardkit.schema("deck"),
        lambda: cardkit.schema("set", names="mine"),
        lambda: cardkit.schema("set", container="box"),
        lambda: cardkit.schema("set", as_of="v1.0.0"),
        lambda: cardkit.fields("deck"),
        lambda: cardkit.fields("set", since="latest"),
        lambda: cardkit.explain("deck"),
        lambda: cardkit.explain("set"),
        lambda: cardkit.explain("missing_field", "/x"),
        lambda: cardkit.explain("set", "/nothing/here"),
        lambda: cardkit.dummy("deck"),
    ],
)
def test_bad_arguments_raise_value_error(call: Any) -> None:
    with pytest.raises(ValueError):
        call()
