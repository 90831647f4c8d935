"""Type stubs of the cardkit package: what `cardkit.validate` and the
reference functions take and give."""

import os
from dataclasses import dataclass
from typing import Any, BinaryIO, Dict, Iterator, List, Optional, Tuple, Union

import pyarrow  # type: ignore[import-untyped]

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

Source = Union[
    str,
    os.PathLike[str],
    bytes,
    bytearray,
    memoryview,
    BinaryIO,
    Dict[str, Any],
    List[Any],
    Tuple[Union[str, os.PathLike[str]], ...],
]

__version__: str
MAX_JOBS: int

def __dir__() -> List[str]: ...

@dataclass(frozen=True)
class Diagnostic:
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
    @property
    def raw(self) -> Dict[str, Any]: ...
    def to_dict(self) -> Dict[str, Any]: ...

@dataclass(frozen=True)
class DocumentReport:
    pointer: str
    line: Optional[int]
    kind: Optional[str]
    valid: bool
    diagnostics: List[Diagnostic]
    path: Optional[str] = None
    @property
    def raw(self) -> Dict[str, Any]: ...

@dataclass(frozen=True)
class FileReport:
    path: str
    documents: List[DocumentReport]
    valid: bool
    error: Optional[str]
    note: Optional[str] = None
    reading: Optional[Dict[str, Any]] = None
    @property
    def raw(self) -> Dict[str, Any]: ...

class Report:
    status: int
    files: List[FileReport]
    def __init__(self, report: Dict[str, Any], status: int) -> None: ...
    @property
    def valid(self) -> bool: ...
    @property
    def summary(self) -> Dict[str, Any]: ...
    @property
    def documents(self) -> List[DocumentReport]: ...
    @property
    def diagnostics(self) -> List[Diagnostic]: ...
    def to_dict(self) -> Dict[str, Any]: ...

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
) -> Report: ...
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
) -> Iterator[DocumentReport]: ...
def schema(
    kind: str,
    *,
    names: str = "spec",
    container: Optional[str] = None,
    as_of: Optional[str] = None,
    annotations: bool = False,
) -> Dict[str, Any]: ...
def fields(
    kind: str,
    since: Optional[str] = None,
    deprecated: bool = False,
    *,
    names: str = "spec",
) -> List[Dict[str, Any]]: ...
def explain(
    kind_or_code: str, pointer: Optional[str] = None, *, names: str = "auto"
) -> Dict[str, Any]: ...
def dummy(kind: str = "template") -> Dict[str, Any]: ...

class InvalidDocumentsError(ValueError):
    report: Report
    notes: List[str]
    note_count: int
    def __init__(self, message: str, report: Report, notes: List[str], note_count: int) -> None: ...

@dataclass(frozen=True)
class SkippedDocument:
    path: str
    pointer: str
    line: Optional[int]
    kind: Optional[str]
    reason: str
    error: Optional[Diagnostic]
    note: Optional[str] = None

class Skipped:
    documents: List[SkippedDocument]
    document_count: int
    invalid_count: int
    read_count: int
    unreadable: List[Tuple[str, str]]
    unreadable_count: int
    notes: Dict[str, str]
    def __init__(self, read: Dict[str, Any]) -> None: ...
    def __bool__(self) -> bool: ...
    def summary(self) -> str: ...

class SkippedWarning(UserWarning): ...

class Tables(Dict[str, pyarrow.Table]):
    skipped: Skipped
    def __init__(self, tables: Any = (), skipped: Optional[Skipped] = None) -> None: ...
    def extra_as_text(self) -> Tables: ...

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
) -> Tables: ...
