"""Complete validation of trading-card data documents, from Python.

The checks, options and report are those of the ``cardkit`` command line:
``cardkit.validate(source).to_dict()`` equals ``cardkit validate --format
json`` on the same input with the same options.

Example::

    import cardkit

    report = cardkit.validate("LEA.json.gz", kind="set")
    if not report.valid:
        for file in report.files:
            for document in file.documents:
                for d in document.diagnostics:
                    print(f"{file.path}:{d.line}:{d.column}: {d.code}: {d.message}")
"""

from __future__ import annotations

import errno
import io
import json
import os
import pathlib
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO, Dict, Iterator, List, Optional, Tuple, Union

from . import _native

if TYPE_CHECKING:
    import pyarrow

__all__ = [
    "validate",
    "iter_documents",
    "read_tables",
    "Tables",
    "Skipped",
    "SkippedDocument",
    "SkippedWarning",
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
    "Source",
]

#: The package's version: the cardkit release it was built from.
__version__: str = _native.__version__

#: The most threads ``jobs`` may ask for.
MAX_JOBS: int = _native.MAX_JOBS

#: What the functions that validate take: a path (``str`` or
#: ``os.PathLike``), a list of paths, ``bytes``, a binary file object, or a
#: parsed document (``dict``, ``list``). A document's text goes as ``text=``.
Source = Union[
    str,
    "os.PathLike[str]",
    bytes,
    bytearray,
    memoryview,
    BinaryIO,
    Dict[str, Any],
    List[Any],
    Tuple[Union[str, "os.PathLike[str]"], ...],
]


def __dir__() -> List[str]:
    # The public API only: not the modules and names the package uses.
    return sorted([*__all__, "__version__"])


#: The members of a diagnostic that are its attributes, in the JSON
#: report's order.
_DIAGNOSTIC_FIELDS = (
    "code",
    "severity",
    "pointer",
    "field",
    "line",
    "column",
    "offset",
    "message",
    "expected",
    "found",
    "suggestion",
)
_FIELD_SET = frozenset(_DIAGNOSTIC_FIELDS)


@dataclass(frozen=True)
class Diagnostic:
    """One error or warning, where it is and what was expected.

    ``line`` and ``column`` count from 1; ``offset`` is the byte offset in
    the input (decoded, if it was compressed). ``pointer`` is the JSON
    Pointer of the value within its document; ``field`` names the model's
    field (``CardSet.uuid``) when there is one. ``raw`` is the diagnostic
    as the JSON report has it (made when asked for: a report holds each
    diagnostic as its attributes, the text of its code, message and the
    like shared with every diagnostic that says the same).
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

    @classmethod
    def _from(cls, entry: Any, strings: Optional[Dict[Any, Any]] = None) -> "Diagnostic":
        if isinstance(entry, Diagnostic):
            return entry
        shared = strings.setdefault if strings is not None else (lambda value, _: value)
        get = entry.get

        def text(name: str) -> Any:
            value = get(name)
            return shared(value, value) if isinstance(value, str) else value

        diagnostic = cls(
            code=text("code"),
            severity=text("severity"),
            pointer=get("pointer", ""),
            field=text("field"),
            line=get("line"),
            column=get("column"),
            offset=get("offset"),
            message=text("message") or "",
            expected=text("expected"),
            found=text("found"),
            suggestion=text("suggestion"),
        )
        # The members' order (one tuple for all diagnostics of the same
        # members), and those that are no attribute.
        keys = tuple(entry)
        object.__setattr__(diagnostic, "_keys", shared(keys, keys))
        extra = {k: v for k, v in entry.items() if k not in _FIELD_SET}
        if extra:
            object.__setattr__(diagnostic, "_extra", extra)
        return diagnostic

    @property
    def raw(self) -> Dict[str, Any]:
        """The diagnostic as the JSON report has it."""
        keys = getattr(self, "_keys", None)
        extra = getattr(self, "_extra", None) or {}
        if keys is None:
            keys = tuple(
                k for k in _DIAGNOSTIC_FIELDS if getattr(self, k) is not None
            )
        return {k: (extra[k] if k in extra else getattr(self, k)) for k in keys}

    def to_dict(self) -> Dict[str, Any]:
        """The diagnostic as the JSON report has it."""
        return json.loads(json.dumps(self.raw))


def _plain(value: Any) -> Any:
    """A copy of a report's value with its diagnostics as the JSON report
    has them."""
    if isinstance(value, Diagnostic):
        return _plain(value.raw)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _loads_report(text: str) -> Any:
    """The JSON report ``text``, each diagnostic made a :class:`Diagnostic`
    as it is read (its dict let go at once), with the text it repeats
    (codes, messages, what was expected and found) held once."""
    strings: Dict[Any, Any] = {}

    def hook(entry: Dict[str, Any]) -> Any:
        if "code" in entry and "severity" in entry and "message" in entry:
            return Diagnostic._from(entry, strings)
        # A document's kind, a file's path: the same text many times.
        for key, value in entry.items():
            if isinstance(value, str) and len(value) <= 256:
                entry[key] = strings.setdefault(value, value)
        return entry

    return json.loads(text, object_hook=hook)


@dataclass(frozen=True)
class DocumentReport:
    """One document of a file: where it is (``pointer``: ``""`` for a whole
    file, ``/data/LEA`` in a catalog; ``line``, its line in JSON Lines or
    an array of documents), its kind
    (``None`` when it could not be told), whether it is valid, and its
    diagnostics; ``raw``, the document as the JSON report has it."""

    pointer: str
    line: Optional[int]
    kind: Optional[str]
    valid: bool
    diagnostics: List[Diagnostic]
    #: The path of the input the document is in (set by iter_documents).
    path: Optional[str] = field(default=None, compare=False)

    @classmethod
    def _from(cls, entry: Dict[str, Any], path: Optional[str] = None) -> "DocumentReport":
        # The report's own list when it holds diagnostics already (as read
        # by `_loads_report`): no second list of them.
        diagnostics = entry.get("diagnostics")
        if diagnostics is None:
            diagnostics = []
        elif not all(isinstance(d, Diagnostic) for d in diagnostics):
            diagnostics = [Diagnostic._from(d) for d in diagnostics]
        document = cls(
            pointer=entry.get("pointer", ""),
            line=entry.get("line"),
            kind=entry.get("kind"),
            valid=bool(entry.get("valid")),
            diagnostics=diagnostics,
            path=path,
        )
        object.__setattr__(document, "_entry", entry)
        return document

    @property
    def raw(self) -> Dict[str, Any]:
        """The document as the JSON report has it."""
        return _plain(getattr(self, "_entry", {}))


@dataclass(frozen=True)
class FileReport:
    """One input: its ``path`` (``<bytes>``, ``<str>``, ``<dict>``,
    ``<list>`` or the file object's name for inputs without one), its
    documents, ``error`` when it could not be read to its end, ``reading``
    (how it was read: ``names``, ``as_of``, how each was decided, and its
    ``note``: ``"read under the publishers' names (told from its members);
    checked as of v5.2.0, the version its meta.version declares
    (5.2.0+20220425)"``) for files of sets and migrations, and ``note``
    when the report names an option that would read it as it declares
    itself (``"names=\"auto\": ..."``); ``raw``, the input as the JSON
    report has it."""

    path: str
    documents: List[DocumentReport]
    valid: bool
    error: Optional[str]
    note: Optional[str] = None
    reading: Optional[Dict[str, Any]] = None

    @classmethod
    def _from(cls, entry: Dict[str, Any]) -> "FileReport":
        report = cls(
            path=entry["path"],
            documents=[DocumentReport._from(d, entry["path"]) for d in entry.get("documents", [])],
            valid=bool(entry.get("valid")),
            error=entry.get("error"),
            note=entry.get("note"),
            reading=entry.get("reading"),
        )
        object.__setattr__(report, "_entry", entry)
        return report

    @property
    def raw(self) -> Dict[str, Any]:
        """The input as the JSON report has it."""
        return _plain(getattr(self, "_entry", {}))


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
        return _plain(self._dict)

    def __repr__(self) -> str:
        s = self.summary
        return (
            f"<cardkit.Report valid={self.valid} files={s.get('files')} "
            f"documents={s.get('documents')} invalid={s.get('invalid')}>"
        )


def _checked_source(source: Any, text: Optional[str], name: Optional[str]) -> Tuple[Any, Optional[str]]:
    """What the native module reads for ``source`` or ``text`` (a ``str``
    there is a document's text, a path is an ``os.PathLike``), and the name
    of a source without a path; refuses, with the reason, what cannot be
    read."""
    if text is not None:
        if source is not None:
            raise TypeError("give a source or text=, not both")
        if not isinstance(text, str):
            raise TypeError(
                f"text is a {type(text).__name__}: expected str (give bytes as the source)"
            )
        return text, name
    if source is None:
        raise TypeError(
            "nothing to read: give a source (a path, bytes, a file object, a dict or a list) or text="
        )
    if isinstance(source, str):
        return _existing_path(source), name
    if isinstance(source, memoryview):
        return source.tobytes(), name
    if isinstance(source, (bytes, bytearray, os.PathLike)):
        return source, name
    if isinstance(source, dict):
        return _serialised(source), name or "<dict>"
    if isinstance(source, (list, tuple)):
        if not source:
            raise ValueError(f"source is an empty {type(source).__name__}: give a path")
        if all(isinstance(item, (str, os.PathLike)) for item in source):
            return [_existing_path(p) if isinstance(p, str) else p for p in source], name
        if isinstance(source, tuple):
            raise TypeError(
                f"source is a tuple holding a {_first_not_path(source)}: a tuple holds paths (str or os.PathLike)"
            )
        return _serialised(source), name or "<list>"
    if isinstance(source, io.TextIOBase):
        raise TypeError(
            "source is a text file object: open it in binary mode ('rb')"
        )
    if hasattr(source, "read") and getattr(source, "closed", False):
        raise ValueError("source is a closed file")
    return source, name


def _existing_path(path: str) -> pathlib.Path:
    """A path given as a ``str``, which must exist (``-`` is no standard
    input here): one that does not is named, with a word for JSON text
    given where a path goes."""
    if os.path.exists(path):
        return pathlib.Path(path)
    if path.lstrip()[:1] in ("{", "["):
        shown = path if len(path) <= 60 else path[:57] + "..."
        raise FileNotFoundError(
            errno.ENOENT,
            "No such file or directory (a str is a path; to validate text, pass text=...)",
            shown,
        )
    raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)


def _first_not_path(items: Any) -> str:
    return next(type(i).__name__ for i in items if not isinstance(i, (str, os.PathLike)))


def _serialised(document: Any) -> str:
    """A parsed document as JSON text, in one line (the report's lines and
    columns are in it)."""
    try:
        return json.dumps(document, ensure_ascii=False)
    except TypeError as error:
        kind = type(document).__name__
        raise TypeError(
            f"source is a {kind} that cannot be JSON ({error}): a list holds paths "
            "(str or os.PathLike) or a parsed document's values"
        ) from None


def validate(
    source: Optional[Source] = None,
    *,
    text: Optional[str] = None,
    kind: str = "auto",
    as_of: Optional[str] = None,
    strict_version: bool = False,
    deny_unknown_fields: bool = False,
    warn_deprecated: bool = False,
    names: str = "auto",
    jobs: Optional[int] = None,
    warning_limit: Optional[int] = None,
    error_limit: Optional[int] = None,
    references: Union[bool, str] = False,
    name: Optional[str] = None,
) -> Report:
    """Validates documents and reports every error with its line and column.

    The checks and options are the command line's (``cardkit validate``),
    from the same definition; the configuration file (``cardkit.toml``) is
    not read.

    Args:
        source: what to validate.

            - ``str`` or ``os.PathLike``: a path, as ``cardkit validate
              PATH`` takes it: a file, read streaming and decoded when
              compressed (gzip, zstd, xz, bzip2; ``.jsonl``/``.ndjson`` are
              JSON Lines); a directory, searched for documents as the
              command line does; a zip archive. A list (or tuple) of paths
              is read in turn, as ``cardkit validate PATH...``.
            - ``bytes`` (or ``bytearray``, ``memoryview``): a document, a
              catalog or JSON Lines, compressed or not.
            - a binary file object: read by its ``read(n)``.
            - ``dict`` or ``list``: a parsed document (or an array of
              documents), serialised as JSON in one line and validated: the
              report's pointers are the value's own, but its lines, columns
              and offsets are in that serialisation, not in any file the
              value came from. A float NaN or infinity is not JSON: it is
              reported where it stands.
        text: a document's text (a catalog, JSON Lines...), instead of
            ``source``.
        kind: ``"auto"`` (each document's kind told from its members),
            ``"template"``, ``"card"``, ``"set"`` or ``"migration"``.
        as_of: ``None`` or ``"auto"`` (the default): each file as of the
            version its ``meta.version`` declares (the latest when it
            declares none); ``"latest"``: as of the latest version; a
            version (``"v5.0.0"``): as consumers of it see the documents,
            newer fields ``newer_field`` warnings and not required.
        strict_version: with ``as_of``, newer fields are errors.
        deny_unknown_fields: members the spec does not define are errors.
        warn_deprecated: deprecated fields present are reported.
        names: ``"auto"`` (the default: each document under the names it
            uses, told from its members), ``"spec"`` (the spec's names) or
            ``"upstream"`` (the publishers' names, such as ``keyruneCode``).
        jobs: threads validating (1 to ``MAX_JOBS``); default one per core.
            The report is the same whatever the number.
        warning_limit: warnings of each kind shown before the rest are only
            counted (``0``: all); default 3, as the command line.
        error_limit: errors of each kind shown (``0`` or ``None``: all).
        references: ``True`` checks the references between the documents
            read (ids, faces, set codes, card names: see the book's
            chapter on references), reported after every input as
            warnings; ``"error"`` makes them errors. ``False`` (the
            default) leaves them unchecked.
        name: the ``path`` the report gives a source that has none
            (default ``<bytes>``, ``<str>`` for ``text``, ``<dict>``,
            ``<list>``, or the file object's ``name``).

    Returns:
        The :class:`Report`; ``report.to_dict()`` equals the command line's
        ``--format json`` report.

    Raises:
        ValueError: a bad ``kind``, ``as_of``, ``names`` or ``jobs``, or
            ``strict_version`` without ``as_of``; a closed file object; an
            empty list; text that cannot be UTF-8 (``UnicodeEncodeError``: a
            lone surrogate).
        TypeError: a source of another type, both ``source`` and ``text``
            or neither, a ``dict`` or ``list`` that cannot be JSON, or a
            text-mode file object.
        OSError: a path that cannot be opened (``FileNotFoundError``,
            ``PermissionError``...); a ``str`` that names nothing raises
            ``FileNotFoundError`` naming it. A file object's own exception
            is raised again as it was.

    A ``str`` is a path, as pandas, pyarrow, polars and DuckDB take it (it
    was read as a document's text before: pass that as ``text=``).

    Example:
        >>> import cardkit
        >>> report = cardkit.validate(text='{"code": "LEA"}', kind="card")
        >>> report.valid
        False
        >>> report.diagnostics[0].code
        'missing_field'
        >>> cardkit.validate({"code": "LEA"}, kind="card").files[0].path
        '<dict>'
    """
    source, name = _checked_source(source, text, name)
    json_text, status = _native.validate_json(
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
        references=references,
        name=name,
    )
    return Report(_loads_report(json_text), status)


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


def explain(
    kind_or_code: str, pointer: Optional[str] = None, *, names: str = "auto"
) -> Dict[str, Any]:
    """A field of a kind, or a diagnostic code, in plain words, as
    ``cardkit explain --format json`` gives it.

    Args:
        kind_or_code: a kind (``"set"``), then ``pointer`` names the field;
            or a diagnostic code (``"missing_field"``) alone.
        pointer: the field's JSON Pointer (``"/cards/0/uuid"``, items by
            index or ``*``; from the document's root or the file's, as
            reports give it) or its ``Model.field`` (``"CardSet.uuid"``).
        names: the names the field is given in, as :func:`validate` reads
            documents: ``"auto"`` (the default) and ``"upstream"`` take the
            publishers' names (``"Set.keyruneCode"``) as the fields they are
            read as; ``"spec"`` only the spec's.

    Raises:
        ValueError: neither a kind nor a code, a kind without a pointer, a
            code with one, or a pointer that names no field.

    Example:
        >>> cardkit.explain("missing_field")["code"]
        'missing_field'
    """
    return json.loads(_native.explain_json(kind_or_code, pointer, names=names))


def dummy(kind: str = "template") -> Dict[str, Any]:
    """A document to start from, as ``cardkit dummy`` prints it: the spec's
    dummy template or card, or the smallest valid set or migration.

    Args:
        kind: ``"template"`` (the default), ``"card"``, ``"set"`` or
            ``"migration"``.

    Raises:
        ValueError: a bad kind.

    Example:
        >>> cardkit.validate(cardkit.dummy("set"), kind="set").valid
        True
    """
    return json.loads(_native.dummy_json(kind))


def iter_documents(
    source: Optional[Source] = None,
    *,
    text: Optional[str] = None,
    kind: str = "auto",
    as_of: Optional[str] = None,
    strict_version: bool = False,
    deny_unknown_fields: bool = False,
    warn_deprecated: bool = False,
    names: str = "auto",
    jobs: Optional[int] = None,
    warning_limit: Optional[int] = None,
    error_limit: Optional[int] = None,
    references: Union[bool, str] = False,
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
        text: as for :func:`validate`.
        kind: as for :func:`validate`.
        as_of: as for :func:`validate`.
        strict_version: as for :func:`validate`.
        deny_unknown_fields: as for :func:`validate`.
        warn_deprecated: as for :func:`validate`.
        names: as for :func:`validate`.
        jobs: as for :func:`validate`.
        warning_limit: as for :func:`validate`.
        error_limit: as for :func:`validate`.
        references: only ``False``: a reference to a later document is
            settled after the last one, so :func:`validate` checks them.
        name: as for :func:`validate`.

    Raises:
        ValueError, TypeError, OSError: as :func:`validate`, when called.
        OSError: while iterating, an input that cannot be read to its end
            (after the documents before the error); a file object's own
            exception is raised again.

    Example:
        >>> lines = '{"name": "a"}\n{"name": "b"}\n'
        >>> [d.line for d in cardkit.iter_documents(text=lines, kind="card")]
        [1, 2]
    """
    source, name = _checked_source(source, text, name)
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
        references=references,
        name=name,
    )
    return (DocumentReport._from(_loads_report(entry), path) for path, entry in stream)


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


@dataclass(frozen=True)
class SkippedDocument:
    """A document :func:`read_tables` left out of its tables: its input's
    ``path``, its ``pointer`` and ``line`` there, its ``kind``, ``reason``
    (why, as ``cardkit export`` says it: ``"it is invalid"``, ``"templates
    are out of the export's scope"``...), ``error`` (its first error, when
    it is invalid) and ``note`` (its input's note, as
    :attr:`FileReport.note`: how it was checked, or an option that would
    read it, such as ``names="upstream"``)."""

    path: str
    pointer: str
    line: Optional[int]
    kind: Optional[str]
    reason: str
    error: Optional[Diagnostic]
    note: Optional[str] = None

    def __str__(self) -> str:
        place = self.path if self.line is None else f"{self.path}:{self.line}"
        if self.pointer:
            place += f" {self.pointer}"
        if self.error is None:
            return f"{place}: {self.reason}"
        error = self.error
        return f"{place}: {error.code} at {error.pointer or '/'}: {error.message}"


class Skipped:
    """What :func:`read_tables` left out of its tables, and why (empty under
    ``on_invalid="fail"``, which reads everything or raises).

    Attributes:
        documents: the documents left out, the first 100, in the order
            read (:class:`SkippedDocument`).
        document_count: how many documents were left out in all;
            ``invalid_count`` of them were invalid (the others cannot be
            exported: out of the export's scope, or with values that cannot
            be stored).
        read_count: how many documents were read in all.
        unreadable: the inputs that could not be read (to their end), the
            first 100: each ``(path, why)``; ``unreadable_count`` counts all.
        notes: each input's note by its path (the first 100), as
            :attr:`FileReport.note`.
    """

    __slots__ = (
        "documents",
        "document_count",
        "invalid_count",
        "read_count",
        "unreadable",
        "unreadable_count",
        "notes",
    )

    def __init__(self, read: Dict[str, Any]) -> None:
        files = read.get("files", [])
        self.notes: Dict[str, str] = {f["path"]: f["note"] for f in files if f.get("note")}
        self.unreadable: List[Tuple[str, str]] = [
            (f["path"], f["error"]) for f in files if f.get("error")
        ]
        self.unreadable_count: int = read.get("unreadable", 0)
        self.document_count: int = read.get("left_out", 0)
        self.invalid_count: int = read.get("invalid", 0)
        self.read_count: int = read.get("documents", 0)
        self.documents: List[SkippedDocument] = [
            SkippedDocument(
                path=d["path"],
                pointer=d.get("pointer", ""),
                line=d.get("line"),
                kind=d.get("kind"),
                reason=d.get("reason", ""),
                error=Diagnostic._from(d["error"]) if d.get("error") else None,
                note=self.notes.get(d["path"]),
            )
            for d in read.get("skipped", [])
        ]

    def __bool__(self) -> bool:
        return bool(self.document_count or self.unreadable_count)

    def summary(self) -> str:
        """What was left out, and the first reason, in one line."""
        left = (
            f"left out {self.document_count} of {_counted(self.read_count, 'document')} "
            f"({self.invalid_count} invalid)"
        )
        if self.unreadable_count:
            left += f" and {_counted(self.unreadable_count, 'input')} that could not be read"
        if self.documents:
            first = self.documents[0]
            left += f"; the first: {first}"
            if first.note:
                left += f" (note: {first.note})"
        elif self.unreadable:
            path, why = self.unreadable[0]
            left += f"; the first: {path}: {why}"
        return left

    def __repr__(self) -> str:
        return (
            f"<cardkit.Skipped documents={self.document_count} invalid={self.invalid_count} "
            f"unreadable={self.unreadable_count}>"
        )


def _counted(count: int, what: str) -> str:
    return f"{count} {what}" if count == 1 else f"{count} {what}s"


class SkippedWarning(UserWarning):
    """Warned once by :func:`read_tables` when it left documents or inputs
    out of its tables (``on_invalid="skip"`` or ``"keep"``): the counts and
    the first reason; the returned tables' ``skipped`` has the rest."""


class Tables(Dict[str, "pyarrow.Table"]):
    """What :func:`read_tables` returns: a ``dict`` from each table's name to
    its ``pyarrow.Table``, with ``skipped``, the :class:`Skipped` report of
    what was left out of them and why."""

    skipped: Skipped

    def __init__(self, tables: Any = (), skipped: Optional[Skipped] = None) -> None:
        super().__init__(tables)
        self.skipped = skipped if skipped is not None else Skipped({})

    def extra_as_text(self) -> "Tables":
        """The same tables with their ``extra`` column as plain text: its
        JSON in Arrow's ``string``, the storage of the ``arrow.json``
        extension type it has, for readers that do not take extension types
        (``polars.from_arrow``, Spark). No value is copied.

        Example:
            >>> tables = cardkit.read_tables(cardkit.dummy("set")).extra_as_text()
            >>> str(tables["sets"].schema.field("extra").type)
            'string'
        """
        import pyarrow

        plain = {}
        for name, table in self.items():
            columns = [
                pyarrow.chunked_array(
                    [chunk.storage for chunk in column.chunks], type=column.type.storage_type
                )
                if isinstance(column.type, pyarrow.BaseExtensionType)
                else column
                for column in table.columns
            ]
            plain[name] = pyarrow.table(columns, names=table.column_names)
        return Tables(plain, self.skipped)


def read_tables(
    source: Optional[Source] = None,
    *,
    text: Optional[str] = None,
    on_invalid: str = "fail",
    kind: str = "auto",
    as_of: Optional[str] = None,
    strict_version: bool = False,
    deny_unknown_fields: bool = False,
    warn_deprecated: bool = False,
    names: str = "auto",
    keep_unknown: bool = False,
    jobs: Optional[int] = None,
    warning_limit: Optional[int] = None,
    error_limit: Optional[int] = None,
    references: Union[bool, str] = False,
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
        source: as for :func:`validate` (a path or a list of paths, read in
            turn as ``cardkit export PATH...`` reads them; ``bytes``, a
            binary file object, a parsed ``dict`` or ``list``).
        text: as for :func:`validate`.
        on_invalid: what is done with a document that is invalid or cannot
            be exported, as ``cardkit export --on-invalid``: ``"fail"`` (the
            default) reads nothing and raises
            :class:`InvalidDocumentsError`; ``"skip"`` leaves it out;
            ``"keep"`` reads it too, its invalid or missing values NULL. An
            input that cannot be read raises under ``"fail"``, and is left
            out under the others. What is left out is in the result's
            ``skipped``, and warned once (:class:`SkippedWarning`).
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
        references: as for :func:`validate`: the references between the
            documents read are checked too, as ``cardkit export
            --references`` checks them, and each finding is a row of the
            ``reference_findings`` table (empty without). Findings are
            warnings; ``"error"`` makes their documents invalid, which
            under ``on_invalid="fail"`` reads nothing.
        name: as for :func:`validate`: the name of a source without a
            path, in the ``meta`` table's ``input`` column and the report.

    Returns:
        :class:`Tables`: a dict from each table's name (``"sets"``,
        ``"cards"``, ``"meta"``...) to its ``pyarrow.Table``, every table of
        the layout, in its order (tables the documents make no rows of are
        empty); its ``skipped`` (:class:`Skipped`) says which documents and
        inputs were left out and why.

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
        >>> tables = cardkit.read_tables(cardkit.dummy("set"), name="set.json")
        >>> tables["sets"].num_rows, tables["meta"].column("input").to_pylist()
        (1, ['set.json'])
        >>> tables = cardkit.read_tables("sets/", on_invalid="skip")  # doctest: +SKIP
        >>> tables.skipped.document_count, tables.skipped.documents[0].error  # doctest: +SKIP
        >>> tables["cards"].to_pandas().groupby("set_code").size()  # doctest: +SKIP
    """
    import pyarrow  # noqa: F401  (the tables are made by pyarrow: it is needed)

    source, name = _checked_source(source, text, name)
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
        references=references,
        name=name,
    )
    if read.outcome == "ok":
        skipped = Skipped(json.loads(read.skipped))
        if skipped:
            warnings.warn(f"read_tables {skipped.summary()}", SkippedWarning, stacklevel=2)
        return Tables(read.tables, skipped)
    if read.outcome in ("invalid", "unreadable"):
        report = Report(_loads_report(read.report), read.status)
        raise InvalidDocumentsError(read.message, report, list(read.notes), read.note_count)
    raise ValueError(read.message)
