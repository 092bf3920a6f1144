"""The cross-design rule (``graphmem.strategy``) without a database: fusion arithmetic,
agreement promotion, derived items, the token split, who votes and what is missing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.errors import ConfigError
from graphmem.plugin.configure import DesignConfigs
from graphmem.plugin.registry import registry
from graphmem.plugin.retriever import Hit, PassageRef, RetrievalResult
from graphmem.retrieval.packer import pack, turn_line
from graphmem.strategy.compose import arrange
from graphmem.strategy.fusion import (
    Derived,
    FusedTurn,
    derived_items,
    fuse_turns,
    interleave,
    new_numbers,
    promote,
    standing,
)
from graphmem.strategy.members import Plan, plan
from graphmem.strategy.settings import GraphmemSettings

ALL_BUILT = ("semantic", "seem", "cast", "anchormem", "premem", "amory")


def words(text: str) -> int:
    return len(text.split())


def ref(n: int) -> PassageRef:
    return PassageRef(
        id=f"p{n}",
        source_id=f"D1:{n}",
        speaker="Ana",
        text=f"turn {n} says something rather long about the garden and the cat",
        session_index=0,
        turn_index=n,
        date_text="1 May 2023",
    )


def turns_hit(*ns: int) -> Hit:
    passages = [ref(n) for n in ns]
    return Hit(node_id=f"h{ns}", label="Passage", score=1.0, strategy="m", passages=passages)


def text_hit(node: str, text: str, *ns: int) -> Hit:
    passages = [ref(n) for n in ns]
    return Hit(node_id=node, label="Fact", score=1.0, strategy="m", text=text, passages=passages)


def result(*hits: Hit) -> RetrievalResult:
    return RetrievalResult(query="q", strategy="m", hits=list(hits))


def test_rrf_scores_sum_each_members_reciprocal_rank() -> None:
    results = {"a": result(turns_hit(1), turns_hit(2)), "b": result(turns_hit(2), turns_hit(3))}
    fused = fuse_turns(results, {"a": 1.0, "b": 0.5}, k=60)
    assert [t.ref.id for t in fused] == ["p2", "p1", "p3"]
    assert fused[0].score == pytest.approx(1 / 62 + 0.5 / 61)
    assert [(v.member, v.rank) for v in fused[0].votes] == [("a", 2), ("b", 1)]


def test_a_hit_citing_several_turns_ranks_them_in_its_order() -> None:
    fused = fuse_turns({"a": result(turns_hit(3, 1), turns_hit(1, 2))}, {"a": 1.0}, k=60)
    assert [t.ref.id for t in fused] == ["p3", "p1", "p2"]


def test_agreement_promotes_turns_found_by_two_members_near_the_top() -> None:
    results = {
        "a": result(turns_hit(1), turns_hit(2), turns_hit(3)),
        "b": result(turns_hit(4), turns_hit(5), turns_hit(3)),
    }
    weights = {"a": 1.0, "b": 1.0}
    fused = fuse_turns(results, weights, k=60)
    assert fused[0].ref.id == "p3"  # RRF alone already puts the shared turn first
    promoted = promote(list(reversed(fused)), weights, depth=3, minimum=2)
    assert promoted[0].ref.id == "p3" and promoted[0].promoted
    assert [t.ref.id for t in promoted[1:]] == [
        t.ref.id for t in reversed(fused) if t.ref.id != "p3"
    ]
    # Votes count only within each member's top ``depth``: at depth 2 nobody agrees.
    assert not any(t.promoted for t in promote(fused, weights, depth=2, minimum=2))
    assert {t.ref.id for t in promoted} == {t.ref.id for t in fused}  # nothing added


def test_derived_items_rank_with_their_best_turn_and_must_compress() -> None:
    results = {
        "a": result(turns_hit(1), turns_hit(2)),
        "b": result(
            text_hit("f2", "fact two", 2),
            text_hit("f1", "fact one", 1),
            text_hit("long", " ".join(["word"] * 40), 1),
        ),
    }
    fused = fuse_turns(results, {"a": 1.0, "b": 1.0}, k=60)
    items = derived_items(results, fused, words, 60)
    assert [t.ref.id for t in fused] == ["p1", "p2"]  # a tie: conversation order
    assert [d.hit.node_id for d in items] == ["f1", "f2"]
    assert "long" not in {d.hit.node_id for d in items}  # longer than its turn
    assert all(d.hit.cite_only for d in items)
    assert items[0].best_turn is fused[0]


def test_a_long_summary_of_many_turns_does_not_stand_in_for_the_best_one() -> None:
    summary = " ".join(["word"] * 20)  # shorter than its three turns, longer than one
    results = {"a": result(turns_hit(1)), "b": result(text_hit("s", summary, 1, 2, 3))}
    fused = fuse_turns(results, {"a": 1.0, "b": 1.0}, k=60)
    assert words(summary) < sum(words(turn_line(ref(n))) for n in (1, 2, 3))
    assert derived_items(results, fused, words, 60) == []
    # No turn of it ranked: it stands for all of them, and is shorter.
    unranked = {"a": result(turns_hit(9)), "b": result(text_hit("s", summary, 1, 2, 3))}
    fused = fuse_turns({"a": unranked["a"]}, {"a": 1.0}, k=60)
    assert [d.hit.node_id for d in derived_items(unranked, fused, words, 60)] == ["s"]


def test_redundant_items_are_left_out_unless_they_add_a_date() -> None:
    results = {
        "a": result(turns_hit(1)),
        "b": result(
            text_hit("x", "first", 1, 2),
            text_hit("y", "second", 1, 2),
            text_hit("z", "on 7 May", 2),
        ),
    }
    fused = fuse_turns(results, {"a": 1.0, "b": 1.0}, k=60)
    derived = derived_items(results, fused, words, 60)
    order = interleave(fused, derived, 0.5, words)
    assert [item.hit.node_id for item, _ in order if isinstance(item, Derived)] == ["x", "z"]
    assert [item.ref.id for item, _ in order if isinstance(item, FusedTurn)] == ["p1", "p2"]


def test_a_second_item_with_the_same_date_for_a_shown_turn_is_left_out() -> None:
    results = {
        "a": result(turns_hit(1)),
        "b": result(
            text_hit("x", "Ana went [7 May 2023]", 1),
            text_hit("y", "Ana left on 7 May", 1),  # the same date for the same turn
            text_hit("z", "Ana came back on 9 May", 1),  # another number: still news
        ),
    }
    fused = fuse_turns(results, {"a": 1.0, "b": 1.0}, k=60)
    derived = derived_items(results, fused, words, 60)
    order = interleave(fused, derived, 0.9, words)
    assert [item.hit.node_id for item, _ in order if isinstance(item, Derived)] == ["x", "z"]


def test_a_date_already_given_to_one_turn_still_dates_another() -> None:
    results = {
        "a": result(turns_hit(1), turns_hit(2)),
        "b": result(
            text_hit("x", "Ana went on 7 May", 1),
            text_hit("y", "Ana and Bo went on 7 May", 1, 2),  # 7 is news for turn 2
            text_hit("z", "Bo went there on 7 May as well", 1, 2),  # both have it by now
        ),
    }
    fused = fuse_turns(results, {"a": 1.0, "b": 1.0}, k=60)
    derived = derived_items(results, fused, words, 60)
    order = interleave(fused, derived, 0.9, words, ahead=frozenset({"p1", "p2"}))
    assert [item.hit.node_id for item, _ in order if isinstance(item, Derived)] == ["x", "y"]


def test_the_same_node_from_two_members_is_one_item_found_by_both() -> None:
    results = {"a": result(text_hit("x", "fact", 1)), "b": result(text_hit("x", "fact", 1))}
    fused = fuse_turns(results, {"a": 1.0, "b": 1.0}, k=60)
    (item,) = derived_items(results, fused, words, 60)
    assert item.members == ["a", "b"]


@pytest.mark.parametrize("share", [0.0, 0.25, 0.5, 1.0])
def test_every_prefix_keeps_the_token_share(share: float) -> None:
    results = {
        "a": result(*(turns_hit(n) for n in range(1, 30))),
        # each adds a number its turn lacks: none is left out as a restatement
        "b": result(*(text_hit(f"f{n}", f"fact {n + 100} short", n) for n in range(1, 30))),
    }
    fused = fuse_turns(results, {"a": 1.0, "b": 1.0}, k=60)
    derived = derived_items(results, fused, words, 60)
    order = interleave(fused, derived, share, words)
    assert len(order) == len(fused) + len(derived)
    used = {"t": 0, "d": 0}
    for n, (item, cost) in enumerate(order):
        used["d" if hasattr(item, "hit") else "t"] += cost
        total = used["t"] + used["d"]
        if n < len(fused):  # while both queues last
            biggest = max(words(turn_line(ref(1))), 3)
            assert used["d"] <= share * total + biggest
            assert used["t"] <= (1 - share) * total + biggest
    if share == 0.0:
        assert all(not hasattr(item, "hit") for item, _ in order[: len(fused)])


def test_plan_uses_every_built_design_and_shares_the_hipporag_vote() -> None:
    current = plan(GraphmemSettings(), ALL_BUILT)
    designs = [
        s
        for d in registry().values()
        if d.kind == "design" and d.name in ALL_BUILT  # not a test plug-in registered elsewhere
        for s in d.retrievers
    ]
    assert set(current.members) == {*designs, "fulltext"}
    assert "hipporag" not in current.members  # seem and cast re-order it
    assert current.weights["seem"] == current.weights["cast"] == 0.5
    assert current.weights["premem"] == current.weights["fulltext"] == 1.0
    assert not set(current.missing) & set(ALL_BUILT)  # only an unbuilt test plug-in may be


def test_plan_on_a_partial_space_says_what_is_missing() -> None:
    current = plan(GraphmemSettings(), ("premem",))
    assert set(current.members) == {"premem", "fulltext"}
    assert current.missing["seem"] == ["semantic", "seem"]
    assert "hipporag" in current.missing
    notes = "\n".join(current.notes())
    assert "--builders semantic,seem" in notes and "graphmem" not in current.members
    # The layer alone is there: its own strategy votes, nobody re-orders it.
    assert "hipporag" in plan(GraphmemSettings(), ("semantic",)).members


def test_a_space_without_designs_is_answered_by_the_fallback() -> None:
    alone = plan(GraphmemSettings(), ())
    assert alone.members == ("hybrid",) and alone.weights == {"hybrid": 1.0}
    assert "premem" in alone.missing  # and says what it lacks
    assert plan(GraphmemSettings(fallback=""), ()).members == ("fulltext",)
    # A design present: no fallback, the baselines join it.
    assert plan(GraphmemSettings(), ("premem",)).members == ("premem", "fulltext")


def test_exclude_and_explicit_members() -> None:
    assert "premem" not in plan(GraphmemSettings(exclude=("premem",)), ALL_BUILT).members
    explicit = plan(GraphmemSettings(members=("hipporag", "seem")), ALL_BUILT)
    assert explicit.members == ("hipporag", "seem")  # listed heads stay
    assert explicit.weights == {"hipporag": 0.5, "seem": 0.5}


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("members", ("seem", "nonsense")),
        ("members", ("graphmem",)),
        ("members", ('["seem"]',)),  # JSON where a comma list is read
        ("exclude", ("premme",)),
        ("baselines", ("bm25",)),
        ("family", {"nonsense": "hipporag"}),
        ("family", {"seem": "hippo"}),
        ("fallback", "nonsense"),
    ],
)
def test_a_misspelt_strategy_in_a_setting_is_an_error(field: str, value: object) -> None:
    """Instead of a fusion quietly missing a member (or of none: an empty context)."""
    with pytest.raises(ConfigError, match=rf"graphmem setting {field} \(GRAPHMEM_GRAPHMEM_"):
        plan(GraphmemSettings(**{field: value}), ALL_BUILT)


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_GRAPHMEM_EXCLUDE", "premem, amory")
    monkeypatch.setenv("GRAPHMEM_GRAPHMEM_FUSION", "agreement")
    config = DesignConfigs().get("graphmem")
    assert config.exclude == ("premem", "amory") and config.fusion == "agreement"
    assert DesignConfigs(preset="turns").get("graphmem").derived_share == 0.0


def test_compose_cites_turns_and_packs_within_the_budget() -> None:
    results = {
        "a": result(*(turns_hit(n) for n in range(1, 20))),
        "b": result(*(text_hit(f"f{n}", f"fact {n}", n) for n in range(20, 0, -1))),
    }
    config = GraphmemSettings(derived_share=0.25)
    current = Plan(("a", "b"), {"a": 1.0, "b": 1.0})
    hits = arrange(results, current, config, 200, words).hits
    assert all(h.passages for h in hits)
    assert hits[0].path[0].startswith("graphmem rrf: turn rank 1")
    context = pack(hits, 200, words)
    assert 0 < context.tokens <= 200
    derived = sum(i.tokens for i in context.items if i.passage is None)
    assert 0 < derived <= 0.25 * context.tokens + 5


def test_an_item_citing_one_turn_ranks_as_that_turn() -> None:
    # Member b ranks "late" first but it cites the turn nobody else found; "early" cites
    # the turn both members rank first.
    results = {
        "a": result(turns_hit(1)),
        "b": result(text_hit("late", "fact late", 9), text_hit("early", "fact early", 1)),
    }
    fused = fuse_turns(results, {"a": 1.0, "b": 1.0}, k=60)
    by_turn = derived_items(results, fused, words, 60)
    assert [d.hit.node_id for d in by_turn] == ["early", "late"]
    assert by_turn[0].score == pytest.approx(fused[0].score)


def test_an_item_ranks_as_its_cited_turns_do_on_average() -> None:
    # "wide" cites the top turn and five turns only member b found, far down its list;
    # "narrow" cites the third turn alone. By its best turn "wide" would come first and
    # bring five sessions nobody else ranked ahead of the agreed turns.
    results = {
        "a": result(turns_hit(1), turns_hit(2), turns_hit(3)),
        "b": result(
            turns_hit(1),
            *(turns_hit(n) for n in range(10, 40)),
            text_hit("wide", "thanks, that helps", 1, 40, 41, 42, 43, 44),
            text_hit("narrow", "fact three", 3),
        ),
    }
    fused = fuse_turns(results, {"a": 1.0, "b": 1.0}, k=10)
    items = derived_items(results, fused, words, 10)
    assert [d.hit.node_id for d in items] == ["narrow", "wide"]
    position = {t.ref.id: i for i, t in enumerate(fused)}
    assert items[0].place == pytest.approx(position["p3"])
    # Past the agreed turns and a good part of b's list, though not as far as its unfound turns.
    assert position["p3"] + 10 < items[1].place < position["p40"]
    assert items[1].best_turn is fused[0]  # still what it must be shorter than


def test_standing_of_one_turn_is_its_position_and_of_no_ranked_turn_the_end() -> None:
    assert standing([7], 25, 100) == pytest.approx(7)
    assert standing([None, None], 25, 100) == 100
    assert standing([0, None], 25, 100) == pytest.approx(2 * 26 - 26)  # mean halves it
    assert 0 < standing([0, 4], 25, 100) < 4


def test_items_for_the_same_turn_order_by_agreement_then_cost_not_by_member_order() -> None:
    long_fact = text_hit("long", "a much longer fact about turn one", 1)
    short_fact = text_hit("short", "short fact", 1)
    shared = text_hit("shared", "the fact both members returned", 1)
    results = {"a": result(turns_hit(1), long_fact, shared), "b": result(short_fact, shared)}
    fused = fuse_turns(results, {"a": 1.0, "b": 1.0}, k=60)
    forward = derived_items(results, fused, words, 60)
    backward = derived_items(dict(reversed(results.items())), fused, words, 60)
    assert [d.hit.node_id for d in forward] == ["shared", "short", "long"]
    assert [d.hit.node_id for d in backward] == [d.hit.node_id for d in forward]


@pytest.mark.parametrize("budget", [60, 100, 200])
def test_budget_scope_drops_items_restating_turns_the_context_shows(budget: int) -> None:
    # b has a short fact for every turn a ranks: placed in rank order, each fact comes just
    # before its turn, so a context would show both; judged against the budget the facts go
    # to turns the context does not show: it cites turns beyond the ones it shows, and
    # shows what it would show without any item, the best-ranked turns.
    results = {
        "a": result(*(turns_hit(n) for n in range(1, 80))),
        "b": result(*(text_hit(f"f{n}", f"fact {n}", n) for n in range(1, 80))),
    }
    current = Plan(("a", "b"), {"a": 1.0, "b": 1.0})
    packed = pack(arrange(results, current, GraphmemSettings(), budget, words).hits, budget, words)
    shown = {int(p.source_id.split(":")[1]) for p in packed.passages}
    cited = {int(p.source_id.split(":")[1]) for i in packed.items for p in i.cites}
    assert shown == set(range(1, len(shown) + 1))
    assert cited and not shown & cited
    assert min(cited) > max(shown)


def test_budget_scope_puts_what_the_budget_holds_first_in_rank_order() -> None:
    results = {
        "a": result(*(turns_hit(n) for n in range(1, 80))),
        "b": result(*(text_hit(f"f{n}", f"fact {n}", n) for n in range(1, 80))),
    }
    current = Plan(("a", "b"), {"a": 1.0, "b": 1.0})
    config = GraphmemSettings()
    hits = arrange(results, current, config, 100, words).hits
    held = len(pack(hits, 100, words).items)
    turn_of = [int(h.passages[0].source_id.split(":")[1]) for h in hits[:held]]
    assert hits[0].label == "Passage" and turn_of[0] == 1
    assert turn_of == sorted(turn_of)


def test_a_number_is_new_by_its_value_not_its_spelling() -> None:
    iso = ref(1).model_copy(update={"date_text": "2024-03-02 18:10"})
    assert not new_numbers("[dog, 2 March 2024]: Ana adopted a dog", [iso])
    assert new_numbers("Ana adopted a dog on 5 March 2024", [iso])


def test_a_turn_that_comes_and_goes_with_its_items_is_shown_in_the_end() -> None:
    # Turn 1 costs 18 words (13, the session's date and the excerpts' heading), the budget
    # 22. Knowing it shown, "word" adds nothing and is left out, "word on 7 May" (a date,
    # 6 with its bullet and the memories' heading) stays and comes first, and then the turn
    # no longer fits; not knowing it, "word" stays and the turn fits: the placement never
    # settles. It must not end by losing the turn it left items out for (until session 11
    # it ended with the dated item alone); a kept "word" costs 3 tokens.
    results = {
        "a": result(turns_hit(1)),
        "b": result(text_hit("f0", "word", 1), text_hit("f1", "word on 7 May", 1)),
    }
    current = Plan(("a", "b"), {"a": 1.0, "b": 1.0})
    # Memory lines without citations: the arithmetic above counts their words alone.
    arranged = arrange(results, current, GraphmemSettings(), 22, words, cites=0)
    packed = pack(arranged.hits, 22, words, memory_cites=0)
    assert {p.id for p in packed.passages} == {"p1"}
    assert arranged.held.turns <= {"p1"}


def test_an_item_the_packer_cuts_leaves_its_turn_to_the_next_item() -> None:
    # "long" (13 words and a date) stands for turns 1 and 3 but does not fit once turn 1
    # and "x" are in; "short" stands for turn 3 alone and fits. Until session 11 the cut
    # item held turn 3, "short" was left out as a restatement, and turn 3 was lost.
    results = {
        "a": result(turns_hit(1), turns_hit(2), turns_hit(3)),
        "b": result(
            text_hit("x", "Ana on 9 May", 1),
            text_hit("long", " ".join(["word"] * 10) + " on 7 May", 1, 3),
            text_hit("short", "garden on 7 May", 3),
        ),
    }
    current = Plan(("a", "b"), {"a": 1.0, "b": 1.0})
    for budget in (31, 32, 33):  # memory lines without citations, as counted above
        arranged = arrange(results, current, GraphmemSettings(), budget, words, cites=0)
        packed = pack(arranged.hits, budget, words, memory_cites=0)
        assert "D1:3" in packed.source_ids, budget


def sized_ref(n: int, length: int, session: int) -> PassageRef:
    return ref(n).model_copy(
        update={
            "text": " ".join([f"turn{n}"] * length),
            "session_index": session,
            "date_text": f"{session + 1} May 2023",
        }
    )


@settings(max_examples=200, deadline=None)
@given(
    a=st.lists(st.integers(1, 30), min_size=1, max_size=30, unique=True),
    b=st.lists(
        st.tuples(
            st.lists(st.integers(1, 30), min_size=1, max_size=3, unique=True),
            st.sampled_from(["", " on 7 May", " on 9 May", " [2 June 2023]"]),
            st.integers(1, 12),
        ),
        max_size=30,
    ),
    shape=st.lists(st.tuples(st.integers(2, 30), st.integers(0, 3)), min_size=30, max_size=30),
    budget=st.integers(10, 400),
)
def test_no_item_is_left_out_for_a_turn_the_reader_does_not_get(
    a: list[int],
    b: list[tuple[list[int], str, int]],
    shape: list[tuple[int, int]],
    budget: int,
) -> None:
    # Whatever the members return (turns of any length, in any session) and whatever the
    # budget, the placement ends, and:
    # - every candidate item the rule left out stands only for turns the context shows or
    #   a kept item cites (no turn is lost with its item);
    # - every turn taken as shown is shown, and every listed item that held its turns for
    #   the items after it is in the context;
    # - when the judgement was exact, every derived item in the context whose turns it all
    #   shows adds a number that neither those turns nor an item ranked before it gave them.
    refs = {n: sized_ref(n, *shape[n - 1]) for n in range(1, 31)}
    results = {
        "a": result(
            *(
                Hit(node_id=f"t{n}", label="Passage", score=1.0, strategy="a", passages=[refs[n]])
                for n in a
            )
        ),
        "b": result(
            *(
                Hit(
                    node_id=f"f{i}",
                    label="Fact",
                    score=1.0,
                    strategy="b",
                    text=" ".join(["word"] * length) + date,
                    passages=[refs[n] for n in turns],
                )
                for i, (turns, date, length) in enumerate(b)
            )
        ),
    }
    config = GraphmemSettings()
    current = Plan(("a", "b"), {"a": 1.0, "b": 1.0})
    arranged = arrange(results, current, config, budget, words)
    packed = pack(arranged.hits, budget, words)
    shown = {p.id for p in packed.passages}
    kept = {arranged.hits[i.rank].node_id for i in packed.items if i.passage is None}
    k = config.depth(budget)
    candidates = derived_items(results, fuse_turns(results, current.weights, k), words, k)
    listed = {h.node_id for h in arranged.hits}
    for candidate in candidates:
        if candidate.hit.node_id not in listed:
            assert {p.source_id for p in candidate.hit.passages} <= packed.source_ids
    held = arranged.held
    assert held.turns <= shown
    assert {h.node_id for h in arranged.hits if h.label != "Passage"} - held.cut <= kept
    if held.turns != shown or kept & held.cut:
        return
    given_numbers: dict[str, set[int]] = {}
    for item in sorted(packed.items, key=lambda i: i.rank):
        if item.passage is not None or not {p.id for p in item.cites} <= shown:
            continue
        new = new_numbers(item.text, item.cites)
        assert any(new - given_numbers.get(p.id, set()) for p in item.cites)
        for p in item.cites:
            given_numbers.setdefault(p.id, set()).update(new)


@pytest.mark.parametrize(("budget", "k"), [(500, 13), (1000, 25), (2000, 50)])
def test_rrf_k_is_the_depth_a_member_would_show(budget: int, k: int) -> None:
    results = {"a": result(turns_hit(1), turns_hit(2)), "b": result(turns_hit(2))}
    current = Plan(("a", "b"), {"a": 1.0, "b": 1.0})
    top = arrange(results, current, GraphmemSettings(), budget, words).hits[0]
    assert top.score == pytest.approx(1 / (k + 2) + 1 / (k + 1))
    assert f"(k {k})" in top.path[0]  # --explain says which k the score is of


def test_equal_fused_scores_tie_break_by_best_rank_then_conversation_order() -> None:
    """Turn 2 ranked (1, 5, 3) and turn 9 ranked (5, 3, 1) by the same three members have
    the same score; summed in member order they differ in the last bit, which must not
    decide: both have a first place, so conversation order does (turn 2 first)."""
    two, nine = turns_hit(2), turns_hit(9)
    a, b, c = (turns_hit(n) for n in (20, 21, 22))
    lists = {
        "a": [two, a, b, c, nine],
        "b": [a, b, nine, c, two],
        "c": [nine, a, two, b, c],
    }
    results = {m: result(*hits) for m, hits in lists.items()}
    fused = fuse_turns(results, {"a": 1.0, "b": 1.0, "c": 1.0}, 25)
    scores = {t.ref.source_id: t.score for t in fused}
    assert scores["D1:2"] == pytest.approx(scores["D1:9"], abs=1e-15)
    order = [t.ref.source_id for t in fused]
    assert order.index("D1:2") < order.index("D1:9")


def test_the_default_strategy_and_families_are_what_the_designs_declare() -> None:
    from graphmem.plugin.registry import default_strategy, pagerank_strategies, reorders
    from graphmem.retrieval.registry import DEFAULT_STRATEGY

    assert default_strategy() == DEFAULT_STRATEGY
    assert set(reorders().values()) <= set(pagerank_strategies())
    assert set(reorders()) <= set(pagerank_strategies())
