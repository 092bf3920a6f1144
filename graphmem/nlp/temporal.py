"""Dates in PREMem's forms, from temporal grounding: each time expression of a turn resolved
against the time it was said (``grounding.ground``: the tense of its clause picks the
direction) and written as an absolute date, "Before <date>" or "After <date>".

Vague bounds the grounding gives no day ("recently", "soon", "in the future") keep
PREMem's reading: before or after the time of speaking (section 3.1, forms 3 and 4).
"""

from __future__ import annotations

import calendar
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Literal

from graphmem.errors import InputError
from graphmem.nlp.grounding_rules import words

if TYPE_CHECKING:
    from spacy.tokens import Doc

    from graphmem.nlp.grounding import Grounding

Form = Literal["absolute", "before", "after"]
Granularity = Literal["day", "week", "month", "year", "span"]


@dataclass(frozen=True, slots=True)
class TemporalMention:
    """One time expression: ``text`` as written at ``text[start:end]`` and what it means:
    the days ``first`` to ``last`` (None for an open side), written as ``value``."""

    text: str
    start: int
    end: int
    value: str  # "2023-05-07", a week -> its Monday, "2023-05", "2021", "2023-05-10/2023-05-12"
    granularity: Granularity
    form: Form
    explicit: bool  # names its own calendar year, so annotating it would add nothing
    first: date | None = None
    last: date | None = None


_YEAR = re.compile(r"\b(?:1[89]|20)\d{2}\b")
_WORDS = words()["vague"]
_BOUND_FORMS: dict[str, Form] = dict(_WORDS["bounds"])


def _vague(form: Form) -> tuple[Form, re.Pattern[str]]:
    # Longer alternatives first: a regex alternation takes the first that matches.
    parts = [p.format(unit=_WORDS["unit"], vague=_WORDS["vague"]) for p in _WORDS[form]]
    return form, re.compile(rf"\b(?:{'|'.join(parts)})\b", re.IGNORECASE)


_VAGUE = (_vague("before"), _vague("after"))
_BOUND = re.compile(rf"\b({'|'.join(_BOUND_FORMS)})\s+$", re.IGNORECASE)


def normalise_temporal(
    text: str, reference: datetime, doc: Doc | None = None
) -> list[TemporalMention]:
    """Every time expression in ``text``, said at ``reference``, in text order. ``doc``:
    ``text`` already parsed by the project's pipeline, to share the parse."""
    said = reference.replace(tzinfo=None)
    key = (text, said)
    with _lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return list(found)
    found = _resolve(text, said, doc)
    with _lock:
        _cache[key] = found
        if len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return list(found)


# A turn's text is read by several designs and by valid time's statements (43% of the
# reads of a LongMemEval haystack repeat a text read before), and its grounding may need a
# parse; the result is a function of the text and the time of speaking alone.
_CACHE_SIZE = 4096
_cache: OrderedDict[tuple[str, datetime], tuple[TemporalMention, ...]] = OrderedDict()
_lock = threading.Lock()


def _resolve(text: str, said: datetime, doc: Doc | None) -> tuple[TemporalMention, ...]:
    from graphmem.nlp.grounding import ground  # spaCy's types; loaded when first needed

    out = [m for g in ground(text, said, doc) if (m := _mention(text, g)) is not None]
    taken = [(m.start, m.end) for m in out]
    today = said.date().isoformat()
    for form, rx in _VAGUE:
        for match in rx.finditer(text):
            if all(match.end() <= s or match.start() >= e for s, e in taken):
                taken.append((match.start(), match.end()))
                out.append(
                    TemporalMention(
                        match.group(0), match.start(), match.end(), today, "day", form, False
                    )
                )
    return tuple(sorted(out, key=lambda m: m.start))


def _mention(text: str, g: Grounding) -> TemporalMention | None:
    """A grounded expression in PREMem's forms; a length or a habit names no date."""
    if g.first is None and g.last is None:
        return None
    explicit = _YEAR.search(g.expression) is not None
    bound = _BOUND.search(text, 0, g.start)
    form: Form = _BOUND_FORMS[bound.group(1).lower()] if bound else "absolute"
    first, last = g.first, g.last
    if first is None or last is None:  # an open side: up to or from a day
        form = "before" if first is None else "after"
        day = last if first is None else first
        assert day is not None
        return TemporalMention(
            g.expression, g.start, g.end, day.isoformat(), "day", form, explicit, first, last
        )
    value, granularity = _shape(first, last)
    return TemporalMention(
        g.expression, g.start, g.end, value, granularity, form, explicit, first, last
    )


def _shape(first: date, last: date) -> tuple[str, Granularity]:
    """The interval as PREMem writes one: a day, a Monday-Sunday week, a month, a year,
    else its two ends."""
    if first == last:
        return first.isoformat(), "day"
    if first.weekday() == 0 and last == first + timedelta(days=6):
        return first.isoformat(), "week"
    if first.day == 1 and last == first.replace(
        day=calendar.monthrange(first.year, first.month)[1]
    ):
        return f"{first.year:04d}-{first.month:02d}", "month"
    if (first.month, first.day, last.month, last.day) == (1, 1, 12, 31) and first.year == last.year:
        return f"{first.year:04d}", "year"
    return f"{first.isoformat()}/{last.isoformat()}", "span"


def render(mention: TemporalMention) -> str:
    """PREMem's rendering: "2023-05-07", "week of 2023-05-01", "Before 2023-05-08",
    "2023-05-10 to 2023-05-12"."""
    if mention.granularity == "week":
        value = f"week of {mention.value}"
    elif mention.granularity == "span":
        value = mention.value.replace("/", " to ")
    else:
        value = mention.value
    if mention.form == "before":
        return f"Before {value}"
    if mention.form == "after":
        return f"After {value}"
    return value


def annotate(
    text: str,
    reference: datetime,
    describe: Callable[[TemporalMention], str] = render,
    brackets: str = "[]",
) -> str:
    """``text`` with each relative time expression followed by its resolution, written by
    ``describe`` inside ``brackets``: "I went yesterday" -> "I went yesterday [2023-05-07]"."""
    out = text
    opening, closing = brackets[0], brackets[1]
    for mention in reversed(normalise_temporal(text, reference)):
        if not mention.explicit:
            said = f" {opening}{describe(mention)}{closing}"
            out = f"{out[: mention.end]}{said}{out[mention.end :]}"
    return out


# --- session stamps ----------------------------------------------------------------
_STAMP_FORMATS = (
    "%I:%M %p on %d %B, %Y",  # LoCoMo: "1:56 pm on 8 May, 2023"
    "%I:%M %p on %d %b, %Y",
    "%Y/%m/%d %H:%M",  # LongMemEval once its weekday is stripped
    "%Y/%m/%d",
    "%d %B %Y",
    "%d %B, %Y",
    "%B %d, %Y",
)
_WEEKDAY_TAG = re.compile(r"\s*\((?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\)\s*", re.IGNORECASE)


def parse_session_datetime(stamp: str) -> datetime:
    """A session timestamp as LoCoMo, LongMemEval or ISO 8601 write it."""
    cleaned = _WEEKDAY_TAG.sub(" ", stamp).strip()
    cleaned = re.sub(r"\s+", " ", cleaned)
    if not cleaned:
        raise InputError(f"empty session timestamp {stamp!r}")
    try:
        return datetime.fromisoformat(cleaned)
    except ValueError:
        pass
    for fmt in _STAMP_FORMATS:
        try:
            return datetime.strptime(cleaned, fmt)
        except ValueError:
            continue
    raise InputError(
        f"cannot parse session timestamp {stamp!r}",
        hint='expected e.g. "1:56 pm on 8 May, 2023", "2023/05/20 (Sat) 02:21" or ISO 8601',
    )
