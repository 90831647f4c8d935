"""Complete validation of trading-card data documents, from Python.

The checks, options and report are those of the ``cardkit`` command line:
``cardkit.validate(source).to_dict()`` equals ``cardkit validate --format
json`` on the same input with the same options.

Example::

    import cardkit

    report = cardkit.validate(pathlib.Path("LEA.json.gz"), kind="set")
    if not report.valid:
        for file in report.files:
            for document in file.documents:
                for d in document.diagnostics:
                    print(f"{file.path}:{d.line}:{d.column}: {d.code}: {d.message}")
"""

from __future__ import annotations

import io
import json
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO, Dict, Iterator, List, Optional, Sequence, Union

from . import _native

if TYPE_CHECKING:
    import pyarrow

__all__ = [
    "validate",
    "iter_documents",
    "read_tables",
    "InvalidDocumentsError",
    "schema",
    "fields",
    "explain",
    "dummy",
    "Report",
    "FileReport",
    "DocumentReport",
    "Diagnostic",
    "MAX_JOBS",
]

#: The most threads ``jobs`` may ask for.
MAX_JOBS: int = _native.MAX_JOBS

Source = Union[bytes, bytearray, memoryview, str, "os.PathLike[str]", BinaryIO]


@dataclass(frozen=True)
class Diagnostic:
    """One error or warning, where it is and what was expected.

    ``line`` and ``column`` count from 1; ``offset`` is the byte offset in
    the input (decoded, if it was compressed). ``pointer`` is the JSON
    Pointer of the value within its document; ``field`` names the model's
    field (``CardSet.uuid``) when there is one.
    """

    code: str
    severity: str
    pointer: str
    field: Optional[str]
    line: Optional[int]
    column: Optional[int]
    offset: Optional[int]
    message: str
    expected: Optional[str]
    found: Optional[str]
    suggestion: Optional[str]
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def _from(cls, entry: Dict[str, Any]) -> "Diagnostic":
        return cls(
            code=entry["code"],
            severity=entry["severity"],
            pointer=entry.get("pointer", ""),
            field=entry.get("field"),
            line=entry.get("line"),
            column=entry.get("column"),
            offset=entry.get("offset"),
            message=entry.get("message", ""),
            expected=entry.get("expected"),
            found=entry.get("found"),
            suggestion=entry.get("suggestion"),
            raw=entry,
        )

    def to_dict(self) -> Dict[str, Any]:
        """The diagnostic as the JSON report has it."""
        return json.loads(json.dumps(self.raw))


@dataclass(frozen=True)
class DocumentReport:
    """One document of a file: where it is (``pointer``: ``""`` for a whole
    file, ``/data/LEA`` in a catalog; ``line``, its line in JSON Lines or
    an array of documents), its kind
    (``None`` when it could not be told), whether it is valid, and its
    diagnostics."""

    pointer: str
    line: Optional[int]
    kind: Optional[str]
    valid: bool
    diagnostics: List[Diagnostic]
    raw: Dict[str, Any] = field(repr=False, compare=False)
    #: The path of the input the document is in (set by iter_documents).
    path: Optional[str] = field(default=None, compare=False)

    @classmethod
    def _from(cls, entry: Dict[str, Any], path: Optional[str] = None) -> "DocumentReport":
        return cls(
            pointer=entry.get("pointer", ""),
            line=entry.get("line"),
            kind=entry.get("kind"),
            valid=bool(entry.get("valid")),
            diagnostics=[Diagnostic._from(d) for d in entry.get("diagnostics", [])],
            raw=entry,
            path=path,
        )


@dataclass(frozen=True)
class FileReport:
    """One input: its ``path`` (``<bytes>``, ``<str>`` or the file object's
    name for inputs without one), its documents, and ``error`` when it could
    not be read to its end."""

    path: str
    documents: List[DocumentReport]
    valid: bool
    error: Optional[str]
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def _from(cls, entry: Dict[str, Any]) -> "FileReport":
        return cls(
            path=entry["path"],
            documents=[DocumentReport._from(d, entry["path"]) for d in entry.get("documents", [])],
            valid=bool(entry.get("valid")),
            error=entry.get("error"),
            raw=entry,
        )


class Report:
    """The report of a validation.

    ``valid`` is true when every document is valid and every input was read
    (the command line's exit status 0); ``status`` is that exit status (0
    valid, 1 some document invalid, 2 an input unreadable or none found).
    ``files`` has one :class:`FileReport` per input, ``summary`` the counts
    as the JSON report has them, and :meth:`to_dict` the whole JSON report.
    """

    __slots__ = ("_dict", "status", "files")

    def __init__(self, report: Dict[str, Any], status: int) -> None:
        self._dict = report
        self.status = status
        self.files = [FileReport._from(f) for f in report.get("files", [])]

    @property
    def valid(self) -> bool:
        return self.status == 0

    @property
    def summary(self) -> Dict[str, Any]:
        return self._dict["summary"]

    @property
    def documents(self) -> List[DocumentReport]:
        """Every document of every file, in order."""
        return [d for f in self.files for d in f.documents]

    @property
    def diagnostics(self) -> List[Diagnostic]:
        """Every diagnostic of every document, in order."""
        return [x for d in self.documents for x in d.diagnostics]

    def to_dict(self) -> Dict[str, Any]:
        """The report as ``cardkit validate --format json`` writes it."""
        return json.loads(json.dumps(self._dict))

    def __repr__(self) -> str:
        s = self.summary
        return (
            f"<cardkit.Report valid={self.valid} files={s.get('files')} "
            f"documents={s.get('documents')} invalid={s.get('invalid')}>"
        )


def _checked_source(source: Any) -> Any:
    """Refuses, with the reason, what cannot be read as a source."""
    if isinstance(source, memoryview):
        return source.tobytes()
    if isinstance(source, io.TextIOBase):
        raise TypeError(
            "source is a text file object: open it in binary mode ('rb')"
        )
    if not isinstance(source, (bytes, bytearray, str, os.PathLike)) and hasattr(
        source, "read"
    ):
        if getattr(source, "closed", False):
            raise ValueError("source is a closed file")
    return source


def validate(
    source: Source,
    *,
    kind: str = "auto",
    as_of: Optional[str] = None,
    strict_version: bool = False,
    deny_unknown_fields: bool = False,
    warn_deprecated: bool = False,
    names: str = "spec",
    jobs: Optional[int] = None,
    warning_limit: Optional[int] = None,
    error_limit: Optional[int] = None,
    name: Optional[str] = None,
) -> Report:
    """Validates documents and reports every error with its line and column.

    The checks and options are the command line's (``cardkit validate``),
    from the same definition; the configuration file (``cardkit.toml``) is
    not read.

    Args:
        source: what to validate.

            - ``bytes`` (or ``bytearray``, ``memoryview``): a document, a
              catalog or JSON Lines, compressed (gzip, zstd, xz, bzip2) or not.
            - ``str``: a document's text (give a path as ``pathlib.Path``).
            - ``os.PathLike``: a file, read streaming and decoded when
              compressed (``.jsonl``/``.ndjson`` are JSON Lines); a directory,
              searched for documents as the command line does; a zip archive.
            - a binary file object: read by its ``read(n)``.
        kind: ``"auto"`` (each document's kind told from its members),
            ``"template"``, ``"card"``, ``"set"`` or ``"migration"``.
        as_of: validate as consumers of this version of the format see the
            documents (``"v5.0.0"``): newer fields are ``newer_field``
            warnings and not required; ``"auto"``: as of the version each
            file's ``meta.version`` declares.
        strict_version: with ``as_of``, newer fields are errors.
        deny_unknown_fields: members the spec does not define are errors.
        warn_deprecated: deprecated fields present are reported.
        names: ``"spec"`` (the spec's names) or ``"upstream"`` (the
            publishers' names, such as ``keyruneCode``).
        jobs: threads validating (1 to ``MAX_JOBS``); default one per core.
            The report is the same whatever the number.
        warning_limit: warnings of each kind shown before the rest are only
            counted (``0``: all); default 3, as the command line.
        error_limit: errors of each kind shown (``0`` or ``None``: all).
        name: the ``path`` the report gives a source that has none
            (default ``<bytes>``, ``<str>``, or the file object's ``name``).

    Returns:
        The :class:`Report`; ``report.to_dict()`` equals the command line's
        ``--format json`` report.

    Raises:
        ValueError: a bad ``kind``, ``as_of``, ``names`` or ``jobs``, or
            ``strict_version`` without ``as_of``; a closed file object; a
            ``str`` that cannot be UTF-8 (``UnicodeEncodeError``: a lone
            surrogate).
        TypeError: a source of another type, or a text-mode file object.
        OSError: a path that cannot be opened (``FileNotFoundError``,
            ``PermissionError``...). A file object's own exception is raised
            again as it was.

    Example:
        >>> import cardkit
        >>> report = cardkit.validate(b'{"code": "LEA"}', kind="card")
        >>> report.valid
        False
        >>> report.diagnostics[0].code
        'missing_field'
    """
    source = _checked_source(source)
    text, status = _native.validate_json(
        source,
        kind=kind,
        as_of=as_of,
        strict_version=strict_version,
        deny_unknown_fields=deny_unknown_fields,
        warn_deprecated=warn_deprecated,
        names=names,
        jobs=jobs,
        warning_limit=warning_limit,
        error_limit=error_limit,
        name=name,
    )
    return Report(json.loads(text), status)


def schema(
    kind: str,
    *,
    names: str = "spec",
    container: Optional[str] = None,
    as_of: Optional[str] = None,
    annotations: bool = False,
) -> Dict[str, Any]:
    """The JSON Schema (2020-12) of a document kind, as ``cardkit schema``
    prints it.

    Args:
        kind: ``"template"``, ``"card"``, ``"set"`` or ``"migration"``.
        names: the properties' wire names, ``"spec"`` or ``"upstream"``.
        container: the schema of a file holding the documents in a
            container, as ``validate`` reads them: ``"wrapped"``,
            ``"catalog"``, ``"code-map"``, ``"list"`` or ``"array"``;
            ``None``: the bare document.
        as_of: the schema as of this version (``"v5.0.0"``): fields
            introduced later are not required.
        annotations: adds ``x-since`` and ``"format": "color"``, which
            strict validators refuse as unknown.

    Raises:
        ValueError: a bad kind, names, container or version.

    Example:
        >>> cardkit.schema("set")["$defs"]["CardSet"]["properties"]["hasFoil"]["deprecated"]
        True
    """
    return json.loads(
        _native.schema_json(
            kind, names=names, container=container, as_of=as_of, annotations=annotations
        )
    )


def fields(
    kind: str,
    since: Optional[str] = None,
    deprecated: bool = False,
    *,
    names: str = "spec",
) -> List[Dict[str, Any]]:
    """The fields of a document kind, each at its JSON Pointer, as
    ``cardkit fields --format json`` lists them.

    Args:
        kind: ``"template"``, ``"card"``, ``"set"`` or ``"migration"``.
        since: only the fields introduced in this version or later
            (``"v5.2.0"``); fields without a version tag are left out.
        deprecated: only the deprecated fields.
        names: ``"spec"`` or ``"upstream"``.

    Raises:
        ValueError: a bad kind, version or names.

    Example:
        >>> "/cards/*/hasFoil" in [f["pointer"] for f in cardkit.fields("set", deprecated=True)]
        True
    """
    return json.loads(
        _native.fields_json(kind, since=since, deprecated=deprecated, names=names)
    )


def explain(kind_or_code: str, pointer: Optional[str] = None) -> Dict[str, Any]:
    """A field of a kind, or a diagnostic code, in plain words, as
    ``cardkit explain --format json`` gives it.

    Args:
        kind_or_code: a kind (``"set"``), then ``pointer`` names the field;
            or a diagnostic code (``"missing_field"``) alone.
        pointer: the field's JSON Pointer (``"/cards/0/uuid"``, items by
            index or ``*``; from the document's root or the file's, as
            reports give it) or its ``Model.field`` (``"CardSet.uuid"``).

    Raises:
        ValueError: neither a kind nor a code, a kind without a pointer, a
            code with one, or a pointer that names no field.

    Example:
        >>> cardkit.explain("missing_field")["code"]
        'missing_field'
    """
    return json.loads(_native.explain_json(kind_or_code, pointer))


def dummy(kind: str = "template") -> Dict[str, Any]:
    """A document to start from, as ``cardkit dummy`` prints it: the spec's
    dummy template or card, or the smallest valid set or migration.

    Args:
        kind: ``"template"`` (the default), ``"card"``, ``"set"`` or
            ``"migration"``.

    Raises:
        ValueError: a bad kind.

    Example:
        >>> cardkit.validate(json.dumps(cardkit.dummy("set")), kind="set").valid
        True
    """
    return json.loads(_native.dummy_json(kind))


def iter_documents(
    source: Source,
    *,
    kind: str = "auto",
    as_of: Optional[str] = None,
    strict_version: bool = False,
    deny_unknown_fields: bool = False,
    warn_deprecated: bool = False,
    names: str = "spec",
    jobs: Optional[int] = None,
    warning_limit: Optional[int] = None,
    error_limit: Optional[int] = None,
    name: Optional[str] = None,
) -> Iterator[DocumentReport]:
    r"""Validates as :func:`validate` does, yielding each document's report
    as soon as it is known: a catalog or JSON Lines of any size is streamed,
    with memory bounded as in the command line (at most 64 reports wait
    for the caller; validation waits while they do).

    The arguments are :func:`validate`'s, checked when it is called. Each
    :class:`DocumentReport` has the ``path`` of its input, and equals the
    document's entry in ``validate(...)``'s report.

    Args:
        source: as for :func:`validate`.
        kind: as for :func:`validate`.
        as_of: as for :func:`validate`.
        strict_version: as for :func:`validate`.
        deny_unknown_fields: as for :func:`validate`.
        warn_deprecated: as for :func:`validate`.
        names: as for :func:`validate`.
        jobs: as for :func:`validate`.
        warning_limit: as for :func:`validate`.
        error_limit: as for :func:`validate`.
        name: as for :func:`validate`.

    Raises:
        ValueError, TypeError, OSError: as :func:`validate`, when called.
        OSError: while iterating, an input that cannot be read to its end
            (after the documents before the error); a file object's own
            exception is raised again.

    Example:
        >>> lines = b'{"name": "a"}\n{"name": "b"}\n'
        >>> [d.line for d in cardkit.iter_documents(lines, kind="card")]
        [1, 2]
    """
    source = _checked_source(source)
    stream = _native.iter_documents_json(
        source,
        kind=kind,
        as_of=as_of,
        strict_version=strict_version,
        deny_unknown_fields=deny_unknown_fields,
        warn_deprecated=warn_deprecated,
        names=names,
        jobs=jobs,
        warning_limit=warning_limit,
        error_limit=error_limit,
        name=name,
    )
    return (DocumentReport._from(json.loads(entry), path) for path, entry in stream)


class InvalidDocumentsError(ValueError):
    """Raised by :func:`read_tables` under ``on_invalid="fail"`` when a
    document is invalid or cannot be exported, or an input cannot be read:
    nothing is read.

    Attributes:
        report: the :class:`Report` of the invalid documents and unreadable
            inputs (valid documents are counted in its ``summary``, not
            listed), as ``validate`` gives it.
        notes: what the export said of each document left out, as
            ``cardkit export`` prints it (the first 100).
        note_count: how many notes there were in all.
    """

    def __init__(self, message: str, report: Report, notes: List[str], note_count: int) -> None:
        super().__init__(message)
        self.report = report
        self.notes = notes
        self.note_count = note_count


def read_tables(
    source: Union[Source, Sequence["os.PathLike[str]"]],
    *,
    on_invalid: str = "fail",
    kind: str = "auto",
    as_of: Optional[str] = None,
    strict_version: bool = False,
    deny_unknown_fields: bool = False,
    warn_deprecated: bool = False,
    names: str = "spec",
    keep_unknown: bool = False,
    jobs: Optional[int] = None,
    warning_limit: Optional[int] = None,
    error_limit: Optional[int] = None,
    name: Optional[str] = None,
) -> Dict[str, "pyarrow.Table"]:
    """Validates sets and migrations and reads them as the tables of
    ``cardkit export``: one ``pyarrow.Table`` per table of the export's
    layout (``cardkit export --describe`` lists them), the same tables,
    columns, types and rows as ``cardkit export --to parquet:DIR`` writes.

    The documents are validated and made into rows in one pass, as the
    command line does, with the GIL released; the rows are built into Arrow
    columns and handed to pyarrow through the Arrow C data interface, with
    no copy and no Python object per value. The tables are held in Arrow
    memory; the rest takes the bounded memory of an export. Needs
    ``pyarrow`` (21 or later; tested with 21 and 26).

    The ``build`` column of the stores is not there: it is the Parquet
    files' Hive partition (``--build``), and a read has one build.

    Args:
        source: as for :func:`validate` (a path, ``bytes``, a document's
            text, a binary file object), or a list of paths, read in turn
            as ``cardkit export PATH...`` reads them.
        on_invalid: what is done with a document that is invalid or cannot
            be exported, as ``cardkit export --on-invalid``: ``"fail"`` (the
            default) reads nothing and raises
            :class:`InvalidDocumentsError`; ``"skip"`` leaves it out;
            ``"keep"`` reads it too, its invalid or missing values NULL. An
            input that cannot be read raises under ``"fail"``, and is left
            out under the others.
        kind: as for :func:`validate`; templates and cards are out of the
            export's scope (they are left out, or fail the read).
        as_of: as for :func:`validate`.
        strict_version: as for :func:`validate`.
        deny_unknown_fields: as for :func:`validate`.
        warn_deprecated: as for :func:`validate`.
        names: as for :func:`validate`; the tables' columns are always the
            spec's names.
        keep_unknown: keeps each record's members that the spec does not
            define as a JSON object in its table's ``extra`` column, as
            ``cardkit export --keep-unknown``; without it ``extra`` is NULL.
        jobs: as for :func:`validate`; the tables are the same whatever the
            number.
        warning_limit: as for :func:`validate` (the report of an
            :class:`InvalidDocumentsError`).
        error_limit: as for :func:`validate`.
        name: as for :func:`validate`: the name of a source without a
            path, in the ``meta`` table's ``input`` column and the report.

    Returns:
        A dict from each table's name (``"sets"``, ``"cards"``, ``"meta"``...)
        to its ``pyarrow.Table``, every table of the layout, in its order
        (tables the documents make no rows of are empty).

    Raises:
        InvalidDocumentsError: under ``on_invalid="fail"``, an invalid or
            unexportable document, or an unreadable input (a ``ValueError``
            carrying the report).
        ValueError: a bad ``on_invalid``, or any argument :func:`validate`
            refuses; no input found in the paths given.
        TypeError, OSError: as :func:`validate`.
        KeyboardInterrupt: Ctrl-C during the read.
        ImportError: pyarrow is not installed.

    Example:
        >>> tables = cardkit.read_tables(json.dumps(cardkit.dummy("set")), name="set.json")
        >>> tables["sets"].num_rows, tables["meta"].column("input").to_pylist()
        (1, ['set.json'])
        >>> cards = cardkit.read_tables(pathlib.Path("sets/"), on_invalid="skip")["cards"]  # doctest: +SKIP
        >>> cards.to_pandas().groupby("set_code").size()  # doctest: +SKIP
    """
    import pyarrow  # noqa: F401  (the tables are made by pyarrow: it is needed)

    source = _checked_source(source)
    read = _native.read_tables(
        source,
        on_invalid=on_invalid,
        kind=kind,
        as_of=as_of,
        strict_version=strict_version,
        deny_unknown_fields=deny_unknown_fields,
        warn_deprecated=warn_deprecated,
        names=names,
        keep_unknown=keep_unknown,
        jobs=jobs,
        warning_limit=warning_limit,
        error_limit=error_limit,
        name=name,
    )
    if read.outcome == "ok":
        return dict(read.tables)
    if read.outcome in ("invalid", "unreadable"):
        report = Report(json.loads(read.report), read.status)
        raise InvalidDocumentsError(read.message, report, list(read.notes), read.note_count)
    raise ValueError(read.message)
