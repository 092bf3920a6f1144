"""An assistant's answer read up to its opening: parsed from a prefix, never whole."""

from __future__ import annotations

import pytest
from spacy.tokens import Doc

from graphmem.nlp import analyse, analyse_many
from graphmem.nlp import openings as module
from graphmem.nlp.openings import analyse_openings, analyse_turns, opening

STEPS = " ".join(f"Step {i}: stir the sauce for {i} minutes on low heat." for i in range(1, 80))
ANSWER = f"Sure! Basil needs six hours of sun. Water it when the soil is dry. {STEPS}"


def test_the_opening_holds_three_sentences_with_content() -> None:
    doc = analyse("Sure! Basil needs sun. Water it often. Pinch the flowers. Enjoy the pesto.")
    head = opening(doc, 3)
    assert head.text.strip() == "Sure! Basil needs sun. Water it often. Pinch the flowers."
    assert opening(doc, 10) is doc


def test_an_answer_is_parsed_from_a_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    """The long answer's parse covers its opening and stops near the first cut; the user's
    turn is parsed whole; between people (no answers) every turn is parsed whole."""
    parsed: list[str] = []

    def spy(texts: list[str]) -> list[Doc]:
        parsed.extend(texts)
        return analyse_many(texts)

    monkeypatch.setattr(module, "analyse_many", spy)
    user = "I grow basil on my balcony in Lisbon."
    docs = analyse_turns([user, ANSWER], [False, True], 3)
    assert docs[0].text == user
    assert docs[1].text.startswith("Sure! Basil needs") and "Step 1:" in docs[1].text
    assert "Step 2:" not in docs[1].text
    assert len(ANSWER) > 4000 and max(len(t) for t in parsed) < 700
    parsed.clear()
    assert [d.text for d in analyse_turns([user, ANSWER], [False, True], 0)] == [user, ANSWER]
    assert ANSWER in parsed


def test_a_prefix_too_short_is_read_further() -> None:
    """An answer whose opening lies past the first cut (a long contentless preamble) is
    parsed again from a longer prefix, until the opening ends before the prefix does."""
    preamble = "Hmm. " * 200
    text = f"{preamble}Basil needs sun. Water it often. Pinch the flowers. {STEPS}"
    (head,) = analyse_openings([text], 3)
    assert head.text.rstrip().endswith("Pinch the flowers.")
    short = "Basil needs sun."
    assert analyse_openings([short], 3)[0].text == short
