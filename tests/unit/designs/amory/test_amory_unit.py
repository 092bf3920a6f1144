"""Amory's pure parts: subplot boundaries, headlines, the binding/consolidation state machine
(batch equals step-by-step resumption), the read-only Cypher policy, and the two metrics
Amory defines (memory coverage, context compression)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from copy import deepcopy

import numpy as np
import pytest

from graphmem.designs.amory.config import AmorySettings
from graphmem.designs.amory.cypher_plan import conjuncts
from graphmem.designs.amory.llm import _valid_blocks
from graphmem.designs.amory.offline import OfflineMind, characters_of, headline_of
from graphmem.designs.amory.prompts import SubstoryOut
from graphmem.designs.amory.safe_cypher import CypherRefused, Policy, check
from graphmem.designs.amory.semantic import LABELS, PARAMS, RELATIONSHIPS
from graphmem.designs.amory.timeline import Excerpt, Story, Timeline, split_points, unit
from graphmem.eval.metrics import context_compression, memory_coverage

DIM = 8


class HashEmbedder:
    """Deterministic unit vectors from a text hash: enough for headline vectors."""

    name = "hash"
    dim = DIM

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = []
        for text in texts:
            seed = int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)
            out.append(unit(np.random.default_rng(seed).normal(size=DIM).astype(np.float32)))
        return np.array(out, dtype=np.float32)


def topic(i: int) -> np.ndarray:
    v = np.zeros(DIM, dtype=np.float32)
    v[i] = 1.0
    return v


def excerpt(
    n: int, topic_index: int, speaker: str = "Ana", phrases: tuple[str, ...] = ()
) -> Excerpt:
    noise = np.random.default_rng(n).normal(scale=0.05, size=DIM).astype(np.float32)
    return Excerpt(
        passage_id=f"p{n}",
        source_id=f"D1:{n}",
        speaker=speaker,
        text=f"turn {n}",
        step=0,
        order=(0, n),
        vector=unit(topic(topic_index) + noise),
        phrases=phrases or (f"topic {topic_index}",),
    )


# --- subplot boundaries --------------------------------------------------------------------
def test_split_points_cut_where_neighbours_stop_resembling_each_other() -> None:
    vectors = [excerpt(i, 0).vector for i in range(4)] + [excerpt(i, 1).vector for i in range(4, 8)]
    assert split_points(vectors, least=3, floor=0.35) == [(0, 3), (4, 7)]


def test_split_points_keep_segments_at_least_the_minimum_size() -> None:
    vectors = [excerpt(0, 0).vector] + [excerpt(i, 1).vector for i in range(1, 6)]
    segments = split_points(vectors, least=3, floor=0.35)
    assert all(b - a + 1 >= 3 for a, b in segments)
    assert segments[0][0] == 0 and segments[-1][1] == 5


def test_split_points_leave_a_coherent_window_whole() -> None:
    assert split_points([excerpt(i, 2).vector for i in range(6)], least=2, floor=0.35) == [(0, 5)]


# --- headlines and characters -----------------------------------------------------------------
def test_headline_prefers_phrases_found_in_most_excerpts_and_leaves_speakers_out() -> None:
    items = [
        excerpt(0, 0, phrases=("Ana", "pottery class")),
        excerpt(1, 0, phrases=("pottery class", "bowl")),
        excerpt(2, 0, phrases=("glaze", "pottery class")),
        excerpt(3, 0, phrases=("bowl",)),
    ]
    assert headline_of(items, 2, {"ana"}) == "pottery class, bowl"


def test_characters_are_speakers_then_people_mentioned_more_than_once() -> None:
    story = Story("s", "h", "Ana")
    story.items = [excerpt(0, 0, "Ana"), excerpt(1, 0, "Ben"), excerpt(2, 0, "Ana")]
    story.items[0].persons = ("Rosa", "Tim")
    story.items[2].persons = ("Rosa",)
    assert characters_of(story) == ["Ana", "Ben", "Rosa"]


def test_characters_tied_on_count_keep_the_order_the_excerpts_name_them() -> None:
    # Six people, each named in both excerpts: the four kept after the speakers do not
    # depend on the process's string hashing (a set once decided, 1 run in 720 kept these).
    story = Story("s", "h", "Ana")
    story.items = [excerpt(0, 0, "Ana"), excerpt(1, 0, "Ben")]
    names = ("Rosa", "Tim", "Uma", "Vic", "Wes", "Xia")
    story.items[0].persons = names
    story.items[1].persons = names
    assert characters_of(story) == ["Ana", "Ben", "Rosa", "Tim", "Uma", "Vic"]


# --- the state machine ------------------------------------------------------------------------
def run(
    settings: AmorySettings,
    pairs: list[list[Excerpt]],
    timeline: Timeline | None = None,
    start: int = 0,
) -> Timeline:
    tl = timeline or Timeline(settings, OfflineMind(settings, HashEmbedder(), {"Ana", "Ben"}))  # type: ignore[arg-type]
    for step, pair in enumerate(pairs[start:], start=start):
        for e in pair:
            e.step = step
        tl.step(step, pair, consolidate=2 * (step + 1) > settings.init_turns)
    return tl


def conversation() -> list[list[Excerpt]]:
    """Topic 0 for 6 pairs, topic 1 for 6 pairs, back to topic 0 for 3 pairs."""
    topics = [0] * 6 + [1] * 6 + [0] * 3
    return [[excerpt(2 * i, t, "Ana"), excerpt(2 * i + 1, t, "Ben")] for i, t in enumerate(topics)]


# The hash embedder's headline vectors mean nothing: binding by content alone here.
SETTINGS = AmorySettings(init_turns=4, new_story_threshold=0.5, headline_weight=0.0)


def shape(tl: Timeline) -> list[tuple[str, list[str], list[tuple[int, int]], int, bool]]:
    return [
        (
            s.id,
            [e.passage_id for e in s.items],
            [(p.start, p.end) for p in s.subplots],
            s.consolidated,
            s.active,
        )
        for s in tl.stories
    ]


def test_topic_switch_starts_a_story_and_a_return_reactivates_the_old_one() -> None:
    tl = run(SETTINGS, conversation())
    assert len(tl.stories) == 2
    first, second = tl.stories
    assert len(first.items) == 18 and len(second.items) == 12
    assert first.active and not second.active


def test_inactive_consolidation_happens_when_a_story_goes_quiet() -> None:
    tl = run(SETTINGS, conversation())
    first, second = tl.stories
    # The first story went quiet at step 6 with 12 excerpts: windows of N = 10 took all 12.
    assert first.consolidated == 12 and first.subplots
    # The second went quiet at step 12: consolidated; the first's return is not yet.
    assert second.consolidated == 12
    assert first.unconsolidated == first.items[12:]


def test_no_consolidation_writes_no_subplot() -> None:
    tl = run(SETTINGS.model_copy(update={"consolidation": "none"}), conversation())
    assert all(not s.subplots and s.consolidated == 0 for s in tl.stories)


def test_rapid_consolidation_runs_on_the_fixed_step_whatever_the_activity() -> None:
    settings = SETTINGS.model_copy(update={"consolidation": "rapid", "rapid_interval": 5})
    tl = run(settings, conversation())
    first = tl.stories[0]
    # Step 4 (the fifth) consolidates the active first story: inactive mode would not.
    assert first.subplots and first.subplots[0].start == 0
    assert run(SETTINGS, conversation()[:5]).stories[0].subplots == []


def test_resuming_from_a_copy_of_the_state_gives_the_batch_result() -> None:
    pairs = conversation()
    batch = run(SETTINGS, deepcopy(pairs))
    resumed_pairs = deepcopy(pairs)
    part = run(SETTINGS, resumed_pairs[:7])
    part = deepcopy(part)  # what a later build loads back from the graph
    part.mind = OfflineMind(SETTINGS, HashEmbedder(), {"Ana", "Ben"})  # type: ignore[arg-type]
    resumed = run(SETTINGS, resumed_pairs, part, start=7)
    assert shape(resumed) == shape(batch)
    assert [s.headline for s in resumed.stories] == [s.headline for s in batch.stories]


def test_filler_only_steps_bind_nothing_but_advance_the_clock() -> None:
    tl = run(SETTINGS, [conversation()[0], [], []])
    assert len(tl.stories[0].items) == 2
    assert not tl.stories[0].active  # nothing bound in the steps after it


# --- LLM answers mapped back -------------------------------------------------------------------
def test_llm_subplot_blocks_must_be_continuous_and_inside_the_window() -> None:
    subs = [
        SubstoryOut(sub_topic="b", indice=(3, 9)),
        SubstoryOut(sub_topic="a", indice=(0, 2)),
        SubstoryOut(sub_topic="overlap", indice=(2, 4)),
        SubstoryOut(sub_topic="outside", indice=(8, 12)),
    ]
    blocks = _valid_blocks(subs, 10)
    assert [(b.headline, b.start, b.end) for b in blocks] == [("a", 0, 2), ("b", 3, 9)]
    assert [(b.start, b.end) for b in _valid_blocks([], 4)] == [(0, 3)]


# --- the read-only Cypher policy ---------------------------------------------------------------
POLICY = Policy(LABELS, RELATIONSHIPS, PARAMS, row_cap=5, timeout_s=1.0)
GOOD = (
    "MATCH (f:Fact {space: $space})-[:SUBJECT|OBJECT]->(e:Entity {space: $space}) "
    "WHERE toLower(e.name) IN $names RETURN DISTINCT f.id AS id LIMIT 5"
)


def test_a_filtered_read_query_passes() -> None:
    assert check(GOOD + ";", POLICY) == GOOD
    assert check("MATCH(f:Fact {space:$space}) RETURN count(f) AS id", POLICY)
    over_names = (
        "MATCH (f:Fact {space: $space}) WHERE any(n IN $names WHERE f.text CONTAINS n) "
        "RETURN [n IN $names | toLower(n)] AS id"
    )
    assert check(over_names, POLICY) == over_names


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ("CREATE (f:Fact {space: $space}) RETURN f", "CREATE"),
        ("MATCH (f:Fact {space: $space}) SET f.text = $space RETURN f", "SET"),
        ("MATCH (f:Fact {space: $space}) DETACH DELETE f", "DETACH"),
        ("MERGE (e:Entity {space: $space}) RETURN e", "MERGE"),
        ("CALL db.labels() YIELD label RETURN label", "CALL"),
        ("MATCH (f:Fact {space: $space}) RETURN apoc.text.join([f.id], $space)", "namespaced"),
        ("MATCH (f:Fact {space: $space}) RETURN gds.version()", "namespaced"),
        ("LOAD CSV FROM $space AS row RETURN row", "LOAD"),
        ("MATCH (f:Fact {space: 'other'}) RETURN f.id AS id", "quotes"),
        ("MATCH (f:Fact {space: $space}) RETURN f.id AS id; MATCH (n) DELETE n", "one statement"),
        ("MATCH (f:Fact {space: $space}) // hidden\nRETURN f.id", "comments"),
        ("MATCH (f:Fact {space: $space}) /* x */ RETURN f.id", "comments"),
        ("MATCH (f:`Fact` {space: $space}) RETURN f.id", "backticks"),
        ("MATCH (f:Fact {space: $space}) RETURN f.id AS id, $secret AS s", "parameter"),
        ("MATCH (f:F\u0430ct {space: $space}) RETURN f.id", "non-ASCII"),
        ("MATCH (f:Fact {space: $space})\u00a0RETURN f.id", "non-ASCII"),
        ("RETURN reduce(s = 0, x IN range(1, 9) | s + x) AS id", "reduce"),
        ("UNWIND range(1, 9) AS x RETURN x", "range"),
        ("MATCH (f:Fact {space: $space}) RETURN [x IN collect(f) | x.id] AS id", "list"),
        ("RETURN size($space + $space) AS id", "grows"),
        ("MATCH (n:%) RETURN n", "label wildcards"),
        ("RETURN replace($space, $space, $space) AS id", "replace"),
        ("MATCH (f:Fact {space: $space}) RETURN any(x IN collect(f) WHERE true)", "function any"),
        ("MATCH p = SHORTEST 1 (a:Entity {space: $space})--+(b) RETURN p", "SHORTEST"),
        ("RETURN shortestPath((a)-[*]-(b)) AS id", "shortestPath"),
        ("MATCH (f:Fact {space: $space}) RETURN f.id LIMIT 100000000", "larger"),
        ("CYPHER runtime=slotted MATCH (f:Fact {space: $space}) RETURN f.id", "CYPHER"),
        ("RETURN {a: replace($space, left($space, 0), $space)} AS id", "function replace"),
        ("", "empty"),
    ],
)
def test_the_token_check_refuses(query: str, reason: str) -> None:
    with pytest.raises(CypherRefused, match=reason):
        check(query, POLICY)


def test_conjuncts_open_parentheses_and_keep_or_whole() -> None:
    assert conjuncts("(e.space = $space AND e.name = $names[0]) AND e:Entity") == [
        "e.space = $space",
        "e.name = $names[0]",
        "e:Entity",
    ]
    assert conjuncts("e.space = $space OR true") == ["e.space = $space OR true"]
    assert conjuncts("NOT (a.x = $space AND a.space = $space)") == [
        "NOT (a.x = $space AND a.space = $space)"
    ]
    assert conjuncts("(a.space = $space) OR (b.x = 1)") == ["(a.space = $space) OR (b.x = 1)"]


# --- memory coverage and context compression ---------------------------------------------------
def test_memory_coverage_needs_every_gold_turn() -> None:
    assert memory_coverage({"D1:1", "D1:2", "D2:1"}, ["D1:1", "D2:1"]) == 1.0
    assert memory_coverage({"D1:1"}, ["D1:1", "D2:1"]) == 0.0
    assert memory_coverage({"D1:1"}, []) is None


def test_context_compression_is_the_share_of_history_left_out() -> None:
    assert context_compression(37, 1000) == pytest.approx(0.963)
    assert context_compression(2000, 1000) == 0.0
    assert context_compression(10, 0) is None
