"""Issues 15 and 36: property-based fuzz of the three input formats. Whatever the file
holds, load either returns a dataset whose every string Neo4j can store (no NUL, no control
character in an id or a name, a visible character in every text, turn ids unique in their
conversation), or raises InputError: never another exception (a traceback). Raw bytes
under small read limits too. CI runs 60 cases per format; ``-m long`` runs 400."""

from __future__ import annotations

import json
import tempfile
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.errors import InputError
from graphmem.ingest.formats import ReadLimits, load
from graphmem.ingest.models import Dataset
from graphmem.ingest.validate import MAX_ID_CHARS, MAX_TURN_CHARS, encodable
from tests.fuzz_strategies import LOCOMO, LONGMEMEVAL, MESSAGES

SHORT, LONG = 60, 400


def _settings(examples: int) -> settings:
    # database=None: no .hypothesis folder in the checkout; failures print their input.
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
    )


def _write(folder: Path, data: Any, suffix: str, as_lines: bool, ascii_only: bool) -> Path:
    path = folder / f"input{suffix}"
    if as_lines and isinstance(data, list):
        text = "\n".join(json.dumps(item, ensure_ascii=ascii_only) for item in data)
    else:
        text = json.dumps(data, ensure_ascii=ascii_only)
    # A lone surrogate only survives as a JSON escape; raw, it is not UTF-8 at all.
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return path


def _check(
    data: Any, fmt: str, suffix: str, as_lines: bool, ascii_only: bool, strict: bool = False
) -> None:
    # One folder per example, removed after it: hypothesis runs thousands of examples.
    with tempfile.TemporaryDirectory(prefix="graphmem-fuzz-") as folder:
        path = _write(Path(folder), data, suffix, as_lines, ascii_only)
        try:
            dataset = load(path, fmt, ReadLimits(strict=strict))  # type: ignore[arg-type]
        except InputError:
            return
    _assert_storable(dataset)


def _label(value: str) -> bool:
    """An id or a name as validation lets it through."""
    controls = {"Cc", "Zl", "Zp"}
    plain = not any(unicodedata.category(char) in controls for char in value)
    return plain and encodable(value) and 0 < len(value) <= MAX_ID_CHARS


def _assert_storable(dataset: Dataset) -> None:
    for conv in dataset.conversations:
        assert _label(conv.conversation_id) and all(_label(s) for s in conv.speakers)
        turn_ids: set[str] = set()
        # a repeated session is skipped or refused: each is stored once
        assert len({s.source_id for s in conv.sessions}) == len(conv.sessions)
        assert [s.index for s in conv.sessions] == list(range(len(conv.sessions)))
        for session in conv.sessions:
            assert _label(session.source_id)
            for turn in session.turns:
                assert turn.text.strip() and len(turn.text) <= MAX_TURN_CHARS
                assert any(c.isprintable() and not c.isspace() for c in turn.text)
                assert encodable(turn.text) and "\x00" not in turn.text
                assert "\x00" not in (turn.caption or "")
                assert _label(turn.speaker) and _label(turn.source_id)
                assert turn.source_id not in turn_ids
                turn_ids.add(turn.source_id)


def _fuzz(
    examples: int, strategy: st.SearchStrategy[Any], fmt: str, suffix: str
) -> Callable[[], None]:
    @_settings(examples)
    @given(
        data=strategy,
        as_lines=st.booleans(),
        ascii_only=st.booleans(),
        auto=st.booleans(),
        strict=st.booleans(),
    )
    def run(data: Any, as_lines: bool, ascii_only: bool, auto: bool, strict: bool) -> None:
        _check(data, "auto" if auto else fmt, suffix, as_lines, ascii_only, strict)

    return run


def test_fuzz_jsonl() -> None:
    _fuzz(SHORT, MESSAGES, "jsonl", ".jsonl")()


def test_fuzz_locomo() -> None:
    _fuzz(SHORT, LOCOMO, "locomo", ".json")()


def test_fuzz_longmemeval() -> None:
    _fuzz(SHORT, LONGMEMEVAL, "longmemeval", ".json")()


@pytest.mark.long
@pytest.mark.parametrize(
    ("strategy", "fmt", "suffix"),
    [
        (MESSAGES, "jsonl", ".jsonl"),
        (LOCOMO, "locomo", ".json"),
        (LONGMEMEVAL, "longmemeval", ".json"),
    ],
)
def test_fuzz_formats_long(strategy: st.SearchStrategy[Any], fmt: str, suffix: str) -> None:
    _fuzz(LONG, strategy, fmt, suffix)()


# Bytes a reader meets in the wild: JSON punctuation, blanks, a BOM, NUL, invalid UTF-8.
_PIECES = st.sampled_from(
    [
        *(b"{", b"}", b"[", b"]", b'"', b",", b":", b"\n", b"\r\n", b" ", b"\xef\xbb\xbf"),
        *(b"\x00", b"\xff", b"\xc3", b'"conversation"', b'"text"', b'"session"', b"1"),
    ]
)
# Well-formed messages whose strings are drawn from every code point: ids and names with
# controls, texts of controls alone, ids repeated across sessions.
_CHARS = st.characters(codec="utf-8")
_WELL_FORMED = st.lists(
    st.fixed_dictionaries(
        {
            "conversation": st.sampled_from(["c1", "c2"]),
            "session": st.sampled_from([1, 2, "s\x00", "s\x1b"]),
            "speaker": st.text(_CHARS, min_size=1, max_size=4),
            "text": st.text(_CHARS, min_size=1, max_size=12),
            "id": st.sampled_from(["m1", "m2", "m3", "m\x00", "m\u2028"]),
        }
    ),
    min_size=1,
    max_size=6,
)
RAW = st.one_of(
    st.binary(max_size=400),
    st.lists(st.one_of(_PIECES, st.binary(max_size=8)), max_size=60).map(b"".join),
    MESSAGES.map(lambda ms: "\n".join(json.dumps(m) for m in ms).encode("utf-8", "surrogatepass")),
)


def _fuzz_raw(examples: int) -> Callable[[], None]:
    @_settings(examples)
    @given(
        raw=RAW,
        fmt=st.sampled_from(["auto", "jsonl", "locomo", "longmemeval"]),
        suffix=st.sampled_from([".jsonl", ".json", ""]),
        file_limit=st.integers(min_value=1, max_value=600),
        record_limit=st.integers(min_value=1, max_value=300),
    )
    def run(raw: bytes, fmt: str, suffix: str, file_limit: int, record_limit: int) -> None:
        limits = ReadLimits(max_file_bytes=file_limit, max_record_bytes=record_limit)
        with tempfile.TemporaryDirectory(prefix="graphmem-fuzz-") as folder:
            path = Path(folder) / f"input{suffix}"
            path.write_bytes(raw)
            try:
                dataset = load(path, fmt, limits)  # type: ignore[arg-type]
            except InputError:
                return
        assert len(raw) <= file_limit
        _assert_storable(dataset)

    return run


def test_fuzz_raw_bytes() -> None:
    _fuzz_raw(SHORT)()


@pytest.mark.long
def test_fuzz_raw_bytes_long() -> None:
    _fuzz_raw(LONG)()


def test_fuzz_well_formed_messages() -> None:
    _fuzz(SHORT, _WELL_FORMED, "jsonl", ".jsonl")()


@pytest.mark.long
def test_fuzz_well_formed_messages_long() -> None:
    _fuzz(LONG, _WELL_FORMED, "jsonl", ".jsonl")()
