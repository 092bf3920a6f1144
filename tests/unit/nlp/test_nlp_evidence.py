"""The shared offline judgements behind the analyst-facing graph: which phrases name a
thing (nlp/things.py), which PERSON-tagged names are people (nlp/people.py), what a
sentence does (nlp/speech_acts.py), and which of a SEEM frame's turns an event comes from."""

from __future__ import annotations

import pytest

from graphmem.designs.seem.frames import event_sources
from graphmem.nlp import analyse_many
from graphmem.nlp.people import PersonEvidence, given_names
from graphmem.nlp.speech_acts import reported, speech_act
from graphmem.nlp.text import cut_inside_word
from graphmem.nlp.things import thing_names
from graphmem.nlp.wordnet import thing_noun

pytestmark = pytest.mark.slow  # spaCy


def test_a_thing_is_a_noun_phrase_naming_something() -> None:
    expected = {
        "Caroline": "Caroline",
        "Melanie's kids": "Melanie's kids",
        "pottery class": "pottery class",
        "gardening tips": "gardening tips",
        "Lisbon": "Lisbon",  # alone, the tagger reads it as a verb
        "Marco": "Marco",  # alone, as an adverb
        "Hey Caroline": "Caroline",  # a greeting in front is not part of it
        "more insects": "insects",  # nor an amount
        "her car": "car",  # nor an unresolved possessive
        "creative": None,  # an adjective
        "to try": None,  # a verb
        "your support": None,  # a light noun once "your" goes
        "fun": None,
        "tips": None,
        "good time": None,
        "great decision": None,
        "hike with you": None,  # speaks to the listener
        "time flies-": None,  # broken spans
        "a | b": None,
        "author(s": None,
        "Absolutely, Caroline": "Caroline",  # an aside closed by a comma
        "spreadable, creamy paste": "spreadable, creamy paste",  # adjectives in a list
        "John, long time": None,  # a comma joining nothing: an address
        "great deal of atten- tion": None,  # a line's hyphen left in a word
        'case" mentality': None,  # a stray quote
        "dates": None,  # times are not things
        "brief moment": None,
        "strength": None,  # a quality whose owner the phrase lost
        "true self": None,
        "adrenaline": None,  # a feeling reported
        "No prob": None,
        "17 comments": "comments",  # a number in front counts, it is no part of the thing
        "5K race": "5K race",
        "John! Video games": None,  # glued across a sentence's end
        "freedom - dancing": None,  # or a dash
        "Main St and": None,  # a coordination cut
        "TROUBLESHOOTING • Knee pain": None,  # markup
        "reminder": None,
        "journey": None,  # a figure of speech for an experience
        "group": None,  # a container of something the phrase lost
        "support group": "support group",
        "awareness": None,  # said of something the phrase lost
        "Awesome": None,  # an interjection
        "Ahhahha": None,  # laughter
        "Hannah": "Hannah",
    }
    assert dict(zip(expected, thing_names(list(expected)), strict=True)) == expected


def test_a_span_cut_inside_a_hyphenated_word_is_broken() -> None:
    doc = analyse_many(["It was a no-brainer, ask my sister-in-law."])[0]
    spans = {t.text: doc[t.i : t.i + 1] for t in doc}
    assert cut_inside_word(spans["brainer"]) and cut_inside_word(spans["sister"])
    assert not cut_inside_word(spans["ask"])


def _evidence(texts: list[str]) -> PersonEvidence:
    return PersonEvidence.of(analyse_many(texts))


def test_a_name_is_a_person_by_how_the_conversation_uses_it() -> None:
    evidence = _evidence(
        [
            "I met Gina at the park and Gina told me about her new job.",
            "We drove through Woodhaven, then stayed in Woodhaven for a night.",
            "I have been playing Fortnite all week.",
            "Glad you came!",
        ]
    )
    assert evidence.is_person("Gina") and evidence.is_person("Gina's")
    assert not evidence.is_person("Woodhaven")
    assert not evidence.is_person("Fortnite")
    assert not evidence.is_person("Glad")
    assert "gina" in given_names() and "woodhaven" not in given_names()


def test_a_shop_a_dish_or_a_kind_in_a_persons_place_weighs_half() -> None:
    evidence = _evidence(
        [
            "I got my TV from Best Buy, and the soundbar from Best Buy too.",
            "I bought an eyeshadow palette from Sephora; Sephora's prices are fair.",
            "Do you know a drink that pairs well with Paella? I'm making Paella.",
            "The Avengers saved the day.",
            "I talked to Kowalski yesterday, and Kowalski told me to wait.",
        ]
    )
    assert evidence.support["best buy"] == 1.0  # two purchases: half a use each
    assert not evidence.is_person("Best Buy")
    assert not evidence.is_person("Sephora")
    assert not evidence.is_person("Paella")
    assert not evidence.is_person("Avengers")  # a plural names a kind or a group
    assert evidence.support["kowalski"] == 2.0  # talked to, told: a person's places
    assert evidence.is_person("Kowalski")


def test_a_name_inside_a_longer_name_is_no_person_and_passing_mentions_never_add_up() -> None:
    evidence = _evidence(
        [
            "I saw Dear Evan Hansen on Broadway, and Dear Evan Hansen was moving.",
            "Pope Paul VI wrote it, and I think Paul VI was right.",
            "I am making Paella tonight.",
            "Paella takes an hour, and the Paella tastes great with Sangria.",
            "My guests will get Paella with Sangria.",
        ]
    )
    assert evidence.against["evan hansen"] >= 1 and not evidence.is_person("Evan Hansen")
    assert evidence.against["paul vi"] == 0  # a title in front is part of a person's name
    assert evidence.support["paella"] == 2.0 and evidence.full["paella"] == 0
    assert not evidence.is_person("Paella")  # four half uses, none in a person's place


def test_a_name_wordnet_knows_only_as_a_thing_needs_someone_named_by_it() -> None:
    evidence = _evidence(
        [
            "I saw an Osprey at the lake, and the Osprey caught a fish. Osprey loves fish.",
            "We hiked in the park near Joshua Tree; Joshua Tree was stunning.",
            "I got a puppy! Her name's Coco and she's adorable.",
            "I asked America about it and America told me.",
            "I met Gina at the park and Gina told me about her new job.",
        ]
    )
    assert evidence.support["osprey"] >= 2.0 and evidence.full["osprey"] > 0
    assert not evidence.is_person("Osprey")  # a common noun, never a person in WordNet
    assert not evidence.is_person("Joshua Tree")  # a name WordNet has for a plant
    assert not evidence.is_person("America")  # a rare given name that is also a place
    assert evidence.is_person("Coco")  # named: WordNet's coco palm does not matter
    assert evidence.is_person("Gina")
    assert thing_noun("osprey") == "c" and thing_noun("rosetta stone") == "p"
    assert thing_noun("gina") is None and thing_noun("emma") is None


@pytest.mark.parametrize(
    ("sentence", "act"),
    [
        ("I just got a new job at Google!", "statement"),
        ("My kids love painting.", "statement"),
        ("Does the assistant have any tips?", "question"),
        ("Tell me more about visiting Joshua Tree.", "request"),
        ("Let's write that whole scene with dialogue.", "request"),
        ("Thanks for the support!", "reaction"),
        ("That's really helpful!", "reaction"),
        ("Hey Nate, that looks yummy!", "reaction"),
        ("Best of luck with your market research.", "reaction"),
        ("Here are some tips to improve your profile:", "opening"),
        ("What a great idea!", "reaction"),
        ("If you have any further questions, feel free to ask.", "reaction"),
        ("When you get there, take the left trail to the falls.", "request"),
        ("When we arrived, we checked in.", "statement"),
        ("Don't forget to bring your passport.", "request"),
        ("Do not use the phrase in your introduction.", "request"),
        ("In the above table add the Applicability column as well", "request"),
        ("In 2020 I moved to Paris.", "statement"),
        ("I'd be happy to help you find some charity events in LA.", "reaction"),
        ("I'm glad I could help.", "reaction"),
        ("I'm glad my sister helped me move to Denver.", "statement"),
        ("Yeah, that makes sense.", "reaction"),
        ("It makes sense to book early for the Paris trip.", "statement"),
        ("That's really helpful, thanks for the detailed information!", "reaction"),
        ("The pottery class was great, thanks to Maya.", "statement"),
        ("Glad it helped ya, Melanie!", "reaction"),
        ("Glad you liked the cake I baked in Paris.", "statement"),
        ("Long time no talk!", "reaction"),
        ("Long time no chat - I adopted a pup from a shelter last week.", "statement"),
        ("Glad John is helping those in need!", "statement"),
        ("I can imagine how much Andrew misses hiking in Colorado.", "statement"),
        ("I understand how frustrating it can be.", "reaction"),
        ("I know how to bake bread.", "statement"),
        ("A | | Q7 | B | | Q8 |", "opening"),
        ("Berries (such as blueberries) 3. Whole grains (such as brown rice)", "opening"),
        ("My daughter turned 5.", "statement"),
        ("How many dogs do you have", "question"),
    ],
)
def test_what_a_sentence_does(sentence: str, act: str) -> None:
    assert speech_act(analyse_many([sentence])[0], frozenset({"nate"})) == act


def test_a_question_is_reported_as_asked() -> None:
    assert reported("user", "Any tips?") == "user asked: Any tips?"


def test_an_event_cites_the_turns_that_state_it() -> None:
    ids = ["p1", "p2", "p3"]
    texts = ["Jon: I opened a dance studio.", "Gina: Wow!", "Jon: The studio has mirrors."]
    assert event_sources("Jon opened dance studio", ids, texts) == ["p1"]
    assert event_sources("studio", ids, texts) == ["p1", "p3"]  # a tie: both
    assert event_sources("something else", ids, texts) == ids  # no overlap: the frame's
    assert event_sources("Jon opened dance studio", ids, texts[:2]) == ids  # texts unknown
