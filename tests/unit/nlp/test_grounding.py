"""Temporal grounding that reads the sentence (graphmem/nlp/grounding.py, issue 61).

The sentences are written for these tests (none is taken from tests/fixtures/dates); the
expected dates follow tests/fixtures/dates/GUIDE.md. spaCy loads once per session.
"""

from __future__ import annotations

import dataclasses
from datetime import date, datetime

import pytest

from graphmem.nlp.grounding import Grounding, ground
from graphmem.nlp.grounding_rules import candidates

SAT_3_FEB_2024 = datetime(2024, 2, 3, 10, 0)  # a Saturday
FRI_15_MAR_2024 = datetime(2024, 3, 15, 18, 0)  # a Friday
WED_7_FEB_2024 = datetime(2024, 2, 7, 9, 0)  # a Wednesday


def only(text: str, said_at: datetime) -> Grounding:
    found = ground(text, said_at)
    assert len(found) == 1, found
    return found[0]


def interval(text: str, said_at: datetime) -> tuple[date | None, date | None]:
    g = only(text, said_at)
    return g.first, g.last


def d(iso: str) -> date:
    return date.fromisoformat(iso)


# --- the examples ---------------------------------------------------------------
def test_month_day_without_year_takes_the_tense_direction() -> None:
    g = only("We move to Porto on August 1.", SAT_3_FEB_2024)
    assert (g.first, g.last, g.kind, g.tense) == (
        d("2024-08-01"),
        d("2024-08-01"),
        "month_day",
        "future",
    )
    assert g.expression == "August 1" and g.why
    assert interval("I met her on August 1.", SAT_3_FEB_2024) == (d("2023-08-01"),) * 2


def test_bare_weekday_in_the_future_is_the_coming_one() -> None:
    text = "I start my new job at the bakery on Monday"
    assert interval(text, SAT_3_FEB_2024) == (d("2024-02-05"),) * 2
    assert interval("I started my new job on Monday", SAT_3_FEB_2024) == (d("2024-01-29"),) * 2


def test_saturday_said_on_friday_of_a_plan_is_tomorrow() -> None:
    assert (
        interval("We're going to the lake on Saturday.", FRI_15_MAR_2024) == (d("2024-03-16"),) * 2
    )
    assert (
        interval("This Saturday I'm painting the fence.", FRI_15_MAR_2024) == (d("2024-03-16"),) * 2
    )


def test_plans_a_few_months_ahead() -> None:
    feb = datetime(2024, 2, 12, 12, 0)
    assert interval("The recital will be on May 10.", feb) == (d("2024-05-10"),) * 2
    june = datetime(2024, 6, 20, 12, 0)
    assert interval("My cousin's wedding is September 12.", june) == (d("2024-09-12"),) * 2


def test_a_weekday_with_a_date_is_one_date() -> None:
    g = only("We'll meet on Saturday October 12.", datetime(2024, 9, 1))
    assert (g.first, g.last, g.kind) == (d("2024-10-12"), d("2024-10-12"), "month_day")


# --- tense and aspect ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm flying to Oslo on Monday.", "2024-02-12"),  # present progressive
        ("We are planning to repaint the shed on Monday.", "2024-02-12"),
        ("I'll call the plumber on Monday.", "2024-02-12"),
        ("Can we talk on Monday?", "2024-02-12"),
        ("Ring me on Monday.", "2024-02-12"),  # imperative
        ("I called the plumber on Monday.", "2024-02-05"),
        ("I have finished the report on Monday.", "2024-02-05"),
        ("We had fixed it on Monday.", "2024-02-05"),
    ],
)
def test_the_clause_sets_the_weekday(text: str, expected: str) -> None:
    assert interval(text, WED_7_FEB_2024) == (d(expected),) * 2


@pytest.mark.parametrize(
    "text",
    [
        "I've got a meeting on Monday.",  # possession, not a past event
        "I've scheduled the call for Monday.",
        "I was thinking of going to the fair on Monday.",
        "Do you know a good florist for my mum's party on Monday?",
    ],
)
def test_plans_told_in_other_tenses(text: str) -> None:
    assert interval(text, WED_7_FEB_2024) == (d("2024-02-12"),) * 2


def test_the_verb_governing_the_date_wins_over_others_in_the_turn() -> None:
    text = "I'm planning to ask my aunt, who I visited on March 2, about it."
    assert interval(text, datetime(2024, 5, 1)) == (d("2024-03-02"),) * 2


def test_moving_a_plan_to_a_day_names_a_day_ahead() -> None:
    assert (
        interval("The dentist moved my check-up to Thursday.", WED_7_FEB_2024)
        == (d("2024-02-08"),) * 2
    )


# --- this / next / last / coming ------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Next Friday we're off to Leeds.", "2024-02-16"),  # the Friday of next week
        ("Friday next week works.", "2024-02-16"),
        ("This coming Friday works.", "2024-02-09"),
        ("Last Friday was fun.", "2024-02-02"),
        ("I saw it this Monday.", "2024-02-05"),  # past: the Monday of this week
    ],
)
def test_qualified_weekdays(text: str, expected: str) -> None:
    assert interval(text, WED_7_FEB_2024) == (d(expected),) * 2


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [
        ("See you tomorrow!", "2024-02-08", "2024-02-08"),
        ("We went there yesterday.", "2024-02-06", "2024-02-06"),
        ("We fly out the day after tomorrow.", "2024-02-09", "2024-02-09"),
        ("I was ill last week.", "2024-01-29", "2024-02-04"),
        ("We fly out next month.", "2024-03-01", "2024-03-31"),
        ("Any plans this weekend?", "2024-02-10", "2024-02-11"),
        ("My cousin visits next weekend.", "2024-02-17", "2024-02-18"),
        ("We hiked last weekend.", "2024-02-03", "2024-02-04"),
        ("The parcel arrives in two weeks.", "2024-02-19", "2024-02-25"),
        ("I phoned him three days ago.", "2024-02-04", "2024-02-04"),
        ("She left about two months ago.", "2023-12-01", "2023-12-31"),
        ("We bought it a couple of years ago.", "2022-01-01", "2022-12-31"),
        ("The sale ends later this month.", "2024-02-08", "2024-02-29"),
    ],
)
def test_counted_from_the_time_of_speaking(text: str, first: str, last: str) -> None:
    assert interval(text, WED_7_FEB_2024) == (d(first), d(last))


def test_the_weekend_said_on_a_weekday_in_the_past_is_the_one_just_over() -> None:
    monday = datetime(2024, 2, 12, 9, 0)
    assert interval("How was your trip over the weekend?", monday) == (
        d("2024-02-10"),
        d("2024-02-11"),
    )


def test_a_trailing_window_is_not_a_calendar_week() -> None:
    assert ground("I've been tired for the past week.", WED_7_FEB_2024) == []


# --- ranges and spans ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "said", "first", "last"),
    [
        ("I'll be in Rome from May 10 to 12.", "2024-02-03", "2024-05-10", "2024-05-12"),
        ("I was in Rome from May 10 to 12.", "2024-06-03", "2024-05-10", "2024-05-12"),
        ("The festival runs July 4-6.", "2024-02-03", "2024-07-04", "2024-07-06"),
        (
            "We'll be away from the 28th until the 3rd of January.",
            "2023-12-10",
            "2023-12-28",
            "2024-01-03",
        ),
        ("She's off between Monday and Wednesday.", "2024-02-07", "2024-02-12", "2024-02-14"),
        ("I'm out Monday through Wednesday next week.", "2024-02-07", "2024-02-12", "2024-02-14"),
        ("The shop is shut until the 8th.", "2024-02-03", "2024-02-03", "2024-02-08"),
        ("I've been learning Dutch since September 1st.", "2023-05-28", "2022-09-01", "2023-05-28"),
        ("We've lived here since March.", "2024-07-01", "2024-03-01", "2024-07-01"),
        ("Let's go the week of the 18th.", "2024-04-29", "2024-05-13", "2024-05-19"),
        ("How about the weekend of the 18th?", "2024-04-29", "2024-05-18", "2024-05-19"),
        ("We could camp the first weekend of June.", "2024-04-29", "2024-06-01", "2024-06-02"),
    ],
)
def test_ranges_and_spans(text: str, said: str, first: str, last: str) -> None:
    g = only(text, datetime.fromisoformat(said))
    assert (g.kind, g.first, g.last) == ("span", d(first), d(last))


# --- durations, habits, figures of speech ------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("We're renting the cabin for two weeks.", 14),
        ("I've known her for 3 years.", 1095),
        ("We took a 10-day trip.", 10),
        ("Four nights in Seville!", 4),
        ("I finished the puzzle in two days.", 2),  # "in N days" in the past is a length
    ],
)
def test_durations_stay_durations(text: str, days: float) -> None:
    g = only(text, WED_7_FEB_2024)
    assert (g.kind, g.first, g.last, g.duration_days) == ("duration", None, None, days)


@pytest.mark.parametrize(
    "text",
    [
        "I work Mondays.",
        "We swim every weekend.",
        "The market is on Saturday mornings.",
        "I usually run on Sunday.",
        "I've been doing yoga on Tuesday for a while now.",
        "Friday is my favourite day.",
        "The queue is the worst on a Monday.",
        "I go to the gym twice a week.",
        "It feels like just yesterday we met.",
        "Rome wasn't built in a day.",
        "Here's to a better tomorrow.",
        "I've wanted this since forever.",
        "The helpline is open 24/7.",
        "I've been playing Cyberpunk 2077 all night.",
    ],
)
def test_habits_and_figures_of_speech_give_no_date(text: str) -> None:
    assert all(g.first is None and g.last is None for g in ground(text, WED_7_FEB_2024))


# --- context within the turn --------------------------------------------------------------------
def test_a_lone_day_takes_the_month_just_named() -> None:
    found = ground("We leave on March 4th and come back on the 14th.", WED_7_FEB_2024)
    assert [(g.expression, g.first) for g in found] == [
        ("March 4th", d("2024-03-04")),
        ("the 14th", d("2024-03-14")),
    ]


def test_a_weekday_after_a_date_in_the_same_sentence_follows_it() -> None:
    found = ground("The course ends on Friday the 23rd, so come Saturday.", WED_7_FEB_2024)
    assert [g.first for g in found] == [d("2024-02-23"), d("2024-02-24")]


def test_the_weekday_before_a_date_named() -> None:
    found = ground("The fair is March 12-14. I'm driving up the Monday before.", WED_7_FEB_2024)
    assert found[-1].first == d("2024-03-11")


def test_a_year_named_in_the_sentence_wins() -> None:
    found = ground("Last year we went in March.", datetime(2024, 6, 1))
    assert found[-1].first == d("2023-03-01")


def test_absolute_dates() -> None:
    assert interval("We married on 3 June 2019.", WED_7_FEB_2024) == (d("2019-06-03"),) * 2
    assert interval("She was born in June 2019.", WED_7_FEB_2024) == (
        d("2019-06-01"),
        d("2019-06-30"),
    )
    assert interval("It happened in 2021.", WED_7_FEB_2024) == (d("2021-01-01"), d("2021-12-31"))


def test_fixed_holidays() -> None:
    assert interval("He's home on Christmas Day.", WED_7_FEB_2024) == (d("2024-12-25"),) * 2
    assert interval("I got back on Boxing Day.", WED_7_FEB_2024) == (d("2023-12-26"),) * 2


# --- the record and the cost ------------------------------------------------------------------
def test_grounding_is_a_frozen_record_with_offsets() -> None:
    text = "Sure, tomorrow at 11 works."
    g = only(text, WED_7_FEB_2024)
    assert text[g.start : g.end] == g.expression == "tomorrow"
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.first = None  # type: ignore[misc]


def test_no_candidate_no_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    import graphmem.nlp.spacy_loader as loader

    def refuse() -> None:
        raise AssertionError("parsed a turn with no date in it")

    monkeypatch.setattr(loader, "get_nlp", refuse)
    assert ground("Thanks, that sounds lovely.", WED_7_FEB_2024) == []
    # Expressions that carry their own time need no parse either.
    assert [g.expression for g in ground("I saw it yesterday.", WED_7_FEB_2024)] == ["yesterday"]


def test_words_that_only_look_like_dates() -> None:
    assert candidates("You may 2 times try.") == ()
    assert ground("We met at The Friday Night Club.", WED_7_FEB_2024) == []
    assert ground("They live on the 2nd floor, since the 18th century.", WED_7_FEB_2024) == []


def test_dates_at_the_edge_of_the_calendar_do_not_raise() -> None:
    text = "Last week, next year, in 3 years, on Monday, August 1, from December 30 to January 2"
    for said in (datetime(1, 1, 1), datetime(9999, 12, 31, 23, 59)):
        assert isinstance(ground(text, said), list)
