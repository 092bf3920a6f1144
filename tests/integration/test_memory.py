"""The memory core against the real database: ingest safety (bad input, failures, resume,
streaming), retrievers, the packer, forget, and the query/ask commands."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.errors import InputError
from graphmem.graph.catalog import statement
from graphmem.graph.digest import space_digest
from graphmem.graph.stats import space_stats
from graphmem.graph.store import FAULTS, GraphStore, Tx
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from tests.fakes.openai_server import FakeOpenAIServer, Reply
from tests.integration.helpers import tiny_conversation

pytestmark = pytest.mark.integration
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _counts(store: GraphStore, space: str) -> dict[str, int]:
    return {r["label"]: r["count"] for r in store.read("core.space_counts", space=space)}


def _dataset(sessions: int = 2) -> Dataset:
    conv = tiny_conversation(sessions=sessions)
    return Dataset(conversations=[conv], qa={conv.conversation_id: []})


def test_bad_input_fails_before_touching_stored_data(
    memory: Memory, store: GraphStore, space: str
) -> None:
    memory.ingest_dataset(_dataset(), space, builders=[])
    before = _counts(store, space)
    with pytest.raises(InputError) as caught:
        memory.ingest(FIXTURES / "broken_line.jsonl", space, builders=[])
    assert "broken_line.jsonl" in str(caught.value) and "line" in str(caught.value)
    # A path given as text is read the same way (it crashed on ``.suffix`` before).
    with pytest.raises(InputError, match=r"broken_line\.jsonl"):
        memory.ingest(str(FIXTURES / "broken_line.jsonl"), space, builders=[])
    assert _counts(store, space) == before


@contextmanager
def _fail_at(statement: str, after: int = 0) -> Iterator[list[str]]:
    """Raise inside the store when ``statement`` runs for the ``after+1``-th time: the
    failure happens after earlier statements of the same transaction were sent."""
    seen: list[str] = []

    def hook(name: str) -> None:
        seen.append(name)
        if name == statement and seen.count(name) > after:
            raise RuntimeError("simulated crash")

    FAULTS.hook = hook
    try:
        yield seen
    finally:
        FAULTS.hook = None


def test_crash_inside_the_session_transaction_rolls_it_back_and_ingest_resumes(
    memory: Memory, store: GraphStore, space: str
) -> None:
    # Session 2's transaction has already written its Session node, released derived nodes
    # and pruned passages when its passages fail: all of it must roll back.
    with _fail_at("core.upsert_passages", after=1) as seen, pytest.raises(RuntimeError):
        memory.ingest_dataset(_dataset(sessions=3), space, builders=[])
    assert seen.count("core.upsert_session") == 2  # the failure was inside session 2's tx
    assert _counts(store, space)["Passage"] == 6  # session 1 whole, nothing of session 2
    assert _counts(store, space)["Session"] == 1
    report = memory.ingest_dataset(_dataset(sessions=3), space, builders=[]).report
    assert report.sessions_skipped == 1 and report.sessions_written == 2
    assert _counts(store, space)["Passage"] == 18 and _counts(store, space)["Session"] == 3


def test_the_rollback_test_can_fail(
    memory: Memory, store: GraphStore, space: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same fault with each statement committed on its own (no session transaction)
    leaves session 2 half-written, which the rollback test above would catch."""

    def autocommit(work: Any) -> Any:
        with store.driver.session(database=store.database) as session:
            return work(_AutoTx(session))

    monkeypatch.setattr(store, "retrying", autocommit)
    with _fail_at("core.upsert_passages", after=1), pytest.raises(RuntimeError):
        memory.ingest_dataset(_dataset(sessions=3), space, builders=[])
    assert _counts(store, space)["Session"] == 2  # a Session without its passages


class _AutoTx(Tx):
    def __init__(self, session: Any) -> None:
        self._session = session

    def run(self, name: str, **params: Any) -> list[dict[str, Any]]:
        stmt = statement(name)
        if FAULTS.hook is not None:
            FAULTS.hook(name)
        return [dict(record) for record in self._session.run(stmt.text, params)]


def test_streaming_add_messages_chains_turns_and_sessions(
    memory: Memory, store: GraphStore, space: str
) -> None:
    turns = [
        {"speaker": "Ana", "text": "I bought a red bicycle.", "id": "a1"},
        {"speaker": "Ben", "text": "Where will you ride it?", "id": "a2"},
        {"speaker": "Ana", "text": "Along the river to work.", "id": "a3"},
    ]
    memory.add_messages(space, "chat", "morning", turns[:2], builders=[])
    # the session grew: rewritten whole
    memory.add_messages(space, "chat", "morning", turns, builders=[])
    memory.add_messages(
        space, "chat", "evening", [{"speaker": "Ben", "text": "Nice ride?"}], builders=[]
    )
    chain = store.read("core.passage_chain", space=space, conversation_id="chat")
    assert [(r["source_id"], r["next_source_id"]) for r in chain] == [
        ("a1", "a2"),
        ("a2", "a3"),
        ("a3", "evening:0"),
        ("evening:0", None),
    ]
    assert _counts(store, space)["Session"] == 2


@pytest.mark.parametrize("strategy", ["dense", "fulltext", "hybrid"])
def test_retrievers_return_cited_passages_within_budget(
    memory: Memory, space: str, strategy: str
) -> None:
    memory.ingest_dataset(_dataset(), space, builders=[])
    found = memory.query("Which instrument is Ben learning?", space, strategy, budget=120)
    assert found.result.hits, "no hits"
    assert all(h.passages for h in found.result.hits)
    assert "cello" in found.result.hits[0].passages[0].text
    assert 0 < found.context.tokens <= 120
    rendered = found.context.render()
    by_time = sorted(found.context.passages, key=lambda p: (p.session_index, p.turn_index))
    positions = [rendered.index(f"[{p.source_id}] ") for p in by_time]
    assert positions == sorted(positions), "context is not in conversation order"
    assert len({p.id for p in found.context.passages}) == len(found.context.passages)


def test_hybrid_explains_both_paths(memory: Memory, space: str) -> None:
    memory.ingest_dataset(_dataset(), space, builders=[])
    found = memory.query("grandfather cello", space, "hybrid", budget=200)
    paths = " ".join(found.result.hits[0].path)
    assert "cosine" in paths and "BM25" in paths


def test_forget_removes_the_space(memory: Memory, store: GraphStore, space: str) -> None:
    memory.ingest_dataset(_dataset(), space, builders=[])
    nodes = space_stats(store, space)["nodes"]
    assert nodes == {k: v for k, v in _counts(store, space).items() if k != "BuildCost"}
    # A label no design declares (an analyst's own node) is swept by the final scan.
    with store.driver.session() as session:
        session.run("CREATE (:AnalystNote {space: $space, id: 'n1'})", space=space).consume()
        every = session.run("MATCH (n {space: $space}) RETURN count(n)", space=space).single()
    assert every is not None and every[0] > sum(nodes.values()) - nodes["Speaker"]
    assert memory.forget(space) == every[0]
    assert _counts(store, space) == {}


def test_query_and_ask_commands(memory: Memory, space: str) -> None:
    memory.ingest_dataset(_dataset(), space, builders=[])
    runner = CliRunner()
    out = runner.invoke(
        cli, ["query", "Who moved to Toronto?", "--space", space, "--json", "--explain"]
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    # The default strategy; on a space without designs it answers through hybrid.
    assert data["strategy"] == "graphmem" and data["citations"] and data["tokens"] <= 1000
    assert "members: hybrid x1" in data["notes"]
    # A script gets the notes without --explain too (but no paths)
    plain = runner.invoke(cli, ["query", "Who moved to Toronto?", "--space", space, "--json"])
    plain_data = json.loads(plain.output)
    assert plain_data["notes"] == data["notes"]
    assert all("path" not in item for item in plain_data["items"])
    asked = runner.invoke(cli, ["ask", "Who moved to Toronto?", "--space", space])
    assert asked.exit_code == 0 and "no LLM configured" in asked.output


def test_spaces_lists_what_each_space_holds(memory: Memory, space: str) -> None:
    report = memory.ingest_dataset(_dataset(), space, builders=[]).report
    out = CliRunner().invoke(cli, ["spaces", "--json"])
    assert out.exit_code == 0, out.output
    mine = [row for row in json.loads(out.output)["spaces"] if row["space"] == space]
    assert mine == [
        {
            "space": space,
            "conversations": 1,
            "sessions": report.sessions_written,
            "turns": report.passages_written,
        }
    ]
    assert space in CliRunner().invoke(cli, ["spaces"]).output


def test_stats_of_a_space_that_does_not_exist_is_a_config_error(settings: Settings) -> None:
    # A misspelt space would read as all zeros, which query and ask already refuse.
    out = CliRunner().invoke(cli, ["stats", "--space", "no-such-space-13", "--json"])
    assert out.exit_code == 2 and "no space 'no-such-space-13'" in out.output


def test_unknown_space_strategy_is_a_clean_error(space: str) -> None:
    out = CliRunner().invoke(cli, ["query", "x", "--space", space, "--strategy", "nope"])
    assert out.exit_code == 2 and "nope" in out.output


def test_ask_with_an_llm_answers_from_the_context(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str, tmp_path: Path
) -> None:
    with FakeOpenAIServer() as server:
        server.enqueue(Reply.json({"answer": "Ana's sister"}))
        llm_settings = settings.model_copy(
            update={
                "llm_model": "fake-model",
                "llm_base_url": server.base_url,
                "llm_cache": False,
                "cache_dir": tmp_path,
            }
        )
        memory = Memory(llm_settings, store=store, embedder=embedder)
        memory.ingest_dataset(_dataset(), space, builders=[])
        found = memory.ask("Who moved to Toronto?", space, "hybrid", 300)
        answer = found.answer
        prompt = server.bodies()[0]["messages"][-1]["content"]
    assert answer == "Ana's sister"
    assert "Toronto" in prompt and "Who moved to Toronto?" in prompt
    assert found.context.source_ids


def test_the_build_ledger_adds_each_completed_build_and_stays_out_of_the_digest(
    memory: Memory, store: GraphStore, space: str
) -> None:
    """Offline builds are recorded too (0 LLM calls); a chunked ingest adds its second
    build; nothing pending adds nothing; the digest ignores the ledger."""
    first = _dataset(sessions=1)
    memory.ingest_dataset(first, space, ["anchormem"])
    before = space_digest(store, space)
    cost = space_stats(store, space)["build_cost"]["designs"]["anchormem"]
    assert (cost["builds"], cost["sessions"], cost["turns"]) == (1, 1, 6)
    assert cost["backends"] == ["offline"] and cost["llm_calls"] == 0 and cost["seconds"] > 0
    assert "BuildCost" not in before.labels and _counts(store, space)["BuildCost"] == 1
    # no derived-node query takes the ledger for a memory without sources
    checks = {r["check"]: r["offenders"] for r in store.read("analyst.orphan_check", space=space)}
    assert checks["derived node without FROM"] == 0
    memory.ingest_dataset(first, space, ["anchormem"])  # nothing pending
    assert space_stats(store, space)["build_cost"]["designs"]["anchormem"] == cost
    memory.ingest_dataset(_dataset(sessions=2), space, ["anchormem"])
    later = space_stats(store, space)["build_cost"]
    assert (later["designs"]["anchormem"]["builds"], later["total"]["sessions"]) == (2, 2)
    assert later["total"]["turns"] == 12
