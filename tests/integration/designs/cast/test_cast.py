"""CAST on a real Neo4j: views with provenance, character streams with a mentioned person,
scenes and roles, profiles (function and CLI), stats, idempotent and incremental building,
the retriever over the semantic layer, and the LLM summary path against a fake server."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.designs.cast.builder import CastBuilder
from graphmem.designs.cast.config import CastSettings
from graphmem.designs.cast.profile import character_profile
from graphmem.designs.cast.retriever import CastRetriever
from graphmem.designs.cast.stats import cast_stats
from graphmem.designs.cast.summary import SUMMARY_SYSTEM
from graphmem.embed import Embedder
from graphmem.errors import InputError
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import ConversationIn, SessionIn, Turn
from graphmem.ingest.writer import IngestReport, PassageWriter, passage_id, session_id
from graphmem.llm.openai_llm import OpenAIStructuredLLM
from graphmem.plugin.builder import BuildContext, SessionBatch, run_build
from graphmem.plugin.retriever import RetrievalContext
from graphmem.retrieval.packer import pack
from graphmem.semantic import SemanticBuilder
from tests.fakes.openai_server import FakeOpenAIServer, Reply
from tests.integration.helpers import fake_llm_settings, fake_server
from tests.paths import ROOT

pytestmark = pytest.mark.integration

SESSIONS = [
    (
        datetime(2023, 5, 8, 13, 0),
        [
            ("Caroline", "Gina told me her team won first place at the dance contest."),
            ("Melanie", "Nice! What did Gina's team perform?"),
            ("Caroline", "A contemporary dance piece called Finding Freedom."),
            ("Melanie", "I love contemporary dance, it is so expressive."),
        ],
    ),
    (
        datetime(2023, 5, 20, 18, 0),
        [
            ("Melanie", "I baked sourdough bread in Boston with my kids yesterday."),
            ("Caroline", "Baking bread sounds lovely, what flour did you use?"),
            ("Melanie", "Whole wheat flour, and the kids shaped the loaves."),
        ],
    ),
    (
        datetime(2023, 5, 21, 10, 0),
        [
            ("Caroline", "I started pottery classes in Boston last week."),
            ("Melanie", "Pottery is relaxing, I made a bowl once."),
        ],
    ),
]


def conversation(cid: str = "conv-cast") -> ConversationIn:
    sessions = []
    for s, (at, lines) in enumerate(SESSIONS):
        turns = [
            Turn(source_id=f"D{s + 1}:{i + 1}", speaker=who, text=text, timestamp=at, index=i)
            for i, (who, text) in enumerate(lines)
        ]
        sessions.append(
            SessionIn(index=s, source_id=f"session_{s + 1}", started_at=at, turns=turns)
        )
    return ConversationIn(
        conversation_id=cid, speakers=["Caroline", "Melanie"], sessions=sessions, meta={}
    )


def batch(conv: ConversationIn, indexes: list[int] | None = None) -> SessionBatch:
    chosen = [conv.sessions[i] for i in (indexes if indexes is not None else range(3))]
    return SessionBatch(
        conversation=conv,
        sessions=chosen,
        session_ids=[session_id(conv, s) for s in chosen],
        passage_ids=[[passage_id(conv, s, t) for t in s.turns] for s in chosen],
    )


def write_core(store: GraphStore, embedder: Embedder, space: str, conv: ConversationIn) -> None:
    PassageWriter(store, embedder).write_conversation(space, conv, IngestReport())


def graph(store: GraphStore, space: str) -> dict[str, Any]:
    """Everything CAST wrote, comparable between two builds."""
    scenes = store.read("cast.space_scenes", space=space)
    views = store.read("cast.space_views", space=space)
    roles = store.read("cast.characters", space=space)
    return {
        "scenes": sorted((r["id"], r["character"], sorted(r["passage_ids"])) for r in scenes),
        "summaries": sorted(r["summary"] for r in scenes),
        "views": sorted((r["id"], tuple(r["passage_ids"])) for r in views),
        "characters": sorted((r["name"], r["speaker"], r["scenes"]) for r in roles),
    }


@pytest.fixture
def built(
    store: GraphStore, embedder: Embedder, space: str, settings: Settings
) -> tuple[str, ConversationIn]:
    conv = conversation()
    write_core(store, embedder, space, conv)
    CastBuilder(BuildContext(store, embedder, settings, space), CastSettings()).build(batch(conv))
    return space, conv


def test_views_streams_scenes_roles_and_profile(
    store: GraphStore, built: tuple[str, ConversationIn]
) -> None:
    space, _ = built
    views = store.read("cast.space_views", space=space)
    assert len(views) == 9  # one per turn
    by_centre = {r["centre"]: r for r in views}
    sources = {r["id"]: r["source_id"] for r in store.read("cast.space_passages", space=space)}
    windows = sorted(sorted(sources[p] for p in r["passage_ids"]) for r in by_centre.values())
    assert ["D1:1", "D1:2"] in windows and ["D1:1", "D1:2", "D1:3"] in windows
    assert ["D2:3", "D3:1"] not in windows  # a view never crosses its session
    # Gina is named, never speaks: a Character (not a Speaker) with the speakers' id scheme
    characters = {r["name"]: r for r in store.read("cast.characters", space=space)}
    assert characters["Gina"]["speaker"] is False and characters["Gina"]["scenes"] >= 1
    assert characters["Caroline"]["speaker"] is True
    gina = character_profile(store, space, "gina")
    assert [s.role for s in gina.scenes] == ["SC"] and gina.scenes[0].date_text
    assert "Caroline" in gina.scenes[0].main and "Gina" in gina.scenes[0].supporting
    # Caroline: session 1 is one scene (same day, on topic); sessions 2 and 3 are a day
    # apart and both in Boston, but bread and pottery are different topics
    caroline = character_profile(store, space, "Caroline")
    assert [s.order for s in caroline.scenes] == list(range(len(caroline.scenes)))
    assert all(s.role == "MC" for s in caroline.scenes)
    starts = [s.start for s in caroline.scenes]
    assert starts == sorted(starts)
    stats = cast_stats(store, space)
    assert stats["views"] == 9 and stats["scenes"] >= 3
    assert stats["mentioned_characters"] == 1 and stats["supporting_roles"] >= 1
    assert stats["views_with_place"] >= 2  # Boston, twice


def test_scene_provenance_and_ids(store: GraphStore, built: tuple[str, ConversationIn]) -> None:
    space, conv = built
    scenes = store.read("cast.space_scenes", space=space)
    turns = {passage_id(conv, s, t) for s in conv.sessions for t in s.turns}
    for scene in scenes:
        assert scene["passage_ids"] and set(scene["passage_ids"]) <= turns
        assert scene["summary"].startswith(scene["character"])
    # the scene's turns are exactly the union of its views' windows
    windows = {
        r["centre"]: set(r["passage_ids"]) for r in store.read("cast.space_views", space=space)
    }
    for scene in scenes:
        covered = set().union(*(windows[p] for p in scene["passage_ids"] if p in windows))
        assert set(scene["passage_ids"]) <= covered


def test_rebuild_is_idempotent_and_incremental_equals_batch(
    store: GraphStore, embedder: Embedder, settings: Settings, space: str
) -> None:
    conv = conversation()
    write_core(store, embedder, space, conv)
    builder = CastBuilder(BuildContext(store, embedder, settings, space), CastSettings())
    builder.build(batch(conv))
    once = graph(store, space)
    builder.build(batch(conv))  # a crash after writing, before marking built: rerun
    assert graph(store, space) == once
    other = f"{space}-inc"
    try:
        write_core(store, embedder, other, conv)
        chunked = CastBuilder(BuildContext(store, embedder, settings, other), CastSettings())
        for index in range(3):
            chunked.build(batch(conv, [index]))
        assert graph(store, other) == once
    finally:
        while store.write("core.delete_space_batch", space=other, batch=5000)[0]["deleted"]:
            pass


def test_speakers_only_and_no_window(
    store: GraphStore, embedder: Embedder, settings: Settings, space: str
) -> None:
    conv = conversation()
    write_core(store, embedder, space, conv)
    config = CastSettings(window=0, participants="speakers")
    CastBuilder(BuildContext(store, embedder, settings, space), config).build(batch(conv))
    views = store.read("cast.space_views", space=space)
    assert all(len(r["passage_ids"]) == 1 for r in views)
    names = {r["name"] for r in store.read("cast.characters", space=space) if r["scenes"]}
    assert names == {"Caroline", "Melanie"}


def test_retriever_fuses_within_the_budget(
    store: GraphStore, embedder: Embedder, settings: Settings, space: str
) -> None:
    conv = conversation()
    write_core(store, embedder, space, conv)
    ctx = BuildContext(store, embedder, settings, space)
    SemanticBuilder(ctx, ctx.configs.get("semantic")).build(batch(conv))
    CastBuilder(ctx, CastSettings()).build(batch(conv))
    rctx = RetrievalContext(store, embedder, settings, space)
    query = "What piece did Gina's team perform when they won first place?"
    results = {}
    for fusion in ("promote", "off"):
        # The paper's views: the answer (D1:3) is the neighbour of a matched turn.
        retriever = CastRetriever(rctx, CastSettings(fusion=fusion, view_turns="window"))
        retriever.prepare()
        result = retriever.retrieve(query, 120)
        packed = pack(result.hits, 120, embedder.count_tokens)
        assert packed.tokens <= 120
        # every turn the retriever chose fits: the packer drops nothing
        assert packed.source_ids == {p.source_id for h in result.hits for p in h.passages}
        results[fusion] = (result, packed)
    promoted, _ = results["promote"]
    assert all(h.label == "View" and h.strategy == "cast" for h in promoted.hits)
    assert any("promoted: scene" in line for h in promoted.hits for line in h.path)
    # fusion reorders, never changes the set
    assert results["promote"][1].source_ids == results["off"][1].source_ids
    assert "D1:3" in results["promote"][1].source_ids
    fixed = CastRetriever(rctx, CastSettings(semantic_k=2)).retrieve(query, 1000)
    assert len(fixed.hits) == 2
    # The paper shows each entry's view (w = 1 neighbours); the default its centre turn only.
    window = CastRetriever(rctx, CastSettings(semantic_k=2, view_turns="window"))
    assert any(len(h.passages) > 1 for h in window.retrieve(query, 1000).hits)
    assert all(len(h.passages) == 1 for h in fixed.hits)
    assert [h.node_id for h in window.retrieve(query, 1000).hits] == [h.node_id for h in fixed.hits]


def test_a_reloaded_snapshot_counts_dates_from_its_latest_scene(
    store: GraphStore,
    embedder: Embedder,
    settings: Settings,
    space: str,
) -> None:
    """Relative dates in a question count from the latest scene: a snapshot read again
    after a later session counts from its own latest scene, not the first one's."""
    conv = conversation()
    write_core(store, embedder, space, conv)
    builder = CastBuilder(BuildContext(store, embedder, settings, space), CastSettings())
    builder.build(batch(conv, [0]))
    trusting = settings.model_copy(update={"snapshot_recheck_seconds": 600.0})
    retriever = CastRetriever(RetrievalContext(store, embedder, trusting, space), CastSettings())
    first = retriever.index().latest
    assert retriever._now(retriever.index()) == first
    builder.build(batch(conv, [1, 2]))
    retriever.refresh()  # as Memory does after its own ingest
    later = retriever.index().latest
    assert later > first and retriever._now(retriever.index()) == later


def test_profile_cli(built: tuple[str, ConversationIn], settings: Settings) -> None:
    space, _ = built
    runner = CliRunner()
    out = runner.invoke(cli, ["profile", "--space", space, "--character", "Gina"])
    assert out.exit_code == 0, out.output
    assert "Gina: 1 scene\n" in out.output and "[SC]" in out.output
    missing = runner.invoke(cli, ["profile", "--space", space, "--character", "Nobody"])
    assert missing.exit_code == InputError.exit_code and "Caroline" in missing.output
    # a process of its own, as a user runs it: nothing else has read the designs' Cypher
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    command = [sys.executable, "-c", "from graphmem.cli.main import main; main()"]
    done = subprocess.run(
        [*command, "profile", "--space", space, "--character", "Gina"],
        env=env,
        cwd=str(ROOT),
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert "Gina: 1 scene\n" in done.stdout.decode()


@pytest.fixture
def fake_llm_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    def answer(body: dict[str, Any]) -> Reply:
        assert body["messages"][0]["content"] == SUMMARY_SYSTEM
        head = body["messages"][-1]["content"].splitlines()[0]
        return Reply.json({"summary": f"LLM summary of {head}"})

    with fake_server(monkeypatch, answer) as server:
        yield server


def test_llm_summaries(
    store: GraphStore,
    embedder: Embedder,
    space: str,
    settings: Settings,
    fake_llm_server: FakeOpenAIServer,
    tmp_path: Path,
) -> None:
    llm_settings = fake_llm_settings(settings, fake_llm_server.base_url, tmp_path)
    conv = conversation()
    write_core(store, embedder, space, conv)
    with OpenAIStructuredLLM(llm_settings) as llm:
        ctx = BuildContext(store, embedder, settings, space, llm)
        report = run_build(CastBuilder(ctx, CastSettings()), batch(conv))
    scenes = store.read("cast.space_scenes", space=space)
    assert report.llm_calls == len(scenes) == fake_llm_server.request_count()
    assert all(s["summary"].startswith("LLM summary of Scene: ") for s in scenes)
