"""Helpers of the importer tests: every export is loaded the way ``graphmem ingest`` loads
it (``graphmem.ingest.formats.load``), so a test sees what a user's ingest would write."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from graphmem.ingest.exports import ImportOptions
from graphmem.ingest.formats import ReadLimits, load
from graphmem.ingest.models import Dataset, Turn

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "exports"

Loader = Callable[..., Dataset]


@pytest.fixture
def load_export() -> Loader:
    """``load_export(path, fmt="auto", strict=False, **options)``: the dataset, with
    ``options`` those of ``ImportOptions`` (timezone defaults to UTC, so tests do not
    depend on the machine's zone)."""

    def _load(path: Path, fmt: str = "auto", strict: bool = False, **options: Any) -> Dataset:
        options.setdefault("timezone", "UTC")
        return load(path, fmt, ReadLimits(strict=strict), ImportOptions(**options))  # type: ignore[arg-type]

    return _load


# An importer's note ("shared: report.pdf", "forwarded from Bob") follows the words in
# brackets (graphmem.ingest.exports.base.Message.note); a turn's caption stays empty.
_NOTED = re.compile(r"(?P<words>.*?) \[(?P<note>(?:shared|forwarded)[^\[\]]*)\]", re.S)


def said(turn: Turn) -> tuple[str, str | None]:
    """A turn's words and the note after them (None when it has none)."""
    assert turn.caption is None, turn
    found = _NOTED.fullmatch(turn.text)
    return (found["words"], found["note"]) if found else (turn.text, None)
