"""AnchorMem on a real Neo4j: facts with provenance, the associative event graph, chunked
(incremental) building, the retriever, stats, and the LLM path against a fake server."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.designs.anchormem.builder import AnchorMemBuilder
from graphmem.designs.anchormem.config import AnchorMemConfig
from graphmem.designs.anchormem.prompts import EXTRACT_SYSTEM
from graphmem.designs.anchormem.retriever import AnchorMemRetriever
from graphmem.embed import Embedder
from graphmem.errors import UnknownSpaceError
from graphmem.graph.overfetch import label_totals
from graphmem.graph.stats import space_stats
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import ConversationIn, Dataset
from graphmem.ingest.writer import IngestReport, PassageWriter, passage_id, session_id
from graphmem.llm.openai_llm import OpenAIStructuredLLM
from graphmem.memory import Memory
from graphmem.plugin.builder import BuildContext, BuildReport, SessionBatch, run_build
from graphmem.plugin.configure import DesignConfigs
from graphmem.plugin.retriever import RetrievalContext
from graphmem.retrieval.packer import pack
from graphmem.retrieval.registry import build_retriever, builders_for
from tests.fakes.openai_server import FakeOpenAIServer, Reply
from tests.integration.helpers import TOPICS, fake_llm_settings, fake_server, tiny_conversation
from tests.paths import FIXTURES

pytestmark = pytest.mark.integration

CONFIG = AnchorMemConfig()
# Session 2 retells session 1 in other words: every fact has a twin above tau.
RETOLD = [
    ("Ana", "I adopted the grey kitten Pixel from the animal shelter."),
    ("Ben", "I finished the Lisbon marathon in four hours."),
    ("Ana", "My sister moves to Toronto for her new robotics job."),
    ("Ben", "I am learning the cello, which my grandfather played."),
    ("Ana", "We planted basil and tomatoes in our community garden."),
    ("Ben", "My startup is shipping a student budgeting app next month."),
]


def retold_conversation() -> ConversationIn:
    base = tiny_conversation("conv-retold", sessions=2)
    sessions = []
    for session, lines in zip(base.sessions, (TOPICS, RETOLD), strict=True):
        turns = [
            turn.model_copy(update={"speaker": who, "text": text})
            for turn, (who, text) in zip(session.turns, lines, strict=True)
        ]
        sessions.append(session.model_copy(update={"turns": turns}))
    return base.model_copy(update={"sessions": sessions})


def _batch(conv: ConversationIn, sessions: list[int] | None = None) -> SessionBatch:
    chosen = [conv.sessions[i] for i in (sessions or range(len(conv.sessions)))]
    return SessionBatch(
        conversation=conv,
        sessions=chosen,
        session_ids=[session_id(conv, s) for s in chosen],
        passage_ids=[[passage_id(conv, s, t) for t in s.turns] for s in chosen],
    )


def _write_core(store: GraphStore, embedder: Embedder, space: str, conv: ConversationIn) -> None:
    PassageWriter(store, embedder).write_conversation(space, conv, IngestReport())


def _rows(store: GraphStore, name: str, space: str, **params: Any) -> list[dict[str, Any]]:
    return store.read(name, space=space, **params)


def _all_facts(store: GraphStore, space: str) -> list[dict[str, Any]]:
    counts = label_totals(store, space)["AtomicFact"]
    probe = store.read(
        "anchormem.search",
        index="atomic_fact_embedding",
        space=space,
        embedding=[1.0] + [0.0] * 383,
        k=counts.in_space,
        fetch=counts.total,
    )
    return probe


def test_offline_build_writes_facts_events_and_provenance(
    store: GraphStore, embedder: Embedder, space: str, settings: Settings
) -> None:
    conv = retold_conversation()
    _write_core(store, embedder, space, conv)
    builder = AnchorMemBuilder(BuildContext(store, embedder, settings, space), CONFIG)
    report = builder.build(_batch(conv))

    assert report.llm_calls == 0 and report.llm_tokens == 0
    assert report.counts["turns"] == 12 and report.sessions == 2
    # 6 turns per session, windows of 3 with step 2: units start at 0, 2, 4.
    assert report.counts["context_units"] == 6
    facts = _all_facts(store, space)
    assert len(facts) == report.counts["facts"] == 12  # "Nice!" is no fact
    texts = [f["text"] for f in facts]
    assert any(t.startswith("Ana adopted a grey kitten named Pixel") for t in texts)
    assert all(t.startswith(("Ana", "Ben")) for t in texts)  # speaker first, "I" resolved
    assert not any(re.search(r"\b(I|my|me)\b", t) for t in texts)
    # offline facts point at exactly the turn they came from
    assert all(len(f["passages"]) == 1 for f in facts)
    kitten = next(f for f in facts if "kitten named Pixel" in f["text"])
    assert kitten["passages"][0]["source_id"] == "D1:1"
    # "last week" resolved against the session date (8 May 2023)
    assert "[the week of 1 May 2023]" in kitten["text"]

    # Each topic pairs with its retold twin into one event; the twin's own group (the
    # same two facts) adds nothing new and is discarded.
    assert report.counts["events"] == 6
    assert report.counts["discarded_groups"] == 6
    events = store.read(
        "anchormem.search",
        index="assoc_event_embedding",
        space=space,
        embedding=embedder.embed_query("kitten Pixel"),
        k=50,
        # as the retriever asks: the index spans every space of a shared test database
        fetch=label_totals(store, space)["AssocEvent"].fetch(50),
    )
    assert len(events) == report.counts["events"]
    top = events[0]
    assert "Pixel" in top["text"] and top["text"].startswith("On 8 May 2023")
    sources = {p["source_id"] for p in top["passages"]}
    assert sources == {"D1:1", "D2:1"}  # FROM = union of the members' turns
    stats = space_stats(store, space)["anchormem"]
    assert stats["facts"] == len(facts) and stats["events"] == len(events)
    assert stats["similar_links"] == report.counts["similar_links"] > 0
    assert stats["discarded_groups"] == report.counts["discarded_groups"]
    assert stats["candidate_groups"] == report.counts["candidate_groups"]


def test_a_sentence_said_twice_is_one_fact_with_both_sources(
    store: GraphStore, embedder: Embedder, space: str, settings: Settings
) -> None:
    conv = tiny_conversation()  # both sessions say the same six sentences
    _write_core(store, embedder, space, conv)
    AnchorMemBuilder(BuildContext(store, embedder, settings, space), CONFIG).build(_batch(conv))
    facts = _all_facts(store, space)
    toronto = [f for f in facts if "Toronto" in f["text"]]
    assert len(toronto) == 1
    assert {p["source_id"] for p in toronto[0]["passages"]} == {"D1:3", "D2:3"}


def test_rebuild_is_idempotent(
    store: GraphStore, embedder: Embedder, space: str, settings: Settings
) -> None:
    conv = retold_conversation()
    _write_core(store, embedder, space, conv)
    ctx = BuildContext(store, embedder, settings, space)
    first = AnchorMemBuilder(ctx, CONFIG).build(_batch(conv))
    counts = store.read("core.space_counts", space=space)
    stats = space_stats(store, space)["anchormem"]
    again = AnchorMemBuilder(ctx, CONFIG).build(_batch(conv))
    assert store.read("core.space_counts", space=space) == counts
    assert space_stats(store, space)["anchormem"] == stats
    assert again.counts["events"] == 0  # already stored, not re-integrated
    assert first.counts["events"] > 0


def test_chunked_build_associates_new_facts_with_old_ones(
    store: GraphStore, embedder: Embedder, space: str, settings: Settings
) -> None:
    conv = retold_conversation()
    _write_core(store, embedder, space, conv)
    ctx = BuildContext(store, embedder, settings, space)
    first = AnchorMemBuilder(ctx, CONFIG).build(_batch(conv, [0]))
    assert first.counts["events"] == 0  # six different topics: nothing to associate
    second = AnchorMemBuilder(ctx, CONFIG).build(_batch(conv, [1]))
    assert second.counts["events"] == 6
    events = store.read(
        "anchormem.search",
        index="assoc_event_embedding",
        space=space,
        embedding=embedder.embed_query("cello grandfather"),
        k=1,
        fetch=5000,
    )
    sources = {p["source_id"] for p in events[0]["passages"]}
    assert sources == {"D1:4", "D2:4"}  # a session-2 fact grouped with its session-1 twin


def test_retriever_returns_facts_with_contexts_and_events(
    store: GraphStore, embedder: Embedder, space: str, settings: Settings
) -> None:
    conv = retold_conversation()
    # tau 0.75 (MiniLM's scale): every retold twin above it under each embedder, every other
    # pair below. 0.85 maps above some paraphrases under e5.
    configs = DesignConfigs(overrides={"anchormem": {"tau": 0.75}})
    with Memory(settings, store=store, embedder=embedder, configs=configs) as memory:
        reports = memory.ingest_dataset(
            Dataset(conversations=[conv], qa={}), space, builders_for(["anchormem"])
        ).builds
        assert [r.builder for r in reports] == ["anchormem"]
        assert space_stats(store, space)["anchormem"]["events"] == 6  # one per twin pair
        ctx = RetrievalContext(store, embedder, settings, space)
        assert isinstance(build_retriever("anchormem", ctx, valid_time=False), AnchorMemRetriever)
        config = AnchorMemConfig(facts_per_event=3, fact_text="always")
        result = AnchorMemRetriever(ctx, config).retrieve("Which instrument is Ben learning?", 1000)
        first = result.hits[0]
        assert first.label == "AtomicFact" and "cello" in first.text
        assert first.passages and "cello" in first.passages[0].text
        above: set[str] = set()
        for hit in result.hits:
            ids = {p.id for p in hit.passages}
            # every event brings a turn no hit above it brought (echoes are dropped)
            assert hit.label == "AtomicFact" or not ids <= above
            above |= ids
        # no two fact hits bring exactly the same turns
        fact_sources = [
            frozenset(p.id for p in h.passages) for h in result.hits if h.label == "AtomicFact"
        ]
        assert len(fact_sources) == len(set(fact_sources))
        # one fact, then the event binding it to its twin in the other session
        one_each = AnchorMemConfig(
            facts_per_event=1,
            min_facts=1,
            max_facts=2,
            fact_text="never",
            extractive_events="interleave",
        )
        pair = AnchorMemRetriever(ctx, one_each).retrieve("Which instrument is Ben learning?", 1)
        assert [h.label for h in pair.hits[:2]] == ["AtomicFact", "AssocEvent"]
        assert pair.hits[0].text == "" and "cello" in pair.hits[1].text
        assert {p.source_id for p in pair.hits[1].passages} == {"D1:4", "D2:4"}
        # by default offline (extractive) events rank after every fact
        last = one_each.model_copy(
            update={"extractive_events": "last", "min_facts": 3, "max_facts": 3}
        )
        hits = AnchorMemRetriever(ctx, last).retrieve("Which instrument is Ben learning?", 1).hits
        labels = [h.label for h in hits]
        assert labels.count("AtomicFact") == 3
        assert labels == sorted(labels, key=lambda label: label != "AtomicFact")
        # default: a fact's sentence is shown only when it adds a number (a resolved date)
        default = build_retriever("anchormem", ctx).retrieve("Who adopted a kitten?", 1000)
        shown = {h.text for h in default.hits if h.label == "AtomicFact" and h.text}
        assert any("[the week of 1 May 2023]" in t for t in shown)
        assert not any("cello" in t for t in shown)
        small = pack(result.hits, 120, embedder.count_tokens)
        assert 0 < small.tokens <= 120
        found = memory.query("Which instrument is Ben learning?", space, "anchormem", 300)
        assert {"D1:4", "D2:4"} & found.context.source_ids


def test_a_reused_memory_finds_what_was_ingested_after_its_first_query(
    store: GraphStore, embedder: Embedder, space: str, settings: Settings
) -> None:
    """Memory keeps one retriever per space: the label counts it read on the first query
    (an empty space) must not hide what is ingested afterwards."""
    memory = Memory(settings, store=store, embedder=embedder)
    question = "Where did Ben run a marathon?"
    with pytest.raises(UnknownSpaceError):
        memory.query(question, space, strategy="anchormem", budget=500)
    # The retriever Memory keeps for the space, asked while the space is still empty (as a
    # live agent's would be between two ingests), must see what is ingested afterwards.
    memory._ready()
    assert memory.retriever("anchormem", space).retrieve(question, 500).hits == []
    dataset = Dataset(conversations=[retold_conversation()], qa={})
    memory.ingest_dataset(dataset, space, ["anchormem"])
    found = memory.query(question, space, strategy="anchormem", budget=500)
    assert found.result.hits, "the reused retriever still believes the space is empty"
    assert any("Lisbon" in p.text for hit in found.result.hits for p in hit.passages)


def test_ingest_and_stats_cli_report_anchormem(
    space: str, tmp_path: Path, settings: Settings
) -> None:
    fixture = FIXTURES / "locomo_tiny.json"
    runner = CliRunner()
    out = runner.invoke(
        cli, ["ingest", str(fixture), "--space", space, "--builders", "anchormem", "--json"]
    )
    assert out.exit_code == 0, out.output
    built = json.loads(out.output)["builders"]
    assert built[0]["builder"] == "anchormem" and built[0]["llm_calls"] == 0
    assert built[0]["turns"] > 0 and built[0]["facts"] > 0 and built[0]["seconds"] > 0
    per_turn = built[0]["per_turn"]
    assert per_turn["llm_calls"] == 0 and per_turn["llm_tokens"] == 0
    # seconds is reported to the hundredth: allow that rounding, spread over the turns
    rounding = 1000 * 0.005 / built[0]["turns"]
    assert per_turn["ms"] == pytest.approx(
        1000 * built[0]["seconds"] / built[0]["turns"], rel=0.05, abs=rounding + 0.01
    )
    stats = runner.invoke(cli, ["stats", "--space", space, "--json"])
    assert stats.exit_code == 0, stats.output
    section = json.loads(stats.output)["anchormem"]
    assert section["facts"] == built[0]["facts"]
    assert section["events"] == built[0]["events"]


# --- the LLM path -----------------------------------------------------------------------


@pytest.fixture
def fake_llm_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    def answer(body: dict[str, Any]) -> Reply:
        system, user = body["messages"][0]["content"], body["messages"][-1]["content"]
        if system.startswith(EXTRACT_SYSTEM[:80]):
            # Canned facts: each dialogue line "Speaker: text" becomes "Speaker said text".
            lines = re.findall(r"^(Ana|Ben): (.+)$", user, re.MULTILINE)
            return Reply.json({"facts": [f"{who} said {text}" for who, text in lines]})
        topics = re.findall(r"^- (.+)$", user, re.MULTILINE)
        return Reply.json({"narrative": ["An event.", f"It began when {topics[0]}"]})

    with fake_server(monkeypatch, answer) as server:
        yield server


def test_llm_build_reports_calls_and_tokens(
    store: GraphStore,
    embedder: Embedder,
    space: str,
    settings: Settings,
    fake_llm_server: FakeOpenAIServer,
    tmp_path: Path,
) -> None:
    llm_settings = fake_llm_settings(settings, fake_llm_server.base_url, tmp_path)
    conv = retold_conversation()
    _write_core(store, embedder, space, conv)
    with OpenAIStructuredLLM(llm_settings) as llm:
        ctx = BuildContext(store, embedder, settings, space, llm)
        report: BuildReport = run_build(AnchorMemBuilder(ctx, CONFIG), _batch(conv))
    units, events = report.counts["context_units"], report.counts["events"]
    assert events >= 1
    assert fake_llm_server.request_count() == units + events == report.llm_calls
    served = fake_llm_server.served_prompt_tokens + fake_llm_server.served_completion_tokens
    assert report.llm_tokens == served > 0
    assert report.prompt_tokens == fake_llm_server.served_prompt_tokens
    assert report.llm_cache_hits == 0 and report.llm_seconds > 0
    per_turn = report.as_dict()["per_turn"]
    assert per_turn["llm_calls"] == pytest.approx(report.llm_calls / 12, abs=1e-3)
    assert per_turn["llm_tokens"] == pytest.approx(served / 12, abs=0.1)
    facts = _all_facts(store, space)
    assert any(f["text"].startswith("Ana said I adopted a grey kitten") for f in facts)
    # an LLM fact is sourced from its whole unit; overlapping units union their turns
    kitten = next(f for f in facts if "kitten named Pixel" in f["text"])
    assert {p["source_id"] for p in kitten["passages"]} == {"D1:1", "D1:2", "D1:3"}
    toronto = next(f for f in facts if "My sister is moving to Toronto" in f["text"])
    assert {p["source_id"] for p in toronto["passages"]} == {f"D1:{i}" for i in range(1, 6)}
    narrative = store.read(
        "anchormem.search",
        index="assoc_event_embedding",
        space=space,
        embedding=embedder.embed_query("An event"),
        k=1,
        fetch=5000,
    )[0]["text"]
    assert narrative.startswith("An event. It began when ")
    extraction = [
        b
        for b in fake_llm_server.bodies()
        if b["messages"][0]["content"].startswith(EXTRACT_SYSTEM[:80])
    ]
    assert len(extraction) == units
    assert "Session date: 8 May 2023" in extraction[0]["messages"][-1]["content"]


def test_snapshot_search_ranks_exactly_and_sees_a_later_session(
    store: GraphStore, embedder: Embedder, space: str, settings: Settings
) -> None:
    """``search = "snapshot"`` ranks by the exact cosine Neo4j's index approximates (the same
    score scale) and reads the space again when a later session adds facts and events."""
    conv = retold_conversation()
    _write_core(store, embedder, space, conv)
    build = BuildContext(store, embedder, settings, space)
    AnchorMemBuilder(build, CONFIG).build(_batch(conv, [0]))
    every_query = settings.model_copy(update={"snapshot_recheck_seconds": 0.0})
    ctx = RetrievalContext(store, embedder, every_query, space)
    snap = AnchorMemRetriever(ctx, CONFIG.model_copy(update={"search": "snapshot"}))
    index = AnchorMemRetriever(ctx, CONFIG.model_copy(update={"search": "index"}))
    question = "Which instrument is Ben learning?"
    before = snap.retrieve(question, 1000)
    assert [h.node_id for h in before.hits] == [
        h.node_id for h in index.retrieve(question, 1000).hits
    ]
    assert [round(h.score, 5) for h in before.hits] == [
        round(h.score, 5) for h in index.retrieve(question, 1000).hits
    ]
    assert before.hits[0].path[0].startswith("exact cosine over the space's facts rank 1")
    assert not any(h.label == "AssocEvent" for h in before.hits)  # one session: no event

    AnchorMemBuilder(build, CONFIG).build(_batch(conv, [1]))  # the same retriever, reused
    after = snap.retrieve(question, 1000)
    assert not any(p.source_id.startswith("D2:") for h in before.hits for p in h.passages)
    assert {"D1:4", "D2:4"} <= {p.source_id for h in after.hits for p in h.passages}
    assert [h.node_id for h in after.hits] == [
        h.node_id for h in index.retrieve(question, 1000).hits
    ]
