"""CAST's algorithms on hand-made examples: Algorithm 1 (greedy scene aggregation, two of
three tests, creation-order scan, running statistics), roles, Algorithm 2 (fusion), the
slot-3 ablation, the budget rule, views and question cues."""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta

import numpy as np
import pytest

from graphmem.designs.cast.config import CastSettings
from graphmem.designs.cast.design import DESIGN
from graphmem.designs.cast.episodic import Cues, SceneRow, matches
from graphmem.designs.cast.fusion import Entry, fuse, slot3, within_budget
from graphmem.designs.cast.scenes import (
    MAIN,
    SUPPORTING,
    Scene,
    StreamView,
    Thresholds,
    aggregate,
    continuity,
    place_distance,
    streams,
    topic_distance,
)
from graphmem.designs.cast.semantic import SEMANTIC_LAYER
from graphmem.designs.cast.summary import SummaryLine, extractive
from graphmem.designs.cast.views import Message, PersonResolver, normalise_place, windows
from graphmem.plugin.retriever import PassageRef

DAY = datetime(2023, 5, 8, 13, 0)
TH = Thresholds(delta_t=timedelta(days=1), delta_l=0.0, delta_tau=0.7)


def vec(*xs: float) -> np.ndarray:
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


DANCE, COOK = vec(1, 0, 0), vec(0, 1, 0)


def view(
    name: str,
    t: datetime | None,
    topic: np.ndarray,
    place: str | None = None,
    speaker: str = "Caroline",
    people: tuple[str, ...] = ("Caroline", "Melanie"),
    turn: int = 0,
) -> StreamView:
    return StreamView(name, t, place, topic, speaker, people, (0, turn))


def new_id(owner: str, first: StreamView) -> str:
    return f"{owner}:{first.id}"


def members(scenes: list[Scene]) -> list[list[str]]:
    return [[v.id for v in s.views] for s in scenes]


# --- Algorithm 1 ------------------------------------------------------------------------
def test_views_of_two_conversations_at_one_time_and_turn_keep_one_order() -> None:
    # two conversations of a space: the same time, session and turn index; the order they
    # come in (the database's read order) must not decide the scene's first view
    a, b = view("conv-b:v", DAY, DANCE, "studio"), view("conv-a:v", DAY, DANCE, "studio")
    orders = []
    for stream in ([a, b], [b, a]):
        scenes: list[Scene] = []
        aggregate(stream, scenes, "Caroline", TH, new_id)
        orders.append(members(scenes))
    assert orders[0] == orders[1] == [["conv-a:v", "conv-b:v"]]


def test_figure_2_two_scenes_by_time_and_topic() -> None:
    stream = [
        view("v1", DAY, DANCE, "dance studio", turn=1),
        view("v2", DAY, vec(1, 0.2, 0), "dance studio", turn=2),
        view("v3", DAY, vec(1, 0.1, 0.1), None, turn=3),
        view("v4", DAY + timedelta(days=3), COOK, None, turn=4),
        view("v5", DAY + timedelta(days=3), vec(0.1, 1, 0), None, turn=5),
    ]
    scenes: list[Scene] = []
    touched = aggregate(stream, scenes, "Caroline", TH, new_id)
    assert members(scenes) == [["v1", "v2", "v3"], ["v4", "v5"]]
    assert touched == {"Caroline:v1", "Caroline:v4"}
    assert [s.seq for s in scenes] == [0, 1]


def test_two_of_three_each_pair_suffices_and_one_does_not() -> None:
    base = view("v0", DAY, DANCE, "paris")
    far = DAY + timedelta(days=10)
    cases = {
        "time+place": view("a", DAY, COOK, "paris"),  # topic fails
        "time+topic": view("b", DAY, DANCE, "rome"),  # place fails
        "place+topic": view("c", far, DANCE, "paris"),  # time fails
        "time only": view("d", DAY, COOK, "rome"),
        "place only": view("e", far, COOK, "paris"),
        "topic only": view("f", far, DANCE, None),  # unknown place fails
    }
    joined = {}
    for label, candidate in cases.items():
        scenes: list[Scene] = []
        aggregate([base, candidate], scenes, "Caroline", TH, new_id)
        joined[label] = len(scenes) == 1
    assert joined == {
        "time+place": True,
        "time+topic": True,
        "place+topic": True,
        "time only": False,
        "place only": False,
        "topic only": False,
    }


def test_scan_in_creation_order_first_fit_wins() -> None:
    # s0 = {v1 (day 0, dance)}, s1 = {v2 (day 5, cooking, paris)}; v3 fits both s0 (place +
    # topic: v1 has no place, so no) ... built so v3 passes two tests against both scenes.
    v1 = view("v1", DAY, DANCE, "paris", turn=1)
    v2 = view("v2", DAY + timedelta(days=5), COOK, "paris", turn=2)
    v3 = view("v3", DAY + timedelta(days=5), DANCE, "paris", turn=3)
    scenes: list[Scene] = []
    aggregate([v1, v2], scenes, "Caroline", TH, new_id)
    assert sum(continuity(v3, scenes[0], TH)) >= 2 and sum(continuity(v3, scenes[1], TH)) >= 2
    aggregate([v3], scenes, "Caroline", TH, new_id)
    assert members(scenes) == [["v1", "v3"], ["v2"]]


def test_views_are_taken_in_time_order_not_input_order() -> None:
    late = view("late", DAY + timedelta(days=3), DANCE, turn=2)
    early = view("early", DAY, COOK, turn=1)
    scenes: list[Scene] = []
    aggregate([late, early], scenes, "Caroline", TH, new_id)
    assert [s.id for s in scenes] == ["Caroline:early", "Caroline:late"]


def test_time_is_measured_to_the_latest_view_of_the_scene() -> None:
    scenes: list[Scene] = []
    chain = [view(f"v{i}", DAY + timedelta(hours=20 * i), DANCE, turn=i) for i in range(4)]
    aggregate(chain, scenes, "Caroline", TH, new_id)
    assert len(scenes) == 1 and scenes[0].t_max == DAY + timedelta(hours=60)
    # 25 hours after the latest view: time fails, topic alone is not enough
    later = view("v9", DAY + timedelta(hours=85), DANCE, turn=9)
    assert continuity(later, scenes[0], TH) == (False, False, True)


def test_running_statistics_centroid_and_place_mode() -> None:
    scene = Scene("s", "Caroline", 0)
    scene.add(view("a", DAY, vec(1, 0, 0), "paris"))
    scene.add(view("b", DAY, vec(0, 1, 0), "rome"))
    scene.add(view("c", DAY, vec(0, 1, 0), "rome"))
    centroid = scene.centroid
    assert centroid is not None
    assert np.allclose(centroid, [1 / 3, 2 / 3, 0])
    assert scene.place == "rome" and scene.places == ["paris", "rome"]
    tie = Scene("t", "Caroline", 0)
    tie.add(view("a", DAY, DANCE, "paris"))
    tie.add(view("b", DAY, DANCE, "rome"))
    assert tie.place == "paris"  # equal counts: the place seen first


def test_distances() -> None:
    assert place_distance("paris", "paris") == 0.0
    assert place_distance("paris", "rome") == 1.0
    assert math.isinf(place_distance(None, "paris")) and math.isinf(place_distance(None, None))
    assert topic_distance(DANCE, np.asarray(DANCE, dtype=np.float64)) == pytest.approx(0.0)
    assert topic_distance(DANCE, np.asarray(COOK, dtype=np.float64)) == pytest.approx(1.0)
    # Delta_tau = 0.7 is a cosine of 0.3 to the centroid
    assert topic_distance(vec(0.3, math.sqrt(1 - 0.09), 0), np.asarray(DANCE, float)) == (
        pytest.approx(0.7)
    )


def test_unknown_time_fails_the_time_test() -> None:
    scene = Scene("s", "Caroline", 0)
    scene.add(view("a", None, DANCE))
    assert continuity(view("b", None, DANCE), scene, TH) == (False, False, True)


def test_roles_main_speaks_a_view_supporting_is_only_named() -> None:
    scene = Scene("s", "Gina", 0)
    scene.add(view("a", DAY, DANCE, speaker="Caroline", people=("Caroline", "Melanie", "Gina")))
    scene.add(view("b", DAY, DANCE, speaker="Melanie", people=("Caroline", "Melanie", "Gina")))
    assert scene.role("Caroline") == MAIN and scene.role("Melanie") == MAIN
    assert scene.role("Gina") == SUPPORTING
    assert scene.main == ["Caroline", "Melanie"] and scene.supporting == ["Gina"]


def test_every_participant_gets_the_view_in_their_stream() -> None:
    a = view("a", DAY, DANCE, people=("Caroline", "Melanie", "Gina"))
    b = view("b", DAY, DANCE, people=("Caroline", "Melanie"))
    out = streams([a, b])
    assert {k: [v.id for v in vs] for k, vs in out.items()} == {
        "Caroline": ["a", "b"],
        "Melanie": ["a", "b"],
        "Gina": ["a"],
    }


def test_incremental_equals_batch() -> None:
    stream = [
        view(f"v{i}", DAY + timedelta(hours=9 * i), t, p, turn=i)
        for i, (t, p) in enumerate(
            [(DANCE, "paris"), (COOK, None), (DANCE, None), (COOK, "paris"), (DANCE, "rome")] * 3
        )
    ]
    whole: list[Scene] = []
    aggregate(stream, whole, "C", TH, new_id)
    parts: list[Scene] = []
    aggregate(stream[:7], parts, "C", TH, new_id)
    # a later batch continues from scenes rebuilt view by view from the graph
    rebuilt = []
    for scene in parts:
        copy = Scene(scene.id, scene.owner, scene.seq)
        for v in scene.views:
            copy.add(v)
        rebuilt.append(copy)
    aggregate(stream[7:], rebuilt, "C", TH, new_id)
    assert members(rebuilt) == members(whole)


# --- Algorithm 2 and the slot-3 ablation -------------------------------------------------
def test_fusion_promotes_the_intersection_in_semantic_order() -> None:
    assert fuse(["a", "b", "c", "d", "e"], {"d", "b", "x"}) == ["b", "d", "a", "c", "e"]


def test_fusion_adds_no_candidate_and_keeps_order_without_overlap() -> None:
    assert fuse(["a", "b", "c"], ["x", "y"]) == ["a", "b", "c"]
    assert fuse(["a", "b", "c"], []) == ["a", "b", "c"]
    assert fuse(["a", "b", "c"], ["c", "b", "a"]) == ["a", "b", "c"]
    assert fuse([], ["x"]) == []


def test_slot3_inserts_at_position_three_and_keeps_length_k() -> None:
    assert slot3(["a", "b", "c", "d", "e"], "z", keep=5) == ["a", "b", "z", "c", "d"]
    assert slot3(["a", "b", "c", "d", "e"], "z") == ["a", "b", "z", "c", "d", "e"]
    assert slot3(["a", "b", "c"], None, keep=3) == ["a", "b", "c"]
    assert slot3(["a", "b", "c", "d"], "d", keep=4) == ["a", "b", "d", "c"]


# --- the budget rule -------------------------------------------------------------------
def ref(pid: str, words: int, session: int = 0, turn: int = 0) -> PassageRef:
    return PassageRef(
        id=pid,
        source_id=pid,
        speaker="A",
        text=" ".join(["w"] * words),
        date_text="d",
        session_index=session,
        turn_index=turn,
    )


def words(text: str) -> int:
    return len(text.split())


def test_within_budget_counts_shared_turns_and_headers_once_and_cuts_the_last() -> None:
    a, b, c, d = ref("a", 8, turn=0), ref("b", 8, turn=1), ref("c", 8, turn=2), ref("d", 8, 0, 3)
    # a turn line "[x] A: w*8" is 10 words; the session header "(d)" is 1 word
    entries = [Entry(a, (a, b)), Entry(b, (b, a, c)), Entry(d, (d, c))]
    out = within_budget(entries, 31, words)
    # entry 1: 1 + 10 + 10 = 21; entry 2 adds only c: 31; entry 3 adds d (10): cut to nothing
    assert [e.passage.id for e in out] == ["a", "b"]
    out = within_budget(entries, 45, words)
    assert [e.passage.id for e in out] == ["a", "b", "d"]
    assert [p.id for p in out[-1].view] == ["d", "c"]
    tight = within_budget([Entry(a, (a, b, c))], 25, words)
    assert [p.id for p in tight[0].view] == ["a", "b"]  # the centre first, then what fits


def test_within_budget_is_order_free_for_the_packer() -> None:
    from graphmem.plugin.retriever import Hit
    from graphmem.retrieval.packer import pack

    refs = [ref(f"p{i}", 5 + i, session=i % 2, turn=i) for i in range(8)]
    entries = [Entry(refs[i], (refs[i], refs[(i + 1) % 8])) for i in range(8)]
    chosen = within_budget(entries, 60, words)

    def hits(items: list[Entry]) -> list[Hit]:
        return [
            Hit(node_id=e.passage.id, label="View", score=1, strategy="cast", passages=list(e.view))
            for e in items
        ]

    forward = pack(hits(chosen), 60, words)
    backward = pack(hits(chosen[::-1]), 60, words)
    assert forward.source_ids == backward.source_ids
    assert forward.tokens <= 60


# --- views, places, persons, cues, summaries ----------------------------------------------
def msg(i: int) -> Message:
    return Message(f"p{i}", f"D1:{i}", "s", 0, i, "A", "t", None, None, None)


def test_windows_follow_the_edge_rule() -> None:
    ms = [msg(i) for i in range(4)]
    got = [[m.passage_id for m in w] for w in windows(ms, 1)]
    assert got == [["p0", "p1"], ["p0", "p1", "p2"], ["p1", "p2", "p3"], ["p2", "p3"]]
    assert [[m.passage_id for m in w] for w in windows(ms, 0)] == [[f"p{i}"] for i in range(4)]


def test_place_normalisation() -> None:
    assert normalise_place("the Eiffel Tower") == "eiffel tower"
    assert normalise_place("Paris's") == "paris"
    assert normalise_place("  ") is None


def test_persons_resolve_to_known_speakers_and_drop_junk() -> None:
    resolver = PersonResolver(["Caroline", "Melanie Smith"])
    assert resolver.resolve("caroline") is None  # not capitalised: not a name
    assert resolver.resolve("Caroline's") == "Caroline"
    assert resolver.resolve("Melanie") == "Melanie Smith"
    assert resolver.resolve("Gina") == "Gina"
    assert resolver.resolve("Haha lol what is this") is None
    assert resolver.named("did melanie call?") == ["Melanie Smith"]


def test_scene_cues() -> None:
    scene = SceneRow(
        "s", "Gina", "SC", DAY, DAY, "8 May 2023", frozenset({"paris"}), "sum", ("p1",)
    )
    slack = timedelta(days=1)
    assert matches(scene, Cues(names=frozenset({"Gina"})), slack) == ("name",)
    assert matches(scene, Cues(places=frozenset({"rome"})), slack) == ()
    may9 = ((date(2023, 5, 9), date(2023, 5, 9)),)
    assert matches(scene, Cues(places=frozenset({"paris"}), periods=may9), slack) == (
        "place",
        "time",
    )
    assert matches(scene, Cues(periods=((date(2023, 6, 1), date(2023, 6, 30)),)), slack) == ()


def test_extractive_summary_keeps_central_lines_within_cap_in_order() -> None:
    lines = [
        SummaryLine("A: first", 3, 0.2, False, (0, 0)),
        SummaryLine("B: haha", 2, 0.99, True, (0, 1)),
        SummaryLine("A: central", 3, 0.9, False, (0, 2)),
        SummaryLine("B: long one", 50, 0.8, False, (0, 3)),
    ]
    assert extractive("Head:", 2, lines, 9) == "Head: A: first A: central"
    # with room for it, the filler line comes in last of all
    assert extractive("Head:", 2, lines, 10) == "Head: A: first B: haha A: central"


def test_presets_cite_the_paper() -> None:
    paper = DESIGN.preset("paper")
    assert paper.values["semantic_k"] == 5
    assert all(name in paper.sources for name in CastSettings.model_fields)
    assert "4.1" in paper.sources["delta_tau"] and "4.1" in paper.sources["window"]
    default = DESIGN.preset("default")
    assert all(name in default.sources for name in CastSettings.model_fields)
    assert DESIGN.requires == (SEMANTIC_LAYER,)


def test_settings_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_CAST_WINDOW", "0")
    monkeypatch.setenv("GRAPHMEM_CAST_FUSION", "slot3")
    settings = CastSettings()
    assert settings.window == 0 and settings.fusion == "slot3"
    assert settings.delta_t_days == 1.0 and settings.delta_tau == 0.7


def test_episodic_ranking_filter_boost_off_and_turns() -> None:
    from graphmem.designs.cast.episodic import EpisodicIndex, episodic_turns

    def row(sid: str, who: str, turns: tuple[str, ...]) -> SceneRow:
        return SceneRow(sid, who, "MC", DAY, DAY, "d", frozenset(), "s", turns)

    index = EpisodicIndex(
        scenes=[row("a", "Caroline", ("p1", "p2")), row("b", "Gina", ("p2", "p3"))],
        scene_vectors=np.stack([vec(1, 0, 0), vec(0.6, 0.8, 0)]),
        views={},
        view_vectors={},
        passages={},
    )
    query = [1.0, 0.0, 0.0]
    gina = Cues(names=frozenset({"Gina"}))
    slack = timedelta(days=1)
    assert [r.scene.id for r in index.rank(query, gina, "filter", 0.1, slack)] == ["b", "a"]
    assert [r.scene.id for r in index.rank(query, gina, "off", 0.1, slack)] == ["a", "b"]
    # boost: 0.6 + 0.1 < 1.0, a small bonus does not overturn a clear cosine lead
    assert [r.scene.id for r in index.rank(query, gina, "boost", 0.1, slack)] == ["a", "b"]
    assert [r.scene.id for r in index.rank(query, gina, "boost", 0.5, slack)] == ["b", "a"]
    ranked = index.rank(query, gina, "filter", 0.1, slack)
    turns = episodic_turns(ranked, 1)
    assert set(turns) == {"p2", "p3"} and turns["p2"].matched == ("name",)
    assert set(episodic_turns(ranked, 2)) == {"p1", "p2", "p3"}


def test_question_cues_find_names_places_and_explicit_dates() -> None:
    from graphmem.designs.cast.episodic import question_cues
    from graphmem.nlp import analyse

    resolver = PersonResolver(["Caroline", "Melanie"])
    doc = analyse("What did Mel do in Paris on 7 May 2023, after last week?")
    cues = question_cues(doc, resolver, DAY)
    assert cues.names == frozenset({"Melanie"})
    assert cues.places == frozenset({"paris"})
    assert cues.periods == ((date(2023, 5, 7), date(2023, 5, 7)),)


def test_a_question_with_its_own_date_has_relative_dates_as_cues() -> None:
    from graphmem.designs.cast.episodic import question_cues
    from graphmem.nlp import analyse

    resolver = PersonResolver(["Caroline"])
    asked = datetime(2024, 2, 3, 9, 30)  # a Saturday
    doc = analyse("What did Caroline buy last Saturday, and what is she doing on May 10?")
    # counted from the question's own date: the Saturday before, the May to come
    cues = question_cues(doc, resolver, asked, relative=True)
    assert cues.periods == (
        (date(2024, 1, 27), date(2024, 1, 27)),
        (date(2024, 5, 10), date(2024, 5, 10)),
    )
    # without a date of its own, "last Saturday" has nothing to count from
    assert question_cues(doc, resolver, asked).periods == ()


def test_a_scene_at_the_calendars_end_matches_a_time_cue_without_overflow() -> None:
    from graphmem.designs.cast.episodic import Cues, SceneRow, matches

    end = datetime(9999, 12, 31, 23, 0)
    start = datetime(1, 1, 1, 0, 30)
    scene = SceneRow("s", "Caroline", "MC", start, end, None, frozenset(), "", ())
    cues = Cues(frozenset(), frozenset(), ((date(9999, 12, 25), date(9999, 12, 31)),))
    assert matches(scene, cues, timedelta(days=1)) == ("time",)
