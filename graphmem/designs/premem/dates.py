"""PREMem's four temporal forms (section 3.1) and how the reader sees them.

A fragment's ``date`` is stored in the paper's form, ISO based: ``2023-05-07`` (an ongoing
fact's message date, or a specific event resolved to an absolute date), ``Before 2023-05-08``
(a past event with no clear time), ``After 2023-05-08`` (a plan). Months, years and weeks keep
their granularity (``2023-05``, ``2022``, ``week of 2023-05-01``). The reader sees the same
dates in words ("Before 8 May 2023"): the way people (and LoCoMo's gold answers) write them.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from graphmem.nlp import TemporalMention, render

_ISO = re.compile(r"(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?")
_PREFIX = re.compile(r"^(before|after)\s+", re.IGNORECASE)
_WEEK = re.compile(r"^(?:the\s+)?week\s+of\s+", re.IGNORECASE)


def message_date(reference: datetime) -> str:
    """Form (1): an ongoing fact takes the date of its message."""
    return reference.date().isoformat()


def before(reference: datetime) -> str:
    """Form (3): a past event without a clear time."""
    return f"Before {message_date(reference)}"


def after(reference: datetime) -> str:
    """Form (4): a plan or intention."""
    return f"After {message_date(reference)}"


def from_mention(mention: TemporalMention) -> str:
    """Form (2) (or 3/4 when the expression itself is a bound: "recently", "soon")."""
    return render(mention)


def _iso_in_words(text: str) -> str | None:
    match = _ISO.fullmatch(text)
    if match is None:
        return None
    year, month, day = match.groups()
    try:
        if day is not None:
            when = date(int(year), int(month), int(day))
            return f"{when.day} {when:%B %Y}"
        if month is not None:
            return f"{date(int(year), int(month), 1):%B %Y}"
    except ValueError:
        return None
    return year


def _one_in_words(text: str) -> str:
    rest = text.strip()
    prefix = ""
    bound = _PREFIX.match(rest)
    if bound:
        prefix = bound.group(1).capitalize() + " "
        rest = rest[bound.end() :]
    week = _WEEK.match(rest)
    if week:
        rest = rest[week.end() :]
    words = _iso_in_words(rest)
    if words is None:
        return text.strip()  # an LLM's own wording: shown as written
    return f"{prefix}{'the week of ' if week else ''}{words}"


def in_words(text: str) -> str:
    """``Before 2023-05-08`` -> ``Before 8 May 2023``; ranges (``a to b``) part by part;
    anything else unchanged."""
    return " to ".join(_one_in_words(part) for part in re.split(r"\s+to\s+", text.strip()))


def sort_key(text: str) -> str:
    """The ISO date inside a stored date (the first of a range), for ordering; ``""`` if none."""
    match = _ISO.search(text)
    return match.group(0) if match else ""


def date_range(dates: list[str]) -> str:
    """One date, or ``first to last`` by their ISO order, in the stored (paper) form."""
    ordered = sorted(set(dates), key=lambda d: (sort_key(d), d))
    if not ordered:
        return ""
    return ordered[0] if len(ordered) == 1 else f"{ordered[0]} to {ordered[-1]}"
