"""AnchorMem's pure parts: units, fact ids, grouping, pruning, narratives, rewriting."""

from __future__ import annotations

import itertools
from datetime import datetime

import pytest
from pydantic import ValidationError

from graphmem.designs.anchormem.config import AnchorMemConfig
from graphmem.designs.anchormem.events import (
    Group,
    MemberFact,
    Neighbour,
    event_id,
    extractive_narrative,
    prune_groups,
    select_group,
)
from graphmem.designs.anchormem.extract import (
    FactDraft,
    annotate_dates,
    fact_id,
    has_content,
    merge_drafts,
    window_spans,
)
from graphmem.designs.anchormem.retriever import (
    AnchorMemRetriever,
    drop_echoes,
    interleave,
    shows_text,
)
from graphmem.nlp import analyse
from graphmem.nlp.second_person import persons_to_names, second_person_to_name
from graphmem.plugin.retriever import Hit, PassageRef

# --- context units --------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 6, 7, 10])
def test_windows_cover_every_turn_and_overlap_by_window_minus_step(n: int) -> None:
    spans = window_spans(n, 3, 2)
    covered = sorted({i for span in spans for i in span})
    assert covered == list(range(n))
    assert all(len(span) <= 3 for span in spans)
    for a, b in itertools.pairwise(spans):
        assert b.start == a.start + 2 and a.stop - b.start == 1  # one shared turn


def test_windows_of_ten_turns() -> None:
    spans = window_spans(10, 3, 2)
    assert [(s.start, s.stop) for s in spans] == [(0, 3), (2, 5), (4, 7), (6, 9), (8, 10)]


def test_window_equal_to_step_does_not_overlap() -> None:
    assert [(s.start, s.stop) for s in window_spans(5, 2, 2)] == [(0, 2), (2, 4), (4, 5)]


def test_config_rejects_a_step_longer_than_the_window() -> None:
    with pytest.raises(ValidationError):
        AnchorMemConfig(window=2, step=3)


def test_config_thresholds() -> None:
    cfg = AnchorMemConfig(tau=0.85, neighbours=3)
    assert cfg.min_new_facts == 2
    assert AnchorMemConfig(neighbours=5).min_new_facts == 3
    assert cfg.min_index_score == pytest.approx(0.925)


def test_config_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_ANCHORMEM_TAU", "0.7")
    monkeypatch.setenv("GRAPHMEM_ANCHORMEM_NEIGHBOURS", "5")
    cfg = AnchorMemConfig()
    assert cfg.tau == 0.7 and cfg.neighbours == 5


# --- facts ----------------------------------------------------------------------------


def _draft(text: str, passages: list[str], order: tuple[int, int] = (0, 0)) -> FactDraft:
    return FactDraft(text, passages, None, order)


def test_fact_ids_ignore_case_punctuation_and_spacing() -> None:
    assert fact_id("Ana adopted  a kitten.") == fact_id("ana adopted a kitten")
    assert fact_id("Ana adopted a kitten") != fact_id("Ben adopted a kitten")


def test_merge_unions_sources_of_duplicate_facts_and_keeps_the_first_context() -> None:
    first = _draft("Ana adopted a kitten.", ["p1", "p2", "p3"])
    again = _draft("ana adopted a kitten", ["p3", "p4", "p5"])
    other = _draft("Ben runs.", ["p3"])
    merged = merge_drafts([first, again, other])
    assert [m.text for m in merged] == ["Ana adopted a kitten.", "Ben runs."]
    assert merged[0].passage_ids == ["p1", "p2", "p3", "p4", "p5"]
    assert merged[0].context == first.context != again.context
    assert first.passage_ids == ["p1", "p2", "p3"]  # inputs are not mutated


def test_relative_dates_are_annotated_in_words() -> None:
    ref = datetime(2023, 5, 8, 13, 56)
    text = annotate_dates("I went yesterday and will go next month.", ref)
    assert "yesterday [7 May 2023]" in text
    assert "next month [June 2023]" in text
    assert annotate_dates("Back in 2019 I moved.", ref) == "Back in 2019 I moved."
    assert annotate_dates("I went yesterday.", None) == "I went yesterday."


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Hey Caroline!", False),
        ("Thanks so much, Mel!", False),
        ("Wow, that's so cool!", False),
        ("What happened?", False),
        ("Did you finish?", False),
        ("I adopted a kitten named Pixel.", True),
        ("Did you finish the marathon in Lisbon?", True),
        ("Caroline painted the sunset.", True),
    ],
)
def test_content_filter(sentence: str, expected: bool) -> None:
    assert has_content(analyse(sentence), frozenset({"caroline", "melanie"})) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Are you going to the concert?", "Is Melanie going to the concert?"),
        ("I love your painting!", "I love Melanie's painting!"),
        ("You're so talented.", "Melanie is so talented."),
        ("I told you about it.", "I told Melanie about it."),
        ("You were amazing.", "Melanie was amazing."),
    ],
)
def test_second_person_becomes_the_addressee(text: str, expected: str) -> None:
    assert second_person_to_name(text, "Melanie") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm sure you're right.", "Caroline is sure Melanie is right."),
        ("I love your painting!", "Caroline loves Melanie's painting!"),
        ("You told me about my dog.", "Melanie told Caroline about Caroline's dog."),
        ("Are you going? I am.", "Is Melanie going? Caroline is."),
    ],
)
def test_both_persons_by_name_on_one_parse(
    text: str, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """First and second person at once give what the two rewrites in turn give, and the
    rewritten text is not parsed again."""
    from graphmem.nlp import first_person_to_name
    from graphmem.nlp import second_person as module

    two_steps = second_person_to_name(first_person_to_name(text, "Caroline"), "Melanie")
    doc = analyse(text)
    parsed: list[str] = []
    monkeypatch.setattr(module, "analyse", lambda t: parsed.append(str(t)) or analyse(t))
    assert persons_to_names(doc, "Caroline", "Melanie") == expected == two_steps
    assert parsed == [text]  # only the doc handed in, never the rewritten text


# --- grouping and pruning ---------------------------------------------------------------


def _n(fid: str, context: str, cosine: float) -> Neighbour:
    return Neighbour(fid, context, cosine)


def test_group_takes_top_n_above_tau_one_per_context() -> None:
    candidates = [
        _n("b", "c1", 0.95),  # same context as the seed: skipped
        _n("c", "c2", 0.93),
        _n("d", "c2", 0.92),  # context c2 already taken
        _n("e", "c3", 0.90),
        _n("f", "c4", 0.88),
        _n("g", "c5", 0.87),  # beyond N = 3
        _n("h", "c6", 0.85),  # not above tau
    ]
    group = select_group("a", "c1", candidates, n=3, tau=0.85)
    assert group is not None
    assert group.members == ("a", "c", "e", "f")


def test_no_group_without_a_candidate_above_tau() -> None:
    assert select_group("a", "c1", [_n("b", "c2", 0.85), _n("c", "c1", 0.99)], 3, 0.85) is None


def test_event_id_is_independent_of_the_seed() -> None:
    assert event_id(["a", "b", "c"]) == event_id(["c", "a", "b"])
    assert Group("a", (_n("b", "x", 0.9),)).id == Group("b", (_n("a", "y", 0.9),)).id
    assert event_id(["a", "b"]) != event_id(["a", "c"])


def test_pruning_discards_groups_adding_fewer_than_half_n_new_facts() -> None:
    g1 = Group("a", (_n("b", "2", 0.9), _n("c", "3", 0.9)))
    g2 = Group("b", (_n("a", "1", 0.9), _n("c", "3", 0.9)))  # same facts: 0 new
    g3 = Group("c", (_n("a", "1", 0.9), _n("d", "4", 0.9)))  # only d is new: 1 < 2
    g4 = Group("d", (_n("e", "5", 0.9), _n("a", "1", 0.9)))  # d, e new: kept
    out = prune_groups([g1, g2, g3, g4], integrated=set(), stored_events=set(), min_new=2)
    assert out.kept == [g1, g4]
    assert out.discarded == [g2, g3]


def test_pruning_counts_facts_integrated_by_earlier_batches() -> None:
    g = Group("x", (_n("a", "1", 0.9), _n("b", "2", 0.9)))
    assert prune_groups([g], {"a", "b"}, set(), 2).discarded == [g]
    assert prune_groups([g], {"a"}, set(), 2).kept == [g]


def test_a_rerun_keeps_stored_events_and_discards_their_twins_as_the_first_run() -> None:
    g = Group("a", (_n("b", "2", 0.9),))
    twin = Group("b", (_n("a", "1", 0.9),))  # the same event found from its other fact
    first = prune_groups([g, twin], set(), set(), 2)
    assert first.kept == [g] and first.discarded == [twin] and first.existing == []
    rerun = prune_groups([g, twin], {"a", "b"}, {g.id}, 2)
    # the stored event is neither kept again nor discarded; the counters match the first run
    assert rerun.existing == [g] and rerun.kept == [] and rerun.discarded == [twin]


def test_eq9_discards_a_cluster_with_a_majority_from_one_context() -> None:
    from graphmem.designs.anchormem.events import select_group_eq9

    # N = 3: ceil(3/2) = 2 facts of one context make the cluster redundant.
    same = [_n("b", "c1", 0.95), _n("c", "c2", 0.9), _n("d", "c3", 0.9)]
    assert select_group_eq9("a", "c1", same, 3, 0.85) is None
    spread = [_n("b", "c2", 0.95), _n("c", "c3", 0.9), _n("d", "c4", 0.9), _n("e", "c2", 0.8)]
    group = select_group_eq9("a", "c1", spread, 3, 0.85)
    assert group is not None and group.members == ("a", "b", "c", "d")


# --- narratives and retrieval helpers ---------------------------------------------------


def test_extractive_narrative_is_chronological_and_dates_each_day_once() -> None:
    def fact(text: str, day: int, turn: int) -> MemberFact:
        return MemberFact(text, text, datetime(2023, 5, day), (day, turn), text, ())

    narrative = extractive_narrative(
        [fact("Ben ran in Lisbon", 9, 1), fact("Ana adopted Pixel.", 8, 2), fact("Ana cried", 8, 5)]
    )
    assert narrative == (
        "On 8 May 2023, Ana adopted Pixel. Ana cried. On 9 May 2023, Ben ran in Lisbon."
    )


def _hit(node: str, label: str = "x", turns: tuple[str, ...] = ()) -> Hit:
    passages = [PassageRef(id=t, source_id=t, speaker="Ana", text=f"turn {t}") for t in turns]
    return Hit(node_id=node, label=label, score=1.0, strategy="anchormem", passages=passages)


def test_interleave_puts_one_event_after_every_n_facts() -> None:
    facts = [_hit(f"f{i}") for i in range(5)]
    events = [_hit(f"e{i}") for i in range(3)]
    order = [h.node_id for h in interleave(facts, events, 2)]
    assert order == ["f0", "f1", "e0", "f2", "f3", "e1", "f4", "e2"]


def test_retrieval_sizes_grow_with_the_budget() -> None:
    retriever = AnchorMemRetriever.__new__(AnchorMemRetriever)
    retriever.settings = AnchorMemConfig(fact_item_tokens=30, min_facts=10, facts_per_event=3)
    assert retriever.sizes(1000) == (34, 12)
    assert retriever.sizes(100) == (10, 4)
    assert retriever.sizes(2000)[0] > retriever.sizes(1000)[0]


def test_events_that_bring_no_new_turn_are_dropped() -> None:
    hits = [
        _hit("f1", "AtomicFact", ("p1",)),
        _hit("f2", "AtomicFact", ("p2",)),
        _hit("e1", "AssocEvent", ("p1", "p2")),  # an echo of f1 and f2
        _hit("e2", "AssocEvent", ("p2", "p3")),  # brings p3
        _hit("f3", "AtomicFact", ("p3",)),  # facts are never dropped here
    ]
    assert [h.node_id for h in drop_echoes(hits)] == ["f1", "f2", "e2", "f3"]


def test_fact_text_shown_only_when_it_adds_a_number() -> None:
    turn = [PassageRef(id="p", source_id="D1:1", speaker="Ana", text="I went yesterday.")]
    dated = "Ana went yesterday [7 May 2023]."
    assert shows_text("new_numbers", dated, turn)
    assert not shows_text("new_numbers", "Ana went yesterday.", turn)
    assert shows_text("new_words", "Ana went to Lisbon yesterday.", turn)
    assert shows_text("always", "Ana went yesterday.", turn)
    assert not shows_text("never", dated, turn)
