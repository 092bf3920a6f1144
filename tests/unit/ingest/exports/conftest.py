"""Helpers of the importer tests: every export is loaded the way ``graphmem ingest`` loads
it (``graphmem.ingest.formats.load``), so a test sees what a user's ingest would write."""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

from graphmem.errors import InputError
from graphmem.ingest.exports import ImportOptions
from graphmem.ingest.exports.base import Importer
from graphmem.ingest.exports.bundle import FolderBundle, StreamBundle, ZipBundle
from graphmem.ingest.formats import ReadLimits, load
from graphmem.ingest.models import Dataset, Turn
from graphmem.ingest.source import open_source
from tests import paths

FIXTURES = paths.FIXTURES / "exports"

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


def turns(dataset: Dataset, which: int | str = 0) -> list[tuple[str, str, Any, str | None]]:
    """Speaker, words, time and note of each turn of a conversation: the ``which``-th, or
    the one whose id ``which`` is."""
    if isinstance(which, int):
        conv = dataset.conversations[which]
    else:
        conv = next(c for c in dataset.conversations if c.conversation_id == which)
    return [
        (t.speaker, said(t)[0], t.timestamp, said(t)[1]) for s in conv.sessions for t in s.turns
    ]


def claimed(importer: Importer, path: Path) -> bool:
    """Whether ``importer`` claims the file, zip or folder at ``path``, opened as the
    ingest opens it."""
    limits = ReadLimits()
    if path.is_dir():
        return importer.claims(FolderBundle(path, limits))
    if zipfile.is_zipfile(path):
        bundle = ZipBundle(path, limits)
        try:
            return importer.claims(bundle)
        finally:
            bundle.close()
    with open_source(path, limits) as source:
        return importer.claims(StreamBundle(source, path.name))


def refused(load: Loader, path: Path, fmt: str) -> InputError:
    """The InputError loading ``path`` as ``fmt`` raises."""
    with pytest.raises(InputError) as caught:
        load(path, fmt)
    return caught.value


def samples_but(app: str) -> list[Path]:
    """The top-level fixtures, every other app's sample files and every unpacked export."""
    found = [p for p in FIXTURES.parent.glob("*") if p.is_file()]
    for folder in FIXTURES.iterdir():
        if folder.name != app:
            found += [
                p
                for p in folder.iterdir()
                if p.suffix in (".json", ".jsonl", ".txt", ".zip", ".csv")
            ]
        found += [p for p in folder.iterdir() if p.is_dir()]  # unpacked exports
    return sorted(found)


def everything_but(app: str) -> list[Path]:
    """Every fixture outside the exports, and everything in the other apps' folders."""
    tops = [FIXTURES.parent / p.name for p in FIXTURES.parent.iterdir() if p.name != "exports"]
    return tops + [
        p for folder in FIXTURES.iterdir() if folder.name != app for p in folder.iterdir()
    ]


def write_conversations(tmp_path: Path, doc: Any, name: str = "conversations.json") -> Path:
    """An AI app's conversations.json (ChatGPT's and Claude.ai's have one name)."""
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def any_json(
    keys: list[str],
    *,
    floats: bool = True,
    text: int = 8,
    items: int = 4,
    pairs: int = 6,
    leaves: int = 30,
) -> st.SearchStrategy[Any]:
    """Any JSON value whose objects use ``keys``: the shapes an importer must read or
    refuse with one InputError, never crash on."""
    scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=text)
    if floats:
        scalars = scalars | st.floats(allow_nan=False)
    return st.recursive(
        scalars,
        lambda inner: (
            st.lists(inner, max_size=items)
            | st.dictionaries(st.sampled_from(keys), inner, max_size=pairs)
        ),
        max_leaves=leaves,
    )


def read_back(path: Path) -> list[tuple[str, str, Any]]:
    """Speaker, text and time of each turn of the first conversation ``path`` loads as."""
    data = load(path, "auto", ReadLimits(), ImportOptions(timezone="UTC"))
    return [
        (t.speaker, t.text, t.timestamp) for s in data.conversations[0].sessions for t in s.turns
    ]


def assert_read_as_the_file(load: Loader, zipped: Path, written: Path, unpacked: Path) -> None:
    """The export zip, and its unpacked folder, read as its conversations.json alone."""
    with zipfile.ZipFile(zipped) as z:
        assert json.loads(z.read("conversations.json")) == json.loads(written.read_text())
        z.extractall(unpacked)
    expected = load(written)
    for path in (zipped, unpacked):
        got = load(path)
        assert got.conversations == expected.conversations
        assert got.skipped.left_out == expected.skipped.left_out
