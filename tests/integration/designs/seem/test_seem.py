"""SEEM and HippoRAG 2 on a real Neo4j + GDS: the semantic and episodic layers, entity
resolution, PageRank retrieval with Reverse Provenance Expansion, the projection's life
cycle, incremental == batch, stats, and the LLM path against a fake OpenAI server."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from graphmem.config import Settings
from graphmem.designs.seem.builder import SeemBuilder
from graphmem.designs.seem.llm_prompts import FRAME_SYSTEM, FUSE_SYSTEM, JUDGE_SYSTEM
from graphmem.designs.seem.retriever import SeemRetriever
from graphmem.designs.seem.settings import SeemSettings
from graphmem.embed import Embedder
from graphmem.eval.metrics import evidence_recall_in
from graphmem.graph.stats import space_stats
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import ConversationIn, Dataset, SessionIn, Turn
from graphmem.ingest.writer import passage_id, session_id
from graphmem.llm.openai_llm import OpenAIStructuredLLM
from graphmem.memory import Memory
from graphmem.plugin.builder import BuildContext, SessionBatch
from graphmem.plugin.configure import DesignConfigs
from graphmem.plugin.retriever import RetrievalContext
from graphmem.retrieval.packer import pack
from graphmem.retrieval.registry import build_retriever
from graphmem.semantic import HippoRagRetriever, PassageFacts, SemanticGraph, SemanticSettings
from graphmem.semantic.names import entity_id, normalise_name
from graphmem.semantic.prompts import QUADRUPLE_SYSTEM
from graphmem.semantic.writer import SemanticWriter
from tests.fakes.openai_server import FakeOpenAIServer, Reply
from tests.integration.helpers import recorded_calls
from tests.unit.llm.test_llm import make_settings

pytestmark = pytest.mark.integration

SESSIONS: list[list[tuple[str, str]]] = [
    [
        ("Ana", "Hi Ben! I adopted a grey kitten from the shelter yesterday. I named her Pixel."),
        ("Ben", "That's wonderful! How is Pixel settling in?"),
        ("Ana", "She sleeps on my keyboard all day, so I bought her a cat bed."),
        ("Ben", "Ha! I finally booked my flight to Lisbon for the marathon next month."),
        ("Ana", "Amazing! Are you training every day?"),
        ("Ben", "I run ten kilometres each morning along the river with my friend Marco."),
        ("Ana", "Marco is the chef, right?"),
        ("Ben", "Yes, he runs an Italian restaurant called Trattoria Sole downtown."),
    ],
    [
        ("Ben", "I went to a pottery class last weekend because my therapist suggested a hobby."),
        ("Ana", "How did the pottery class go?"),
        ("Ben", "I carefully made a blue bowl. Mrs. Okafor, the teacher, said it was good."),
        ("Ana", "I want to try pottery too! Pixel would knock everything over though."),
        ("Ben", "Bring her to the studio, they love cats there."),
        ("Ana", "My sister Clara is moving to Toronto for a job in robotics."),
        ("Ben", "Toronto is a great city. When does Clara leave?"),
        ("Ana", "In July. She will work at a startup that builds warehouse robots."),
    ],
    [
        ("Ana", "Pixel got sick last week and I had to take her to the vet."),
        ("Ben", "Oh no! Is Pixel okay now?"),
        ("Ana", "Yes, the vet said Pixel ate a rubber band. She is recovering well."),
        ("Ben", "I ran the Lisbon marathon on Sunday! It took me four hours."),
        ("Ana", "Congratulations! Did Marco run the marathon with you?"),
        ("Ben", "He did, and afterwards we celebrated with pasta at Trattoria Sole."),
        ("Ana", "That sounds perfect."),
        ("Ben", "My legs still hurt, so I am taking a break from running."),
    ],
    [
        ("Ana", "Clara moved to Toronto last week. She sent me photos of her new apartment."),
        ("Ben", "How does Clara like the robotics startup?"),
        ("Ana", "She loves it. Her team is building a robot that sorts packages."),
        ("Ben", "I started a second pottery course, this time on the wheel."),
        ("Ana", "Did you make another bowl in the pottery course?"),
        ("Ben", "I made a vase for my mother's birthday."),
        ("Ana", "Your mother must have loved the vase."),
        ("Ben", "She put the vase on the kitchen table with sunflowers."),
    ],
]
QUESTIONS: list[tuple[str, list[str]]] = [
    ("What is the name of Ana's kitten?", ["D1:1"]),
    ("Why did Ben take a pottery class?", ["D2:1"]),
    ("Where does Ana's sister Clara work?", ["D2:6", "D2:8", "D4:3"]),
    ("Who ran the Lisbon marathon with Ben and where did they celebrate?", ["D3:5", "D3:6"]),
    ("What did Ben make in his pottery courses?", ["D2:3", "D4:6"]),
    ("Why did Pixel have to go to the vet?", ["D3:1", "D3:3"]),
]


def conversation(sessions: range | None = None) -> ConversationIn:
    start = datetime(2023, 5, 8, 13, 56)
    out = []
    for s in sessions or range(len(SESSIONS)):
        at = start + timedelta(days=14 * s)
        turns = [
            Turn(source_id=f"D{s + 1}:{i + 1}", speaker=who, text=text, timestamp=at, index=i)
            for i, (who, text) in enumerate(SESSIONS[s])
        ]
        out.append(SessionIn(index=s, source_id=f"session_{s + 1}", started_at=at, turns=turns))
    return ConversationIn(
        conversation_id="conv-seem", speakers=["Ana", "Ben"], sessions=out, meta={}
    )


def _ingest(memory: Memory, space: str, chunks: int = 1) -> None:
    total = len(SESSIONS)
    step = -(-total // chunks)
    for first in range(0, total, step):
        conv = conversation(range(first, min(total, first + step)))
        memory.ingest_dataset(Dataset(conversations=[conv], qa={}), space, ["seem"])


@pytest.fixture(autouse=True)
def _drop_projection(store: GraphStore, space: str) -> Iterator[None]:
    """The space fixture deletes nodes only; an in-memory graph would outlive the test."""
    yield
    SemanticGraph(store, space).drop()


@pytest.fixture
def built(memory: Memory, space: str) -> str:
    _ingest(memory, space)
    return space


@pytest.fixture
def other_space(memory: Memory) -> Iterator[str]:
    name = f"test-{uuid.uuid4().hex[:10]}"
    yield name
    memory.forget(name)


def _recall(memory: Memory, space: str, strategy: str, budget: int = 1000) -> list[float]:
    ctx = RetrievalContext(memory.store, memory.embedder, memory.settings, space)
    retriever = build_retriever(strategy, ctx)
    out = []
    for question, gold in QUESTIONS:
        result = retriever.retrieve(question, budget)
        context = pack(result.hits, budget, memory.embedder.count_tokens)
        out.append(evidence_recall_in(context.source_ids, gold) or 0.0)
    return out


# --- the layers ----------------------------------------------------------------------------
def test_build_writes_a_consistent_semantic_and_episodic_layer(memory: Memory, built: str) -> None:
    audit = memory.store.read("seem.audit", space=built)[0]
    assert audit["facts_incomplete"] == 0
    assert audit["frames_unsourced"] == 0
    assert audit["passages_unframed"] == 0 and audit["passages_multiframed"] == 0
    assert audit["events_orphaned"] == 0 and audit["untagged"] == 0
    assert audit["speakers_linked"] == 2
    assert audit["min_synonym_score"] is not None and audit["min_synonym_score"] >= 0.8
    semantic = space_stats(memory.store, built)["semantic"]
    assert semantic["facts"] >= 15 and semantic["temporal_anchors"] >= 1
    assert semantic["entities"] > semantic["facts"] / 2
    stats = space_stats(memory.store, built)["seem"]
    assert stats["passages_with_frames"] == 32
    assert 1.0 < stats["consolidation_ratio"] < 4.0  # some turns fused, not everything
    # "Pixel" is named in five turns of three sessions: one entity.
    pixel = memory.store.read("semantic.existing_entities", space=built, ids=[entity_id("pixel")])
    assert len(pixel) == 1


def test_frames_group_turns_of_one_session_only(memory: Memory, built: str) -> None:
    groups = memory.store.read("seem.space_frames", space=built)
    assert sorted(t for g in groups for t in g["turns"]) == sorted(
        f"D{s + 1}:{i + 1}" for s in range(4) for i in range(8)
    )
    for group in groups:
        assert len({t.split(":")[0] for t in group["turns"]}) == 1, group
        assert group["summary"].startswith("On ")


def test_near_duplicate_entities_resolve_to_one(
    memory: Memory, settings: Settings, space: str
) -> None:
    ctx = BuildContext(memory.store, memory.embedder, settings, space)
    # The merge rule's mechanics, whatever the embedder: the threshold (on its scale) lies
    # between the pairs that must merge and those that must not. Near-duplicates sit in the
    # far tail, where mapping MiniLM's 0.95 by the bulk of unrelated pairs (embed/scale.py)
    # is stricter under e5 than under MiniLM (docs/semantic.md).
    names = ["LGBTQ support group", "LGBTQ+ support group", "LGBTQIA+ support group"]
    names += ["LGBTQIA support group", "support group"]
    vec = memory.embedder.embed(names, "symmetric")
    same = min(float(vec[0] @ vec[1]), float(vec[2] @ vec[3]))
    other = max(float(vec[2] @ vec[0]), float(vec[2] @ vec[4]), float(vec[0] @ vec[4]))
    assert other < same, (other, same)
    config = ctx.configs.get("semantic").model_copy(update={"merge_threshold": (same + other) / 2})
    writer = SemanticWriter(ctx, config, None)
    mentions = PassageFacts("no-such-passage", [], ["LGBTQ support group", "support groups"])
    first = writer.write([mentions], speakers=[])
    assert first.ids["support group"] == entity_id("support group")  # plural -> same key
    assert first.counts["entities"] == 2 and not first.aliases
    # Stored earlier: a very similar phrase with the same head noun becomes an alias...
    second = writer.resolve(["LGBTQ+ support group", "support group", "support club"])
    assert second.ids["lgbtq+ support group"] == entity_id("lgbtq support group")
    assert second.aliases == [(entity_id("lgbtq support group"), "lgbtq+ support group")]
    # ...an exact key is the same entity, and another head noun is another entity.
    assert second.ids["support group"] == entity_id("support group")
    assert [key for key, _ in second.new] == ["support club"]
    # Within one batch the earlier phrase wins.
    third = writer.resolve(["LGBTQIA+ support group", "LGBTQIA support group"])
    assert third.ids["lgbtqia support group"] == entity_id("lgbtqia+ support group")
    assert [key for key, _ in third.new] == ["lgbtqia+ support group"]


# --- retrieval ---------------------------------------------------------------------------------
def test_hipporag_and_seem_find_the_evidence(memory: Memory, built: str) -> None:
    for strategy in ("hipporag", "seem"):
        recalls = _recall(memory, built, strategy)
        assert sum(recalls) / len(recalls) >= 0.8, (strategy, recalls)


def test_seem_context_has_facts_frames_and_expansion(memory: Memory, built: str) -> None:
    ctx = RetrievalContext(memory.store, memory.embedder, memory.settings, built)
    result = build_retriever("seem", ctx).retrieve("What did Ben make in his pottery courses?", 500)
    labels = {hit.label for hit in result.hits}
    assert {"Passage", "Fact", "EventFrame"} <= labels  # offline frames reach the reader
    assert any(p.startswith("PPR from entities") for hit in result.hits for p in hit.path)
    for hit in result.hits:
        assert hit.passages, hit  # every hit carries its provenance
        if hit.label in ("Fact", "EventFrame"):
            assert hit.text
    frames = [h for h in result.hits if h.label == "EventFrame"]
    packed = pack(result.hits, 500, memory.embedder.count_tokens)
    assert any(frame.text and frame.text in packed.render() for frame in frames)


def test_paper_rpe_expands_the_top_k_within_twice_k(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    """SEEM 3.4.2 and section 4: the top-5 passages, their frames' provenance passages,
    at most 10 passages in all. Frames of two turns: every passage has a frame-mate to
    expand to, whichever turns the offline judge would fuse."""
    configs = DesignConfigs(overrides={"seem": {"frame_window": 2}})
    memory = Memory(settings, store=store, embedder=embedder, configs=configs)
    _ingest(memory, space)
    ctx = RetrievalContext(memory.store, memory.embedder, memory.settings, space)
    paper = SeemSettings(rpe_top_k=5, rpe_factor=2.0, frame_summaries="all")
    result = SeemRetriever(ctx, paper).retrieve("What did Ben make in his pottery courses?", 500)
    passages = [h for h in result.hits if h.label == "Passage"]
    expanded = [h for h in passages if "reverse provenance expansion" in " ".join(h.path)]
    assert expanded, "reverse provenance expansion added no frame-mate"
    assert len(passages) - len(expanded) == 5 and len(passages) <= 10
    frames = {h.node_id for h in result.hits if h.label == "EventFrame"}
    assert frames  # with "all", every frame of a chosen passage is shown
    unexpanded = SeemRetriever(ctx, paper.model_copy(update={"rpe_factor": 1.0})).retrieve(
        "What did Ben make in his pottery courses?", 500
    )
    assert len([h for h in unexpanded.hits if h.label == "Passage"]) == 5  # factor 1: no RPE


def test_in_memory_search_matches_the_vector_indexes(memory: Memory, built: str) -> None:
    """The snapshot's exact search and the vector-index path pick the same facts and seeds,
    so both rank the same passages."""
    ctx = RetrievalContext(memory.store, memory.embedder, memory.settings, built)
    in_memory = HippoRagRetriever(
        ctx, SemanticSettings(in_memory_index=True, entity_match="embedding")
    )
    indexed = HippoRagRetriever(
        ctx, SemanticSettings(in_memory_index=False, entity_match="embedding")
    )
    assert in_memory.snapshot().semantic is not None
    assert indexed.snapshot().semantic is None
    for question, _ in QUESTIONS:
        analysis = in_memory._analyse(question)
        facts = [
            [
                (f.id, round(f.cosine, 4), [s.id for s in f.sources])
                for f in r._facts(snap, analysis)
            ]
            for r in (in_memory, indexed)
            for snap in [r.snapshot()]
        ]
        assert facts[0] == facts[1] and facts[0], question
        matches = [
            [(m.entity.id, round(m.score, 4)) for m in r._entity_matches(r.snapshot(), analysis)]
            for r in (in_memory, indexed)
        ]
        assert matches[0] == matches[1], question
        ranked = [[h.node_id for h in r.retrieve(question, 500).hits] for r in (in_memory, indexed)]
        assert ranked[0] == ranked[1], question


def test_query_phrases_match_entities_by_name(memory: Memory, built: str) -> None:
    ctx = RetrievalContext(memory.store, memory.embedder, memory.settings, built)
    retriever = HippoRagRetriever(ctx, SemanticSettings(entity_match="name"))
    analysis = retriever._analyse("Did Marco run the marathon in Lisbon?")
    assert all(not vector for _, vector in analysis.phrases)  # nothing embedded for them
    matched = retriever._entity_matches(retriever.snapshot(), analysis)
    keys = {key for key, _ in analysis.phrases}
    assert "marco" in {m.entity.name.lower() for m in matched}
    assert all(m.score == 1.0 and normalise_name(m.entity.name) in keys for m in matched)


def test_a_prepared_query_needs_no_database_round_trip(memory: Memory, built: str) -> None:
    """Prepared (ppr_cache = warm): every entity's PageRank is kept, so a query reads
    nothing; once the snapshot is older than snapshot_recheck_seconds, one small read
    checks the projection. Without the cache the PageRank statement runs every query."""
    question = "Who ran the Lisbon marathon with Ben?"
    ctx = RetrievalContext(memory.store, memory.embedder, memory.settings, built)
    retriever = SeemRetriever(ctx, ctx.configs.get("seem"))
    retriever.prepare()
    with recorded_calls(memory.store, "read") as calls:
        result = retriever.retrieve(question, 500)
    assert calls == []
    assert any(p.source_id == "D3:5" for h in result.hits for p in h.passages)

    always = memory.settings.model_copy(update={"snapshot_recheck_seconds": 0.0})
    checking_ctx = RetrievalContext(memory.store, memory.embedder, always, built)
    checking = SeemRetriever(checking_ctx, checking_ctx.configs.get("seem"))
    checking.prepare()
    with recorded_calls(memory.store, "read") as calls:
        checked = checking.retrieve(question, 500)
    assert calls == ["semantic.graph_info"]
    assert [h.node_id for h in checked.hits] == [h.node_id for h in result.hits]

    config = memory.configs.get("semantic").model_copy(update={"ppr_cache": "off"})
    runs = HippoRagRetriever(ctx, config)
    runs.prepare()
    with recorded_calls(memory.store, "read") as calls:
        runs.retrieve(question, 500)
    assert calls == ["semantic.ppr_scores"]


def test_memory_keeps_retrievers_per_strategy_and_space(memory: Memory, built: str) -> None:
    first = memory.retriever("seem", built)
    memory.query("Who is Marco?", built, strategy="seem", budget=300)
    assert memory.retriever("seem", built) is first
    assert memory.retriever("hipporag", built) is not first
    memory.forget(built)
    assert memory.retriever("seem", built) is not first


def test_dense_fallback_without_seed_entities(memory: Memory, built: str) -> None:
    ctx = RetrievalContext(memory.store, memory.embedder, memory.settings, built)
    config = SemanticSettings(fact_min_score=1.1, entity_match_min_score=1.1)
    result = HippoRagRetriever(ctx, config).retrieve("pottery", 300)
    assert result.hits and all("dense (no seed)" in h.path[0] for h in result.hits)


def test_projection_is_reused_rebuilt_after_ingest_and_dropped_by_forget(
    memory: Memory, space: str
) -> None:
    memory.ingest_dataset(Dataset(conversations=[conversation(range(2))], qa={}), space, ["seem"])
    # Checked at every query: a retriever not kept by this Memory is not told of its ingest,
    # and would trust its snapshot (and kept PageRank runs) for snapshot_recheck_seconds.
    always = memory.settings.model_copy(update={"snapshot_recheck_seconds": 0.0})
    ctx = RetrievalContext(memory.store, memory.embedder, always, space)
    retriever = SeemRetriever(ctx, ctx.configs.get("seem"))
    retriever.retrieve("Who is Marco?", 300)
    graph = retriever.graph
    first = graph.ensure()
    assert first.relationships > 0
    with recorded_calls(memory.store, "write") as calls:
        retriever.retrieve("Who is Marco?", 300)
        assert graph.ensure() == first
    assert "semantic.project" not in calls  # reused, not projected again
    info = memory.store.read("semantic.graph_info", graph=graph.name)[0]
    counts = {r["label"]: r["count"] for r in memory.store.read("core.space_counts", space=space)}
    assert counts["Passage"] <= info["nodes"] <= counts["Passage"] + counts["Entity"]
    memory.ingest_dataset(
        Dataset(conversations=[conversation(range(2, 3))], qa={}), space, ["seem"]
    )
    assert graph.info() is None  # dropped by the build
    # The same retriever notices: the graph and its passage snapshot are read again.
    result = retriever.retrieve("What did the vet say Pixel ate?", 300)
    assert graph.ensure().relationships > first.relationships
    assert any(p.source_id.startswith("D3:") for h in result.hits for p in h.passages)
    memory.forget(space)
    assert graph.info() is None


# --- incremental == batch -----------------------------------------------------------------------
def _shape(memory: Memory, space: str) -> dict[str, Any]:
    stats = space_stats(memory.store, space)
    groups = sorted(tuple(g["turns"]) for g in memory.store.read("seem.space_frames", space=space))
    return {**stats["semantic"], **stats["seem"], "groups": groups}


def test_incremental_ingest_equals_batch(memory: Memory, built: str, other_space: str) -> None:
    _ingest(memory, other_space, chunks=4)
    batch, chunked = _shape(memory, built), _shape(memory, other_space)
    assert chunked == batch
    for strategy in ("seem", "hipporag"):
        whole = _recall(memory, built, strategy)
        parts = _recall(memory, other_space, strategy)
        assert abs(sum(whole) / len(whole) - sum(parts) / len(parts)) <= 0.01, strategy


def test_an_interrupted_build_reruns_clean(memory: Memory, space: str, settings: Settings) -> None:
    conv = conversation(range(2))
    memory.ingest_dataset(Dataset(conversations=[conv], qa={}), space, ["seem"])
    before = _shape(memory, space)
    again = conv.sessions[1:]
    batch = SessionBatch(
        conversation=conv,
        sessions=again,
        session_ids=[session_id(conv, s) for s in again],
        passage_ids=[[passage_id(conv, s, t) for t in s.turns] for s in again],
    )
    # As if the build of session 2 had stopped before its session was marked built.
    build = BuildContext(memory.store, memory.embedder, settings, space)
    SeemBuilder(build, build.configs.get("seem")).build(batch)
    assert _shape(memory, space) == before
    audit = memory.store.read("seem.audit", space=space)[0]
    assert audit["passages_multiframed"] == 0 and audit["events_orphaned"] == 0


# --- the LLM path ---------------------------------------------------------------------------------
def _canned(body: dict[str, Any]) -> Reply:
    """Canned answers keyed on the system prompt; the turn's speaker is read back."""
    system, user = body["messages"][0]["content"], body["messages"][-1]["content"]
    # A turn reads "(<date>) <speaker>: <text>" (graphmem.ingest.render.render_turn).
    turn = re.search(r"^(?:\([^)]*\) )?(Ana|Ben): ", user, re.MULTILINE)
    speaker = turn.group(1) if turn else "Ana"
    if system.startswith(QUADRUPLE_SYSTEM[:40]):
        quads = [{"subject": speaker, "relation": "talks about", "object": "Pixel", "time": None}]
        if "vet" in user:
            quads.append(
                {"subject": "Pixel", "relation": "visited", "object": "vet", "time": "2023-06-05"}
            )
        return Reply.json({"entities": [speaker, "Pixel"], "quadruples": quads})
    if system.startswith(FRAME_SYSTEM[:40]):
        event = {"participants": [speaker], "action": f"{speaker} chats", "location": "home"}
        return Reply.json({"summary": f"{speaker} talked about Pixel.", "events": [event]})
    if system.startswith(JUDGE_SYSTEM[:40]):
        return Reply.json({"same_event": True, "reason": "the same chat"})
    if system.startswith(FUSE_SYSTEM[:40]):
        event = {"participants": ["Ana", "Ben"], "action": "Ana and Ben talked about Pixel"}
        return Reply.json({"summary": "Ana and Ben talked about Pixel.", "events": [event]})
    return Reply.err(400, "unexpected prompt")


@pytest.fixture
def fake_llm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[OpenAIStructuredLLM]:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    with FakeOpenAIServer(default=_canned) as server:
        llm = OpenAIStructuredLLM(make_settings(tmp_path, server, llm_concurrency=2))
        yield llm
        llm.close()


def test_llm_path_builds_quadruples_frames_and_fusions(
    memory: Memory, space: str, fake_llm: OpenAIStructuredLLM, settings: Settings
) -> None:
    conv = conversation(range(1))
    llm_memory = Memory(settings, store=memory.store, embedder=memory.embedder, llm=fake_llm)
    reports = llm_memory.ingest_dataset(
        Dataset(conversations=[conv], qa={}), space, ["seem"]
    ).builds
    by_builder = {r.builder: r for r in reports}
    report = by_builder["seem"]
    turns = len(SESSIONS[0])
    # one quadruple call per turn (semantic), one frame call per turn, then judge + fuse for
    # every later frame (SeemSettings.max_frame_passages caps each frame at 8 turns)
    assert by_builder["semantic"].llm_calls == turns
    assert report.llm_calls == turns + 2 * (turns - 1)
    assert report.counts["frames_fused"] == turns - 1 and report.counts["frames_created"] == 1
    groups = memory.store.read("seem.space_frames", space=space)
    assert [g["turns"] for g in groups] == [[f"D1:{i + 1}" for i in range(turns)]]
    assert groups[0]["summary"] == "Ana and Ben talked about Pixel."
    audit = memory.store.read("seem.audit", space=space)[0]
    assert audit["facts_incomplete"] == 0 and audit["untagged"] == 0
    stats = space_stats(memory.store, space)
    assert stats["semantic"]["facts"] == 2
    assert stats["seem"]["consolidation_ratio"] == float(turns)
    ctx = RetrievalContext(memory.store, memory.embedder, settings, space)
    result = build_retriever("seem", ctx).retrieve("What does Ana talk about?", 300)
    facts = [h for h in result.hits if h.label == "Fact"]
    assert facts and facts[0].text.startswith(("Ana talks about Pixel", "Ben talks about Pixel"))
    assert {g["backend"] for g in groups} == {"llm:fake-model"}


def test_memory_prepare_does_the_first_querys_work_ahead(
    memory: Memory, built: str, other_space: str
) -> None:
    """``Memory.prepare`` (what `graphmem mcp --prepare` calls at start): the first query of
    a prepared space runs no PageRank, while an unprepared space's first query runs its
    seeds' GDS runs (and keeps them)."""
    _ingest(memory, other_space)
    question = "Who ran the Lisbon marathon with Ben?"
    with recorded_calls(memory.store, "read") as calls:
        memory.query(question, other_space, strategy="seem", budget=500)
    assert "semantic.ppr_by_source" in calls

    assert memory.prepare(built, "seem") > 0
    kept = memory.retriever("seem", built)
    with recorded_calls(memory.store, "read") as calls:
        result = memory.query(question, built, strategy="seem", budget=500)
    assert memory.retriever("seem", built) is kept  # the prepared retriever answered
    assert not {"semantic.ppr_by_source", "semantic.ppr_scores"} & set(calls)
    assert any(p.source_id == "D3:5" for h in result.result.hits for p in h.passages)
