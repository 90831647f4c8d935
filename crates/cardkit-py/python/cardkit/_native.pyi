"""Type stubs of the native module, which cardkit's functions wrap."""

from typing import Any, List, Optional, Tuple, final

@final
class DocumentStream:
    def __iter__(self) -> DocumentStream: ...
    def __next__(self) -> Tuple[str, str]: ...

@final
class TablesRead:
    @property
    def outcome(self) -> str: ...
    @property
    def tables(self) -> List[Tuple[str, Any]]: ...
    @property
    def report(self) -> str: ...
    @property
    def status(self) -> int: ...
    @property
    def notes(self) -> List[str]: ...
    @property
    def note_count(self) -> int: ...
    @property
    def skipped(self) -> str: ...
    @property
    def message(self) -> str: ...

__all__ = ["MAX_JOBS", "VALIDATION_KEYWORDS", "validate_json", "schema_json", "fields_json", "explain_json", "dummy_json", "iter_documents_json", "DocumentStream", "read_tables", "TablesRead", "__version__"]

MAX_JOBS: int
VALIDATION_KEYWORDS: List[str]
__version__: str

def validate_json(
    source: Any,
    *,
    name: Optional[str] = None,
    **keywords: Any,
) -> Tuple[str, int]: ...
def schema_json(
    kind: str,
    *,
    names: str = "spec",
    container: Optional[str] = None,
    as_of: Optional[str] = None,
    annotations: bool = False,
) -> str: ...
def fields_json(
    kind: str, *, since: Optional[str] = None, deprecated: bool = False, names: str = "spec"
) -> str: ...
def explain_json(
    kind_or_code: str, pointer: Optional[str] = None, *, names: str = "auto"
) -> str: ...
def dummy_json(kind: str = "template") -> str: ...
def iter_documents_json(
    source: Any,
    *,
    name: Optional[str] = None,
    **keywords: Any,
) -> DocumentStream: ...
def read_tables(
    source: Any,
    *,
    on_invalid: str = "fail",
    keep_unknown: bool = False,
    name: Optional[str] = None,
    **keywords: Any,
) -> TablesRead: ...
