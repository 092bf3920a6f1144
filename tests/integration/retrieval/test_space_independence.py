"""A space's retrieval depends on that space alone: the same questions on the same space give
the same hits, with the same scores, whatever other spaces the database holds. Other spaces
are ingested between two identical runs, with words of the questions in many of their turns
(what moved Lucene's shared BM25 statistics). And a long question (1,100 words, under the
20,000-character limit) is answered by every strategy that ranks with BM25."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from neo4j.exceptions import ClientError

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.errors import GraphmemError, ServerError
from graphmem.graph.store import GraphStore, driver_error
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from graphmem.plugin.configure import DesignConfigs
from graphmem.retrieval.passages import MAX_LUCENE_TERMS, lucene_query, space_lucene_query
from tests.integration.helpers import TOPICS, tiny_conversation

pytestmark = pytest.mark.integration

BUILDERS = ["semantic", "anchormem", "amory"]
# Every strategy with a BM25 leg: the baselines, Amory's excerpt scores, AnchorMem's
# lexical fact leg (fact_search = hybrid) and the graphmem strategy's BM25 member.
STRATEGIES = ["fulltext", "hybrid", "amory", "anchormem", "graphmem"]
QUESTIONS = [
    "Who ran the marathon in Lisbon?",
    "What did Ana adopt from the shelter?",
    "Which instrument did Ben start learning and why?",
]
# Turns for the other spaces: the questions' words, over and over, in other company.
NOISE = [
    "The marathon in Lisbon was cancelled, so we ran a marathon in Porto instead.",
    "Ana said the shelter had no kittens left to adopt this week.",
    "Ben plays the cello at the shelter on Sundays, learning slowly.",
    "Lisbon, Lisbon, Lisbon: the marathon route goes past the shelter.",
]


def _memory(settings: Settings, store: GraphStore, embedder: Embedder) -> Memory:
    """A fresh Memory (no retriever kept from an earlier run), AnchorMem with its lexical
    leg."""
    configs = DesignConfigs(overrides={"anchormem": {"fact_search": "hybrid"}})
    return Memory(settings, store=store, embedder=embedder, configs=configs)


def _run(memory: Memory, space: str) -> dict[tuple[str, str], list[tuple[str, float]]]:
    return {
        (strategy, q): [
            (h.node_id, h.score) for h in memory.query(q, space, strategy, budget=400).result.hits
        ]
        for strategy in STRATEGIES
        for q in QUESTIONS
    }


def _noise(conversation_id: str) -> Dataset:
    conv = tiny_conversation(conversation_id, sessions=2)
    sessions = [
        s.model_copy(
            update={
                "turns": [
                    t.model_copy(update={"text": NOISE[i % len(NOISE)]})
                    for i, t in enumerate(s.turns)
                ]
            }
        )
        for s in conv.sessions
    ]
    return Dataset(conversations=[conv.model_copy(update={"sessions": sessions})], qa={})


@pytest.fixture
def space(settings: Settings, store: GraphStore, embedder: Embedder) -> Iterator[str]:
    name = f"test-alone-{uuid.uuid4().hex[:8]}"
    memory = _memory(settings, store, embedder)
    memory.ingest_dataset(Dataset(conversations=[tiny_conversation()], qa={}), name, BUILDERS)
    yield name
    memory.forget(name)


def test_other_spaces_do_not_move_a_spaces_hits(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    before = _run(_memory(settings, store, embedder), space)
    assert all(before[("fulltext", q)] for q in QUESTIONS)
    others = [f"{space}-other{i}" for i in range(2)]
    memory = _memory(settings, store, embedder)
    try:
        for i, other in enumerate(others):
            memory.ingest_dataset(_noise(f"noise-{i}"), other, BUILDERS)
        after = _run(_memory(settings, store, embedder), space)
    finally:
        for other in others:
            memory.forget(other)
    for key, hits in before.items():
        assert after[key] == hits, f"{key} changed after other spaces were ingested"


def test_a_long_question_is_answered_by_every_bm25_strategy(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    words = " ".join(text for _, text in TOPICS).split()
    question = " ".join(words[i % len(words)] + f"x{i}" for i in range(1100))
    assert len(question) < 20_000 and len(question.split()) == 1100
    memory = _memory(settings, store, embedder)
    for strategy in STRATEGIES:
        found = memory.query(question + " marathon Lisbon", space, strategy, budget=300)
        assert found.result.hits, strategy
    fulltext = memory.query(question + " marathon Lisbon", space, "fulltext", budget=300)
    assert "marathon" in fulltext.result.hits[0].passages[0].text


def test_a_statement_the_server_refuses_is_exit_1_not_4(store: GraphStore) -> None:
    """Lucene's clause limit, as a long question hit it before BM25 moved in-process: a
    permanent error, which a rerun cannot get past (exit 4 says the server's state)."""
    terms = " ".join(f"t{i}" for i in range(1100))
    with pytest.raises(ClientError) as raised:
        store.driver.execute_query(
            "CALL db.index.fulltext.queryNodes('passage_search', $q) YIELD node RETURN node",
            q=terms,
        )
    error = driver_error(raised.value, "bolt://127.0.0.1:7687")
    assert type(error) is GraphmemError and error.exit_code == 1, error
    assert "rerunning gives the same error" in str(error)


def test_lucene_queries_built_from_a_long_question_stay_within_the_clause_limit(
    store: GraphStore, space: str
) -> None:
    question = " ".join(f"w{i}" for i in range(1100)) + " marathon"
    assert len(lucene_query(question).split()) == MAX_LUCENE_TERMS
    rows = store.read(
        "retrieval.fulltext_passages",
        space=space,
        query=space_lucene_query(space, "marathon " + question),
        k=5,
        fetch=100,
    )
    assert rows and "marathon" in rows[0]["passage"]["text"]


def test_a_procedure_failing_for_the_database_state_stays_exit_4(store: GraphStore) -> None:
    """A GDS graph another process dropped: a rerun can succeed, so a server error."""
    with pytest.raises(ClientError) as raised:
        store.driver.execute_query(
            "CALL gds.pageRank.stream('test-no-such-graph') YIELD nodeId RETURN nodeId"
        )
    assert isinstance(driver_error(raised.value, "bolt://127.0.0.1:7687"), ServerError)
