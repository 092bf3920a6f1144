"""Issue 57: ``--explain`` in plain words (one line per item, the numbers kept in its JSON),
``stats`` without its zeros, plurals, and the error naming a space that does not exist."""

from __future__ import annotations

import re

import pytest

from graphmem.cli.memory_cmds import _render_ingest
from graphmem.cli.plain import nonzero, plural
from graphmem.errors import ConfigError, UnknownSpaceError
from graphmem.retrieval.explain import (
    explain_item,
    explain_notes,
    member_weights,
    ordinal,
    parse_step,
)

NOTES = ["members: amory x1, anchormem x1, cast x0.5, premem x1, seem x0.5, fulltext x1"]
FUSED = [
    "graphmem rrf: turn rank 1, score 0.1439 (k 25); found by 5 of 6: amory #3, anchormem #7,"
    " cast #1, premem #1, seem #2",
    "amory: offline coherence (headline + characters + best excerpt)",
    "anchormem: exact cosine over the space's facts rank 7 score 0.871",
    "cast: dense (no seed) rank 1 score 0.7774",
    "premem: exact cosine over fragments, insights and turns rank 1 score 0.889",
    "seem: dense (no seed) rank 2 score 0.7731",
]
# Words the old lines were made of: none of them is a reader's.
JARGON = ("rrf", "(k ", " #", "score", "cosine", "PPR", "BM25", "-FROM->", "via ")


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"
    ]  # fmt: skip


def test_a_fused_turn_says_who_found_it_and_where_the_fusion_put_it() -> None:
    weights = member_weights(NOTES)
    assert weights["cast"] == 0.5 and weights["fulltext"] == 1.0
    found = explain_item("graphmem", FUSED, 1, weights)
    assert found["text"] == ("found by 5 of 6 searches (best: CAST and PREMem 1st); fused rank 1")
    assert found["fusion"] == {
        "method": "rrf",
        "turn_rank": 1,
        "score": 0.1439,
        "k": 25,
        "found_by": 5,
        "members": 6,
        "weights": weights,
    }
    votes = {v["member"]: v for v in found["votes"]}
    assert votes["seem"]["rank"] == 2 and votes["seem"]["weight"] == 0.5
    assert votes["anchormem"]["step"] == {
        "member": "anchormem",
        "how": "exact cosine over the space's facts",
        "rank": 7,
        "score": 0.871,
    }
    assert not any(word in found["text"] for word in JARGON)


def test_the_best_ranks_are_named_as_the_issue_shows() -> None:
    path = ["graphmem rrf: turn rank 1, score 0.2 (k 5); found by 2 of 6: premem #1, seem #2"]
    text = explain_item("graphmem", path, 1)["text"]
    assert text == "found by 2 of 6 searches (best: PREMem 1st, SEEM 2nd); fused rank 1"


def test_agreement_says_whether_the_turn_moved_up() -> None:
    path = [
        "graphmem agreement: turn rank 3, score 0.1 (k 25); found by 2 of 6: cast #1, seem #4;"
        " promoted (1.5 votes in the members' top 10)"
    ]
    found = explain_item("graphmem", path, 3)
    assert found["fusion"]["agreement"] == {"promoted": True, "votes": 1.5, "top": 10}
    assert found["text"].endswith("; moved up: 1.5 votes within the searches' top 10")


def test_a_fused_memory_says_what_it_stands_for_and_where_it_is_placed() -> None:
    path = [
        "graphmem: AtomicFact from anchormem, ranked as its cited turns on average: place 5.0,"
        " score 0.1299; shown as its own text, citing s1:4 (turn rank 5), s2:1 (unranked)",
        "anchormem: exact cosine over the space's facts rank 1 score 0.880",
        "anchormem: AtomicFact -FROM-> Passage",
    ]
    found = explain_item("graphmem", path, 6, member_weights(NOTES))
    assert found["text"] == (
        "an atomic fact from AnchorMem standing for s1:4 and s2:1; placed where its turns "
        "rank on average (5th)"
    )
    assert found["derived"]["cites"] == [
        {"turn": "s1:4", "turn_rank": 5},
        {"turn": "s2:1", "turn_rank": None},
    ]
    assert found["derived"]["place"] == 5.0 and found["steps"][0]["rank"] == 1


@pytest.mark.parametrize(
    ("path", "words"),
    [
        (["exact cosine over the space's passages rank 1 score 0.932"],
         "ranked 1st: closest in meaning to the question"),
        (["BM25 over the space's turns rank 2 score 1.534"],
         "ranked 2nd: best keyword match for the question"),
        (["exact cosine over the space's passages rank 7 score 0.911",
          "BM25 over the space's turns rank 2 score 1.534"],
         "ranked 3rd, fusing 2 searches: by meaning 7th, by keywords 2nd"),
        (["PPR from entities [Maya 1.75, Porto 0.835, big park 0.811, Tom 0.2] rank 1 score 0.38"],
         "ranked 1st: reached in the entity graph from Maya, Porto and big park"),
        (["exact cosine over the space's facts rank 3 score 0.911", "AtomicFact -FROM-> Passage"],
         "ranked 3rd: found through a fact close in meaning to the question"),
        (["fact search (exact, in memory) cosine 0.811"],
         "ranked 2nd: found through a fact close in meaning to the question"),
        (["event frame of s1:1, s1:2"], "ranked 4th: the summary of the event of s1:1, s1:2"),
        (["offline coherence (headline + characters + best excerpt)",
          "story: Porto, Biscuit [Maya]", "characters: Maya, Tom"],
         "ranked 1st: from a story that fits the question; story 'Porto, Biscuit'"),
        (["PPR from entities [Maya 1.75] rank 1 score 0.38",
          "promoted: scene 28b86c7c of Maya (MC, 2024-06-20 09:05), episodic rank 1 score "
          "0.838, matched name"],
         "ranked 1st: reached in the entity graph from Maya; moved up: a scene of Maya "
         "(2024-06-20 09:05) fits the question"),
        (["exact cosine over the space's passages rank 1 score 0.9", "supersedes"],
         "ranked 1st: closest in meaning to the question; replaces an earlier memory"),
        (["a step no design had before"], "ranked 5th: a step no design had before"),
    ],
)  # fmt: skip
def test_every_strategy_s_steps_read_as_words(path: list[str], words: str) -> None:
    rank = int(re.match(r"ranked (\d+)", words)[1])  # type: ignore[index]
    assert explain_item("dense", path, rank)["text"] == words


def test_a_step_keeps_its_numbers() -> None:
    assert parse_step("PPR from entities [Maya 1.75, Porto 0.835] rank 2 score 0.3723") == {
        "how": "PPR from entities [Maya 1.75, Porto 0.835]",
        "rank": 2,
        "score": 0.3723,
        "seeds": [{"entity": "Maya", "weight": 1.75}, {"entity": "Porto", "weight": 0.835}],
    }


def test_the_members_note_reads_as_words() -> None:
    said = explain_notes([*NOTES, "seem not fused: the space lacks the seem layer"])
    assert said == [
        "6 searches vote for the turns they find: Amory, AnchorMem, PREMem and keyword search "
        "at full weight; CAST and SEEM at half weight (they re-order the same ranking)",
        "seem not fused: the space lacks the seem layer",
    ]


def test_plurals_and_zeros() -> None:
    assert [plural(1, "turn"), plural(0, "turn"), plural(2, "entity", "entities")] == [
        "1 turn",
        "0 turns",
        "2 entities",
    ]
    stats = {"nodes": {"Passage": 3}, "cost": {"llm_calls": 0, "seconds": 0.0, "builds": 1},
             "amory": {"subplots": 0}, "backends": ["offline"], "flag": False}  # fmt: skip
    assert nonzero(stats) == (
        {"nodes": {"Passage": 3}, "cost": {"builds": 1}, "backends": ["offline"], "flag": False},
        3,
    )


def test_the_ingest_summary_gives_the_wall_time_and_its_parts() -> None:
    builder = {"sessions": 1, "llm_calls": 0, "llm_cache_hits": 0, "llm_fallbacks": 0}
    data = {
        "conversations": 1,
        "sessions_written": 1,
        "sessions_skipped": 0,
        "passages_written": 1,
        "seconds": 2.6,
        "wall_seconds": 23.5,
        "turns_per_second": 0.4,
        "builders": [{**builder, "builder": "seem", "seconds": 20.5}],
    }
    assert _render_ingest(data).splitlines()[0] == (
        "1 conversation: 1 session written, 0 already stored; 1 turn in 23.5 s "
        "(passages 2.6 s, builders 20.5 s, other 0.4 s)"
    )


def test_an_unknown_space_names_the_closest_one() -> None:
    typo = UnknownSpaceError("dmeo", ["demo", "work"])
    assert isinstance(typo, ConfigError) and typo.exit_code == 2
    assert str(typo) == "no space 'dmeo'; did you mean 'demo'?"
    assert str(UnknownSpaceError("zzz", ["demo"])).endswith(
        "hint: graphmem spaces lists the spaces"
    )
    # A server confined to some spaces names none of the others.
    assert str(typo.among(["work"])) == "no space 'dmeo'\n  hint: graphmem spaces lists the spaces"
    assert "ingest into it first" in str(typo.among([]))
