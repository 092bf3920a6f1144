"""SEEM's pure parts: names, seed formula, offline frames, the offline judge and the
consolidation loop (no database)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

import numpy as np
import pytest

from graphmem.designs.seem.consolidate import (
    Candidate,
    Consolidator,
    Frame,
    LLMJudge,
    OfflineJudge,
    centroid,
)
from graphmem.designs.seem.frames import (
    FrameDraft,
    compose_summary,
    llm_frames,
    offline_frame,
    windows_of,
)
from graphmem.designs.seem.llm_prompts import EventSlots, FrameOut
from graphmem.designs.seem.retriever import FrameRow, expand
from graphmem.designs.seem.settings import SeemSettings
from graphmem.designs.seem.vectors import fold
from graphmem.errors import LLMItemError
from graphmem.llm import Message
from graphmem.llm.types import T
from graphmem.nlp import analyse, extract_triples
from graphmem.plugin.retriever import PassageRef
from graphmem.semantic.extract import PassageIn
from graphmem.semantic.retriever import RankedPassage
from tests.unit.semantic.test_semantic import Stub, passage_in

REF = datetime(2023, 5, 8, 13, 56)


# --- offline frames -------------------------------------------------------------------------
def test_offline_frame_fills_the_six_slots() -> None:
    text = (
        "I went to a pottery class in Lisbon yesterday because my therapist suggested it. "
        "I carefully painted a bowl."
    )
    passage = passage_in(text)
    doc = analyse(text)
    triples = extract_triples(doc, passage.speaker, passage.ts)
    frame = offline_frame([passage], [doc], [triples], {"ana"}, max_events=8, summary_limit=3)
    assert frame.summary.startswith("On 8 May 2023, Ana went to a pottery class")
    assert "yesterday (7 May 2023)" in frame.summary
    trip = next(e for e in frame.events if "pottery" in e.action)
    assert trip.participants == ["Ana"]
    assert (trip.time, trip.location) == ("7 May 2023", "Lisbon")
    assert trip.causality is not None and "therapist" in trip.causality
    assert next(e for e in frame.events if "bowl" in e.action).manner == "carefully"
    assert {"pottery", "bowl", "therapist"} <= set(frame.topics)
    assert "yesterday" not in frame.topics  # a time is not a topic
    assert "ana" not in frame.topics  # nor is a speaker


def test_compose_summary_keeps_the_most_contentful_statements_in_order() -> None:
    statements = [
        "Ben said: Wow!",
        "Ana adopted a grey kitten named Pixel.",
        "Ben said: Pixel is a lovely name.",
    ]
    out = compose_summary(REF, REF + timedelta(days=2), statements, limit=2)
    assert out == (
        "On 8 May 2023 to 10 May 2023, Ana adopted a grey kitten named Pixel. "
        "Ben said: Pixel is a lovely name."
    )
    assert compose_summary(None, None, statements[:1], limit=2) == "Ben said: Wow!"


def test_windows_never_span_sessions() -> None:
    passages = [
        PassageIn(f"p{i}", "Ana", "x", None, REF, None, session, i)
        for i, session in enumerate([0, 0, 0, 1, 1])
    ]
    assert [[p.id for p in w] for w in windows_of(passages, 2)] == [
        ["p0", "p1"],
        ["p2"],
        ["p3", "p4"],
    ]


# --- consolidation ------------------------------------------------------------------------------
def _vector(*values: float) -> np.ndarray:
    v = np.array(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def _draft(pid: str, topics: list[str], hours: float = 0.0) -> FrameDraft:
    ts = REF + timedelta(hours=hours)
    return FrameDraft(
        passage_ids=[pid],
        summary=f"On 8 May 2023, statement {pid}.",
        events=[EventSlots(participants=["Ana"], action=f"Ana did {pid}")],
        participants=["Ana"],
        topics=topics,
        start=ts,
        end=ts,
        statements=[f"statement {pid}."],
    )


def test_offline_judge_rules() -> None:
    judge = OfflineJudge(SeemSettings(fuse_min_similarity=0.7, fuse_max_gap_hours=24))
    a = Frame.from_draft(_draft("a", ["pottery"]), _vector(1, 0))
    b = Frame.from_draft(_draft("b", ["pottery", "bowl"]), _vector(1, 0))
    far = Frame.from_draft(_draft("c", ["pottery"], hours=48), _vector(1, 0))
    other = Frame.from_draft(_draft("d", ["camping"]), _vector(1, 0))
    assert judge.same_event(b, a, 0.9)
    assert not judge.same_event(b, a, 0.6)  # not similar enough
    assert not judge.same_event(other, a, 0.95)  # nothing shared
    assert judge.admissible(b, a) and not judge.admissible(far, a)  # two days apart


def test_consolidation_fuses_and_unions_provenance() -> None:
    config = SeemSettings(fuse_min_similarity=0.7)
    drafts = [_draft("a", ["pottery"]), _draft("b", ["camping"]), _draft("c", ["pottery"])]
    vectors = np.stack([_vector(1, 0, 0), _vector(0, 1, 0), _vector(1, 0.1, 0)])
    result = Consolidator(config, OfflineJudge(config)).run(drafts, vectors, [[], [], []])
    assert (result.created, result.fused) == (2, 1)
    fused = next(f for f in result.frames if len(f.passage_ids) == 2)
    assert fused.passage_ids == ["a", "c"]
    assert [e.action for e in fused.events] == ["Ana did a", "Ana did c"]
    assert "statement a." in fused.summary and "statement c." in fused.summary
    assert np.linalg.norm(fused.embedding) == pytest.approx(1.0, abs=1e-5)


def test_a_fused_frames_vector_is_replayed_from_its_parts() -> None:
    """What ``graphmem reembed`` recomputes: the fold of the parts a frame keeps, in the
    order they were fused, equals the vector consolidation stored (not their plain mean,
    which normalising at each step makes differ by more than reembed's bar of 0.9999)."""
    config = SeemSettings(fuse_min_similarity=0.0, max_frame_passages=8)
    drafts = [_draft(x, ["pottery"]) for x in "abcd"]
    drafts[1] = replace(drafts[1], passage_ids=["b", "b2", "b3"])
    raw = [(1, 0, 0), (0.6, 0.8, 0), (0, 0.6, 0.8), (0.5, 0.5, 0.7)]
    vectors = np.stack([_vector(*v) for v in raw])
    result = Consolidator(config, OfflineJudge(config)).run(drafts, vectors, [[]] * 4)
    (frame,) = result.frames
    assert frame.part_sizes == [1, 3, 1, 1] and frame.part_passages == frame.passage_ids
    assert frame.part_texts == [d.summary for d in drafts]
    replayed = fold(list(vectors), frame.part_sizes, frame.part_passages)
    assert np.allclose(replayed, frame.embedding, atol=1e-7)
    weights = np.asarray(frame.part_sizes, dtype=np.float32)[:, None]
    plain = (vectors * weights).sum(axis=0)
    assert float(frame.embedding @ (plain / np.linalg.norm(plain))) < 0.9999  # reembed's bar


def test_consolidation_respects_the_frame_size_cap() -> None:
    config = SeemSettings(fuse_min_similarity=0.5, max_frame_passages=2)
    drafts = [_draft(x, ["pottery"]) for x in "abc"]
    vectors = np.stack([_vector(1, 0)] * 3)
    result = Consolidator(config, OfflineJudge(config)).run(drafts, vectors, [[], [], []])
    assert sorted(len(f.passage_ids) for f in result.frames) == [1, 2]


def test_chunked_consolidation_meets_the_same_candidates() -> None:
    """Drafts split in two batches, the first batch's frames offered as stored candidates
    (what the vector index returns), end in the same frames as one batch."""
    config = SeemSettings(fuse_min_similarity=0.7)
    drafts = [_draft(x, ["pottery"] if x in "ace" else ["camping"]) for x in "abcde"]
    raw = [(1, 0, 0), (0, 1, 0), (1, 0.2, 0), (0, 1, 0.3), (1, 0, 0.1)]
    vectors = np.stack([_vector(*v) for v in raw])
    judge = OfflineJudge(config)
    whole = Consolidator(config, judge).run(drafts, vectors, [[] for _ in drafts])
    first = Consolidator(config, judge).run(drafts[:2], vectors[:2], [[], []])
    stored = [[Candidate(float(v @ f.embedding), f) for f in first.frames] for v in vectors[2:]]
    second = Consolidator(config, judge).run(drafts[2:], vectors[2:], stored)
    merged = {f.id: f.passage_ids for f in first.frames} | {
        f.id: f.passage_ids for f in second.frames
    }
    assert merged == {f.id: f.passage_ids for f in whole.frames}


class _GivesUp(Stub):
    """A model that gives up on every request (as after failed repairs)."""

    def generate(self, messages: Sequence[Message], schema: type[T]) -> T:
        raise LLMItemError("stub: invalid after repair")


def test_a_fusion_the_llm_gives_up_on_is_extractive_and_marked_offline() -> None:
    config = SeemSettings(fuse_min_similarity=0.7)
    llm_frame = Frame.from_draft(_draft("a", ["pottery"]), _vector(1, 0))
    offline = Frame.from_draft(replace(_draft("b", ["pottery"]), fallback=True), _vector(1, 0))
    assert offline.fallback and offline.fallback_actions == {"ana did b"}
    assert not llm_frame.fallback and not llm_frame.fallback_actions
    llm = _GivesUp({})
    fused = LLMJudge(config, llm).fuse(llm_frame, offline)
    assert fused.fallback and "statement a." in fused.summary
    # the LLM's event stays the LLM's; the offline one stays marked
    assert [e.action for e in fused.events] == ["Ana did a", "Ana did b"]
    assert fused.fallback_actions == {"ana did b"}
    assert llm.usage.snapshot().fallbacks == 1
    # an offline run's fusion is no fallback
    assert not OfflineJudge(config).fuse(llm_frame, llm_frame).fallback


def test_centroid_weights_by_passages() -> None:
    a = Frame.from_draft(_draft("a", []), _vector(1, 0))
    a.passage_ids = ["a", "x", "y"]
    b = Frame.from_draft(_draft("b", []), _vector(0, 1))
    mean = centroid(a, b)
    assert mean[0] == pytest.approx(3 / np.sqrt(10), abs=1e-5)


# --- reverse provenance expansion -------------------------------------------------------------
def _ref(pid: str) -> PassageRef:
    return PassageRef(id=pid, source_id=pid.upper(), speaker="Ana", text=pid)


def test_expansion_adds_frame_mates_with_a_share_of_the_score_within_the_cap() -> None:
    ranked = [RankedPassage(_ref("a"), 1, 1.0), RankedPassage(_ref("b"), 2, 0.4)]
    frame_a = FrameRow("fa", "summary a", [_ref("a"), _ref("x"), _ref("y")])
    frame_b = FrameRow("fb", "summary b", [_ref("b"), _ref("z")])
    frames = {"a": [frame_a], "x": [frame_a], "y": [frame_a], "b": [frame_b], "z": [frame_b]}
    final, why = expand(ranked, frames, factor=2.0, decay=0.5)
    # x and y inherit 0.5 (above b's 0.4); z (0.2) does not fit: 2 * 2 passages at most
    assert [p.ref.id for p in final] == ["a", "x", "y", "b"]
    assert set(why) == {"x", "y"} and "frame of A" in why["x"]
    unlimited, _ = expand(ranked, frames, factor=3.0, decay=0.5)
    assert [p.ref.id for p in unlimited] == ["a", "x", "y", "b", "z"]
    assert expand(ranked, frames, factor=1.0, decay=0.5)[0] == ranked  # no room, no change


def test_llm_frames_take_the_summary_and_events() -> None:
    event = EventSlots(participants=["Ana", "Pixel"], action="Ana adopted Pixel", location="Lyon")
    stub = Stub({FrameOut: FrameOut(summary=" Ana adopted Pixel. ", events=[event])})
    (draft,) = llm_frames(stub, [[passage_in("I adopted Pixel.")]], {"ana"}, max_events=4)
    assert draft.summary == "Ana adopted Pixel." and draft.events == [event]
    assert draft.participants == ["Ana", "Pixel"]
    assert draft.topics == ["lyon", "pixel"]  # the speaker is not a topic
