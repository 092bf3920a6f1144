"""PREMem on a real Neo4j: fragments with provenance, per-session clusters, the persistent
pool, insights that cite both sessions, incremental == batch, rerun after a crash, the
retriever's cite-only context, and the LLM path (the paper's prompts) against a fake server."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from graphmem.config import Settings
from graphmem.designs.premem.builder import PremBuilder
from graphmem.designs.premem.config import PremSettings
from graphmem.designs.premem.retriever import PremRetriever
from graphmem.embed import Embedder
from graphmem.graph.digest import space_digest
from graphmem.graph.stats import space_stats
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import ConversationIn, SessionIn, Turn
from graphmem.ingest.writer import IngestReport, PassageWriter, passage_id, session_id
from graphmem.llm.openai_llm import OpenAIStructuredLLM
from graphmem.plugin.builder import BuildContext, BuildReport, SessionBatch, run_build
from graphmem.plugin.retriever import RetrievalContext
from graphmem.retrieval.packer import pack
from tests.fakes.openai_server import FakeOpenAIServer, Reply
from tests.integration.helpers import fake_llm_settings, fake_server

pytestmark = pytest.mark.integration

SESSIONS = [
    [
        ("Ana", "I started a pottery class at the community centre yesterday."),
        ("Ben", "I am training for the Lisbon marathon with my running club."),
        ("Ana", "My pottery teacher Rosa showed me how to throw bowls."),
        ("Ben", "My running club meets every Sunday morning by the river."),
    ],
    [
        ("Ana", "I made three bowls in my pottery class last week."),
        ("Ben", "I ran thirty kilometres with my running club on Sunday."),
        ("Ana", "Rosa says my pottery glazing is getting better."),
        ("Ben", "The Lisbon marathon is in two months and I feel ready."),
    ],
    [
        ("Ana", "I sold my pottery bowls at the spring craft fair."),
        ("Ben", "I finished the Lisbon marathon in four hours yesterday."),
        ("Ana", "I quit my pottery class because I opened my own studio."),
        ("Ben", "My running club threw me a party after the marathon."),
    ],
]


def conversation() -> ConversationIn:
    start = datetime(2023, 5, 8, 13, 56)
    sessions = []
    for s, lines in enumerate(SESSIONS):
        at = start + timedelta(days=14 * s)
        turns = [
            Turn(source_id=f"D{s + 1}:{i + 1}", speaker=who, text=text, timestamp=at, index=i)
            for i, (who, text) in enumerate(lines)
        ]
        sessions.append(
            SessionIn(index=s, source_id=f"session_{s + 1}", started_at=at, turns=turns)
        )
    return ConversationIn(
        conversation_id="conv-premem", speakers=["Ana", "Ben"], sessions=sessions, meta={}
    )


def _batch(conv: ConversationIn, indexes: list[int]) -> SessionBatch:
    chosen = [conv.sessions[i] for i in indexes]
    return SessionBatch(
        conversation=conv,
        sessions=chosen,
        session_ids=[session_id(conv, s) for s in chosen],
        passage_ids=[[passage_id(conv, s, t) for t in s.turns] for s in chosen],
    )


@pytest.fixture
def other_space(store: GraphStore) -> Iterator[str]:
    name = f"test-{uuid.uuid4().hex[:10]}"
    yield name
    while store.write("core.delete_space_batch", space=name, batch=5000)[0]["deleted"]:
        pass


def _build(
    store: GraphStore,
    embedder: Embedder,
    settings: Settings,
    space: str,
    chunks: list[list[int]],
    config: PremSettings | None = None,
) -> list[BuildReport]:
    conv = conversation()
    PassageWriter(store, embedder).write_conversation(space, conv, IngestReport())
    ctx = BuildContext(store, embedder, settings, space)
    builder = PremBuilder(ctx, config or ctx.configs.get("premem"))
    return [builder.build(_batch(conv, chunk)) for chunk in chunks]


def _items(
    store: GraphStore, embedder: Embedder, space: str, **params: Any
) -> list[dict[str, Any]]:
    query = {"embedding": embedder.embed_query("pottery"), "k": 10_000, "insights": True}
    query["offline_insights"] = True
    query["messages"] = False  # the stored items only
    return store.read("premem.search", space=space, **{**query, **params})


def test_offline_build_writes_fragments_clusters_pool_and_insights(
    store: GraphStore, embedder: Embedder, settings: Settings, space: str
) -> None:
    (report,) = _build(store, embedder, settings, space, [[0, 1, 2]])
    counts = report.counts
    assert report.sessions == 3 and counts["turns"] == 12 and report.llm_calls == 0
    items = _items(store, embedder, space)
    fragments = [i for i in items if i["label"] == "Fragment"]
    insights = [i for i in items if i["label"] == "Insight"]
    assert len(fragments) == counts["fragments"] >= 12
    assert all(len(f["passages"]) == 1 for f in fragments)  # offline: one turn each
    bowls = next(f for f in fragments if "three bowls" in f["value"])
    assert bowls["category"] == "experiential"
    assert bowls["date"] == "week of 2023-05-15"  # "last week", said on 22 May 2023
    assert bowls["passages"][0]["source_id"] == "D2:1"
    assert bowls["value"].startswith("Ana made three bowls in Ana's pottery class")

    assert counts["pairs"] >= 2 and len(insights) == counts["insights"] >= 2
    for insight in insights:  # each cites turns of both sessions it connects
        assert len({p["session_index"] for p in insight["passages"]}) == 2, insight
    patterns = {i["pattern"] for i in insights}
    assert "accumulation" in patterns and patterns <= {
        "accumulation",
        "transformation",
        "specification",
    }
    assert any(i["pattern"] == "transformation" and "quit" in i["value"] for i in insights), (
        insights
    )

    stats = space_stats(store, space)["premem"]
    assert stats["fragments"] == counts["fragments"]
    assert stats["clusters"] == counts["clusters"] >= 3
    assert stats["connected_pairs"] == counts["pairs"]
    assert stats["insights"] == counts["insights"]
    assert sum(stats["patterns"].values()) == stats["insights"]
    assert sum(stats["categories"].values()) == stats["fragments"]
    # Pool: every cluster of the last session is in it; a matched cluster is not.
    assert 0 < stats["in_pool"] < stats["clusters"]
    audit = store.read(
        "core.provenance_audit", space=space, labels=["Fragment", "Cluster", "Insight"]
    )
    assert all(row["without_from"] == 0 and row["foreign"] == 0 for row in audit)


def test_sessions_built_one_by_one_equal_one_batch(
    store: GraphStore, embedder: Embedder, settings: Settings, space: str, other_space: str
) -> None:
    _build(store, embedder, settings, space, [[0, 1, 2]])
    _build(store, embedder, settings, other_space, [[0], [1], [2]])
    batch, streamed = space_digest(store, space), space_digest(store, other_space)
    assert batch.labels.get("Insight", 0) > 0
    assert (batch.labels, batch.types) == (streamed.labels, streamed.types)
    assert batch.sha256 == streamed.sha256


def test_rerun_after_a_crash_and_reingest_change_nothing(
    store: GraphStore, embedder: Embedder, settings: Settings, space: str
) -> None:
    _build(store, embedder, settings, space, [[0, 1, 2]])
    before = space_digest(store, space)
    # A crash after the last session was written but before it was marked built: graphmem
    # hands that session to the builder again. Its pool must be the one it saw the first time.
    _build(store, embedder, settings, space, [[2], [1, 2]])
    assert space_digest(store, space) == before


def test_retriever_ranks_items_and_cites_their_turns(
    store: GraphStore, embedder: Embedder, settings: Settings, space: str
) -> None:
    _build(store, embedder, settings, space, [[0, 1, 2]])
    ctx = RetrievalContext(store, embedder, settings, space)
    # The paper ranks every insight (M union R) and shows no turn.
    paper = PremSettings(offline_insights=True, messages=False)
    result = PremRetriever(ctx, paper).retrieve("When did Ana start pottery?", 200)
    assert result.hits and all(h.cite_only and h.passages for h in result.hits)
    assert {h.label for h in result.hits} == {"Fragment", "Insight"}
    scores = [h.score for h in result.hits]
    assert scores == sorted(scores, reverse=True)
    context = pack(result.hits, 200, embedder.count_tokens)
    rendered = context.render()
    assert 0 < context.tokens <= 200 and "D1:1" in context.source_ids
    assert "Conversation excerpts" not in rendered  # the reader sees items, not turns
    assert re.search(r"\[pottery class, 7 May 2023\]: Ana started a pottery class", rendered)

    only = PremRetriever(ctx, PremSettings(insights=False, messages=False)).retrieve("pottery", 200)
    assert only.hits and {h.label for h in only.hits} == {"Fragment"}
    # The default ranks LLM-written insights only: these were written by the offline rules.
    default = PremRetriever(ctx, PremSettings()).retrieve("When did Ana start pottery?", 200)
    assert default.hits and "Fragment" in {h.label for h in default.hits}
    assert {h.label for h in default.hits} <= {"Fragment", "Passage"}  # and turns (messages)


def test_messages_rank_turns_with_the_items_and_show_them_as_said(
    store: GraphStore, embedder: Embedder, settings: Settings, space: str
) -> None:
    _build(store, embedder, settings, space, [[0, 1, 2]])
    ctx = RetrievalContext(store, embedder, settings, space)
    question = "When did Ana start pottery?"
    plain = PremRetriever(ctx, PremSettings(messages=False)).retrieve(question, 400)
    mixed = PremRetriever(ctx, PremSettings(messages=True)).retrieve(question, 400)
    turns = [h for h in mixed.hits if h.label == "Passage"]
    assert not any(h.label == "Passage" for h in plain.hits)
    assert turns and all(not h.cite_only and len(h.passages) == 1 for h in turns)
    assert all(h.node_id == h.passages[0].id for h in turns)  # a turn cites itself
    scores = [h.score for h in mixed.hits]
    assert scores == sorted(scores, reverse=True)  # one ranking, not two lists
    rendered = pack(mixed.hits, 400, embedder.count_tokens).render()
    assert turns[0].passages[0].text in rendered


def test_snapshot_ranks_as_the_statement_and_sees_a_later_session(
    store: GraphStore, embedder: Embedder, settings: Settings, space: str
) -> None:
    """``search = "snapshot"`` (in-process) and ``"cypher"`` (``premem.search``) give the
    same hits in the same order with the same scores, and a retriever kept across a build
    reads the new session's items."""
    _build(store, embedder, settings, space, [[0, 1]])
    every_query = settings.model_copy(update={"snapshot_recheck_seconds": 0.0})
    ctx = RetrievalContext(store, embedder, every_query, space)
    # Items only: every session's turns were written up front, its items are built later.
    snap = PremRetriever(ctx, PremSettings(search="snapshot", messages=False))
    cypher = PremRetriever(ctx, PremSettings(search="cypher", messages=False))
    trusting = settings.model_copy(update={"snapshot_recheck_seconds": 600.0})
    slow = PremRetriever(
        RetrievalContext(store, embedder, trusting, space), PremSettings(messages=False)
    )

    def same(question: str) -> list[str]:
        a, b = snap.retrieve(question, 300).hits, cypher.retrieve(question, 300).hits
        assert [(h.node_id, round(h.score, 6)) for h in a] == [
            (h.node_id, round(h.score, 6)) for h in b
        ]
        assert [h.passages for h in a] == [h.passages for h in b]
        return [p.source_id for h in a for p in h.passages]

    question = "How many bowls did Ana make?"
    before = same(question)
    assert before and not any(s.startswith("D3:") for s in before)
    trusted = slow.retrieve(question, 300).hits
    build = BuildContext(store, embedder, settings, space)
    builder = PremBuilder(build, build.configs.get("premem"))
    builder.build(_batch(conversation(), [2]))
    after = same(question)
    assert any(s.startswith("D3:") for s in after), "the kept snapshot missed session 3"
    # Within snapshot_recheck_seconds a snapshot is trusted without reading the version.
    assert slow.retrieve(question, 300).hits == trusted


# --- the LLM backend ---------------------------------------------------------------------
_MESSAGE = re.compile(r"^\[(D\d+:\d+)\] \((\d{4}-\d\d-\d\d) \w+\) (Ana|Ben): (.+)$", re.MULTILINE)


def _answer(body: dict[str, Any]) -> Reply:
    prompt = body["messages"][-1]["content"]
    if prompt.startswith("# GOAL"):  # Step 1: one factual item per message
        items = [
            {"key": "topic", "value": f"{who} says {text}", "message_id": mid, "date": day}
            for mid, day, who, text in _MESSAGE.findall(prompt)
        ]
        return Reply.json({"Factual_Information": items, "Experiential_Information": []})
    shown = prompt.rsplit("Below are the memory fragments to analyze:", 1)[1]
    count = len(re.findall(r"^\[", shown, re.MULTILINE))
    return Reply.json(
        {
            "extended_insight": [
                {
                    "inference_type": "Accumulation",
                    "key": "repeated topics",
                    "date": "",
                    "value": f"{count} related fragments",
                },
                {"inference_type": "summary", "key": "x", "date": "", "value": "dropped"},
            ]
        }
    )


@pytest.fixture
def fake_llm(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    with fake_server(monkeypatch, _answer) as server:
        yield server


def test_llm_backend_calls_once_per_session_and_once_per_pair(
    store: GraphStore,
    embedder: Embedder,
    settings: Settings,
    space: str,
    fake_llm: FakeOpenAIServer,
    tmp_path: Path,
) -> None:
    llm_settings = fake_llm_settings(settings, fake_llm.base_url, tmp_path)
    conv = conversation()
    PassageWriter(store, embedder).write_conversation(space, conv, IngestReport())
    with OpenAIStructuredLLM(llm_settings) as llm:
        ctx = BuildContext(store, embedder, settings, space, llm)
        # run_build is how the framework runs a build: it charges the LLM usage.
        report = run_build(PremBuilder(ctx, PremSettings()), _batch(conv, [0, 1, 2]))
    pairs = report.counts["pairs"]
    assert pairs >= 1
    assert fake_llm.request_count() == 3 + pairs == report.llm_calls
    assert report.llm_tokens == fake_llm.served_prompt_tokens + fake_llm.served_completion_tokens
    items = _items(store, embedder, space)
    fragments = [i for i in items if i["label"] == "Fragment"]
    assert len(fragments) == 12 and all(f["category"] == "factual" for f in fragments)
    rosa = next(f for f in fragments if "glazing" in f["value"])
    assert [p["source_id"] for p in rosa["passages"]] == ["D2:3"]  # FROM the named message
    insights = [i for i in items if i["label"] == "Insight"]
    assert len(insights) == pairs  # the "summary" type is none of the five: dropped
    for insight in insights:
        assert insight["pattern"] == "accumulation"
        assert len({p["session_index"] for p in insight["passages"]}) == 2


def _labels(store: GraphStore, space: str, label: str) -> list[tuple[str, bool, int]]:
    """(backend, fallback, session index) of each node of ``label`` in the space."""
    rows = store.read("core.digest_nodes", space=space, skip=["embedding"])
    out = []
    for row in rows:
        if label in row["labels"]:
            props = dict(row["props"])
            index = props.get("session_index", -1)
            out.append((props["backend"], bool(props.get("fallback")), index))
    return out


def test_a_session_and_a_pair_the_llm_fails_on_fall_back_alone_and_say_so(
    store: GraphStore,
    embedder: Embedder,
    settings: Settings,
    space: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Sessions 2 and 3 get prose for their extraction (after the repair too) and every
    reasoning answer names no inference type of the five: those items take the offline path,
    the build goes on, and only their nodes carry backend 'offline' with fallback."""

    def weak(body: dict[str, Any]) -> Reply:
        prompt = body["messages"][0]["content"]
        if prompt.startswith("# GOAL") and ("[D2:1]" in prompt or "[D3:1]" in prompt):
            return Reply.text("Sure! Ana likes pottery.")
        if prompt.startswith("# GOAL"):
            return _answer(body)
        return Reply.json(
            {
                "extended_insight": [
                    {"inference_type": "vibes", "key": "k", "date": "", "value": "v"}
                ]
            }
        )

    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    conv = conversation()
    PassageWriter(store, embedder).write_conversation(space, conv, IngestReport())
    with (
        FakeOpenAIServer(default=weak) as server,
        OpenAIStructuredLLM(fake_llm_settings(settings, server.base_url, tmp_path)) as llm,
    ):
        ctx = BuildContext(store, embedder, settings, space, llm)
        report = run_build(PremBuilder(ctx, PremSettings()), _batch(conv, [0, 1, 2]))
    pairs = report.counts["pairs"]
    assert pairs >= 1
    # one extraction per session plus the repairs of sessions 2 and 3, one call per pair
    assert server.request_count() == 3 + 2 + pairs == report.llm_calls
    assert report.llm.fallbacks == 2 + pairs and report.llm.repairs == 2
    for label in ("Fragment", "Cluster"):
        found = _labels(store, space, label)
        assert {(b, f) for b, f, i in found if i > 0} == {("offline", True)}
        assert {(b, f) for b, f, i in found if i == 0} == {("llm:fake-model", False)}
    # the "vibes" insights were dropped; the offline rules found some between sessions 2
    # and 3 (offline fragments), and they say they are offline
    insights = _labels(store, space, "Insight")
    assert insights and all((b, f) == ("offline", True) for b, f, _ in insights)
    assert not [i for i in _items(store, embedder, space) if i.get("value") == "v"]
