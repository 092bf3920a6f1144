"""Conversation input formats: LoCoMo, LongMemEval, a simple JSONL format, and the chat
apps' exports (``graphmem.ingest.exports``, docs/import.md).

JSONL format
------------
One message per line, UTF-8, each line a JSON object::

    {"conversation": "trip-planning", "session": 1, "speaker": "Ana",
     "text": "We land in Lisbon on Friday.", "timestamp": "2024-03-14T09:30:00"}

Fields:

- ``conversation`` (string, required): conversation id; conversations are ordered by
  first appearance. Ids and speaker names hold no control character, and no field a NUL.
- ``session`` (string or integer, required): session name within the conversation;
  sessions are ordered by first appearance, not by name or time.
- ``speaker`` (string, required): who said it; speakers are listed in order of first
  appearance.
- ``text`` (string, required): the message, at most 1,000,000 characters (``MAX_TURN_CHARS``:
  a pasted document is one turn, stored whole). A message with no visible character is
  skipped and counted (``Dataset.skipped``), or refused by a strict load.
- ``timestamp`` (string or number, optional): ISO-8601 (``2024-03-14``,
  ``2024-03-14T09:30:00``, ``2024-03-14 09:30+01:00``), where a UTC offset is dropped and
  the local wall-clock time kept; or epoch seconds or milliseconds (``1710408600``,
  ``"1710408600000"``: an instant, shown in ``--timezone``, this machine's zone by default).
  A session starts at its earliest timestamp; messages without one get that start time.
- ``id`` (string, optional): message id, unique within the conversation; defaults to
  ``"<session>:<n>"`` with ``n`` the 0-based position of the message in its session
  (skipped messages counted). An id repeated with the same speaker, text and caption is a
  copy: skipped and counted (refused by a strict load); with other content it is refused.
- ``caption`` (string, optional): description of an image shared with the message.

Blank lines are ignored. A JSON array of the same objects is accepted too.
Any other problem stops the load with an InputError naming the file, line and field.

Strictness: ``ReadLimits.strict`` (``graphmem ingest --strict``) refuses the empty turns
and repeated sessions or turn ids that a load otherwise skips, in every format, with the
errors named above; an over-long text is refused in both modes.

Files are read within bounds (``source.py``): JSONL line by line, a JSON document whole
after its size is checked.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal, get_args

from graphmem.errors import InputError
from graphmem.ingest.exports import BY_NAME, IMPORTERS, ImportOptions
from graphmem.ingest.exports.assemble import to_dataset
from graphmem.ingest.exports.base import Context, Importer
from graphmem.ingest.exports.bundle import Bundle, FolderBundle, StreamBundle, ZipBundle
from graphmem.ingest.exports.stamps import Clock, read_epochs, zone_named
from graphmem.ingest.jsonl import load_jsonl
from graphmem.ingest.locomo import load_locomo, normalize_evidence
from graphmem.ingest.longmemeval import load_longmemeval
from graphmem.ingest.models import Dataset
from graphmem.ingest.source import OnRead, ReadLimits, Source, open_source, open_stdin
from graphmem.ingest.validate import (
    MAX_TEXT_CHARS,
    MAX_TURN_CHARS,
    Rec,
    parse_json,
    parse_timestamp,
)

FormatName = Literal[
    "locomo",
    "longmemeval",
    "jsonl",
    "chatgpt",
    "claude",
    "telegram",
    "discord",
    "slack",
    "whatsapp",
    "csv",
]
Format = Literal["auto"] | FormatName
# Every --format value, for the CLI's choices and the error that lists them.
FORMATS: tuple[str, ...] = ("auto", *get_args(FormatName))
_DOCUMENTS = ("locomo", "longmemeval", "jsonl")
_FORMAT_HINT = "pass --format: " + ", ".join(FORMATS[1:]) + " (docs/import.md)"
# The characters a JSON document can start with (after blanks).
_JSON_STARTS = frozenset('[{"-0123456789tfn')

__all__ = [
    "MAX_TEXT_CHARS",
    "MAX_TURN_CHARS",
    "FormatName",
    "ReadLimits",
    "detect_format",
    "load",
    "normalize_evidence",
    "parse_timestamp",
    "read",
]


def detect_format(path: Path, limits: ReadLimits | None = None) -> FormatName:
    """Tell the format of a file, zip or folder from its names and first bytes."""
    bounds = limits or ReadLimits()
    if path.is_dir() or _is_zip(path):
        return _importer(_bundle(path, bounds)).name  # type: ignore[return-value]
    with open_source(path, bounds) as source:
        found = _claimed(StreamBundle(source, path.name))
        return found.name if found else _sniff(source, path.suffix)[0]  # type: ignore[return-value]


def load(
    path: Path,
    fmt: Format = "auto",
    limits: ReadLimits | None = None,
    options: ImportOptions | None = None,
    on_read: OnRead | None = None,
) -> Dataset:
    """Load and validate a whole file, zip or folder (``-``: standard input); raises
    InputError before returning anything. ``limits`` bounds the read (``ReadLimits.of(
    settings)``; the settings' defaults when None) and says whether it is strict
    (``Dataset.skipped``); ``options``: how a chat app's export is read (docs/import.md);
    ``on_read`` is told the bytes of each piece read (a progress bar)."""
    bounds = limits or ReadLimits()
    stdin = str(path) == "-"
    how = options or ImportOptions()
    if fmt == "auto" and how.columns:
        fmt = "csv"  # columns named: a table, whatever its header would tell
    if not stdin and fmt not in _DOCUMENTS and (path.is_dir() or _is_zip(path)):
        return _from_bundle(_bundle(path, bounds, on_read), fmt, how, bounds.strict)
    opened = open_stdin(bounds, on_read) if stdin else open_source(path, bounds, on_read)
    with opened as source:
        try:
            if fmt in BY_NAME:
                bundle = StreamBundle(source, "-" if stdin else path.name)
                return _import(BY_NAME[fmt], bundle, how, bounds.strict)
            return read(source, fmt, "" if stdin else path.name, bounds.strict, how)
        except MemoryError:  # the file's text or its parse; nothing else is that large
            raise InputError(
                "does not fit in the memory available (a JSON document is parsed whole)",
                path=str(path),
                hint="split the file, or lower GRAPHMEM_MAX_FILE_BYTES to refuse such files "
                "before reading them",
            ) from None


def _is_zip(path: Path) -> bool:
    """Whether a regular file starts as a zip does (a pipe is never asked: what a peek
    took from it would be gone for the read)."""
    if not path.is_file():
        return False
    try:
        with path.open("rb") as handle:
            return handle.read(4) == b"PK\x03\x04"
    except OSError:
        return False  # open_source says why it cannot be read


def _bundle(path: Path, limits: ReadLimits, on_read: OnRead | None = None) -> Bundle:
    if path.is_dir():
        return FolderBundle(path, limits, on_read)
    return ZipBundle(path, limits, on_read)


def _from_bundle(bundle: Bundle, fmt: Format, how: ImportOptions, strict: bool) -> Dataset:
    try:
        importer = BY_NAME[fmt] if fmt in BY_NAME else _importer(bundle)
        return _import(importer, bundle, how, strict)
    finally:
        if isinstance(bundle, ZipBundle):
            bundle.close()


def _claimed(bundle: Bundle) -> Importer | None:
    return next((i for i in IMPORTERS if i.claims(bundle)), None)


def _importer(bundle: Bundle) -> Importer:
    found = _claimed(bundle)
    if found is None:
        kind = "folder" if isinstance(bundle, FolderBundle) else "zip"
        raise InputError(
            f"no export format recognised in this {kind}: expected "
            + ", ".join(i.label for i in IMPORTERS),
            path=bundle.name,
            hint=_FORMAT_HINT,
        )
    return found


def _import(importer: Importer, bundle: Bundle, how: ImportOptions, strict: bool) -> Dataset:
    ctx = Context(bundle.name, how)
    return to_dataset(importer.read(bundle, ctx), ctx, importer.name, strict)


def read(
    source: Source,
    fmt: Format = "auto",
    filename: str = "",
    strict: bool = False,
    options: ImportOptions | None = None,
) -> Dataset:
    """Load and validate what ``source`` holds (``filename``: the file's name, whose suffix
    tells JSONL apart without reading and which names an export's chat; ``strict``: refuse
    what a load otherwise skips)."""
    src = source.name
    root = Rec(src, "root")
    data: Any = None
    suffix = Path(filename).suffix
    if fmt == "auto" and suffix.lower() not in (".jsonl", ".ndjson"):
        bundle = StreamBundle(source, filename or "-")
        # A .csv or .tsv is a table whatever its header: its importer says what is wrong.
        tables = suffix.lower() in (".csv", ".tsv")
        found = BY_NAME["csv"] if tables else _claimed(bundle)
        if found is not None:
            return _import(found, bundle, options or ImportOptions(), strict)
    if fmt == "auto":
        fmt, data = _sniff(source, suffix)
    elif fmt != "jsonl" or source.first_char() == "[":
        data = _document(source)
    if fmt == "locomo":
        return load_locomo(root.items(data, "LoCoMo samples"), src, strict)
    if fmt == "longmemeval":
        return load_longmemeval(root.items(data, "LongMemEval items"), src, strict)
    if data is not None:
        messages = ((f"message {i}", m) for i, m in enumerate(root.items(data, "messages")))
        return load_jsonl(_epochs(messages, src, options), src, strict)
    return load_jsonl(_epochs(_jsonl_records(source), src, options), src, strict)


def _document(source: Source) -> Any:
    """The whole document parsed; one that cannot be JSON from its first character (a
    stream of zeros) fails there, without reading the rest."""
    first = source.first_char()
    if first and first not in _JSON_STARTS:
        parse_json(source.head(), source.name)  # raises, naming line and column
    return parse_json(source.document(), source.name)


def _first_record(source: Source) -> Any:
    try:
        return json.loads(source.first_line())
    except (ValueError, RecursionError):  # judged by the full parse, which names the error
        return None


def _sniff(source: Source, suffix: str) -> tuple[FormatName, Any]:
    """Return the format and, for JSON documents, the already parsed data."""
    if suffix.lower() in (".jsonl", ".ndjson"):
        return "jsonl", None
    first = source.first_char()
    if not first:
        raise InputError("the file is empty", path=source.name)
    if first == "{":
        head = _first_record(source)
        if isinstance(head, dict) and "conversation" in head and "text" in head:
            return "jsonl", None
    elif first == "[":
        data = _document(source)
        head = data[0] if isinstance(data, list) and data else None
        if isinstance(head, dict):
            if "haystack_sessions" in head:
                return "longmemeval", data
            if isinstance(head.get("conversation"), dict):
                return "locomo", data
            if "conversation" in head and "text" in head:
                return "jsonl", data
    raise InputError(
        "unknown input format: expected a LoCoMo or LongMemEval JSON list, JSONL messages, "
        "or an export: " + ", ".join(i.label for i in IMPORTERS),
        path=source.name,
        hint=_FORMAT_HINT,
    )


def _epochs(
    records: Iterable[tuple[str, Any]], src: str, options: ImportOptions | None
) -> Iterator[tuple[str, Any]]:
    """Messages with their epoch timestamps read in ``--timezone`` (``read_epochs``)."""
    zone = zone_named((options or ImportOptions()).timezone)
    return read_epochs(records, src, Clock(zone))


def _jsonl_records(source: Source) -> Iterator[tuple[str, Any]]:
    for number, line in source.lines():
        if line.strip():
            yield f"line {number}", parse_json(line, source.name, f"line {number}")
