"""A new user's first hour (issue 57): undated files, one-message spaces, a second file of a
conversation, streamed timestamps, and spaces holding several conversations."""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from graphmem.config import Settings
from graphmem.digest import space_digest
from graphmem.embed import Embedder
from graphmem.memory import Memory
from graphmem.retrieval.registry import strategy_names
from graphmem.store import GraphStore

pytestmark = pytest.mark.integration

DESIGNS = ["amory", "anchormem", "cast", "premem", "seem"]
UNDATED = [
    {"conversation": "c", "session": 1, "speaker": "Ana", "text": "I moved to Porto last year."},
    {"conversation": "c", "session": 1, "speaker": "Ben", "text": "Nice, I still live in Lyon."},
]


@pytest.fixture
def memory(settings: Settings, store: GraphStore, embedder: Embedder) -> Memory:
    return Memory(settings, store=store, embedder=embedder)


def _file(tmp_path: Path, rows: list[dict[str, Any]], name: str = "chat.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _cited(memory: Memory, space: str, question: str, strategy: str) -> list[str]:
    found = memory.query(question, space, strategy=strategy, budget=500)
    return [p.source_id for p in found.context.passages]


@pytest.mark.parametrize("builders", [["semantic"], ["seem"], DESIGNS])
def test_an_undated_file_builds_and_a_dated_one_follows(
    memory: Memory, space: str, tmp_path: Path, builders: list[str]
) -> None:
    # It crashed in the valid-time step (datetime.combine of None) after the turns were
    # written, and every later write to the space crashed the same way.
    memory.ingest(_file(tmp_path, UNDATED), space, builders=builders)
    later = [
        {
            "conversation": "c",
            "session": 2,
            "speaker": "Ana",
            "text": "I start at the bakery.",
            "timestamp": "2024-03-01T09:00:00",
        },
        {"conversation": "c", "session": 2, "speaker": "Ben", "text": "Congrats, when?"},
    ]
    memory.ingest(_file(tmp_path, later, "later.jsonl"), space, builders=builders)
    found = memory.query("Where does Ana live?", space, strategy="dense", budget=500)
    rendered = found.context.render()
    assert "(date unknown)" in rendered and "(2024-03-01 09:00)" in rendered
    # The second file's session comes after the first's, not among its turns.
    order = [p.source_id for p in sorted(found.context.passages, key=lambda p: p.session_index)]
    assert order.index("1:0") < order.index("2:0")


def test_an_undated_space_answers_every_strategy(
    memory: Memory, space: str, tmp_path: Path
) -> None:
    memory.ingest(_file(tmp_path, UNDATED), space, builders=DESIGNS)
    for strategy in strategy_names():
        assert _cited(memory, space, "Where does Ana live?", strategy), strategy


def test_a_one_message_space_answers_every_strategy(memory: Memory, space: str) -> None:
    # The first thing an agent does with a new user: it crashed reshaping an empty fact
    # matrix (semantic/snapshot.py).
    memory.add_messages(
        space,
        "main",
        "s1",
        [{"speaker": "user", "text": "Hello! How are you today?"}],
        builders=DESIGNS,
    )
    for strategy in strategy_names():
        assert _cited(memory, space, "How are you?", strategy) == ["s1:0"], strategy


def space_name() -> str:
    return f"test-{uuid.uuid4().hex[:10]}"


def test_a_rerun_after_an_undated_build_gives_a_clean_builds_digest(
    memory: Memory, store: GraphStore, spaces: list[str], tmp_path: Path
) -> None:
    first, clean = f"{space_name()}-a", f"{space_name()}-b"
    spaces.extend([first, clean])
    path = _file(tmp_path, UNDATED)
    memory.ingest(path, first, builders=DESIGNS)
    memory.ingest(path, first, builders=DESIGNS)
    memory.ingest(path, clean, builders=DESIGNS)
    assert space_digest(store, first).sha256 == space_digest(store, clean).sha256
