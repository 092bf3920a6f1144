"""The ways people state a change (graphmem/validity/states.py, moves.py): a span that
grew, another rate or weekday of a habit, a move, a new job, a rank reached, a plan called
off, a count that grew; what is told before a question; and the pairs that stay apart."""

from __future__ import annotations

from datetime import datetime

import pytest

from graphmem.validity.claim_reader import claims, told
from graphmem.validity.detect import candidates, chains, judge
from graphmem.validity.types import Candidate, Judgement, Statement

pytestmark = pytest.mark.slow  # spaCy


def _statements(*texts: str) -> list[Statement]:
    return [
        Statement(
            label="AtomicFact",
            id=f"s{i}",
            text=text,
            speaker="user",
            said_at=datetime(2023, 5, 1 + i, 12, 0),
            session_index=i,
            turn_index=0,
            turn=f"D{i}:1",
            conversation="c",
        )
        for i, text in enumerate(texts)
    ]


def _judged(earlier: str, later: str) -> Judgement:
    """The verdict on the two statements as one pair, candidates or not."""
    found = _statements(earlier, later)
    read = claims(found)
    pair = Candidate(
        earlier=found[0],
        later=found[1],
        earlier_claim=read[0],
        later_claim=read[1],
        shared=(),
    )
    return judge(pair)


def _paired(earlier: str, later: str) -> list[str]:
    """The verdicts of the candidate pairs of the two statements."""
    found = _statements(earlier, later)
    return [judge(p).verdict for p in candidates(found, claims(found))]


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        # a span of one state, said again longer
        (
            "user has been using user's Fitbit Charge 3 for 6 months now.",
            "user has been using user's Fitbit Charge 3 for 9 months now.",
        ),
        # another rate of one activity per day
        (
            "user has been dedicating about an hour each day to coding exercises.",
            "user has been dedicating about two hours each day to coding exercises.",
        ),
        # how often, told with another verb of the same activity
        (
            "user has been doing yoga twice a week.",
            "user has been attending yoga classes three times a week.",
        ),
        # a habit's weekday said later
        (
            "user has a cocktail-making class on Thursday.",
            "user has a cocktail-making class on Fridays.",
        ),
        # a move
        ("user lives in Boston.", "user moved to Denver last month."),
        # a new job
        ("user works at Google as an engineer.", "user got a new job at Stripe."),
        # a rank reached
        (
            "user is finally eligible for Premier Silver status.",
            "user just reached Premier Gold status.",
        ),
        # a plan called off
        (
            "user has a Kyoto trip planned for May.",
            "user has postponed the Kyoto trip.",
        ),
        # a plan carried out, said through a preposition
        (
            'user has been meaning to get back to "The Nightingale" by Kristin Hannah.',
            'user recently finished "The Nightingale" by Kristin Hannah.',
        ),
        # how often, told in a relative clause of the thing
        (
            "user has been taking spin classes twice a week.",
            "user sleeps better on days when user goes to spin classes, which is four "
            "times a week.",
        ),
        # a weekday of a clause that is not the sentence's main one
        (
            "user has a pottery lesson on Tuesday, so user is excited.",
            "user has a pottery lesson on Wednesdays, so maybe user can bring a friend.",
        ),
        # one thing put somewhere else
        (
            "user hung the 'Blue Harbor' print in the hallway.",
            "user recently moved the 'Blue Harbor' print above the fireplace.",
        ),
        # where a thing was to stay, then where it went
        (
            "user will leave the 'Blue Harbor' print in the hallway.",
            "user moved the 'Blue Harbor' print above the fireplace.",
        ),
        # told before a question
        (
            "user asked: By the way, user has been using user's Fitbit Charge 3 for 6 months "
            "now - does assistant have any tips for lazy Sundays?",
            "user: By the way, user just realized user has been using user's Fitbit Charge 3 "
            "for 9 months now - it's crazy how time flies!",
        ),
    ],
)
def test_a_stated_change_is_an_update(earlier: str, later: str) -> None:
    assert _judged(earlier, later).verdict == "update"


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        # a shorter span may be another stretch of it
        (
            "user has been using user's Fitbit Charge 3 for 9 months now.",
            "user has been using user's Fitbit Charge 3 for 6 months now.",
        ),
        # a span of one event in the past
        ("user stayed in Lisbon for 2 weeks.", "user stayed in Lisbon for 3 weeks."),
        # one day said later is one occurrence, no new habit
        (
            "user has a cocktail-making class on Fridays.",
            "user has a cocktail-making class on Thursday.",
        ),
        # a move thought of is no move
        ("user lives in Boston.", "user is thinking of moving to Denver."),
        # one job, said again
        ("user works at Google.", "user works at Google as a designer."),
        # two ranks of two programmes
        ("user has gold status with Hilton.", "user has silver status with United."),
        # what is done is not undone by a later drop of another thing
        ("user went on the Kyoto trip.", "user has postponed the Kyoto trip."),
        # a home left, then the home now: both were true
        ("user lived in the West Village.", "user lives in California."),
        # a move to come replaces no home yet
        ("user lives in Boston.", "user is moving to Denver next month."),
        # how often someone else does something
        (
            "user goes to the gym when user's sister visits twice a week.",
            "user goes to the gym three times a week.",
        ),
        # a move of a thing thought of is no move
        (
            "user moved the 'Blue Harbor' print above the fireplace.",
            "user is thinking of moving the 'Blue Harbor' print to the bedroom.",
        ),
        # two things, each in its place
        (
            "user keeps the 'Red Road' bike in the garage.",
            "user put the 'Blue Harbor' print in the hallway.",
        ),
        # the same place said again
        (
            "user moved the 'Blue Harbor' print above the fireplace.",
            "user keeps the 'Blue Harbor' print above the fireplace.",
        ),
        # rates of two activities
        (
            "user has been doing yoga twice a week.",
            "user has been going running three times a week.",
        ),
    ],
)
def test_what_does_not_state_a_change_replaces_nothing(earlier: str, later: str) -> None:
    assert _judged(earlier, later).verdict != "update"


def test_where_ones_kin_live_is_theirs_not_ones_home() -> None:
    # "user's grandparents": the claim is theirs, so the two are never a pair
    assert _paired("user lives in Springfield.", "user's grandparents live in Orlando.") == []


def test_a_home_or_a_job_said_in_other_words_is_a_candidate_pair() -> None:
    # "Boston" and "Denver" share no topic: the home slot pairs them.
    assert _paired("user lives in Boston.", "user moved to Denver.") == ["update"]
    assert _paired("user works at Google.", "user was hired by Stripe.") == ["update"]


def test_the_told_part_of_a_question_is_read_and_a_plain_question_stays_one() -> None:
    body = "user has 3 cats now - does assistant know a good vet?"
    assert told(body, True, "user") == ("user has 3 cats now.", False)
    assert told("Does assistant know a good vet?", True, "user") == (
        "Does assistant know a good vet?",
        True,
    )
    # what is told of another thing is no state of the speaker
    asked = "the vet is far - does assistant know a closer one?"
    assert told(asked, True, "user") == (asked, True)


def test_a_question_is_never_superseded_nor_supersedes_whoever_judged_it() -> None:
    found = _statements("user asked: Is user's sister moving to Boston?", "user lives in Denver.")
    read = claims(found)
    pair = Candidate(
        earlier=found[0], later=found[1], earlier_claim=read[0], later_claim=read[1], shared=()
    )
    said = Judgement(verdict="update", reason="a judge's mistake", backend="llm:test")
    assert chains([pair], [said]) == []
