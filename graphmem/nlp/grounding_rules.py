"""The cheap half of temporal grounding: the word lists (``data/dates.toml``) and the
regular expressions that find candidate expressions in a turn, with no parse.

Each pattern has a *form* (which calendar rule resolves it, in ``grounding_calendar``) and
named groups the rule reads. Where candidates overlap, the longest wins, so "from May 10 to
12" is one span rather than a date and a stray number.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any


@functools.cache
def words() -> dict[str, Any]:
    """The word lists, read once."""
    raw = resources.files("graphmem.nlp").joinpath("data/dates.toml").read_text("utf-8")
    return tomllib.loads(raw)


def _alt(items: list[str] | dict[str, Any]) -> str:
    """An alternation, longest first: a regex alternation takes the first that matches."""
    return "|".join(re.escape(w) for w in sorted(items, key=len, reverse=True))


WEEKDAYS: tuple[str, ...] = tuple(words()["weekdays"])
MONTHS: dict[str, int] = dict(words()["months"])
NUMBERS: dict[str, int] = dict(words()["numbers"])
UNIT_DAYS: dict[str, int] = dict(words()["unit_days"])
HOLIDAYS: dict[str, tuple[int, int]] = {k: (v[0], v[1]) for k, v in words()["holidays"].items()}
CUES: dict[str, list[str]] = dict(words()["cues"])

WD = rf"(?:{_alt(list(WEEKDAYS))})"
MON = rf"(?:{_alt(MONTHS)})\.?"
MON_FULL = rf"(?:{_alt([m for m in MONTHS if len(m) > 3 or m == 'may'])})"
ORD = r"\d{1,2}(?:st|nd|rd|th)?"
# A day of the month alone needs its suffix ("the 14th"), and no noun after it that makes
# it an ordinal ("the 2nd floor", "the 18th century").
ORDS = rf"\d{{1,2}}(?:st|nd|rd|th)(?!\s+(?:{_alt(words()['ordinal_nouns'])})\b)"
YEAR = r"(?:1[89]|20)\d{2}"
NUM = rf"(?:\d+|{_alt(NUMBERS)})"
UNIT = r"(?:day|night|week|weekend|fortnight|month|year)s?"
PART = r"(?:\s+(?:morning|afternoon|evening|night))?"
ABOUT = r"(?:(?:about|around|roughly|nearly|almost|just|over|only)\s+)?"

# A month and day, in either order, with an optional weekday before it: "Saturday, June 21",
# "the 15th of March", "12 October".
MD = (
    rf"(?:{WD},?\s+)?(?:(?P<§mon>{MON})\s+(?P<§day>{ORD})(?![\d:])"
    rf"|(?:the\s+)?(?P<§day2>{ORD})(?:\s+of)?\s+(?P<§mon2>{MON}))"
)
# The far end of a range: a month and day, or a day alone ("to 12", "until the 2nd").
END = rf"(?:{MD.replace('§', 'b')}|(?:the\s+)?(?P<bdd>{ORD})(?![\d:/]))"
DASH = r"\s*(?:-|–|—|to|through|thru|until|till)\s*"


def md(prefix: str) -> str:
    """The month-day pattern with its groups named ``<prefix>mon``, ``<prefix>day`` etc."""
    return MD.replace("§", prefix)


@dataclass(frozen=True, slots=True)
class Pattern:
    form: str
    regex: re.Pattern[str]


_HABIT = (
    rf"(?:every|each)\s+(?:other\s+|single\s+)?(?:{NUM}\s+{UNIT}|{WD}|{UNIT}|morning|"
    rf"afternoon|evening|night|{MON_FULL}|christmas|easter|summer|winter)"
    rf"|(?:on\s+)?{WD}s\b|(?:on\s+)?{WD}\s+(?:mornings|afternoons|evenings|nights)"
    r"|(?:on\s+)?(?:the\s+)?weekends\b|weekdays\b|on\s+a\s+" + WD + r"\b"
    r"|(?:once|twice|three\s+times|\d+\s+times|\w+\s+times)\s+(?:a|per)\s+"
    r"(?:day|week|month|year)"
)

_RAW: tuple[tuple[str, str], ...] = (
    ("idiom", "|".join(words()["idioms"]["patterns"])),
    ("habit", _HABIT),
    # --- absolute: the year is written
    ("abs_date", rf"{md('a')},?\s+(?P<year>{YEAR})(?![\d])"),
    ("abs_iso", r"(?P<iy>\d{4})-(?P<im>\d{1,2})-(?P<id>\d{1,2})"),
    ("abs_iso", r"(?P<im>\d{1,2})/(?P<id>\d{1,2})/(?P<iy>\d{4})"),
    (
        "abs_month",
        rf"(?:(?:in|of|during|since|from|until|by)\s+)?(?P<mon>{MON}),?\s+"
        rf"(?P<year>{YEAR})(?![\d/-])",
    ),
    ("since_year", rf"since\s+(?P<year>{YEAR})(?![\d/-])"),
    (
        "abs_year",
        rf"(?:in|during|of|around|by)\s+(?:the\s+year\s+)?(?P<year>{YEAR})"
        r"(?![\d/-])",
    ),
    # --- spans: two ends, or one end and the time of speaking
    ("span_md", rf"(?:from\s+|between\s+)?{md('a')}{DASH}{END}"),
    ("span_md", rf"(?:from\s+)(?:the\s+)?(?P<aday3>{ORDS}){DASH}{END}"),
    ("span_md", rf"between\s+{md('a')}\s+and\s+{END}"),
    ("span_md", rf"{md('a')}\s+and\s+(?:the\s+)?(?P<bdd>{ORD})(?![\d:/])(?!\s+(?:of\s+)?{MON})"),
    # "Tuesday and Wednesday" are two days; "between Tuesday and Thursday" is a span.
    (
        "span_wd",
        rf"(?:from\s+)?(?P<wd1>{WD}){PART}\s*(?:-|–|to|through|thru|until|till)\s*"
        rf"(?P<wd2>{WD}){PART}(?:\s+(?P<wq>next|last|this)\s+week)?",
    ),
    (
        "span_wd",
        rf"between\s+(?P<wd1>{WD}){PART}\s+and\s+(?P<wd2>{WD}){PART}"
        r"(?:\s+(?P<wq>next|last|this)\s+week)?",
    ),
    (
        "since",
        rf"since\s+(?:{md('a')}|(?P<smon>{MON_FULL})\b|(?:the\s+)?(?P<sday>{ORDS})"
        rf"|(?:last\s+)?(?P<swd>{WD}))",
    ),
    (
        "since_rel",
        r"since\s+(?:(?P<rq>last|this|the\s+previous)\s+(?P<unit>week|month|year|weekend)"
        r"|(?P<rday>yesterday|last\s+night|this\s+morning))",
    ),
    (
        "until",
        rf"(?:until|till|til)\s+(?:{md('a')}|(?:the\s+)?(?P<uday>{ORDS})"
        rf"|(?P<uwd>{WD})|(?P<umon>{MON_FULL})\b)",
    ),
    ("week_of", rf"the\s+(?P<wk>week|weekend)\s+of\s+(?:{md('a')}|the\s+(?P<wday>{ORDS}))"),
    (
        "nth_weekend",
        rf"the\s+(?P<nth>first|second|third|fourth|last)\s+weekend\s+(?:of|in)\s+"
        rf"(?P<mon>{MON_FULL})",
    ),
    ("later_this", r"later\s+this\s+(?P<unit>week|month|year)"),
    # --- a month and day, no year
    ("md", md("a")),
    (
        "numeric_md",
        r"(?:on|by|until|before|after|from|since)\s+(?P<nm>\d{1,2})/"
        r"(?P<nd>\d{1,2})(?![/\d])",
    ),
    (
        "day_of_month",
        rf"(?:(?P<dwd>{WD}),?\s+)?the\s+(?P<day>{ORDS})(?!\s+(?:of\s+)?{MON})",
    ),
    (
        "bare_month",
        rf"(?:(?P<mq>last|next|this|in|since|until|by|during|of|early|mid|late|"
        rf"(?:the\s+)?(?:beginning|end|middle)\s+of)(?:\s+|-))+(?P<mon>{MON_FULL})"
        r"(?!\s*\d)",
    ),
    ("holiday", rf"(?:the\s+)?(?P<hol>{_alt(HOLIDAYS)})"),
    # --- weekdays
    ("wd_week", rf"(?:on\s+)?(?P<wd>{WD}){PART}(?:\s+of)?\s+(?P<wq>next|last|this)\s+week"),
    ("wd_week", rf"(?P<wq>next|last|this)\s+week,?\s+(?:on\s+)?(?P<wd>{WD}){PART}"),
    ("wd_anchor", rf"the\s+(?P<wd>{WD})\s+(?P<side>before|after)"),
    (
        "wd",
        rf"(?:(?P<q>this\s+coming|this\s+past|last|next|this|coming|past|on)\s+)?"
        rf"(?P<wd>{WD}){PART}",
    ),
    # --- counted from the time of speaking
    (
        "rel_day",
        rf"(?:the\s+)?day\s+(?:before\s+yesterday|after\s+tomorrow)|yesterday{PART}|"
        rf"today|tonight|tomorrow{PART}|last\s+night|this\s+(?:morning|afternoon|evening)",
    ),
    (
        "rel_period",
        r"(?:(?P<rq>this\s+coming|this\s+past|the\s+previous|last|this|next|coming|"
        r"past|the)\s+)"
        r"(?P<unit>week|month|year|weekend)(?P<after>\s+(?:after\s+next|before\s+last))?"
        # "the weekend after we get back": counted from an event, not from now
        r"(?!\s+(?:after|before)\b)",
    ),
    ("ago", rf"{ABOUT}(?P<n>{NUM})\s+(?P<unit>{UNIT})\s+(?:ago|back)"),
    (
        "in_n",
        rf"in\s+{ABOUT}(?P<n>{NUM})\s+(?P<unit>{UNIT})|(?P<n2>{NUM})\s+(?P<unit2>{UNIT})"
        r"\s+from\s+(?:now|today)",
    ),
    # --- lengths of time
    (
        "duration",
        rf"for\s+(?:the\s+(?:past|last|next)\s+)?{ABOUT}(?P<n>{NUM})\s+"
        rf"(?P<unit>{UNIT})",
    ),
    (
        "duration",
        rf"(?P<n>{NUM})[-\s](?P<unit>day|night|week|month|year)-?(?:long)?"
        r"(?=\s+[a-z])(?!\s+(?:ago|back|from|later|earlier|before|after|old)\b)",
    ),
    (
        "duration",
        rf"(?P<n>{NUM})\s+(?P<unit>{UNIT})(?!\s+(?:ago|back|from|later|earlier|"
        r"before|after|old)\b)",
    ),
)

PATTERNS: tuple[Pattern, ...] = tuple(
    Pattern(form, re.compile(rf"\b(?:{rx})\b", re.IGNORECASE)) for form, rx in _RAW
)
# Cheap gates: each pattern needs one of a few kinds of word, and a text with none of
# them skips the pattern (most turns name no time at all; a pattern costs ~10 us a turn).
_GATES: dict[str, re.Pattern[str]] = {
    name: re.compile(rf"\b(?:{rx})", re.IGNORECASE)
    for name, rx in {
        "wd": WD,
        "mon": MON,
        "digit": r"\d",
        "unit": rf"{_alt(list(UNIT_DAYS))}|weekend|weekday",
        "rel": r"yesterday|today|tonight|tomorrow|later|night|morning|afternoon|evening",
        "hol": _alt([h.split()[0] for h in HOLIDAYS]),
        "idiom": r"forever|yesterday|tomorrow|day|today's|\d+(?:/|x)7",
    }.items()
}
_NEEDS: dict[str, frozenset[str]] = {
    form: frozenset(needs.split())
    for form, needs in {
        "idiom": "idiom", "habit": "wd unit mon rel", "abs_date": "digit", "abs_iso": "digit",
        "abs_month": "digit", "since_year": "digit", "abs_year": "digit", "span_md": "digit",
        "span_wd": "wd", "since": "wd mon digit", "since_rel": "unit rel",
        "until": "wd mon digit", "week_of": "digit",
        "nth_weekend": "mon", "later_this": "rel", "md": "digit", "numeric_md": "digit",
        "day_of_month": "digit", "bare_month": "mon", "holiday": "hol", "wd_week": "wd",
        "wd_anchor": "wd", "wd": "wd", "rel_day": "rel", "rel_period": "unit", "ago": "unit",
        "in_n": "unit", "duration": "unit",
    }.items()
}  # fmt: skip
# Verbs like "may", "march" and "sun" are months or days only when written as such.
_LOWER_AMBIGUOUS = {"may", "march", "mar", "jan", "sat", "sun", "wed", "dec", "sept"}


def number(word: str) -> int | None:
    """A count written in digits or words; None for a vague one."""
    w = re.sub(r"\s+", " ", word.lower().strip())
    if w.isdigit():
        return int(w)
    return NUMBERS.get(w)


def month_number(word: str) -> int:
    return MONTHS[word.lower().rstrip(".")]


def day_number(word: str) -> int:
    return int(re.sub(r"\D", "", word))


@dataclass(frozen=True, slots=True)
class Candidate:
    start: int
    end: int
    form: str
    match: re.Match[str]


def _plausible(form: str, m: re.Match[str]) -> bool:
    """Drops matches that only look like dates: "may 5" as a verb, "24/7"."""
    for name in ("amon", "amon2", "mon", "bmon", "bmon2"):
        word = m.groupdict().get(name)
        if word and word.rstrip(".").lower() in _LOWER_AMBIGUOUS and word[0].islower():
            return False
    if form == "wd" and _title(m):
        return False
    return form != "numeric_md" or (1 <= int(m["nm"]) <= 12 and 1 <= int(m["nd"]) <= 31)


def _title(m: re.Match[str]) -> bool:
    """A weekday in a name: "The Friday Night Club", "the Saturday Market"."""
    following = re.match(r"\s+[A-Z][a-z]", m.string[m.end() :])
    if following is None:
        return False
    words_in = m.group(0).split()
    capital_part = len(words_in) > 1 and words_in[-1][0].isupper() and words_in[-2][0].isupper()
    return capital_part or bool(re.search(r"\bthe\s+$", m.string[: m.start()], re.IGNORECASE))


@functools.lru_cache(maxsize=4096)
def candidates(text: str) -> tuple[Candidate, ...]:
    """Non-overlapping candidates in text order, the longest winning where they overlap
    (the earlier pattern where two are as long: idioms and habits come first)."""
    present = {name for name, gate in _GATES.items() if gate.search(text)}
    if not present:
        return ()
    found: list[tuple[int, int, int, Candidate]] = []
    for rank, pattern in enumerate(PATTERNS):
        if not _NEEDS[pattern.form] & present:
            continue
        for m in pattern.regex.finditer(text):
            if _plausible(pattern.form, m):
                found.append(
                    (
                        m.start() - m.end(),
                        rank,
                        m.start(),
                        Candidate(m.start(), m.end(), pattern.form, m),
                    )
                )
    found.sort(key=lambda f: (f[0], f[1], f[2]))
    chosen: list[Candidate] = []
    for _, _, _, cand in found:
        if all(cand.end <= c.start or cand.start >= c.end for c in chosen):
            chosen.append(cand)
    return tuple(sorted(chosen, key=lambda c: c.start))
