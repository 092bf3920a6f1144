"""PREMem's pure parts: temporal forms, offline extraction rules, clustering, offline
reasoning rules, the LLM answer mapping, the cite-only packing and the settings."""

from __future__ import annotations

from datetime import datetime

import numpy as np
import pytest

from graphmem.designs.premem import dates
from graphmem.designs.premem.clustering import cluster_labels, connected_pairs, groups
from graphmem.designs.premem.config import PremSettings
from graphmem.designs.premem.design import DESIGN
from graphmem.designs.premem.extract import OfflineExtractor, SessionTurns
from graphmem.designs.premem.llm_steps import pattern_of, render_fragments
from graphmem.designs.premem.models import Fragment
from graphmem.designs.premem.prompts import step1_prompt
from graphmem.designs.premem.reasoning import reason_offline, topics_match
from graphmem.designs.premem.retriever import render_item
from graphmem.errors import GraphmemError
from graphmem.ingest.models import SessionIn, Turn
from graphmem.plugin.retriever import Hit, PassageRef
from graphmem.retrieval.packer import pack

SAID = datetime(2023, 5, 8, 13, 56)


# --- dates ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("stored", "shown"),
    [
        ("2023-05-07", "7 May 2023"),
        ("Before 2023-05-08", "Before 8 May 2023"),
        ("After 2023-05-08", "After 8 May 2023"),
        ("2023-06", "June 2023"),
        ("2022", "2022"),
        ("week of 2023-05-01", "the week of 1 May 2023"),
        ("2023-05-07 to 2023-06-09", "7 May 2023 to 9 June 2023"),
        ("early last spring", "early last spring"),
    ],
)
def test_dates_are_shown_in_words(stored: str, shown: str) -> None:
    assert dates.in_words(stored) == shown


def test_date_range_orders_by_iso_date() -> None:
    assert (
        dates.date_range(["2023-06-09", "Before 2023-05-08"]) == "Before 2023-05-08 to 2023-06-09"
    )
    assert dates.date_range(["2023-06-09"]) == "2023-06-09"
    assert dates.date_range([]) == ""


# --- offline extraction -------------------------------------------------------------------
def _session(*lines: tuple[str, str] | tuple[str, str, str], index: int = 0) -> SessionTurns:
    turns = [
        Turn(
            source_id=f"D1:{i + 1}",
            speaker=line[0],
            text=line[1],
            caption=line[2] if len(line) > 2 else None,
            timestamp=SAID,
            index=i,
        )
        for i, line in enumerate(lines)
    ]
    session = SessionIn(index=index, source_id=f"session_{index}", started_at=SAID, turns=turns)
    return SessionTurns(session, [f"p{index}-{i}" for i in range(len(turns))])


def _extract(*lines: tuple[str, str] | tuple[str, str, str]) -> list[Fragment]:
    return OfflineExtractor().extract([_session(*lines)])[0]


@pytest.mark.parametrize(
    ("text", "category", "date"),
    [
        ("I went to a support group yesterday.", "experiential", "2023-05-07"),
        ("I've been to Japan twice.", "experiential", "Before 2023-05-08"),
        ("I'm going to visit Paris next month.", "subjective", "2023-06"),
        ("I will adopt a dog one day.", "subjective", "After 2023-05-08"),
        ("I love spicy food.", "subjective", "2023-05-08"),
        ("I usually wake up at 7 AM.", "subjective", "2023-05-08"),
        ("My sister lives in Seattle.", "factual", "2023-05-08"),
        ("I'm training for a marathon.", "experiential", "2023-05-08"),
        ("I painted that lake sunrise last year.", "experiential", "2022"),
    ],
)
def test_offline_categories_and_the_four_temporal_forms(
    text: str, category: str, date: str
) -> None:
    (fragment,) = _extract(("Ana", text))
    assert (fragment.category, fragment.date) == (category, date)
    assert fragment.value.startswith("Ana")  # first person -> the speaker's name
    assert fragment.passage_ids == ("p0-0",)


def test_greetings_thanks_and_questions_make_no_fragment() -> None:
    found = _extract(
        ("Ana", "Hey Ben! Thanks, Ben!"),
        ("Ben", "How was the concert you went to?"),
        ("Ana", "I adopted a kitten named Pixel."),
    )
    assert [f.passage_ids for f in found] == [("p0-2",)]
    assert "Pixel" in found[0].key or found[0].topic == "kitten"


def test_a_shared_photo_is_an_experiential_fragment() -> None:
    (photo,) = [f for f in _extract(("Ana", "Haha!", "a photo of a grey kitten on a sofa"))]
    assert photo.category == "experiential"
    assert photo.value == "Ana shares a photo of a grey kitten on a sofa"


def test_extraction_of_a_session_does_not_depend_on_its_batch() -> None:
    one = _session(("Ana", "I went hiking in the Alps yesterday."))
    two = _session(("Ben", "My brother Tom is a chef in Lyon."), index=1)
    alone = OfflineExtractor().extract([one])[0]
    together = OfflineExtractor().extract([one, two])[0]
    assert alone == together


# --- clustering ---------------------------------------------------------------------------
def _blobs() -> np.ndarray:
    rng = np.random.default_rng(7)
    a = rng.normal([1, 0, 0], 0.05, size=(6, 3))
    b = rng.normal([0, 1, 0], 0.05, size=(5, 3))
    return np.vstack([a, b]).astype(np.float32)


def test_fewer_than_three_fragments_make_one_cluster() -> None:
    assert cluster_labels(np.eye(2, dtype=np.float32), 10, 0, 10) == [0, 0]
    assert cluster_labels(np.zeros((0, 3), dtype=np.float32), 10, 0, 10) == []
    broken = np.eye(4, dtype=np.float32)
    broken[1, 1] = np.nan
    with pytest.raises(GraphmemError, match="NaN"):
        cluster_labels(broken, 10, 0, 10)


def test_silhouette_finds_two_blobs_deterministically() -> None:
    labels = cluster_labels(_blobs(), 10, 0, 10)
    assert groups(labels) == [list(range(6)), list(range(6, 11))]
    assert cluster_labels(_blobs(), 10, 0, 10) == labels


def test_k_never_exceeds_the_cap() -> None:
    rng = np.random.default_rng(3)
    labels = cluster_labels(rng.normal(size=(30, 8)).astype(np.float32), 3, 0, 2)
    assert 1 <= len(set(labels)) <= 3


def test_pairs_connect_strictly_above_theta() -> None:
    pool = [("p1", (1.0, 0.0)), ("p2", (0.0, 1.0))]
    new = [("c1", (1.0, 0.1)), ("c2", (-1.0, 0.0))]
    assert [(p, c) for p, c, _ in connected_pairs(pool, new, 0.6)] == [("p1", "c1")]
    assert connected_pairs([("p", (1.0, 0.0))], [("c", (0.6, 0.8))], 0.6) == []


# --- offline reasoning --------------------------------------------------------------------
def _frag(value: str, topic: str, session: int, **kw: object) -> Fragment:
    fields: dict[str, object] = {
        "category": "experiential",
        "key": topic,
        "value": value,
        "date": f"2023-0{session + 5}-01",
        "speaker": "Ana",
        "passage_ids": (f"s{session}-{abs(hash(value)) % 1000}",),
        "order": (session, 0),
        "topic": topic,
        "predicate": "go",
        "lemmas": tuple(sorted(set(value.lower().split()))),
    }
    fields.update(kw)
    return Fragment(**fields)  # type: ignore[arg-type]


def test_accumulation_counts_and_dates_a_topic_across_sessions() -> None:
    earlier = [_frag("Ana goes to the pottery class", "pottery class", 0)]
    later = [_frag("Ana sells pottery class bowls", "pottery class", 1)]
    (insight,) = reason_offline(earlier, later, ("p", "c"), 4)
    assert insight.pattern == "accumulation"
    assert insight.value == "Ana: pottery class, 2 mentions: 1 May 2023, 1 June 2023"
    assert insight.date == "2023-05-01 to 2023-06-01"
    assert set(insight.passage_ids) == {earlier[0].passage_ids[0], later[0].passage_ids[0]}


def test_transformation_needs_a_flip_or_a_change_cue() -> None:
    likes = _frag("Ana likes running", "running", 0, category="subjective", predicate="like")
    flipped = _frag(
        "Ana does not like running",
        "running",
        1,
        category="subjective",
        predicate="like",
        negated=True,
    )
    again = _frag("Ana likes running a lot", "running", 1, category="subjective", predicate="like")
    found = {i.pattern for i in reason_offline([likes], [flipped], ("p", "c"), 4)}
    assert found == {"accumulation", "transformation"}
    unchanged = {i.pattern for i in reason_offline([likes], [again], ("p", "c"), 4)}
    assert "transformation" not in unchanged
    quit_job = _frag("Ana quit the bakery job", "bakery job", 1, predicate="quit")
    works = _frag("Ana works at the bakery job", "bakery job", 0, category="factual")
    (change,) = [
        i
        for i in reason_offline([works], [quit_job], ("p", "c"), 4)
        if i.pattern == "transformation"
    ]
    assert change.value.startswith("Ana: Ana works at the bakery job (1 May 2023) -> ")


def test_specification_when_the_later_fragment_says_more() -> None:
    old = _frag("Ana plays guitar", "guitar", 0)
    new = _frag("Ana plays guitar in a jazz band", "guitar", 1)
    assert "specification" in {i.pattern for i in reason_offline([old], [new], ("p", "c"), 4)}


def test_no_insight_without_a_shared_topic_or_for_another_speaker() -> None:
    old = _frag("Ana bakes bread", "bread", 0)
    assert reason_offline([old], [_frag("Ana paints birds", "bird", 1)], ("p", "c"), 4) == []
    ben = _frag("Ben bakes bread", "bread", 1, speaker="Ben")
    assert reason_offline([old], [ben], ("p", "c"), 4) == []


def test_topics_match_on_their_head() -> None:
    assert topics_match("support group", "lgbtq support group")
    assert not topics_match("group", "support group meeting")
    assert not topics_match("art", "heart")


# --- LLM answers --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("written", "pattern"),
    [
        ("extension/generalization", "extension"),
        ("Generalization", "extension"),
        ("accumulation", "accumulation"),
        ("Refinement", "specification"),
        ("transformation", "transformation"),
        ("connection/implication", "connection"),
        ("implication", "connection"),
        ("summary", None),
    ],
)
def test_inference_types_map_to_the_five_patterns(written: str, pattern: str | None) -> None:
    assert pattern_of(written) == pattern


def test_fragments_render_as_in_the_papers_step2_example() -> None:
    frag = _frag("Jordan buy new drawing tablet", "tech purchase", 0, date="2023-03-05")
    assert render_fragments([frag]) == "[tech purchase, 2023-03-05]: Jordan buy new drawing tablet"
    assert render_item("tech purchase", "Jordan buys a tablet", "Before 2023-03-05") == (
        "[tech purchase, Before 5 March 2023]: Jordan buys a tablet"
    )


# --- cite-only packing --------------------------------------------------------------------
def _turn(source_id: str, session: int, turn: int) -> PassageRef:
    return PassageRef(
        id=source_id,
        source_id=source_id,
        speaker="Ana",
        text=f"turn text {source_id}",
        session_index=session,
        turn_index=turn,
        date_text="8 May 2023",
    )


def test_cite_only_items_cite_their_turns_without_showing_them() -> None:
    late = Hit(
        node_id="a",
        label="Fragment",
        score=0.9,
        strategy="premem",
        text="[b, 2023]: late",
        passages=[_turn("D2:1", 1, 0)],
        cite_only=True,
    )
    early = Hit(
        node_id="b",
        label="Insight",
        score=0.8,
        strategy="premem",
        text="[a, 2023]: early",
        passages=[_turn("D1:1", 0, 0), _turn("D1:2", 0, 1)],
        cite_only=True,
    )
    context = pack([late, early], 1000, lambda text: len(text.split()))
    rendered = context.render()
    assert "turn text" not in rendered and context.passages == []
    assert context.source_ids == {"D2:1", "D1:1", "D1:2"}
    assert rendered.index("early") < rendered.index("late")  # conversation order
    # each memory cites the turns it stands for, in conversation order
    assert "- [b, 2023]: late [D2:1]" in rendered
    assert "- [a, 2023]: early [D1:1, D1:2]" in rendered
    # the two items' words with their citations, their bullets and the "Memories:" heading;
    # nothing for the turns
    assert context.tokens == (4 + 1) + (4 + 2) + 1
    narrow = pack([late, early], 1000, lambda text: len(text.split()), memory_cites=1)
    assert "- [a, 2023]: early [D1:1 +1]" in narrow.render()  # the earliest, and how many more


def test_a_passage_hit_still_brings_its_turn() -> None:
    hit = Hit(node_id="p", label="Passage", score=1.0, strategy="x", passages=[_turn("D1:1", 0, 0)])
    context = pack([hit], 1000, lambda text: len(text.split()))
    assert "turn text D1:1" in context.render() and context.source_ids == {"D1:1"}


# --- settings -----------------------------------------------------------------------------
def test_settings_read_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_PREMEM_THETA", "0.7")
    monkeypatch.setenv("GRAPHMEM_PREMEM_INSIGHTS", "false")
    settings = PremSettings()
    assert (settings.theta, settings.insights) == (0.7, False)


def test_paper_preset_names_its_sources() -> None:
    paper = DESIGN.preset("paper")
    assert paper.values["theta"] == 0.6
    assert set(paper.sources) == set(paper.values)
    assert all("PREMem" in source for source in paper.sources.values())


def test_an_assistants_turns_make_no_fragment_and_the_users_preference_is_subjective() -> None:
    job = _session(
        ("user", "I prefer oat milk in my coffee."),
        ("assistant", "Oat milk foams well. Cilantro prefers well-draining soil."),
    )
    fragments = OfflineExtractor(frozenset({"assistant"})).extract([job])[0]
    assert [(f.speaker, f.category) for f in fragments] == [("user", "subjective")]
    assert fragments[0].value == "user prefers oat milk in user's coffee."
    # Between people every speaker's statements are fragments.
    assert {f.speaker for f in OfflineExtractor().extract([job])[0]} == {"user", "assistant"}


def test_the_step1_prompt_of_a_user_assistant_conversation_names_the_user() -> None:
    two_people = step1_prompt("[m1] (2024-05-17 Friday) Ana: hi")
    assert "treat each speaker as a user" in two_people
    with_assistant = step1_prompt("[m1] (2024-05-17 Friday) user: hi", ("user", "assistant"))
    assert "treat each speaker as a user" not in with_assistant
    assert "the user (user) and an AI assistant (assistant)" in with_assistant
    assert "user: hi" in with_assistant


def test_clustering_repeated_fragments_is_quiet() -> None:
    """Fewer distinct points than k (repeated fragments): the clusters are still found, and
    KMeans' 'fewer distinct clusters' warning does not reach the user's terminal."""
    import warnings

    import numpy as np

    from graphmem.designs.premem.clustering import cluster_labels

    vectors = np.array([[1, 0], [1, 0], [1, 0], [0, 1], [0, 1], [1, 0]], dtype=np.float32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        labels = cluster_labels(vectors, 5, 0, 10)
    assert labels[:3] == [labels[0]] * 3 and labels[3] == labels[4] != labels[0]
    assert [str(w.message) for w in caught] == []
