"""SEEM's pure parts: names, seed formula, offline frames, the offline judge and the
consolidation loop (no database)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

import numpy as np
import pytest
from pydantic import BaseModel

from graphmem.designs.seem.config import SeemConfig
from graphmem.designs.seem.consolidate import Candidate, Consolidator, Frame, OfflineJudge, centroid
from graphmem.designs.seem.extract import PassageIn, llm_facts, offline_facts
from graphmem.designs.seem.frames import (
    FrameDraft,
    compose_summary,
    llm_frames,
    offline_frame,
    windows_of,
)
from graphmem.designs.seem.index import over_fetch
from graphmem.designs.seem.llm_prompts import (
    EventSlots,
    FrameOut,
    QuadrupleExtraction,
    QuadrupleOut,
)
from graphmem.designs.seem.names import alnum_length, head_noun, human_date, normalise_name
from graphmem.designs.seem.retriever import RankedPassage, expand
from graphmem.designs.seem.seeds import (
    Scored,
    SeedEntity,
    entity_weights,
    passage_groups,
    passage_weights,
    quantise,
    seed_groups,
)
from graphmem.designs.seem.snapshot import FrameRow
from graphmem.llm import Message, StructuredLLM
from graphmem.llm.base import T
from graphmem.nlp import analyse
from graphmem.retrieval.base import PassageRef

REF = datetime(2023, 5, 8, 13, 56)


# --- names --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "key"),
    [
        ("The Pottery Class", "pottery class"),
        ("  my   grey  Kitten! ", "grey kitten"),
        ("“Becoming Nicole”", "becoming nicole"),
        ("the", "the"),  # a lone determiner is kept rather than emptied
        ("Caroline's  dog", "caroline's dog"),
        ("the grey kittens", "grey kitten"),  # a common-noun head in the singular
        ("adoption agencies", "adoption agency"),
        ("glasses", "glass"),
        ("James", "james"),  # a name is not a plural
        ("news", "news"),
    ],
)
def test_normalise_name(raw: str, key: str) -> None:
    assert normalise_name(raw) == key


def test_head_noun_and_alnum_length() -> None:
    assert head_noun("grey kittens") == head_noun("grey kitten") == "kitten"
    assert head_noun("adoption agencies") == "agency"
    assert head_noun("glass") == "glass"
    assert alnum_length("a-b!") == 2
    assert alnum_length("LGBTQ+") == 5


@pytest.mark.parametrize(
    ("value", "human"),
    [
        ("2023-05-07", "7 May 2023"),
        ("2023-05", "May 2023"),
        ("2022", "2022"),
        ("week of 2023-05-01", "the week of 1 May 2023"),
        ("Before 2023-05-08", "before 8 May 2023"),
        ("After 2023-05", "after May 2023"),
        ("sometime", "sometime"),
    ],
)
def test_human_date(value: str, human: str) -> None:
    assert human_date(value) == human


def test_over_fetch_scales_with_the_share_of_the_space() -> None:
    assert over_fetch(5, total=1000, in_space=0) == 0
    assert over_fetch(5, total=100, in_space=100) == 18  # ceil(5 * 1 * 1.5) + 10
    assert over_fetch(5, total=1000, in_space=100) == 85
    assert over_fetch(50, total=40, in_space=40) == 50  # never below k


# --- seeds ----------------------------------------------------------------------------------
def _entity(name: str, passages: int, node: int) -> SeedEntity:
    return SeedEntity(name, node, passages)


def test_entity_weights_divide_by_passages_and_keep_the_top() -> None:
    hub, rare, mid = _entity("hub", 100, 1), _entity("rare", 1, 2), _entity("mid", 4, 3)
    weights = entity_weights(
        [Scored(hub, 0.9), Scored(rare, 0.5), Scored(mid, 0.8), Scored(rare, 0.3)], top_n=2
    )
    assert list(weights) == [rare, mid]
    assert weights[rare] == pytest.approx(0.8)  # 0.5 / 1 + 0.3 / 1: contributions add up
    assert weights[mid] == pytest.approx(0.2)


def test_entity_weights_ignore_non_positive_scores() -> None:
    assert entity_weights([Scored(_entity("x", 1, 1), 0.0)], top_n=5) == {}


def test_passage_groups_min_max_normalise_and_quantise() -> None:
    scores = [(10, 0.9), (11, 0.85), (12, 0.5), (13, 0.1)]
    groups = passage_groups(scores, passage_weight=0.05, levels=4)
    members = [sorted(g.nodes) for g in groups]
    assert members == [[10, 11], [12]]  # 13 is the minimum: weight 0, not a seed
    assert groups[0].weight == pytest.approx(0.05 * (1.0 + 0.9375) / 2)
    assert groups[1].weight == pytest.approx(0.05 * 0.5)
    assert passage_groups(scores, passage_weight=0.0, levels=4) == []


def test_quantise_exact_or_in_levels() -> None:
    weights = [(1, 0.9), (2, 0.8), (3, 0.2), (4, 0.0)]
    exact = quantise(weights, levels=0)
    assert [(g.nodes, g.weight) for g in exact] == [([1], 0.9), ([2], 0.8), ([3], 0.2)]
    two = quantise(weights, levels=2)
    assert [(g.nodes, round(g.weight, 3)) for g in two] == [([1, 2], 0.85), ([3], 0.2)]
    assert quantise([], levels=3) == []


def test_passage_weights_normalise_over_all_passages() -> None:
    weights = dict(passage_weights([(1, 0.5), (2, 0.3), (3, 0.1)], passage_weight=0.05))
    assert weights == pytest.approx({1: 0.05, 2: 0.025})  # the minimum gets nothing


def test_seed_groups_one_run_per_entity_then_passages() -> None:
    e = _entity("e", 2, 7)
    groups = seed_groups({e: 0.4}, passage_groups([(1, 1.0), (2, 0.0)], 0.05, 2))
    assert [(g.nodes, round(g.weight, 3)) for g in groups] == [([7], 0.4), ([1], 0.05)]


# --- offline extraction and frames -------------------------------------------------------------
def _passage(text: str, pid: str = "p1", speaker: str = "Ana", ts: datetime = REF) -> PassageIn:
    return PassageIn(pid, speaker, text, None, ts, "8 May 2023", 0, 0)


def test_offline_facts_resolve_the_speaker_and_time() -> None:
    passage = _passage("I went to a pottery class in Lisbon yesterday.")
    facts, triples = offline_facts(passage, analyse(passage.text), None, limit=8)
    assert ("Ana", "went to", "2023-05-07") in {
        (q.subject, q.relation, q.time) for q in facts.quadruples
    }
    assert "Lisbon" in facts.mentions
    assert triples


def test_offline_frame_fills_the_six_slots() -> None:
    text = (
        "I went to a pottery class in Lisbon yesterday because my therapist suggested it. "
        "I carefully painted a bowl."
    )
    passage = _passage(text)
    doc = analyse(text)
    _, triples = offline_facts(passage, doc, None, limit=8)
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
    judge = OfflineJudge(SeemConfig(fuse_min_similarity=0.7, fuse_max_gap_hours=24))
    a = Frame.from_draft(_draft("a", ["pottery"]), _vector(1, 0))
    b = Frame.from_draft(_draft("b", ["pottery", "bowl"]), _vector(1, 0))
    far = Frame.from_draft(_draft("c", ["pottery"], hours=48), _vector(1, 0))
    other = Frame.from_draft(_draft("d", ["camping"]), _vector(1, 0))
    assert judge.same_event(b, a, 0.9)
    assert not judge.same_event(b, a, 0.6)  # not similar enough
    assert not judge.same_event(other, a, 0.95)  # nothing shared
    assert judge.admissible(b, a) and not judge.admissible(far, a)  # two days apart


def test_consolidation_fuses_and_unions_provenance() -> None:
    config = SeemConfig(fuse_min_similarity=0.7)
    drafts = [_draft("a", ["pottery"]), _draft("b", ["camping"]), _draft("c", ["pottery"])]
    vectors = np.stack([_vector(1, 0, 0), _vector(0, 1, 0), _vector(1, 0.1, 0)])
    result = Consolidator(config, OfflineJudge(config)).run(drafts, vectors, [[], [], []])
    assert (result.created, result.fused) == (2, 1)
    fused = next(f for f in result.frames if len(f.passage_ids) == 2)
    assert fused.passage_ids == ["a", "c"]
    assert [e.action for e in fused.events] == ["Ana did a", "Ana did c"]
    assert "statement a." in fused.summary and "statement c." in fused.summary
    assert np.linalg.norm(fused.embedding) == pytest.approx(1.0, abs=1e-5)


def test_consolidation_respects_the_frame_size_cap() -> None:
    config = SeemConfig(fuse_min_similarity=0.5, max_frame_passages=2)
    drafts = [_draft(x, ["pottery"]) for x in "abc"]
    vectors = np.stack([_vector(1, 0)] * 3)
    result = Consolidator(config, OfflineJudge(config)).run(drafts, vectors, [[], [], []])
    assert sorted(len(f.passage_ids) for f in result.frames) == [1, 2]


def test_chunked_consolidation_meets_the_same_candidates() -> None:
    """Drafts split in two batches, the first batch's frames offered as stored candidates
    (what the vector index returns), end in the same frames as one batch."""
    config = SeemConfig(fuse_min_similarity=0.7)
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


# --- the LLM backend's parsing (a stub model) -----------------------------------------------
class _Stub(StructuredLLM):
    def __init__(self, answers: dict[type[BaseModel], BaseModel]) -> None:
        super().__init__(concurrency=1)
        self.answers = answers
        self.prompts: list[str] = []

    @property
    def model_name(self) -> str:
        return "stub"

    def generate(self, messages: Sequence[Message], schema: type[T]) -> T:
        self.prompts.append(messages[-1].content)
        answer = self.answers[schema]
        assert isinstance(answer, schema)
        return answer


def test_llm_facts_keep_usable_quadruples_and_new_entities() -> None:
    answer = QuadrupleExtraction(
        entities=["Ana", "Pixel", "the shelter", "!!"],
        quadruples=[
            QuadrupleOut(subject="Ana", relation="adopted", object="Pixel", time="2023-05-07"),
            QuadrupleOut(subject="Ana", relation=" ", object="Pixel"),  # no relation
            QuadrupleOut(subject="...", relation="is", object="Pixel"),  # no subject
        ],
    )
    stub = _Stub({QuadrupleExtraction: answer})
    (facts,) = llm_facts(stub, [_passage("I adopted Pixel from the shelter yesterday.")])
    assert [(q.subject, q.object, q.time) for q in facts.quadruples] == [
        ("Ana", "Pixel", "2023-05-07")
    ]
    assert facts.mentions == ["the shelter"]  # subjects/objects and junk are not repeated
    assert "Speaker: Ana" in stub.prompts[0] and "Time: 8 May 2023" in stub.prompts[0]


def test_llm_frames_take_the_summary_and_events() -> None:
    event = EventSlots(participants=["Ana", "Pixel"], action="Ana adopted Pixel", location="Lyon")
    stub = _Stub({FrameOut: FrameOut(summary=" Ana adopted Pixel. ", events=[event])})
    (draft,) = llm_frames(stub, [[_passage("I adopted Pixel.")]], {"ana"}, max_events=4)
    assert draft.summary == "Ana adopted Pixel." and draft.events == [event]
    assert draft.participants == ["Ana", "Pixel"]
    assert draft.topics == ["lyon", "pixel"]  # the speaker is not a topic
