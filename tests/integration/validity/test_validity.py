"""Valid time in the graph (graphmem/validity/): after a build, a statement a later session
changes is superseded (``SUPERSEDES``, ``valid_to``, the ``Superseded`` label), both keep
their turns, a rerun changes nothing, and replacing the session that changed it releases
it."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.graph.digest import space_digest
from graphmem.graph.store import GraphStore
from graphmem.memory import Memory
from graphmem.retrieval.registry import build_retriever
from graphmem.validity.types import Candidate, Judgement
from graphmem.validity.update import offline_judge, refresh

pytestmark = pytest.mark.integration

SESSIONS = [
    ("2024-03-02T18:10:00", [("Maya", "I have been doing yoga twice a week since January.")]),
    ("2024-04-10T19:00:00", [("Maya", "My new job is great, I commute by train now.")]),
    ("2024-05-20T18:30:00", [("Maya", "I have been doing yoga three times a week lately.")]),
]
SUPERSEDED = """
MATCH (newer {space: $space})-[r:SUPERSEDES]->(older {space: $space})
RETURN labels(older) AS labels, older.text AS older_text, older.value AS older_value,
       newer.text AS newer_text, newer.value AS newer_value, toString(older.valid_from) AS since,
       toString(older.valid_to) AS until, r.verdict AS verdict,
       COUNT { (older)-[:FROM]->() } AS older_turns, COUNT { (newer)-[:FROM]->() } AS newer_turns
"""
TIMED = """
MATCH (n {space: $space}) WHERE n:Fragment OR n:AtomicFact OR n:Fact
RETURN count(n) AS statements, count(n.valid_from) AS dated, count(n.recorded_at) AS recorded
"""


def _file(tmp_path: Path, sessions: list[tuple[str, list[tuple[str, str]]]]) -> Path:
    rows = [
        {
            "conversation": "c",
            "session": f"s{i}",
            "speaker": who,
            "text": text,
            "timestamp": stamp,
            "id": f"s{i}:{n}",
        }
        for i, (stamp, turns) in enumerate(sessions, start=1)
        for n, (who, text) in enumerate(turns, start=1)
    ]
    path = tmp_path / f"chat-{uuid.uuid4().hex[:6]}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _read(store: GraphStore, query: str, space: str) -> list[dict[str, Any]]:
    with store.driver.session(database=store.database) as session:
        return [r.data() for r in session.run(query, space=space)]


@pytest.fixture
def memory(settings: Settings, store: GraphStore, embedder: Embedder) -> Memory:
    # The offline change rules (Settings.validity_judge, the default), set here explicitly.
    judged = settings.model_copy(update={"validity_judge": "offline"})
    return Memory(judged, store=store, embedder=embedder)


@pytest.fixture
def space(memory: Memory) -> Iterator[str]:
    name = f"validity-{uuid.uuid4().hex[:10]}"
    yield name
    memory.forget(name)


def test_a_changed_rate_supersedes_the_earlier_statement(
    memory: Memory, store: GraphStore, space: str, tmp_path: Path
) -> None:
    memory.ingest(_file(tmp_path, SESSIONS), space, builders=["premem", "anchormem"])
    rows = _read(store, SUPERSEDED, space)
    assert rows, "the rate of yoga changed between the first and the third session"
    for row in rows:
        older = row["older_text"] or row["older_value"]
        newer = row["newer_text"] or row["newer_value"]
        assert "twice" in older and "three times" in newer, row
        assert "Superseded" in row["labels"] and row["verdict"] == "update"
        assert row["since"] == "2024-01-01" or row["since"] == "2024-03-02"
        assert row["until"] == "2024-05-20"
        assert row["older_turns"] == 1 and row["newer_turns"] == 1
    timed = _read(store, TIMED, space)[0]
    assert timed["statements"] == timed["dated"] == timed["recorded"] > 0


def test_a_rerun_changes_nothing_and_replacing_the_session_releases_it(
    memory: Memory, store: GraphStore, settings: Settings, space: str, tmp_path: Path
) -> None:
    memory.ingest(_file(tmp_path, SESSIONS), space, builders=["premem"])
    before = space_digest(store, space)
    report = refresh(store, space, settings.assistant_speakers, offline_judge)
    assert report.claimed == report.written == report.released == 0
    assert report.superseded == len(_read(store, SUPERSEDED, space)) > 0
    assert space_digest(store, space).sha256 == before.sha256
    # The third session said again, without the change: nothing is superseded any more.
    kept = [*SESSIONS[:2], (SESSIONS[2][0], [("Maya", "I went to a yoga retreat lately.")])]
    memory.ingest(_file(tmp_path, kept), space, builders=["premem"])
    assert _read(store, SUPERSEDED, space) == []
    marked = "MATCH (n {space: $space}) WHERE n:Superseded OR n.valid_to IS NOT NULL RETURN n"
    assert _read(store, marked, space) == []


def test_a_kept_change_says_who_judged_it_last(
    memory: Memory, store: GraphStore, settings: Settings, space: str, tmp_path: Path
) -> None:
    memory.ingest(_file(tmp_path, SESSIONS), space, builders=["premem"])
    held = len(_read(store, SUPERSEDED, space))

    def another(pairs: Sequence[Candidate]) -> list[Judgement]:
        return [j.model_copy(update={"backend": "llm:test"}) for j in offline_judge(pairs)]

    report = refresh(store, space, settings.assistant_speakers, another)
    assert report.written == report.superseded == held > 0 and report.released == 0
    backends = "MATCH ({space: $space})-[r:SUPERSEDES]->() RETURN collect(r.backend) AS b"
    assert set(_read(store, backends, space)[0]["b"]) == {"llm:test"}
    again = refresh(store, space, settings.assistant_speakers, another)
    assert again.written == again.released == 0


@pytest.mark.parametrize("strategy", ["fulltext", "premem", "graphmem"])
def test_the_context_marks_the_superseded_turn_and_as_of_shows_it_as_it_stood(
    memory: Memory, space: str, tmp_path: Path, strategy: str
) -> None:
    memory.ingest(_file(tmp_path, SESSIONS), space, builders=["premem", "anchormem"])
    question = "How often does Maya do yoga?"
    now = memory.query(question, space, strategy, budget=300).context.render()
    assert "(until 20 May 2024, then [s3:1])" in now, now
    assert "three times a week" in now
    then = memory.query(question, space, strategy, budget=300, as_of=datetime(2024, 4, 30))
    shown = then.context.render()
    assert "until" not in shown and "three times" not in shown and "twice a week" in shown
    assert "s3:1" not in then.context.source_ids


def test_history_lists_a_subjects_changes_with_their_turns(
    memory: Memory, space: str, tmp_path: Path
) -> None:
    memory.ingest(_file(tmp_path, SESSIONS), space, builders=["premem"])
    (change,) = memory.history(space, "Maya")
    assert change.label == "Fragment" and change.verdict == "update"
    # turn ids: <conversation>/<source id>
    assert change.earlier_turns == ["c/s1:1"]
    assert change.later_turns == ["c/s3:1"]
    assert str(change.until) == "2024-05-20"
    assert memory.history(space, "yoga") == [change]  # a thing it is about
    assert memory.history(space, "Tom") == []


def test_the_offline_rules_judge_by_default_and_off_judges_nothing(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str, tmp_path: Path
) -> None:
    assert Settings().validity_judge == "offline"
    nobody = settings.model_copy(update={"validity_judge": "off"})
    Memory(nobody, store=store, embedder=embedder).ingest(
        _file(tmp_path, SESSIONS), space, builders=["premem"]
    )
    assert _read(store, SUPERSEDED, space) == []
    timed = _read(store, TIMED, space)[0]
    assert timed["statements"] == timed["dated"] > 0  # valid_from all the same
    # The same space ingested again with the default judge: the change is found.
    Memory(settings, store=store, embedder=embedder).ingest(
        _file(tmp_path, SESSIONS), space, builders=["premem"]
    )
    assert len(_read(store, SUPERSEDED, space)) == 1


def test_a_questions_own_date_hides_nothing_said_later(
    memory: Memory, space: str, tmp_path: Path
) -> None:
    # LongMemEval dates answer sessions later on the day of the question: the question's
    # date ("now") dates its relative words; only --as-of hides what was said after it.
    memory.ingest(_file(tmp_path, SESSIONS), space, builders=["premem"])
    dated = memory.retrieval_context(space, now=datetime(2024, 4, 30))
    found = build_retriever("fulltext", dated).retrieve("How often does Maya do yoga?", 300)
    assert "s3:1" in found.ranked_source_ids()
