"""`graphmem eval validity --reach` end to end: a knowledge-update haystack of the dev half,
built with the designs whose statements carry valid time, where a move is told ("I live
in Boston", a month later "I moved to Denver"): the offline rules mark the change, the
haystack counts as reached in its part and overall, and the call names both statements."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.eval.changes import reach
from graphmem.eval.parts import part_of
from graphmem.graph.store import GraphStore
from graphmem.memory import Memory
from tests.conftest import delete_space

pytestmark = pytest.mark.integration
QUESTION = "ku-move-1"


def _item(question_id: str, sessions: list[list[dict[str, str]]], dates: list[str]) -> dict:
    ids = [f"{question_id}-s{n}" for n in range(len(sessions))]
    return {
        "question_id": question_id,
        "question_type": "knowledge-update",
        "question": "Where do I live now?",
        "answer": "Denver",
        "question_date": "2023/07/01 (Sat) 10:00",
        "haystack_session_ids": ids,
        "haystack_dates": dates,
        "haystack_sessions": sessions,
        "answer_session_ids": ids[-1:],
    }


@pytest.fixture
def haystacks(tmp_path: Path) -> Path:
    told = [
        [
            {"role": "user", "content": "I live in Boston with my two cats."},
            {"role": "assistant", "content": "Boston is a lovely city for cats."},
        ],
        [
            {"role": "user", "content": "I moved to Denver last month for my new job."},
            {"role": "assistant", "content": "Congratulations on the move!"},
        ],
    ]
    dates = ["2023/05/02 (Tue) 09:00", "2023/06/20 (Tue) 09:00"]
    other = _item("odd-position", told[:1], dates[:1])  # the test half: never built
    path = tmp_path / "lme.json"
    path.write_text(json.dumps([_item(QUESTION, told, dates), other]))
    return path


@pytest.fixture
def prefix(store: GraphStore) -> Iterator[str]:
    yield "test-reach"
    delete_space(store, f"test-reach-{QUESTION}")


def test_a_told_move_is_a_change_the_reach_counts(
    memory: Memory, haystacks: Path, prefix: str
) -> None:
    rows, calls = reach(memory, haystacks, prefix)
    by_part = {r.part: r for r in rows}
    assert set(by_part) == {part_of(QUESTION), "all"}
    assert (by_part["all"].haystacks, by_part["all"].reached) == (1, 1)
    assert by_part["all"].calls == len(calls) >= 1
    assert all(c.conversation == QUESTION for c in calls)
    assert any("Boston" in c.earlier and "Denver" in c.later for c in calls)
