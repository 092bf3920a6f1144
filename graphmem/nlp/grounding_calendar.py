"""The calendar half of temporal grounding: each candidate form resolved against the day
of speaking and the direction its clause looks in, by the conventions of
tests/fixtures/dates/GUIDE.md (weeks run Monday to Sunday, "next Friday" is the Friday of
next week, a month-day without a year is the nearest one in the tense's direction, today
included, and a bare weekday is never today).
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

from graphmem.nlp.grounding_rules import (
    HOLIDAYS,
    WEEKDAYS,
    Candidate,
    day_number,
    month_number,
)

Direction = Literal["future", "past"]
Kind = Literal["weekday", "month_day", "relative", "span", "absolute", "duration"]
_WD_RX = re.compile("|".join(WEEKDAYS), re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Resolved:
    kind: Kind
    first: date | None
    last: date | None
    duration_days: float | None
    why: str


@dataclass(frozen=True, slots=True)
class Context:
    """What the turn has said so far: the day of speaking, the direction of the clause, the
    month last named (a lone "the 14th" takes it) and the last explicit date (an anchor for
    "the Monday before" and for a weekday said after a date: "Friday the 2nd, so come
    Saturday")."""

    today: date
    direction: Direction
    month_hint: tuple[int, int] | None = None  # (year, month)
    anchor: tuple[date, date] | None = None
    anchor_same_sentence: bool = False
    year: int | None = None  # a year the sentence names


# --- arithmetic -------------------------------------------------------------------------
def monday(d: date) -> date:
    return d - timedelta(days=d.weekday())


def week(d: date, offset: int = 0) -> tuple[date, date]:
    start = monday(d) + timedelta(weeks=offset)
    return start, start + timedelta(days=6)


def month_span(year: int, month: int, offset: int = 0) -> tuple[date, date]:
    index = year * 12 + month - 1 + offset
    y, m = divmod(index, 12)
    return date(y, m + 1, 1), date(y, m + 1, calendar.monthrange(y, m + 1)[1])


def year_span(year: int) -> tuple[date, date]:
    return date(year, 1, 1), date(year, 12, 31)


def _safe(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def nearest_md(month: int, day: int, ref: date, direction: Direction) -> date | None:
    """The nearest ``month``/``day`` on or after ``ref`` (future) or on or before (past)."""
    years = (
        range(ref.year, ref.year + 5)
        if direction == "future"
        else range(ref.year, ref.year - 5, -1)
    )
    for y in years:
        d = _safe(y, month, day)
        if d and (d >= ref if direction == "future" else d <= ref):
            return d
    return None


def nearest_day_of_month(
    day: int, ref: date, direction: Direction, weekday: int | None = None
) -> date | None:
    """The nearest day ``day`` of some month in the direction (today included), on
    ``weekday`` when one is said ("Saturday the 20th")."""
    step = 1 if direction == "future" else -1
    for k in range(0, 48):
        first, _ = month_span(ref.year, ref.month, step * k)
        d = _safe(first.year, first.month, day)
        if d is None or (d < ref if step == 1 else d > ref):
            continue
        if weekday is None or d.weekday() == weekday:
            return d
    return None


def after(ref: date, wd: int) -> date:
    """The first ``wd`` strictly after ``ref``."""
    return ref + timedelta(days=(wd - ref.weekday() - 1) % 7 + 1)


def before(ref: date, wd: int) -> date:
    """The last ``wd`` strictly before ``ref``."""
    return ref - timedelta(days=(ref.weekday() - wd - 1) % 7 + 1)


def weekday_index(word: str) -> int:
    return WEEKDAYS.index(word.lower())


def weekend_past(today: date) -> tuple[date, date]:
    """The most recent Saturday-Sunday that is fully over."""
    sunday = before(today, 6)
    return sunday - timedelta(days=1), sunday


def weekend_of(d: date) -> tuple[date, date]:
    sat = monday(d) + timedelta(days=5)
    return sat, sat + timedelta(days=1)


def _named_weekday(text: str) -> int | None:
    found = _WD_RX.search(text)
    return weekday_index(found.group(0)) if found else None


def one(kind: Kind, d: date | None, why: str) -> Resolved | None:
    return Resolved(kind, d, d, None, why) if d else None


def _md_of(c: Candidate, prefix: str = "a") -> tuple[int, int] | None:
    g = c.match.groupdict()
    if g.get(f"{prefix}mon"):
        return month_number(g[f"{prefix}mon"]), day_number(g[f"{prefix}day"])
    if g.get(f"{prefix}mon2"):
        return month_number(g[f"{prefix}mon2"]), day_number(g[f"{prefix}day2"])
    return None


def month_day(month: int, day: int, ctx: Context, weekday: int | None) -> date | None:
    """A month-day in the direction; a weekday said with it picks the year it falls on."""
    d = nearest_md(month, day, ctx.today, ctx.direction)
    if d is None or weekday is None or d.weekday() == weekday:
        return d
    step = 1 if ctx.direction == "future" else -1
    for k in (step, -step, 2 * step):
        other = _safe(d.year + k, month, day)
        if other and other.weekday() == weekday:
            return other
    return d


# --- the forms --------------------------------------------------------------------------
def _absolute(c: Candidate, ctx: Context) -> Resolved | None:
    g = c.match.groupdict()
    if c.form == "abs_iso":
        return one("absolute", _safe(int(g["iy"]), int(g["im"]), int(g["id"])), "date with year")
    year = int(g["year"])
    if c.form == "abs_date":
        md = _md_of(c)
        return one("absolute", _safe(year, *md) if md else None, "date with year")
    if c.form == "abs_month":
        first, last = month_span(year, month_number(g["mon"]))
        return Resolved("absolute", first, last, None, "month with year: the whole month")
    if c.form == "since_year":
        return Resolved("span", date(year, 1, 1), ctx.today, None, "since a year: to now")
    first, last = year_span(year)
    return Resolved("absolute", first, last, None, "a year: 1 January to 31 December")


def _span_md(c: Candidate, ctx: Context) -> Resolved | None:
    g = c.match.groupdict()
    start, end = _md_of(c, "a"), _md_of(c, "b")
    if start is None and end is not None:
        sday = day_number(g["aday3"])
        smonth = end[0] if sday <= end[1] else (end[0] - 2) % 12 + 1
        start = (smonth, sday)
    if start is None:
        return None
    if end is None:
        eday = day_number(g["bdd"])
        end = (start[0] if eday >= start[1] else start[0] % 12 + 1, eday)
    if ctx.direction == "future":
        first = nearest_md(*start, ctx.today, "future")
        last = nearest_md(*end, first, "future") if first else None
    else:
        last = nearest_md(*end, ctx.today, "past")
        first = nearest_md(*start, last, "past") if last else None
    if first is None or last is None:
        return None
    return Resolved("span", first, last, None, f"range, each end the nearest ({ctx.direction})")


def _span_wd(c: Candidate, ctx: Context) -> Resolved | None:
    g = c.match.groupdict()
    wd1, wd2 = weekday_index(g["wd1"]), weekday_index(g["wd2"])
    if g.get("wq"):
        mon = week(ctx.today, {"next": 1, "last": -1, "this": 0}[g["wq"].lower()])[0]
        first = mon + timedelta(days=wd1)
        last = first + timedelta(days=(wd2 - wd1) % 7)
        return Resolved("span", first, last, None, f"weekdays of {g['wq'].lower()} week")
    if ctx.direction == "future":
        first = after(ctx.today, wd1)
        last = first + timedelta(days=(wd2 - wd1) % 7)
    else:
        last = before(ctx.today, wd2)
        first = last - timedelta(days=(wd2 - wd1) % 7)
    return Resolved("span", first, last, None, f"weekday range ({ctx.direction})")


def _since_until(c: Candidate, ctx: Context) -> Resolved | None:
    g = c.match.groupdict()
    since = c.form == "since"
    direction: Direction = "past" if since else ctx.direction
    sub = Context(ctx.today, direction, ctx.month_hint, ctx.anchor)
    md = _md_of(c)
    if md:
        day = nearest_md(*md, ctx.today, direction)
        kind: Kind = "month_day"
        day_end = day
    elif g.get("smon") or g.get("umon"):
        first, last = month_span(ctx.today.year, month_number(g.get("smon") or g["umon"]))
        if since and first > ctx.today:
            first, last = month_span(first.year - 1, first.month)
        if not since and last < ctx.today and direction == "future":
            first, last = month_span(first.year + 1, first.month)
        day, day_end, kind = first, last, "month_day"
    elif g.get("sday") or g.get("uday"):
        day = _day_alone(day_number(g.get("sday") or g["uday"]), None, sub)
        day_end, kind = day, "month_day"
    else:
        wd = weekday_index(g.get("swd") or g["uwd"])
        day = before(ctx.today, wd) if direction == "past" else after(ctx.today, wd)
        day_end, kind = day, "weekday"
    if day is None or day_end is None:
        return None
    if since:
        return Resolved("span", day, ctx.today, None, "since: from then to the time of speaking")
    if direction == "past" or kind == "weekday":
        # "We'll stay until Tuesday" is read as naming the Tuesday (the labelling guide
        # takes the weekday alone as the expression); in the past, a stretch that went on
        # until a day has only its end known ("training until Thursday").
        return Resolved(kind, day, day_end, None, "until: the end day")
    return Resolved("span", ctx.today, day_end, None, "until: from the time of speaking")


def _day_alone(day: int, weekday: int | None, ctx: Context) -> date | None:
    if ctx.month_hint and weekday is None:
        hinted = _safe(ctx.month_hint[0], ctx.month_hint[1], day)
        ok = hinted and (ctx.direction == "past" or hinted >= ctx.today)
        if hinted and ok:
            return hinted
    return nearest_day_of_month(day, ctx.today, ctx.direction, weekday)


def _week_of(c: Candidate, ctx: Context) -> Resolved | None:
    g = c.match.groupdict()
    md = _md_of(c)
    d = (
        nearest_md(*md, ctx.today, ctx.direction)
        if md
        else _day_alone(day_number(g["wday"]), None, ctx)
    )
    if d is None:
        return None
    if g["wk"].lower() == "week":
        return Resolved("span", *week(d), None, "the Monday-Sunday week containing it")
    sat = d if d.weekday() == 5 else (d - timedelta(days=1) if d.weekday() == 6 else None)
    first, last = (sat, sat + timedelta(days=1)) if sat else weekend_of(d)
    return Resolved("span", first, last, None, "the Saturday-Sunday weekend of it")


def _nth_weekend(c: Candidate, ctx: Context) -> Resolved | None:
    g = c.match.groupdict()
    month = month_number(g["mon"])
    first, last = month_span(ctx.today.year, month)
    if ctx.direction == "future" and last < ctx.today:
        first, last = month_span(first.year + 1, month)
    if ctx.direction == "past" and first > ctx.today:
        first, last = month_span(first.year - 1, month)
    sats = [
        first + timedelta(days=i)
        for i in range(last.day)
        if (first + timedelta(days=i)).weekday() == 5
    ]
    nth = g["nth"].lower()
    sat = sats[-1] if nth == "last" else sats[["first", "second", "third", "fourth"].index(nth)]
    return Resolved("span", sat, sat + timedelta(days=1), None, f"the {nth} Saturday-Sunday")


def _later_this(c: Candidate, ctx: Context) -> Resolved | None:
    unit, t = c.match["unit"].lower(), ctx.today
    end = {
        "week": week(t)[1],
        "month": month_span(t.year, t.month)[1],
        "year": date(t.year, 12, 31),
    }[unit]
    start = t + timedelta(days=1)
    return (
        Resolved("span", start, end, None, f"later this {unit}: tomorrow to its end")
        if start <= end
        else None
    )


def _md(c: Candidate, ctx: Context) -> Resolved | None:
    g = c.match.groupdict()
    if c.form == "numeric_md":
        md: tuple[int, int] | None = (int(g["nm"]), int(g["nd"]))
    elif c.form == "holiday":
        md = HOLIDAYS[re.sub(r"\s+", " ", g["hol"].lower())]
    else:
        md = _md_of(c)
    if md is None:
        return None
    if ctx.year is not None:
        return one(
            "month_day", _safe(ctx.year, *md), "month and day in the year the sentence names"
        )
    d = month_day(md[0], md[1], ctx, _named_weekday(c.match.group(0)))
    return one("month_day", d, f"month and day, the nearest ({ctx.direction})")


def _day_of_month(c: Candidate, ctx: Context) -> Resolved | None:
    g = c.match.groupdict()
    wd = weekday_index(g["dwd"]) if g.get("dwd") else None
    d = _day_alone(day_number(g["day"]), wd, ctx)
    why = "day of the month last named" if ctx.month_hint and wd is None else "nearest such day"
    return one("month_day", d, f"{why} ({ctx.direction})")


def _bare_month(c: Candidate, ctx: Context) -> Resolved | None:
    month, t = month_number(c.match["mon"]), ctx.today
    said = c.match.group(0).lower()
    if re.search(r"\b(?:early|mid|late|beginning|end|middle)\b", said):
        return None  # part of a month: no day or interval to name with confidence
    q = said.split()[0]
    first, last = month_span(ctx.year or t.year, month)
    if ctx.year is not None:
        return Resolved("month_day", first, last, None, "a month of the year the sentence names")
    if q == "last" or (q != "next" and q != "this" and ctx.direction == "past"):
        strict = q == "last"
        while first > t or (strict and first.month == t.month and first.year == t.year):
            first, last = month_span(first.year - 1, month)
    elif q == "next" or ctx.direction == "future":
        strict = q == "next"
        while last < t or (strict and first.month == t.month and first.year == t.year):
            first, last = month_span(first.year + 1, month)
    return Resolved("month_day", first, last, None, f"a month, the nearest ({ctx.direction})")


CALENDAR_FORMS: dict[str, Callable[[Candidate, Context], Resolved | None]] = {
    "abs_date": _absolute,
    "abs_iso": _absolute,
    "abs_month": _absolute,
    "abs_year": _absolute,
    "since_year": _absolute,
    "span_md": _span_md,
    "span_wd": _span_wd,
    "since": _since_until,
    "until": _since_until,
    "week_of": _week_of,
    "nth_weekend": _nth_weekend,
    "later_this": _later_this,
    "md": _md,
    "numeric_md": _md,
    "holiday": _md,
    "day_of_month": _day_of_month,
    "bare_month": _bare_month,
}
