"""Issue 15: property-based fuzz of the three input formats. Whatever the file holds, load
either returns a dataset whose every string Neo4j can store, or raises InputError: never
another exception (a traceback). CI runs 60 cases per format; ``-m long`` runs 400."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.errors import InputError
from graphmem.ingest.formats import load
from graphmem.ingest.models import Dataset
from graphmem.ingest.validate import MAX_ID_CHARS, MAX_TEXT_CHARS, encodable
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


def _write(data: Any, suffix: str, as_lines: bool, ascii_only: bool) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="graphmem-fuzz-"))
    path = folder / f"input{suffix}"
    if as_lines and isinstance(data, list):
        text = "\n".join(json.dumps(item, ensure_ascii=ascii_only) for item in data)
    else:
        text = json.dumps(data, ensure_ascii=ascii_only)
    # A lone surrogate only survives as a JSON escape; raw, it is not UTF-8 at all.
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return path


def _check(data: Any, fmt: str, suffix: str, as_lines: bool, ascii_only: bool) -> None:
    path = _write(data, suffix, as_lines, ascii_only)
    try:
        dataset = load(path, fmt)  # type: ignore[arg-type]
    except InputError:
        return
    _assert_storable(dataset)


def _assert_storable(dataset: Dataset) -> None:
    for conv in dataset.conversations:
        assert encodable(conv.conversation_id) and len(conv.conversation_id) <= MAX_ID_CHARS
        for session in conv.sessions:
            assert encodable(session.source_id) and len(session.source_id) <= MAX_ID_CHARS
            for turn in session.turns:
                assert turn.text.strip() and len(turn.text) <= MAX_TEXT_CHARS
                assert encodable(turn.text) and encodable(turn.speaker)
                assert len(turn.speaker) <= MAX_ID_CHARS and len(turn.source_id) <= MAX_ID_CHARS


def _fuzz(
    examples: int, strategy: st.SearchStrategy[Any], fmt: str, suffix: str
) -> Callable[[], None]:
    @_settings(examples)
    @given(data=strategy, as_lines=st.booleans(), ascii_only=st.booleans(), auto=st.booleans())
    def run(data: Any, as_lines: bool, ascii_only: bool, auto: bool) -> None:
        _check(data, "auto" if auto else fmt, suffix, as_lines, ascii_only)

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
