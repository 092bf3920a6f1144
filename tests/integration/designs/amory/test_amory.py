"""Amory on a real Neo4j: stories ABOUT their characters with provenance, subplots and side
facts, session-by-session builds equal to one batch, the retriever (cited, in budget,
explained), and the LLM path (templates, coherence, generated Cypher refused and replaced)
against the fake OpenAI server."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from graphmem.config import Settings
from graphmem.designs.amory.stats import amory_stats
from graphmem.embed import Embedder
from graphmem.graph.digest import space_digest
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import ConversationIn, Dataset, SessionIn, Turn
from graphmem.memory import Memory
from graphmem.plugin.configure import DesignConfigs
from tests.fakes.openai_server import FakeOpenAIServer, Reply
from tests.integration.helpers import fake_llm_settings, fake_server, tiny_conversation

pytestmark = pytest.mark.integration

PETS = [
    ("Ana", "I adopted a grey kitten named Pixel from the animal shelter."),
    ("Ben", "A kitten! Does Pixel get along with your old dog Rex?"),
    ("Ana", "Pixel sleeps next to Rex every night, they love each other."),
    ("Ben", "My neighbour Clara also rescued two cats from that shelter."),
]
RUNNING = [
    ("Ben", "I ran the Lisbon marathon in four hours last Sunday."),
    ("Ana", "Four hours for a marathon is a great time, how did you train?"),
    ("Ben", "I trained with intervals and long runs along the river for months."),
    ("Ana", "My brother Tom wants to run his first marathon in Porto next year."),
]


def two_topics(conversation_id: str = "conv-amory", sessions: int = 6) -> ConversationIn:
    """Sessions alternate between pets and running, so stories go quiet and come back."""
    start = datetime(2023, 5, 8, 13, 0)
    out = []
    for s in range(sessions):
        lines = PETS if s % 2 == 0 else RUNNING
        at = start + timedelta(days=7 * s)
        turns = [
            Turn(
                source_id=f"D{s + 1}:{i + 1}",
                speaker=who,
                text=f"{text} (week {s + 1})",
                timestamp=at,
                index=i,
            )
            for i, (who, text) in enumerate(lines)
        ]
        out.append(SessionIn(index=s, source_id=f"session_{s + 1}", started_at=at, turns=turns))
    return ConversationIn(
        conversation_id=conversation_id, speakers=["Ana", "Ben"], sessions=out, meta={}
    )


# T = 8 turns so the 24-turn conversation consolidates after two sessions.
SMALL = {"init_turns": 8, "min_subplot_items": 2}


def memory_for(settings: Settings, store: GraphStore, embedder: Embedder, **values: Any) -> Memory:
    configs = DesignConfigs(overrides={"amory": {**SMALL, **values}})
    return Memory(settings, store=store, embedder=embedder, configs=configs)


def ingest(memory: Memory, space: str, conv: ConversationIn) -> None:
    memory.ingest_dataset(Dataset(conversations=[conv], qa={}), space, ["amory"])


def test_stories_are_about_their_characters_and_cite_their_turns(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    ingest(memory_for(settings, store, embedder), space, two_topics())
    rows = store.read("amory.snapshot_stories", space=space)
    assert len(rows) >= 2
    turns = {pid for row in rows for pid in row["passage_ids"]}
    assert len(turns) == 24  # no turn of this conversation is filler
    with store.driver.session() as session:
        about = session.run(
            "MATCH (n:Narrative {space: $space})-[:ABOUT]->(c:Character {space: $space}) "
            "RETURN n.id AS story, collect(c.name) AS names",
            space=space,
        ).data()
        speakers = session.run(
            "MATCH (c:Speaker:Character {space: $space})<-[:ABOUT]-(:Narrative) "
            "RETURN count(DISTINCT c) AS n",
            space=space,
        ).single()
    assert {r["story"] for r in about} == {r["id"] for r in rows}
    assert speakers is not None and speakers["n"] == 2  # the speakers' own nodes
    audit = store.read(
        "core.provenance_audit", space=space, labels=["Narrative", "Subplot", "StoryItem", "Fact"]
    )
    by_label = {r["label"]: r for r in audit}
    assert by_label["Narrative"]["nodes"] and by_label["StoryItem"]["nodes"] == 24
    assert by_label["Subplot"]["nodes"] >= 1
    assert all(r["without_from"] == 0 and r["foreign"] == 0 for r in audit)


def test_a_story_that_goes_quiet_is_consolidated_and_semanticised(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    ingest(memory_for(settings, store, embedder), space, two_topics())
    stats = amory_stats(store, space)
    assert stats["subplots"] >= 1 and stats["side_facts"] >= 1
    rows = store.read("amory.snapshot_stories", space=space)
    quiet = [r for r in rows if r["subplots"]]
    for row in quiet:
        spans = [(s["start"], s["end"]) for s in row["subplots"]]
        assert spans == sorted(spans) and spans[0][0] == 0  # consecutive blocks from the start
    facts = store.read("amory.side_facts", space=space)
    assert all(f["passage_ids"] for f in facts)


@pytest.mark.parametrize("mode", ["inactive", "rapid", "none"])
def test_sessions_built_one_by_one_equal_one_batch(
    settings: Settings, store: GraphStore, embedder: Embedder, mode: str
) -> None:
    memory = memory_for(settings, store, embedder, consolidation=mode, rapid_interval=3)
    conv = two_topics()
    # Unique names: runs of this test in parallel (or a killed one) share no space.
    tag = uuid.uuid4().hex[:8]
    batch, streamed = f"amory-batch-{mode}-{tag}", f"amory-stream-{mode}-{tag}"
    try:
        ingest(memory, batch, conv)
        for session in conv.sessions:
            ingest(memory, streamed, conv.model_copy(update={"sessions": [session]}))
        a, b = space_digest(store, batch), space_digest(store, streamed)
        assert a.labels.get("Narrative") and (a.labels, a.types) == (b.labels, b.types)
        assert a.sha256 == b.sha256
        if mode == "none":
            assert not a.labels.get("Subplot")
    finally:
        memory.forget(batch)
        memory.forget(streamed)


def test_reingest_adds_nothing(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    memory = memory_for(settings, store, embedder)
    ingest(memory, space, two_topics())
    before = space_digest(store, space)
    ingest(memory, space, two_topics())
    assert space_digest(store, space) == before


def test_retrieval_puts_the_chosen_stories_first_cited_and_in_budget(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    memory = memory_for(settings, store, embedder)
    ingest(memory, space, two_topics())
    found = memory.query("How long did Ben take for the Lisbon marathon?", space, "amory", 300)
    assert 0 < found.context.tokens <= 300
    first = found.result.hits[0]
    assert first.label in ("Narrative", "Subplot") and first.passages
    assert any("story:" in step for step in first.path)
    assert any("marathon" in p.text for p in first.passages)
    assert "marathon" in found.context.render()


def test_paper_preset_returns_only_k_stories(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    memory = memory_for(settings, store, embedder, fill_budget=False, fact_k=0, top_k=1)
    ingest(memory, space, two_topics())
    found = memory.query("Who is Pixel?", space, "amory", 2000)
    assert len(found.result.hits) == 1


def test_excerpt_fill_brings_single_turns_of_other_stories_after_the_k_stories(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    memory = memory_for(settings, store, embedder, fill="excerpts", top_k=1, fact_k=0)
    ingest(memory, space, two_topics())
    found = memory.query("How long did Ben take for the Lisbon marathon?", space, "amory", 2000)
    story, *rest = found.result.hits
    assert story.label in ("Narrative", "Subplot") and len(story.passages) > 1
    assert rest and all(h.label == "Passage" and len(h.passages) == 1 for h in rest)
    assert all(any("story:" in step for step in h.path) for h in rest)  # its story, explained
    shown = {p.id for p in story.passages}
    assert not shown & {h.passages[0].id for h in rest}  # no turn twice
    scores = [h.score for h in rest]
    assert scores == sorted(scores, reverse=True)


def _sessions_found(memory: Memory, space: str, question: str) -> set[str]:
    """The sessions (``D3``) of every turn Amory's kept retriever cites for ``question``."""
    hits = memory.retriever("amory", space).retrieve(question, 4000).hits
    return {p.source_id.split(":")[0] for h in hits for p in h.passages}


def test_a_kept_retriever_sees_a_later_session_at_the_next_query(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    """The Memory that ingests refreshes its kept retriever (trusted for 600 s, so no version
    read would catch it); another Memory's retriever, checking at every query, sees the new
    session through ``amory.version``."""
    writer = memory_for(
        settings.model_copy(update={"snapshot_recheck_seconds": 600.0}), store, embedder
    )
    reader = memory_for(
        settings.model_copy(update={"snapshot_recheck_seconds": 0.0}), store, embedder
    )
    conv = two_topics()
    question = "How long did Ben take for the Lisbon marathon?"
    ingest(writer, space, conv.model_copy(update={"sessions": conv.sessions[:2]}))
    assert _sessions_found(writer, space, question) == {"D1", "D2"}
    assert _sessions_found(reader, space, question) == {"D1", "D2"}
    ingest(writer, space, conv.model_copy(update={"sessions": conv.sessions[2:4]}))
    assert "D4" in _sessions_found(writer, space, question), "the writer's snapshot is stale"
    assert "D4" in _sessions_found(reader, space, question), "the version missed the ingest"


def test_the_version_sees_stories_built_over_stored_turns(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    """A build that adds no turn (the turns were stored first) still changes the version:
    stories, items, subplots and side facts are counted, not only turns."""
    every_query = settings.model_copy(update={"snapshot_recheck_seconds": 0.0})
    reader = memory_for(every_query, store, embedder)
    writer = memory_for(settings, store, embedder)
    conv = two_topics()
    writer.ingest_dataset(Dataset(conversations=[conv], qa={}), space, [])  # turns only
    question = "Who is Pixel?"
    before = reader.retriever("amory", space).retrieve(question, 2000).hits
    assert [h.node_id for h in before] == ["history"]  # no story yet: the full history
    version = store.read("amory.version", space=space)[0]
    ingest(writer, space, conv)
    after = store.read("amory.version", space=space)[0]
    assert after["passages"] == version["passages"] and after != version
    assert after["narratives"] and after["items"] == 24 and after["updated"]
    hits = reader.retriever("amory", space).retrieve(question, 2000).hits
    assert hits[0].label in ("Narrative", "Subplot")
    assert all(h.node_id != "history" for h in hits)


# --- the LLM path ---------------------------------------------------------------------------
def _numbers(section: str) -> list[int]:
    return [int(n) for n in re.findall(r"^(\d+)\. ", section, re.MULTILINE)]


def _answer(body: dict[str, Any]) -> Reply:
    prompt = body["messages"][-1]["content"]
    if "list of story threads" in prompt:
        numbers = _numbers(prompt.split("The conversation:")[1])
        return Reply.json(
            {
                "stories": [
                    {"owner": "Ana", "topic": "Pets", "content": numbers[: len(numbers) // 2]},
                    {"owner": "Ben", "topic": "Running", "content": numbers[len(numbers) // 2 :]},
                ]
            }
        )
    if "routing decisions" in prompt:
        new = _numbers(prompt.split("New conversation turn:")[1])
        decisions = [{"message": 0, "action": "extend_story", "topic": "Pets", "owner": "Ana"}]
        if len(new) > 1:
            decisions.append(
                {"message": 1, "action": "create_new_story", "topic": "Hobbies", "owner": "Ben"}
            )
        return Reply.json({"decisions": decisions})
    if "structure of a story" in prompt:
        items = _numbers(prompt.split("new memory items to analyze:")[1])
        return Reply.json(
            {
                "substories": [{"sub_topic": "Kittens", "indice": [0, max(items)]}],
                "new_topic": "Pets and family" if '"Pets"' in prompt else None,
            }
        )
    if "not logically inferable" in prompt:
        fact = {"fact": "Ana's kitten is Pixel", "timestamp": None, "item": 0}
        triple = {"subject": "Ana", "predicate": "has kitten", "object": "Pixel"}
        return Reply.json({"facts": [{**fact, **triple}]})
    if "select the top" in prompt:
        return Reply.json({"choices": [{"owner": "Ben", "topic": "Running"}]})
    if "read-only Cypher" in prompt:
        return Reply.json({"cypher": "MATCH (f:Fact {space: $space}) DETACH DELETE f"})
    return Reply.json({})


@pytest.fixture
def fake_llm(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    with fake_server(monkeypatch, _answer) as server:
        yield server


def test_llm_build_and_retrieval_follow_the_templates(
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    space: str,
    fake_llm: FakeOpenAIServer,
    tmp_path: Path,
) -> None:
    llm_settings = fake_llm_settings(settings, fake_llm.base_url, tmp_path)
    memory = memory_for(llm_settings, store, embedder)
    conv = tiny_conversation("conv-llm", sessions=2)  # 12 turns: 8 for init, then binding
    reports = memory.ingest_dataset(Dataset(conversations=[conv], qa={}), space, ["amory"]).builds
    by_builder = {r.builder: r for r in reports}  # the semantic layer's builder runs first
    assert by_builder["amory"].llm_calls > 0
    assert sum(r.llm_calls for r in reports) == fake_llm.request_count()
    prompts = [b["messages"][-1]["content"] for b in fake_llm.bodies()]
    assert sum("list of story threads" in p for p in prompts) == 1  # MemInit once
    assert any("routing decisions" in p for p in prompts)
    rows = {r["headline"]: r for r in store.read("amory.snapshot_stories", space=space)}
    # "Pets" is extended at every step (never quiet); "Running" went quiet: consolidated.
    assert {"Running", "Hobbies", "Pets"} <= set(rows)
    assert [s["headline"] for s in rows["Running"]["subplots"]] == ["Kittens"]
    facts = store.read("amory.side_facts", space=space)
    assert any(f["text"].startswith("Ana has kitten Pixel") for f in facts)
    found = memory.query("What is the name of Ana's kitten?", space, "amory", 500)
    first = found.result.hits[0]
    assert "LLM coherence prompt" in first.path and "Running" in first.path[1]
    assert any(h.label == "Fact" and "entity-matched" in h.path[0] for h in found.result.hits)
    explained = [step for hit in found.result.hits for step in hit.path]
    assert any("generated Cypher not used" in step and "DETACH" in step for step in explained)
    assert store.read("amory.side_facts", space=space) == facts  # nothing was deleted
    if memory.llm is not None:
        memory.llm.close()


def test_llm_sessions_built_one_by_one_equal_one_batch(
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    fake_llm: FakeOpenAIServer,
    tmp_path: Path,
) -> None:
    """Session 1 (6 turns) is below T = 8: held, then initialised with session 2's turns."""
    llm_settings = fake_llm_settings(settings, fake_llm.base_url, tmp_path)
    memory = memory_for(llm_settings, store, embedder)
    conv = tiny_conversation("conv-llm-inc", sessions=3)
    tag = uuid.uuid4().hex[:8]
    batch, streamed = f"amory-llm-batch-{tag}", f"amory-llm-stream-{tag}"
    try:
        ingest(memory, batch, conv)
        first = conv.model_copy(update={"sessions": conv.sessions[:1]})
        ingest(memory, streamed, first)
        assert not store.read("amory.snapshot_stories", space=streamed)  # below T: held
        for session in conv.sessions[1:]:
            ingest(memory, streamed, conv.model_copy(update={"sessions": [session]}))
        a, b = space_digest(store, batch), space_digest(store, streamed)
        assert a.labels.get("Narrative") and a.sha256 == b.sha256
    finally:
        memory.forget(batch)
        memory.forget(streamed)
        if memory.llm is not None:
            memory.llm.close()


def _nodes(store: GraphStore, space: str, label: str) -> list[dict[str, Any]]:
    rows = store.read("core.digest_nodes", space=space, skip=["embedding"])
    return [dict(r["props"]) for r in rows if label in r["labels"]]


def _label(props: dict[str, Any]) -> tuple[str, bool]:
    return props["backend"], bool(props.get("fallback"))


def test_llm_steps_that_fail_fall_back_alone_and_say_so(
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    space: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The model answers prose to the binding of the cello pair (after the repair too),
    prose to every consolidation, and side facts naming no item to every semanticization:
    each of those steps is done offline, the build goes on, the other steps stay the LLM's,
    and every node says which backend made it; nothing of the broken answers is stored."""

    def broken(body: dict[str, Any]) -> Reply:
        prompt = body["messages"][0]["content"]
        if "routing decisions" in prompt and "cello" in prompt.split("New conversation turn:")[1]:
            return Reply.text("Ben plays the cello, I think.")
        if "structure of a story" in prompt:
            return Reply.text('{"substories": [oops')
        if "not logically inferable" in prompt:
            fact = {"fact": "junk", "item": 99, "subject": "Ana", "predicate": "p", "object": "q"}
            return Reply.json({"facts": [fact]})
        return _answer(body)

    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    with FakeOpenAIServer(default=broken) as server:
        memory = memory_for(fake_llm_settings(settings, server.base_url, tmp_path), store, embedder)
        conv = tiny_conversation("conv-llm-broken", sessions=2)
        reports = memory.ingest_dataset(
            Dataset(conversations=[conv], qa={}), space, ["amory"]
        ).builds
        if memory.llm is not None:
            memory.llm.close()
    amory = next(r for r in reports if r.builder == "amory")
    assert sum(r.llm_calls for r in reports) == server.request_count()
    consolidations = sum(  # first requests only (a repair repeats the prompt)
        len(b["messages"]) == 1 and "structure of a story" in b["messages"][0]["content"]
        for b in server.bodies()
    )
    assert consolidations >= 1
    # the cello pair's binding, each consolidation and each semanticization
    assert amory.llm.fallbacks == 1 + 2 * consolidations
    # (session 1's turns were held for the initialisation, which the model answered)
    items = _nodes(store, space, "StoryItem")
    pair = [
        i
        for i in items
        if "(session 2)" in i["text"] and ("cello" in i["text"] or "sister" in i["text"])
    ]
    assert len(pair) == 2 and {_label(i) for i in pair} == {("offline", True)}
    others = [i for i in items if i not in pair]
    assert others and {_label(i) for i in others} == {("llm:fake-model", False)}
    subplots = _nodes(store, space, "Subplot")
    assert subplots and {_label(s) for s in subplots} == {("offline", True)}
    stories = {s["headline"]: _label(s) for s in _nodes(store, space, "Narrative")}
    assert stories["Pets"] == ("llm:fake-model", False)
    # the side facts are the offline semanticization's, none of the junk answer's
    side = store.read("amory.side_facts", space=space)
    assert all("junk" not in f["text"] and " p q" not in f["text"] for f in side)
    facts = [f for f in _nodes(store, space, "Fact") if f.get("builder") == "amory"]
    assert len(facts) == len(side)
    assert facts and all(_label(f) == ("offline", True) for f in facts)


def test_an_initialisation_the_llm_fails_binds_the_held_turns_offline(
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    space: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """MemInit gets prose: the first T turns are bound by the offline mind, their stories
    and items say so, and the bindings after them are the LLM's again."""

    def broken(body: dict[str, Any]) -> Reply:
        if "list of story threads" in body["messages"][0]["content"]:
            return Reply.text("Two stories, I would say: pets and running.")
        return _answer(body)

    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    with FakeOpenAIServer(default=broken) as server:
        memory = memory_for(fake_llm_settings(settings, server.base_url, tmp_path), store, embedder)
        conv = tiny_conversation("conv-llm-noinit", sessions=2)
        reports = memory.ingest_dataset(
            Dataset(conversations=[conv], qa={}), space, ["amory"]
        ).builds
        if memory.llm is not None:
            memory.llm.close()
    amory = next(r for r in reports if r.builder == "amory")
    assert amory.llm.fallbacks == 1 and amory.llm.repairs == 1
    items = _nodes(store, space, "StoryItem")
    held = [i for i in items if i["step"] < 4]  # T = 8 turns: steps 0-3
    later = [i for i in items if i["step"] >= 4]
    assert held and {_label(i) for i in held} == {("offline", True)}
    assert later and {_label(i) for i in later} == {("llm:fake-model", False)}
    stories = [_label(s) for s in _nodes(store, space, "Narrative")]
    assert ("offline", True) in stories and ("llm:fake-model", False) in stories
