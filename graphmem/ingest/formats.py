"""Conversation input formats: LoCoMo, LongMemEval and a simple JSONL format.

JSONL format
------------
One message per line, UTF-8, each line a JSON object::

    {"conversation": "trip-planning", "session": 1, "speaker": "Ana",
     "text": "We land in Lisbon on Friday.", "timestamp": "2024-03-14T09:30:00"}

Fields:

- ``conversation`` (string, required): conversation id; conversations are ordered by
  first appearance.
- ``session`` (string or integer, required): session name within the conversation;
  sessions are ordered by first appearance, not by name or time.
- ``speaker`` (string, required): who said it; speakers are listed in order of first
  appearance.
- ``text`` (string, required): the message, not empty, at most 20,000 characters.
- ``timestamp`` (string, optional): ISO-8601 (``2024-03-14``, ``2024-03-14T09:30:00``,
  ``2024-03-14 09:30+01:00``); a UTC offset is dropped and the local wall-clock time kept.
  A session starts at its earliest timestamp; messages without one get that start time.
- ``id`` (string, optional): message id, unique within the conversation; defaults to
  ``"<session>:<n>"`` with ``n`` the 0-based position of the message in its session.
- ``caption`` (string, optional): description of an image shared with the message.

Blank lines are ignored. A JSON array of the same objects is accepted too.
Any problem stops the load with an InputError naming the file, line and field.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from graphmem.errors import InputError
from graphmem.ingest.jsonl import load_jsonl
from graphmem.ingest.locomo import load_locomo, normalize_evidence
from graphmem.ingest.longmemeval import load_longmemeval
from graphmem.ingest.models import Dataset
from graphmem.ingest.validate import MAX_TEXT_CHARS, Rec, parse_json, parse_timestamp

FormatName = Literal["locomo", "longmemeval", "jsonl"]

_FORMAT_HINT = "pass the format explicitly: locomo, longmemeval or jsonl"

__all__ = [
    "MAX_TEXT_CHARS",
    "FormatName",
    "detect_format",
    "load",
    "normalize_evidence",
    "parse_timestamp",
]


def detect_format(path: Path) -> FormatName:
    """Tell the format of a file from its extension and first record."""
    return _sniff(path, _read(path))[0]


def load(path: Path, fmt: Literal["auto", "locomo", "longmemeval", "jsonl"] = "auto") -> Dataset:
    """Load and validate a whole file; raises InputError before returning anything."""
    text = _read(path)
    root = Rec(str(path), "root")
    src = str(path)
    data: Any = None
    if fmt == "auto":
        fmt, data = _sniff(path, text)
    elif fmt != "jsonl" or text.lstrip().startswith("["):
        data = parse_json(text, src)
    if fmt == "locomo":
        return load_locomo(root.items(data, "LoCoMo samples"), src)
    if fmt == "longmemeval":
        return load_longmemeval(root.items(data, "LongMemEval items"), src)
    if data is not None:
        records = [(f"message {i}", m) for i, m in enumerate(root.items(data, "messages"))]
    else:
        records = _jsonl_lines(text, src)
    return load_jsonl(records, src)


def _read(path: Path) -> str:
    try:
        # utf-8-sig: files saved by Windows editors start with a BOM json.loads rejects.
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError("file not found", path=str(path)) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte offset {exc.start})", path=str(path)) from None
    except OSError as exc:
        raise InputError(f"cannot read file: {exc.strerror or exc}", path=str(path)) from None


def _first_line(text: str) -> Any:
    try:
        return json.loads(text.split("\n", 1)[0])
    except (ValueError, RecursionError):  # judged by the full parse, which names the error
        return None


def _sniff(path: Path, text: str) -> tuple[FormatName, Any]:
    """Return the format and, for JSON documents, the already parsed data."""
    if path.suffix.lower() in (".jsonl", ".ndjson"):
        return "jsonl", None
    stripped = text.lstrip()
    if stripped.startswith("{"):
        first = _first_line(stripped)
        if isinstance(first, dict) and "conversation" in first and "text" in first:
            return "jsonl", None
    elif stripped.startswith("["):
        data = parse_json(text, str(path))
        head = data[0] if isinstance(data, list) and data else None
        if isinstance(head, dict):
            if "haystack_sessions" in head:
                return "longmemeval", data
            if isinstance(head.get("conversation"), dict):
                return "locomo", data
            if "conversation" in head and "text" in head:
                return "jsonl", data
    raise InputError(
        "unknown input format: expected a LoCoMo or LongMemEval JSON list or JSONL messages",
        path=str(path),
        hint=_FORMAT_HINT,
    )


def _jsonl_lines(text: str, src: str) -> list[tuple[str, Any]]:
    records: list[tuple[str, Any]] = []
    # Only "\n" ends a record: str.splitlines would also split at U+2028 and other Unicode
    # line breaks, which JSON allows unescaped inside strings.
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            records.append((f"line {number}", parse_json(line, src, f"line {number}")))
    return records
