"""Temporal normalisation: finds time expressions and resolves them against a reference
(the session date), in PREMem's forms: an absolute date, "Before <date>" or "After <date>".

Span detection is regex based so it costs microseconds per turn and needs no parse; the
calendar maths is left to ``dateparser`` with the reference as its relative base.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Literal

from dateparser.date import DateDataParser

from graphmem.errors import InputError

Form = Literal["absolute", "before", "after"]
Granularity = Literal["day", "week", "month", "year"]
Kind = Literal["date", "past", "future", "in_n"]


@dataclass(frozen=True, slots=True)
class TemporalMention:
    """One time expression: ``text`` as written at ``text[start:end]`` and what it means."""

    text: str
    start: int
    end: int
    value: str  # "2023-05-07", week -> its Monday, "2023-05" or "2021"
    granularity: Granularity
    form: Form
    explicit: bool  # names its own calendar year, so annotating it would add nothing


# --- span patterns --------------------------------------------------------------------
_MON_FULL = "january|february|march|april|may|june|july|august|september|october|november|december"
_MON = rf"(?:{_MON_FULL}|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?"
_ORD = r"\d{1,2}(?:st|nd|rd|th)?"
_YEAR = r"(?:1[89]|20)\d{2}"
_WD = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_PART = r"(?:\s+(?:morning|afternoon|evening|night))?"
_NUM = (
    r"(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|"
    r"twenty|thirty|a\s+couple(?:\s+of)?|couple\s+of)"
)
_VAGUE_NUM = r"(?:a\s+few|few|several|some|many|a\s+number\s+of|a\s+bunch\s+of)"
_UNIT = r"(?:day|week|month|year|decade)s?"
_BOUND = r"(?:(?:since|before|after|until|by|from)\s+)?"  # turns a date into a before/after
_YEAR_PREP = r"(?:in|since|during|from|by|before|after|until|of|around|back\s+in)"
_MONTH_PREP = rf"(?:{_YEAR_PREP}|last|next|this|early|mid|late|end\s+of)"

_PATTERNS: tuple[tuple[Kind, str], ...] = (
    ("date", rf"{_BOUND}{_ORD}(?:\s+of)?\s+{_MON},?\s+{_YEAR}"),
    ("date", rf"{_BOUND}{_MON}\s+{_ORD},?\s+{_YEAR}"),
    ("date", rf"{_BOUND}(?:\d{{4}}[-/]\d{{1,2}}[-/]\d{{1,2}}|\d{{1,2}}/\d{{1,2}}/\d{{4}})"),
    ("date", rf"{_BOUND}{_MON},?\s+{_YEAR}"),
    ("date", rf"{_BOUND}(?:the\s+)?{_ORD}\s+of\s+{_MON}|{_BOUND}\d{{1,2}}\s+{_MON}"),
    ("date", rf"{_BOUND}{_MON}\s+{_ORD}(?![\d:])"),
    ("date", rf"{_YEAR_PREP}\s+(?:the\s+year\s+)?{_YEAR}(?![\d/-])"),
    ("date", rf"{_MONTH_PREP}(?:\s+|-)(?:(?:early|mid|late)(?:\s+|-))?(?:{_MON_FULL})"),
    (
        "date",
        rf"{_BOUND}(?:(?:the\s+)?day\s+(?:before\s+yesterday|after\s+tomorrow)|"
        rf"yesterday{_PART}|today|tonight|tomorrow{_PART}|last\s+night|"
        r"this\s+(?:morning|afternoon|evening))",
    ),
    (
        "date",
        rf"{_BOUND}(?:(?:the\s+)?(?:last|this|next|past|coming)\s+(?:week|month|year|weekend)"
        r"|(?:over\s+)?the\s+weekend)",
    ),
    ("date", rf"{_BOUND}(?:(?:last|this|next|coming|on)\s+)?{_WD}{_PART}"),
    ("date", rf"{_NUM}\s+{_UNIT}\s+(?:ago|from\s+now)"),
    ("in_n", rf"in\s+{_NUM}\s+{_UNIT}"),
    (
        "past",
        # Longer alternatives first: a regex alternation takes the first that matches.
        rf"(?:in|over|during)\s+the\s+(?:past|last)\s+(?:few|couple\s+of|several)\s+{_UNIT}|"
        rf"(?:{_VAGUE_NUM}\s+)?(?:days|weeks|months|years|decades)\s+(?:ago|back)|"
        r"a\s+(?:long\s+)?while\s+(?:ago|back)|(?:a\s+long|some)\s+time\s+ago|"
        r"not\s+(?:too\s+|so\s+)?long\s+ago|(?:long|ages)\s+ago|"
        r"earlier\s+this\s+(?:week|month|year)|"
        r"recently|lately|the\s+other\s+day|previously|in\s+the\s+past",
    ),
    (
        "future",
        r"(?<!as\s)soon|some\s?day|eventually|one\s+of\s+these\s+days|"
        r"in\s+the\s+(?:near\s+|distant\s+)?future|later\s+this\s+(?:week|month|year)|"
        rf"in\s+{_VAGUE_NUM}\s+{_UNIT}",
    ),
)
_COMPILED = tuple((kind, re.compile(rf"\b(?:{p})\b", re.IGNORECASE)) for kind, p in _PATTERNS)

_FUTURE_CUES = re.compile(
    r"\b(?:will|shall|gonna|going\s+to|plan(?:s|ning)?\s+(?:to|on)|hope\s+to|"
    r"can'?t\s+wait|looking\s+forward|upcoming|next)\b|\w'll\b|"
    # The present progressive is how plans are usually told: "I'm seeing her on Friday";
    # "is" because the builders restate turns in the third person ("Maya is moving ...").
    # Adjectives and nouns in -ing and "going through" tell a state, not a plan.
    r"\b(?:am|is|are|'m|'re)\s+(?!(?:(?:amaz|interest|excit|bor|inspir|exhaust|annoy|relax|"
    r"surpris|disappoint|frustrat|heartwarm|touch|stunn|overwhelm|challeng|reward|fascinat|"
    r"charm|refresh|encourag|thrill|calm|sooth|uplift|daunt|lov|car|intimidat|terrify|"
    r"satisfy|fulfill|entertain|embarrass|depress|confus|\w*th|dur|morn|even|spr|wedd|ceil)"
    r"ing|going\s+through)\b)\w+ing\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?\n]")
# A past-tense verb between a future cue and a date: the date belongs to the past clause
# ("I'm reading a book I bought in April").
_PAST_BETWEEN = re.compile(
    r"\b(?:was|were|had|did|\w+ed|bought|took|went|got|made|came|began|saw|met|said|told|"
    r"found|left|lost|gave|thought|felt|ran|won|wrote|sent|spent|built|kept|brought|caught|"
    r"taught|paid|heard|held|stood|sat|ate|drank|flew|drove|rode|swam|sang|grew|knew|threw|"
    r"wore|broke|chose|fell|forgot|hid)\b",
    re.IGNORECASE,
)
_BOUND_FORMS: dict[str, Form] = {
    "before": "before",
    "until": "before",
    "by": "before",
    "after": "after",
}
_LEADING = re.compile(
    r"^(?:(?:since|before|after|until|by|from|in|on|during|of|around|over|back|the|year|"
    r"early|mid|late|end)(?:\s+|-))+",
    re.IGNORECASE,
)
_GRANULARITY: dict[str, Granularity] = {
    "day": "day",
    "time": "day",
    "part_of_day": "day",
    "week": "week",
    "month": "month",
    "year": "year",
}


# A turn's text is scanned by several designs (and by valid time's statements): 43% of the
# scans of a LongMemEval haystack repeat a text scanned before; the scan is a function of
# the text alone.
@functools.lru_cache(maxsize=4096)
def _spans(text: str) -> tuple[tuple[int, int, Kind], ...]:
    """Non-overlapping candidate spans, the longest winning where candidates overlap."""
    found = [(m.start(), m.end(), kind) for kind, rx in _COMPILED for m in rx.finditer(text)]
    found.sort(key=lambda s: (s[0] - s[1], s[0]))
    chosen: list[tuple[int, int, Kind]] = []
    for start, end, kind in found:
        if all(end <= s or start >= e for s, e, _ in chosen):
            chosen.append((start, end, kind))
    return tuple(sorted(chosen))


def _future_cue(text: str, start: int, end: int) -> bool:
    """Whether the sentence around ``text[start:end]`` speaks of the future there: it holds
    a future cue with no past-tense verb between the cue and the date (and, for a cue after
    the date, none before the date either: "she lost her job in May and is starting ...")."""
    left = max((m.end() for m in _SENTENCE_END.finditer(text, 0, start)), default=0)
    right_match = _SENTENCE_END.search(text, end)
    right = right_match.start() if right_match else len(text)
    for cue in _FUTURE_CUES.finditer(text, left, right):
        if cue.end() <= start:
            between = text[cue.end() : start]
        else:
            between = f"{text[left:start]} {text[end : cue.start()]}"
        if not _PAST_BETWEEN.search(between):
            return True
    return False


def _canonical(span: str) -> tuple[str, Literal["past", "future"] | None]:
    """The phrase dateparser understands, and a tense the phrase itself implies."""
    phrase = re.sub(r"\s+", " ", span.lower()).strip(" ,.")
    phrase = re.sub(r"\ba couple(?: of)?\b|\bcouple of\b", "2", phrase)
    phrase = _LEADING.sub("", phrase)
    phrase = re.sub(r"^past ", "last ", re.sub(r"^coming ", "next ", phrase))
    # Weekends resolve to their week (ISO weeks end on Sunday), via the Saturday.
    phrase = re.sub(r"\bweekend\b", "saturday", re.sub(r"^this weekend$", "weekend", phrase))
    tense: Literal["past", "future"] | None = None
    if phrase.startswith("next ") or phrase.endswith("from now"):
        tense = "future"
    elif phrase.startswith("last ") or phrase.endswith("ago"):
        tense = "past"
    month_only = re.fullmatch(rf"(last|next|this) ({_MON_FULL})", phrase)
    if month_only:  # dateparser cannot do "last March"; the tense alone picks the year
        tense = "future" if month_only.group(1) == "next" else "past"
        phrase = month_only.group(2)
    return phrase, tense


@functools.lru_cache(maxsize=256)
def _parser(reference: datetime, prefer: str) -> DateDataParser:
    """One parser per reference date and preference: building one loads dateparser's
    language data (~30 ms, ~100 ms cold), parsing a phrase with it takes under 1 ms. A
    space's questions share a reference date, so a query's first relative phrase no longer
    pays the build (it was the ``graphmem`` strategy's slowest step at p95)."""
    return DateDataParser(
        languages=["en"],
        settings={
            "RELATIVE_BASE": reference,
            "PREFER_DATES_FROM": prefer,
            "RETURN_TIME_AS_PERIOD": True,
        },
    )


def prepare_dates(reference: datetime) -> None:
    """Build the parsers for ``reference`` now: one-off work for a retriever's ``prepare``
    rather than for the first question that holds a relative date."""
    for prefer in ("past", "future"):
        _parser(reference.replace(tzinfo=None), prefer)


_parse_lock = threading.Lock()  # a parser's settings and caches are not meant for threads


@functools.lru_cache(maxsize=8192)
def _dateparse(phrase: str, reference: datetime, prefer: str) -> tuple[date, Granularity] | None:
    try:
        with _parse_lock:
            data = _parser(reference, prefer).get_date_data(phrase)
    except (OverflowError, ValueError):
        # A phrase counted from the edge of the calendar ("Saturday" said on 1 January of
        # year 1, the placeholder some apps write for "no date") lands outside it: no date.
        return None
    if data.date_obj is None:
        return None
    return data.date_obj.date(), _GRANULARITY.get(data.period or "day", "day")


def _iso(day: date, granularity: Granularity) -> str:
    if granularity == "week":
        return (day - timedelta(days=day.weekday())).isoformat()
    if granularity == "month":
        return f"{day.year:04d}-{day.month:02d}"
    if granularity == "year":
        return f"{day.year:04d}"
    return day.isoformat()


def _resolve(
    text: str, start: int, end: int, kind: Kind, reference: datetime
) -> TemporalMention | None:
    span = text[start:end]
    explicit = re.search(rf"\b{_YEAR}\b", span) is not None
    if kind in ("past", "future"):
        form: Form = "before" if kind == "past" else "after"
        value = reference.date().isoformat()
        return TemporalMention(span, start, end, value, "day", form, explicit)
    future_sentence = _future_cue(text, start, end)
    if kind == "in_n" and not future_sentence:
        return None  # "finished it in two days" is a duration, not a date
    phrase, tense = _canonical(span)
    if kind == "in_n":
        tense = "future"
        phrase = f"{phrase} from now"
    # "since March" starts in the past, whatever the sentence plans.
    since = span.lower().startswith("since")
    prefer = tense or ("future" if future_sentence and not since else "past")
    parsed = _dateparse(phrase, reference.replace(tzinfo=None), prefer)
    if parsed is None:
        return None
    day, granularity = parsed
    if re.search(r"\bweekend\b", span, re.IGNORECASE):
        granularity = "week"
    bound = span.split(maxsplit=1)[0].lower()
    form = _BOUND_FORMS.get(bound, "absolute")
    return TemporalMention(span, start, end, _iso(day, granularity), granularity, form, explicit)


def normalise_temporal(text: str, reference: datetime) -> list[TemporalMention]:
    """Every time expression in ``text``, resolved against ``reference``, in text order."""
    mentions = (_resolve(text, s, e, kind, reference) for s, e, kind in _spans(text))
    return [m for m in mentions if m is not None]


def render(mention: TemporalMention) -> str:
    """PREMem's rendering: "2023-05-07", "week of 2023-05-01", "Before 2023-05-08"."""
    value = f"week of {mention.value}" if mention.granularity == "week" else mention.value
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
