"""Temporal grounding, the forms counted from the time of speaking: weekdays (this, next,
last, bare), "yesterday" and friends, this/next/last week, month, year and weekend, "N days
ago", "in N weeks", and lengths of time, which stay lengths (GUIDE.md's conventions).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

from graphmem.nlp.grounding_calendar import (
    Context,
    Resolved,
    after,
    before,
    month_span,
    one,
    week,
    weekday_index,
    weekend_of,
    weekend_past,
    year_span,
)
from graphmem.nlp.grounding_rules import UNIT_DAYS, Candidate, number


# --- weekdays, days and periods counted from now, durations ----------------------------
def _weekday(c: Candidate, ctx: Context) -> Resolved | None:
    g, t = c.match.groupdict(), ctx.today
    wd = weekday_index(g["wd"])
    if c.form == "wd_week":
        offset = {"next": 1, "last": -1, "this": 0}[g["wq"].lower()]
        d = week(t, offset)[0] + timedelta(days=wd)
        return one("weekday", d, f"the {g['wd']} of {g['wq'].lower()} week")
    if c.form == "wd_anchor":
        if ctx.anchor is None:
            return None
        if g["side"].lower() == "before":
            return one("weekday", before(ctx.anchor[0], wd), "the weekday before the date named")
        return one("weekday", after(ctx.anchor[1], wd), "the weekday after the date named")
    q = re.sub(r"\s+", " ", (g.get("q") or "").lower())
    if q in ("last", "past", "this past"):
        return one("weekday", before(t, wd), "last <weekday>: the most recent before today")
    if q == "next":
        return one("weekday", week(t, 1)[0] + timedelta(days=wd), "next <weekday>: of next week")
    if q in ("coming", "this coming") or (q == "this" and ctx.direction == "future"):
        return one("weekday", after(t, wd), "this/coming <weekday>: the first after today")
    if q == "this":
        return one("weekday", week(t)[0] + timedelta(days=wd), "this <weekday>, past: this week's")
    if ctx.direction == "future":
        if ctx.anchor and ctx.anchor_same_sentence and ctx.anchor[1] > t:
            return one("weekday", after(ctx.anchor[1], wd), "weekday after the date just named")
        return one("weekday", after(t, wd), "weekday, future: the first after today")
    return one("weekday", before(t, wd), "weekday, past: the last before today")


_REL_DAYS = {
    "yesterday": -1,
    "today": 0,
    "tonight": 0,
    "tomorrow": 1,
    "last night": -1,
    "this": 0,
    "day before yesterday": -2,
    "day after tomorrow": 2,
}


def _rel_day(c: Candidate, ctx: Context) -> Resolved | None:
    phrase = re.sub(r"\s+", " ", c.match.group(0).lower())
    phrase = re.sub(r"^the ", "", phrase)
    key = next(k for k in sorted(_REL_DAYS, key=len, reverse=True) if phrase.startswith(k))
    d = ctx.today + timedelta(days=_REL_DAYS[key])
    return one("relative", d, f"{key}: {_REL_DAYS[key]:+d} day(s) from the time of speaking")


def _rel_period(c: Candidate, ctx: Context) -> Resolved | None:
    g, t = c.match.groupdict(), ctx.today
    q = re.sub(r"\s+", " ", (g.get("rq") or "").lower())
    unit, tail = g["unit"].lower(), (g.get("after") or "").strip().lower()
    preceded = c.match.string[: c.start].lower()
    window = q in ("past", "last", "next") and unit != "weekend"
    if window and re.search(r"\bthe\s+$", preceded):
        return None  # "the past week", "for the next month": a window, not a calendar unit
    if q == "the" and unit in ("month", "year"):
        return None
    offset = {
        "next": 1,
        "coming": 1,
        "this coming": 1,
        "last": -1,
        "past": -1,
        "this past": -1,
        "the previous": -1,
    }.get(q, 0)
    if tail:
        offset = 2 if tail.endswith("next") else -2
    if unit == "weekend":
        if offset < 0 or (q in ("the", "this") and ctx.direction == "past" and t.weekday() < 5):
            return Resolved("relative", *weekend_past(t), None, "the last weekend fully over")
        if offset > 0 and q == "next":
            return Resolved(
                "relative", *weekend_of(week(t, 1)[0]), None, "the weekend of next week"
            )
        sat = weekend_of(t)
        return Resolved("relative", *sat, None, "this weekend: the coming or current one")
    if unit == "week":
        return Resolved("relative", *week(t, offset), None, f"week {offset:+d}, Monday to Sunday")
    if unit == "month":
        return Resolved(
            "relative", *month_span(t.year, t.month, offset), None, f"month {offset:+d}"
        )
    return Resolved("relative", *year_span(t.year + offset), None, f"year {offset:+d}")


def _since_rel(c: Candidate, ctx: Context) -> Resolved | None:
    """ "since last week", "since yesterday": from the start of that unit to now."""
    g, t = c.match.groupdict(), ctx.today
    if g.get("rday"):
        first = t if g["rday"].lower().startswith("this") else t - timedelta(days=1)
    else:
        offset = 0 if g["rq"].lower() == "this" else -1
        unit = g["unit"].lower()
        if unit == "weekend":
            first = weekend_of(t)[0] if offset == 0 else weekend_past(t)[0]
        elif unit == "week":
            first = week(t, offset)[0]
        elif unit == "month":
            first = month_span(t.year, t.month, offset)[0]
        else:
            first = year_span(t.year + offset)[0]
    if first > t:
        return None
    return Resolved("span", first, t, None, "since: from then to the time of speaking")


def _counted(n: int, unit: str, ctx: Context, sign: int) -> Resolved:
    t, u = ctx.today, unit.lower().rstrip("s")
    if u in ("day", "night"):
        d = t + timedelta(days=sign * n)
        return Resolved("relative", d, d, None, f"{sign * n:+d} days")
    if u in ("week", "fortnight"):
        span = week(t + timedelta(days=sign * n * (14 if u == "fortnight" else 7)))
        return Resolved("relative", *span, None, "the Monday-Sunday week that far away")
    if u == "weekend":
        return Resolved(
            "relative", *weekend_of(t + timedelta(weeks=sign * n)), None, "that weekend"
        )
    if u == "month":
        return Resolved("relative", *month_span(t.year, t.month, sign * n), None, "that month")
    return Resolved("relative", *year_span(t.year + sign * n), None, "that calendar year")


def _ago_in(c: Candidate, ctx: Context) -> Resolved | None:
    g = c.match.groupdict()
    n, unit = count(g.get("n") or g.get("n2")), g.get("unit") or g.get("unit2")
    if n is None or unit is None:
        return None
    if c.form == "ago":
        return _counted(n, unit, ctx, -1)
    if g.get("n") and ctx.direction == "past":
        # "I finished it in two days": in the past, "in N days" is how long it took.
        return Resolved(
            "duration", None, None, float(n * unit_days(unit)), "in N units, past: a length"
        )
    return _counted(n, unit, ctx, 1)


def _duration(c: Candidate, ctx: Context) -> Resolved | None:
    n = count(c.match["n"])
    unit = c.match["unit"]
    if n is None or (
        n == 1 and c.match["n"].lower() == "one" and not c.match.group(0).lower().startswith("for")
    ):
        return None  # "one day I'll ..." is some day, not a day long
    return Resolved("duration", None, None, float(n * unit_days(unit)), "a length of time")


RELATIVE_FORMS: dict[str, Callable[[Candidate, Context], Resolved | None]] = {
    "wd": _weekday,
    "wd_week": _weekday,
    "wd_anchor": _weekday,
    "rel_day": _rel_day,
    "rel_period": _rel_period,
    "since_rel": _since_rel,
    "ago": _ago_in,
    "in_n": _ago_in,
    "duration": _duration,
}


def unit_days(unit: str) -> int:
    return UNIT_DAYS[unit.lower().rstrip("s").replace("weekend", "week")]


def count(word: str | None) -> int | None:
    return number(word) if word else None
