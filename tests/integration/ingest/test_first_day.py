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
from graphmem.graph.digest import space_digest
from graphmem.graph.store import GraphStore
from graphmem.memory import Memory

pytestmark = pytest.mark.integration

DESIGNS = ["amory", "anchormem", "cast", "premem", "seem"]
# The built-in strategies (a test elsewhere registers an example design of its own).
STRATEGIES = ["dense", "fulltext", "hybrid", "hipporag", *DESIGNS, "graphmem"]
UNDATED = [
    {"conversation": "c", "session": 1, "speaker": "Ana", "text": "I moved to Porto last year."},
    {"conversation": "c", "session": 1, "speaker": "Ben", "text": "Nice, I still live in Lyon."},
]


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
    for strategy in STRATEGIES:
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
    for strategy in STRATEGIES:
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


TWO = [
    {
        "conversation": "a",
        "session": 1,
        "speaker": "Ana",
        "text": "I adopted a cat named Miso.",
        "timestamp": "2024-01-05T10:00:00",
    },
    {
        "conversation": "a",
        "session": 1,
        "speaker": "Ben",
        "text": "Cute! What colour is Miso?",
        "timestamp": "2024-01-05T10:01:00",
    },
    {
        "conversation": "b",
        "session": 1,
        "speaker": "Cleo",
        "text": "My brother adopted a cat too.",
        "timestamp": "2023-06-01T10:00:00",
    },
    {
        "conversation": "b",
        "session": 1,
        "speaker": "Dan",
        "text": "Does the cat like your brother?",
        "timestamp": "2023-06-01T10:02:00",
    },
]


def test_two_conversations_sharing_session_ids_cite_distinct_turns(
    memory: Memory, space: str, tmp_path: Path
) -> None:
    # Both conversations' first turns were cited [1:0], their --json citations collapsed
    # to one list, and one conversation's turns printed under the other's date header.
    memory.ingest(_file(tmp_path, TWO), space, builders=DESIGNS)
    for strategy in STRATEGIES:
        found = memory.query("Who adopted a cat?", space, strategy=strategy, budget=500)
        data = found.as_dict()
        assert len(data["citations"]) == len(set(data["citations"])), strategy
        assert set(data["citations"]) <= {"a/1:0", "a/1:1", "b/1:0", "b/1:1"}, strategy
        for item in data["items"]:
            assert all(t.split("/")[0] in ("a", "b") for t in item["turns"]), strategy
    found = memory.query("Who adopted a cat?", space, strategy="dense", budget=500)
    rendered = found.context.render()
    # Conversations in the order of their earliest turn shown, each under its own header.
    assert rendered.index("(conversation b, 2023-06-01 10:00)") < rendered.index(
        "(conversation a, 2024-01-05 10:00)"
    )
    assert "[a/1:0] Ana:" in rendered and "[b/1:0] Cleo:" in rendered
    header_b = rendered.index("(conversation b")
    assert rendered.index("[b/1:1]") > header_b > rendered.index("Conversation excerpts:")
    assert found.as_dict()["citations"] == ["b/1:0", "b/1:1", "a/1:0", "a/1:1"]


def test_a_one_conversation_context_keeps_its_short_citations(
    memory: Memory, space: str, tmp_path: Path
) -> None:
    memory.ingest(_file(tmp_path, TWO[:2]), space, builders=[])
    found = memory.query("What is the cat called?", space, strategy="dense", budget=500)
    rendered = found.context.render()
    assert "[1:0] Ana:" in rendered and "(2024-01-05 10:00)" in rendered
    assert "conversation a" not in rendered
    assert found.as_dict()["citations"] == ["a/1:0", "a/1:1"]  # turn ids in the JSON


def test_streamed_messages_with_their_own_timestamps_are_dated(memory: Memory, space: str) -> None:
    # Without started_at the session starts at its first dated turn; it rendered
    # "(date unknown)" before.
    memory.add_messages(
        space,
        "chat",
        "s1",
        [
            {
                "speaker": "Ana",
                "text": "We land in Lisbon on Friday.",
                "timestamp": "2024-03-14T09:30:00",
            },
            {"speaker": "Ben", "text": "Safe travels!", "timestamp": datetime(2024, 3, 14, 9, 31)},
        ],
        builders=[],
    )
    found = memory.query("When do we land?", space, strategy="dense", budget=500)
    assert "(2024-03-14 09:30)" in found.context.render()
    assert "date unknown" not in found.context.render()


def test_add_takes_a_timestamp(space: str, settings: Settings) -> None:
    from click.testing import CliRunner

    from graphmem.cli.main import cli

    runner = CliRunner()
    base = ["add", "--space", space, "--builders", "none"]
    said = runner.invoke(
        cli, [*base, "Hi there", "--speaker", "Ana", "--timestamp", "2024-03-14T09:30:00+01:00"]
    )
    assert said.exit_code == 0, said.output
    assert "2024-03-14T09:30:00" in said.output  # the new session is named by it
    later = runner.invoke(
        cli, [*base, "Hello", "--speaker", "Ben", "--timestamp", "2024-03-14T09:35:00"]
    )
    assert later.exit_code == 0 and "to session '2024-03-14T09:30:00'" in later.output
    found = runner.invoke(cli, ["query", "Hello?", "--space", space, "--strategy", "dense"])
    assert "(2024-03-14 09:30)" in found.output
    bad = runner.invoke(cli, [*base, "x", "--speaker", "Ana", "--timestamp", "next tuesday"])
    assert bad.exit_code == 2 and "is no timestamp" in bad.output
    assert "Traceback" not in bad.output


def test_rewriting_one_conversation_rebuilds_what_another_shared(
    memory: Memory, store: GraphStore, space: str, tmp_path: Path
) -> None:
    # b says what a said, so a memory comes from both; rewriting a's session released it,
    # and b's session stayed unbuilt (and lost its memories) until b was ingested again.
    said = "Try aglio e olio: garlic, olive oil, chili and parsley."
    line = {"conversation": "a", "session": 1, "speaker": "Ana", "text": said}
    memory.ingest(_file(tmp_path, [line], "a1.jsonl"), space, builders=DESIGNS)
    later = [{**line, "conversation": "b"}, {**line, "text": "ok"}]
    memory.ingest(_file(tmp_path, later, "a2.jsonl"), space, builders=DESIGNS)
    for builder in ["semantic", *DESIGNS]:
        assert store.read("core.unbuilt_conversations", space=space, builder=builder) == []
    found = memory.query("What is in aglio e olio?", space, strategy="anchormem", budget=500)
    assert [p.turn_id for p in found.context.cited_turns] == ["b/1:0"]


def test_a_space_whose_pagerank_reaches_no_turn_answers(
    memory: Memory, space: str, tmp_path: Path
) -> None:
    # One fact, and a seed whose PageRank reaches no turn: its run returned no row, which
    # read as the projection having changed ("the space changed while it was being queried").
    rows = [
        {"conversation": "b", "session": 1, "speaker": "Ben", "text": "I moved to Porto."},
        {"conversation": "b", "session": 1, "speaker": "Ana", "text": "lol"},
    ]
    memory.ingest(_file(tmp_path, rows), space, builders=["semantic"])
    for strategy in ("graphmem", "hipporag"):
        assert _cited(memory, space, "Where does Ana live now?", strategy), strategy


def test_a_turn_dated_at_the_edge_of_the_calendar_builds(memory: Memory, space: str) -> None:
    # 0001-01-01 is what some apps write for "no date"; "Saturday" counted from it fell off
    # the calendar (OverflowError in every builder that resolves dates).
    memory.add_messages(
        space,
        "b",
        "2",
        [
            {
                "speaker": "Ana",
                "text": "We planted tomatoes on Saturday.",
                "timestamp": datetime(1, 1, 1),
            }
        ],
        builders=DESIGNS,
    )
    assert _cited(memory, space, "What did we plant?", "graphmem") == ["2:0"]
