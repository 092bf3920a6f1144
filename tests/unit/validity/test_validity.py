"""Valid time offline (graphmem/validity/): what a statement claims, which pairs of
statements are compared, and the verdict on each."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import TypeVar

import pytest
from pydantic import BaseModel

from graphmem.errors import LLMItemError
from graphmem.llm import Message, StructuredLLM
from graphmem.validity.claim_reader import claims, split_prefix
from graphmem.validity.detect import candidates, chains, judge
from graphmem.validity.llm import LLMJudge
from graphmem.validity.types import Statement
from graphmem.validity.values import Now, Said

T = TypeVar("T", bound=BaseModel)

pytestmark = pytest.mark.slow  # spaCy


def _statements(*texts: str, speaker: str = "user") -> list[Statement]:
    return [
        Statement(
            label="Fragment",
            id=f"s{i}",
            text=text,
            speaker=speaker,
            said_at=datetime(2023, 5, 1 + i, 12, 0),
            session_index=i,
            turn_index=0,
            turn=f"D{i}:1",
            conversation="c",
        )
        for i, text in enumerate(texts)
    ]


def _verdicts(*texts: str) -> list[tuple[str, str, str]]:
    found = _statements(*texts)
    pairs = candidates(found, claims(found))
    return [(p.earlier.id, p.later.id, judge(p).verdict) for p in pairs]


def test_the_prefix_and_the_date_resolutions_are_not_part_of_the_claim() -> None:
    assert split_prefix("user asked: Any tips for Lisbon?") == ("Any tips for Lisbon?", True)
    assert split_prefix("Maya: I moved [before 2 May 2023].") == ("I moved.", False)
    assert split_prefix("Tom has twelve orders (May 2024)") == ("Tom has twelve orders", False)


def test_a_claim_names_whose_state_what_about_and_which_value() -> None:
    one, two, three = claims(
        _statements(
            "user: By the way, user is hoping to beat user's personal best time of 25:50.",
            "user's friend Rachel just moved back to the suburbs.",
            "user: She moved to Chicago.",
        )
    )
    assert one.subject == "user" and one.predicate == "beat" and one.has("plan")
    assert "personal best time" in one.topics and Said(kind="clock", said="25:50") in one.values
    assert two.subject == "rachel" and two.has("change") and "suburb" in two.topics
    assert three.subject == "", "an unresolved pronoun is nobody's state"


def test_valid_from_is_the_date_the_words_give_else_the_day_said() -> None:
    said_then, said_now = claims(
        _statements("user adopted a beagle last month.", "user adopted a beagle.")
    )
    assert said_then.valid_from == date(2023, 4, 1)
    assert said_now.valid_from == date(2023, 5, 2)


def test_another_score_or_rate_of_the_same_thing_is_an_update() -> None:
    assert _verdicts(
        "user set a personal best time of 27:12 in the charity run.",
        "user is hoping to beat user's personal best time of 25:50.",
    ) == [("s0", "s1", "update")]
    assert _verdicts(
        "user has been doing yoga twice a week.",
        "user has been doing yoga three times a week.",
    ) == [("s0", "s1", "update")]
    # How often of one activity said with another verb ("yoga classes" are yoga's):
    # ``validity.moves``, its rates; two activities stay apart (test_validity_changes).
    assert _verdicts(
        "user has been doing yoga twice a week.",
        "user has been attending yoga classes three times a week.",
    ) == [("s0", "s1", "update")]


def test_a_said_change_of_the_same_verb_is_an_update_and_a_plan_is_not() -> None:
    assert _verdicts(
        "user owns the red car in the garage.",
        "user no longer owns the red car.",
    ) == [("s0", "s1", "update")]
    assert _verdicts(
        "user drives a Honda to the office.",
        "user is thinking of driving a Tesla to the office.",
    ) == [("s0", "s1", "unrelated")]


def test_another_count_of_a_state_is_an_update_and_two_events_are_not() -> None:
    found = _statements(
        "Tom has made six bowls so far.",
        "Tom: My online shop launched in May, Tom has made twenty bowls now.",
        speaker="Tom",
    )
    pairs = candidates(found, claims(found))
    assert [(p.earlier.id, p.later.id, judge(p).verdict) for p in pairs] == [("s0", "s1", "update")]
    assert _verdicts(
        "user won the first chess tournament of the club.",
        "user won the fourth chess tournament of the club.",
    ) == [("s0", "s1", "unrelated")]
    assert _verdicts(
        "user shares a photo of two dogs in the park.",
        "user shares a photo of three dogs in the park.",
    ) == [("s0", "s1", "unrelated")]


@pytest.mark.parametrize(
    ("earlier", "later", "verdict"),
    [
        # A running total or a state, told again with another number.
        (
            "user has actually watched 4 MCU films in the last 3 months.",
            "user has watched 12 films in the last 3 months, including 5 MCU films.",
            "update",
        ),
        (
            "user is currently on page 200 of the novel.",
            "user is on page 220 of the novel.",
            "update",
        ),
        (
            "user has added 2 new fish to the aquarium.",
            "user has added 3 new fish to the aquarium so far.",
            "update",
        ),
        (
            "user has tried three different ones recently.",
            "user has tried four different ones so far.",
            "update",
        ),
        # The same number in other words; two periods; two things; events; needs; a plan.
        ("user has two cats at home.", "user has 2 cats at home.", "unrelated"),
        ("user has read 3 books this month.", "user has read 20 books this year.", "unrelated"),
        ("user has 2 tickets for the concert.", "user has four tickets for the game.", "unrelated"),
        ("user bought 3 plants at the market.", "user bought 5 plants at the market.", "unrelated"),
        ("user needs 4 eggs for the cake.", "user needs 6 eggs for the cake.", "unrelated"),
        ("user is trying to read 4 books a month.", "user is trying to read 6 books.", "unrelated"),
        ("user has a few plants at home.", "user has 5 plants at home.", "unrelated"),
        # Other things, rates, counts of a day, events, described ones, names, frames.
        ("user drinks 3 cups of coffee now.", "user drinks 2 cups of tea now.", "unrelated"),
        ("user is on page 200 of Dune.", "user is on page 50 of Middlemarch.", "unrelated"),
        ("user takes 2 pills each morning.", "user takes 1 pill each morning.", "unrelated"),
        ("user has had 3 coffees today.", "user has had 2 coffees today.", "unrelated"),
        ("user has visited 12 countries.", "user has visited 3 countries this year.", "unrelated"),
        (
            "user has added 2 new fish to the tank.",
            "user has added 3 new fish to the tank.",
            "unrelated",
        ),
        ("user has 2 friends who play tennis.", "user has 5 friends who play tennis.", "unrelated"),
        ("user is staying in room 204.", "user is staying in room 12.", "unrelated"),
        ("user has an iPhone 12.", "user has an iPhone 14.", "unrelated"),
        (
            "Speaking of the garden, user has 12 tomato plants.",
            "Speaking of the balcony, user has 4 tomato plants.",
            "unrelated",
        ),
    ],
)
def test_another_number_of_one_thing_counted_as_a_state_is_an_update(
    earlier: str, later: str, verdict: str
) -> None:
    assert _verdicts(earlier, later) == [("s0", "s1", verdict)]


def test_the_words_that_open_a_sentence_are_not_read_into_the_claim() -> None:
    assert split_prefix("user: By the way, user has 3 cats.") == ("user has 3 cats.", False)
    assert split_prefix("Oh, and speaking of which, user has 3 cats.") == (
        "user has 3 cats.",
        False,
    )
    assert split_prefix("Oh and user has 3 cats.") == ("user has 3 cats.", False)
    # What is spoken of says where; a capital after "And" may open a title.
    assert split_prefix("Speaking of pets, user has 3 cats.")[0].startswith("Speaking of pets")
    assert split_prefix("And Then There Were None is great.")[0].startswith("And Then")
    assert split_prefix("So many people came.") == ("So many people came.", False)
    (claim,) = claims(_statements("By the way, user has been dedicating two hours a day to it."))
    assert (claim.subject, claim.predicate) == ("user", "dedicate")


def test_something_under_way_then_over_is_an_update_and_a_plan_to_end_it_is_not() -> None:
    assert _verdicts(
        "user just started a cycling tour of the Loire Valley today.",
        "user just got back from a cycling tour of the Loire Valley.",
    ) == [("s0", "s1", "update")]
    assert _verdicts(
        "user is planning a road trip to Kyoto with user's sister.",
        "user finished the road trip to Kyoto with user's sister.",
    ) == [("s0", "s1", "update")]
    assert _verdicts(
        "user just started a cycling tour of the Loire Valley today.",
        "user hopes to finish the cycling tour of the Loire Valley soon.",
    ) == [("s0", "s1", "unrelated")]


def test_another_thing_under_way_now_is_an_update() -> None:
    assert _verdicts(
        "user is currently reading Dune by Frank Herbert.",
        "user is currently reading Middlemarch, a novel.",
    ) == [("s0", "s1", "update")]
    one, two = claims(_statements("user is currently reading Dune.", "user read Dune last year."))
    assert Now(activity="read", thing="dune") in one.values and not two.of_type(Now)


def test_an_amount_of_one_unit_about_one_named_thing_is_an_update_a_bare_number_not() -> None:
    assert _verdicts(
        "user has put about 20 hours into the wooden ship model so far.",
        "user has spent 35 hours on the wooden ship model now.",
    ) == [("s0", "s1", "update")]
    # Two counts of other things, sharing a common noun only ("track").
    assert _verdicts(
        "user keeps track of movies and has watched 25 this year.",
        "user keeps track of birds and has seen 35 species.",
    ) == [("s0", "s1", "unrelated")]


def test_a_value_of_a_side_clause_measures_nothing_of_the_main_verb() -> None:
    (claim,) = claims(
        _statements("user has trouble sleeping and finds themself lying awake at 2:00 AM.")
    )
    assert Said(kind="clock", said="2:00") in claim.values
    assert not claim.measures and not claim.clause_measures
    assert _verdicts(
        "user has trouble sleeping and finds themself lying awake at 2:00 AM.",
        "user has trouble falling asleep before 11:30 PM.",
    ) == [("s0", "s1", "unrelated")]
    (counted,) = claims(_statements("Tom has made six bowls so far.", speaker="Tom"))
    assert counted.measures == (Said(kind="num", said="six"),)
    (spent,) = claims(_statements("user works on a clay vase and has spent 5 hours on it."))
    assert spent.clause_measures == (Said(kind="num", said="5 hours"),) and not spent.measures


def test_what_is_wished_or_not_yet_done_replaces_nothing() -> None:
    assert _verdicts(
        "user runs 5 miles in Central Park on Sundays.",
        "user would love to run 10 miles in Central Park one day.",
    ) == [("s0", "s1", "unrelated")]
    assert _verdicts(
        "user started a thesis on coral reefs at MIT.",
        "user has to finish the thesis on coral reefs at MIT by June.",
    ) == [("s0", "s1", "unrelated")]
    assert (
        _verdicts(
            "user is currently reading Dune by Frank Herbert.",
            "user should now read Middlemarch, a novel.",
        )
        == []
    ), "advice is not what one reads now: no shared activity"
    assert (
        _verdicts(
            "user's sister just started a pottery class in Lisbon.",
            "user finished the pottery class in Lisbon.",
        )
        == []
    ), "the sister's class is not the user's"


def test_a_request_of_the_listener_states_nothing() -> None:
    (claim,) = claims(_statements("user needs your help with a cover letter."))
    assert claim.has("question")


def test_questions_and_unrelated_statements_replace_nothing() -> None:
    assert _verdicts(
        "user plays the guitar twice a week.",
        "user asked: Should user play the guitar three times a week?",
    ) == [("s0", "s1", "unrelated")]
    assert _verdicts(
        "user played the guitar at the wedding.",
        "user cleaned the guitar after the concert.",
    ) == [("s0", "s1", "unrelated")]


def test_statements_of_one_session_or_of_other_subjects_are_never_paired() -> None:
    found = _statements(
        "user has been doing yoga twice a week.", "user does yoga three times a week."
    )
    same_session = [s.model_copy(update={"session_index": 0}) for s in found]
    assert candidates(same_session, claims(same_session)) == []
    other = [found[0], found[1].model_copy(update={"text": "Tom does yoga three times a week."})]
    assert candidates(other, claims(other)) == []


def test_a_statement_is_superseded_by_its_earliest_update_until_that_day() -> None:
    found = _statements(
        "user has been doing yoga twice a week.",
        "user has been doing yoga three times a week.",
        "user has been doing yoga four times a week.",
    )
    pairs = candidates(found, claims(found))
    links = {(s.older, s.newer, s.until) for s in chains(pairs, [judge(p) for p in pairs])}
    assert links == {("s0", "s1", date(2023, 5, 2)), ("s1", "s2", date(2023, 5, 3))}


# --- the LLM's verdict (a stub model) ----------------------------------------------------
class Verdicts(StructuredLLM):
    """Answers each pair with the next verdict; ``None`` gives up on that pair."""

    def __init__(self, answers: list[str | None]) -> None:
        super().__init__(concurrency=1)
        self.answers = list(answers)
        self.asked: list[str] = []

    @property
    def model_name(self) -> str:
        return "stub"

    def generate(self, messages: Sequence[Message], schema: type[T]) -> T:
        self.asked.append(messages[-1].content)
        answer = self.answers.pop(0)
        if answer is None:
            raise LLMItemError("no valid answer")
        out = schema.model_validate({"verdict": answer, "reason": "the model says so"})
        return out


def test_the_llm_judges_each_pair_and_the_offline_rules_take_what_it_gives_up() -> None:
    found = _statements(
        "user has been doing yoga twice a week.",
        "user has been doing yoga three times a week.",
        "user has been doing yoga four times a week.",
    )
    pairs = candidates(found, claims(found))
    llm = Verdicts(["unrelated", None, "contradiction"])
    verdicts = LLMJudge(llm)(pairs)
    assert [v.verdict for v in verdicts] == ["unrelated", "update", "contradiction"]
    assert [v.backend for v in verdicts] == ["llm:stub", "offline", "llm:stub"]
    assert [v.fallback for v in verdicts] == [False, True, False]
    assert "Earlier: [2023-05-01] user: user has been doing yoga twice" in llm.asked[0]
    links = {(s.older, s.newer, s.verdict) for s in chains(pairs, verdicts)}
    assert links == {("s0", "s2", "update"), ("s1", "s2", "contradiction")}
