"""Typed claim values: the text the graph stores, read back to the same value."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.validity.values import (
    SAID_KINDS,
    Count,
    Now,
    Placed,
    Rank,
    Rate,
    Said,
    Span,
    Value,
    Weekday,
    parse_value,
    parse_values,
)

# The texts the readers write: words and numbers, never a separator of the stored form.
_TEXT = st.text(st.characters(blacklist_characters="|=:", blacklist_categories=("Cs",)))
_WORDS = st.text(st.characters(blacklist_characters="|=", blacklist_categories=("Cs",)))

_VALUES: st.SearchStrategy[Value] = st.one_of(
    st.builds(Said, kind=st.sampled_from(sorted(SAID_KINDS)), said=_WORDS),
    st.builds(Now, activity=_TEXT, thing=_WORDS),
    st.builds(Span, verb=_TEXT, thing=_TEXT, days=st.integers(0, 10**6)),
    st.builds(Rate, verb=_TEXT, thing=_TEXT, period=_TEXT, amount=_WORDS),
    st.builds(Weekday, verb=_TEXT, thing=_TEXT, day=_WORDS),
    st.builds(Rank, noun=_TEXT, words=_WORDS),
    st.builds(Placed, thing=_TEXT, place=_WORDS),
    st.builds(Count, verb=_TEXT, thing=_TEXT, period=_TEXT, total=st.booleans(), number=_WORDS),
)


@given(_VALUES)
def test_a_stored_value_reads_back_the_same(value: Value) -> None:
    assert parse_value(str(value)) == value


@given(st.lists(_VALUES))
def test_values_sort_as_their_stored_texts(values: list[Value]) -> None:
    assert [str(v) for v in sorted(values)] == sorted(str(v) for v in values)


def test_the_stored_texts_keep_the_graphs_format() -> None:
    assert str(Count(verb="watch", thing="mcu film", period="", total=True, number="4")) == (
        "count:watch|mcu film||total=4"
    )
    assert str(Span(verb="use", thing="fitbit", days=180)) == "span:use|fitbit=180"
    assert str(Rate(verb="do", thing="yoga", period="week", amount="2 times")) == (
        "rate:do|yoga|week=2 times"
    )
    assert str(Placed(thing="blue harbor print", place="fireplace")) == (
        "placed:blue harbor print=fireplace"
    )
    assert str(Now(activity="live in", thing="denver")) == "now:live in=denver"
    assert str(Said(kind="home", said="boston")) == "home:boston"


def test_a_key_holding_a_separator_still_reads_back() -> None:
    count = Count(verb="have", thing="a|b", period="this year", total=False, number="3")
    assert parse_value(str(count)) == count
    assert parse_value("placed:x=y=z") == Placed(thing="x=y", place="z")


@pytest.mark.parametrize("text", ["no kind", "span:use|fitbit", "colour:red", "rank:status"])
def test_a_text_that_is_no_value_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="claim value"):
        parse_value(text)


def test_no_stored_values_read_as_none() -> None:
    assert parse_values(None) == () and parse_values([]) == ()
