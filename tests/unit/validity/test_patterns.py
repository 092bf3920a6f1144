"""The state readers' DependencyMatcher patterns: what each finds, by role."""

from __future__ import annotations

import pytest

from graphmem.nlp.spacy_loader import get_nlp
from graphmem.validity.patterns import matches, patterns


def _found(text: str, rule: str) -> list[tuple[str, str, str]]:
    return [
        (m["verb"].lower_, m["prep"].lower_, m["object"].text)
        for m in matches(get_nlp()(text))[rule]
    ]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("We moved to Porto in May.", [("moved", "to", "Porto")]),
        (
            "She lives in Boston and he lives in Denver.",
            [("lives", "in", "Boston"), ("lives", "in", "Denver")],
        ),
        ("I went to Porto in May.", []),  # no home verb
        ("We moved in with Porto.", []),  # not the home verb's own preposition
    ],
)
def test_a_home_is_a_home_verbs_own_preposition_and_its_object(
    text: str, want: list[tuple[str, str, str]]
) -> None:
    assert _found(text, "home") == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Dana works at Google.", [("works", "at", "Google")]),
        ("Dana got a new job at Stripe.", [("got", "at", "Stripe")]),
        ("Dana works on a farm.", []),  # no job preposition of "work"
        ("Dana bought a lamp at Ikea.", []),  # no job noun, no job verb
    ],
)
def test_a_job_is_a_job_verb_or_a_job_noun_and_its_preposition(
    text: str, want: list[tuple[str, str, str]]
) -> None:
    assert _found(text, "job") == want


def test_every_rule_has_patterns_that_name_their_roles() -> None:
    for name, rules in patterns().items():
        assert rules, name
        for rule in rules:
            roles = [part["RIGHT_ID"] for part in rule]
            assert roles[0] == "verb" and roles[-1] == "object", (name, roles)


def test_an_activity_now_is_its_verb_with_now_and_what_it_is_on() -> None:
    found = matches(get_nlp()("She now lives in Porto and is currently reading Dune."))["now"]
    assert [(m["verb"].lower_, m["now"].lower_, m["object"].text) for m in found] == [
        ("lives", "now", "Porto"),
        ("reading", "currently", "Dune"),
    ]
    assert not matches(get_nlp()("She lives in Porto and is reading Dune."))["now"]
