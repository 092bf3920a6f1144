"""The semantic layer's pure parts: names, the over-fetch formula, the seed formula, fact
extraction (offline parse and the LLM answer's parsing), the turn renderer and the parse
cache (no database)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import pytest
from pydantic import BaseModel

from graphmem.graph.overfetch import over_fetch
from graphmem.ingest.render import render_turn
from graphmem.llm import Message, StructuredLLM
from graphmem.llm.base import T
from graphmem.nlp import analyse, analyse_many
from graphmem.semantic.extract import (
    PassageFacts,
    PassageIn,
    llm_facts,
    offline_facts,
    offline_facts_many,
)
from graphmem.semantic.names import alnum_length, head_noun, human_date, normalise_name
from graphmem.semantic.prompts import QuadrupleExtraction, QuadrupleOut
from graphmem.semantic.seeds import (
    Scored,
    SeedEntity,
    entity_weights,
    passage_groups,
    passage_weights,
    quantise,
    seed_groups,
)

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
def passage_in(text: str, pid: str = "p1", speaker: str = "Ana", ts: datetime = REF) -> PassageIn:
    return PassageIn(pid, speaker, text, None, ts, "8 May 2023", 0, 0)


def test_offline_facts_resolve_the_speaker_and_time() -> None:
    passage = passage_in("I went to a pottery class in Lisbon yesterday.")
    facts, triples = offline_facts(passage, analyse(passage.text), None, limit=8)
    assert ("Ana", "went to", "2023-05-07") in {
        (q.subject, q.relation, q.time) for q in facts.quadruples
    }
    assert "Lisbon" in facts.mentions
    assert triples


ANSWER = (
    "Sure! Lisbon has lovely pottery studios. Ceramica Lisboa runs evening classes in "
    "Alfama. The tile museum shows old azulejos. Bring an apron to the class."
)


def test_an_answer_gives_the_facts_of_its_opening_sentences() -> None:
    """An assistant's turn is read up to its third content sentence ("Sure!" is not
    one); its remaining sentences give no facts or mentions. The user's turns and
    conversations without an assistant are read whole."""
    answer = passage_in(ANSWER, speaker="assistant")
    user = passage_in(ANSWER, pid="p2", speaker="user")
    whole, capped_user = offline_facts_many([answer, user], 8)
    capped, same_user = offline_facts_many([answer, user], 8, frozenset({"assistant"}), 3)
    assert same_user == capped_user
    assert capped_user.mentions == whole.mentions

    def said(facts: PassageFacts) -> str:
        return " ".join([*facts.mentions, *(f"{q.subject} {q.object}" for q in facts.quadruples)])

    assert "museum" in said(capped).lower() and "apron" not in said(capped).lower()
    assert "apron" in said(whole).lower()
    assert offline_facts_many([answer], 8, frozenset({"assistant"}), 0)[0] == whole


# --- the LLM backend's parsing (a stub model) -----------------------------------------------
class Stub(StructuredLLM):
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
    stub = Stub({QuadrupleExtraction: answer})
    (facts,) = llm_facts(stub, [passage_in("I adopted Pixel from the shelter yesterday.")])
    assert [(q.subject, q.object, q.time) for q in facts.quadruples] == [
        ("Ana", "Pixel", "2023-05-07")
    ]
    assert facts.mentions == ["the shelter"]  # subjects/objects and junk are not repeated
    assert "(8 May 2023) Ana: I adopted Pixel" in stub.prompts[0]


# --- shared pieces -------------------------------------------------------------------------
def test_render_turn_is_the_one_format() -> None:
    assert render_turn("Ana", "hi") == "Ana: hi"
    assert (
        render_turn("Ana", "look", date_text="8 May 2023", caption="a cat", source_id="D1:2")
        == "[D1:2] (8 May 2023) Ana: look [shares a photo of a cat]"
    )


def test_analyse_many_parses_each_text_once() -> None:
    texts = [f"Ana painted sunrise number {i} in Lisbon." for i in range(3)]
    first = analyse_many(texts)
    again = analyse_many([texts[2], "A text never seen before.", texts[0]])
    assert again[0] is first[2] and again[2] is first[0]  # served from the cache
    assert again[1].text == "A text never seen before."
    assert [d.text for d in analyse_many(["", ""])] == ["", ""]  # empty docs are falsy


def test_hipporag2_phrase_weights_are_means_not_sums() -> None:
    from graphmem.semantic.seeds import mean_entity_weights, min_max

    a, b = _entity("a", 2, 1), _entity("b", 1, 2)  # a: in 2 passages
    weights = mean_entity_weights([Scored(a, 1.0), Scored(a, 0.2), Scored(b, 0.5)], top_n=5)
    assert weights[a] == pytest.approx((1.0 / 2 + 0.2 / 2) / 2)  # mean over a's two facts
    assert weights[b] == pytest.approx(0.5)
    assert list(mean_entity_weights([Scored(a, 1.0), Scored(b, 0.6)], top_n=1)) == [b]
    assert min_max([2.0, 4.0, 3.0]) == [0.0, 1.0, 0.5]


def test_lexical_fact_filter_keeps_facts_sharing_a_content_word() -> None:
    from graphmem.semantic.seeds import lexical_filter

    class F:
        def __init__(self, text: str) -> None:
            self.text = text

    facts = [F("Ben made a blue bowl"), F("Ana adopted a kitten"), F("the and of")]
    assert lexical_filter("What bowl did Ben make?", facts) == [0]


def test_facts_without_a_time_get_the_turns_date() -> None:
    from datetime import datetime

    from graphmem.semantic.extract import PassageFacts, Quadruple, with_session_dates

    class P:
        def __init__(self, pid: str, ts: datetime | None) -> None:
            self.id, self.ts = pid, ts

    facts = [
        PassageFacts(
            "p1", [Quadruple("ana", "adopted", "pixel"), Quadruple("a", "b", "c", "2023")]
        ),
        PassageFacts("p2", [Quadruple("ben", "ran", "lisbon")]),
    ]
    dated = with_session_dates(facts, [P("p1", datetime(2023, 5, 8, 13, 0)), P("p2", None)])  # type: ignore[list-item]
    assert [q.time for q in dated[0].quadruples] == ["2023-05-08", "2023"]  # its own time wins
    assert dated[1].quadruples[0].time is None  # no date known: none invented
