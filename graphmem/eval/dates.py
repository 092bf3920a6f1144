"""``graphmem eval dates``: a date resolver scored against hand labels of date expressions
(``tests/fixtures/dates/labels.jsonl``, described in ``tests/fixtures/dates/GUIDE.md``).

A resolver is any callable ``(text, said_at) -> list[Resolved]``: each result is a span of
``text`` (character offsets) and the days it means, ``first`` to ``last`` inclusive, an open
bound ``None``; or a length, ``duration_days``.

Scoring. For each labelled line the resolver runs on the line's ``text`` with its
``said_at``. The mentions whose span overlaps the labelled expression's span (its first
occurrence in ``text``) are the ones judged; mentions elsewhere in the turn are not labelled
and not judged. A mention that overlaps two labelled expressions is judged once for each.

- A mention *claims a date* when ``first`` or ``last`` is set. It is *correct* when the
  label has a date (``meant`` not null) and ``(first, last) == (meant.start, meant.end)``
  (an open bound equal only as ``None``).
- **recall** of a kind = labels with a date that have a correct judged mention / labels with
  a date (kinds ``none`` and ``duration`` have no date, so no recall).
- **precision** = correct judged mentions / judged mentions that claim a date. A mention that
  claims a date on a ``none`` or ``duration`` label is a false positive; a mention whose
  interval is wrong is a false positive and, unless another judged mention is right, a miss.
- **durations** (a row of its own): judged mentions that carry ``duration_days``; correct
  when the label is a ``duration`` with the same ``duration_days``; recall over the
  ``duration`` labels.

Only aggregates are computed for every part; :func:`dev_errors` lists wrong lines and reads
``part == "dev"`` lines only, whatever it is given (the frozen part is never shown).
"""

from __future__ import annotations

import calendar
import importlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol, Self, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from graphmem.errors import InputError

if TYPE_CHECKING:  # the resolver loads spaCy; the loader and the scoring do not need it
    from graphmem.nlp.temporal import TemporalMention

Kind = Literal["weekday", "month_day", "relative", "span", "absolute", "duration", "none"]
Part = Literal["dev", "frozen"]
PartChoice = Literal["dev", "frozen", "all"]
KINDS: tuple[Kind, ...] = get_args(Kind)
UNDATED: frozenset[Kind] = frozenset({"none", "duration"})
PARTS: tuple[PartChoice, ...] = ("dev", "frozen", "all")
# The fixture is test data: it ships in a source checkout, not in the wheel.
DEFAULT_LABELS = Path(__file__).resolve().parents[2] / "tests/fixtures/dates/labels.jsonl"


@dataclass(frozen=True, slots=True)
class Resolved:
    """One resolved expression: ``text[start:end]`` means the days ``first`` to ``last``
    (inclusive; ``None`` an open bound), or a length of ``duration_days``."""

    start: int
    end: int
    first: date | None
    last: date | None
    duration_days: float | None = None

    @property
    def claims_date(self) -> bool:
        return self.first is not None or self.last is not None


class Resolver(Protocol):
    def __call__(self, text: str, said_at: datetime) -> list[Resolved]: ...


class Meant(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    start: date | None
    end: date | None


class DateLabel(BaseModel):
    """One line of labels.jsonl (fields as GUIDE.md gives them)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    source: Literal["locomo", "longmemeval", "written"]
    conversation: str
    part: Part
    said_at: datetime
    speaker: str
    text: str
    expression: str = Field(min_length=1)
    kind: Kind
    tense: Literal["past", "present", "future", "habitual"]
    meant: Meant | None
    duration_days: float | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        # Messages name the rule, never the line's words: a frozen line is never shown.
        if self.expression not in self.text:
            raise ValueError("expression is not a substring of text")
        if (self.kind in UNDATED) != (self.meant is None):
            raise ValueError("meant is null exactly for kinds none and duration")
        if (self.kind == "duration") != (self.duration_days is not None):
            raise ValueError("duration_days is given exactly for kind duration")
        m = self.meant
        if m is not None and m.start is not None and m.end is not None and m.start > m.end:
            raise ValueError("meant.start is after meant.end")
        return self

    @property
    def span(self) -> tuple[int, int]:
        at = self.text.index(self.expression)
        return at, at + len(self.expression)


def load_labels(path: Path, part: PartChoice = "all") -> list[DateLabel]:
    """The labels of ``part`` (``all``: both). Lines of the other part are dropped as they
    are read. A bad line is an InputError naming the file and the line number."""
    if not path.is_file():
        raise InputError(
            "no date labels file",
            path=str(path),
            hint="the fixture ships only in a source checkout (tests/fixtures/dates); "
            "pass --labels PATH",
        )
    out: list[DateLabel] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            label = DateLabel.model_validate(json.loads(line))
        except (ValueError, ValidationError) as exc:
            raise InputError(
                f"not a date label: {_why(exc)}", path=str(path), record=f"line {number}"
            ) from None
        if part in ("all", label.part):
            out.append(label)
    return out


def _why(exc: ValueError) -> str:
    """The fields at fault and the rule, without the input's value (it may be frozen)."""
    if isinstance(exc, ValidationError):
        return "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'line'}: {e['msg']}" for e in exc.errors()
        )
    return "not JSON"


# --- the adapter for today's resolver ---------------------------------------------------


def from_mention(mention: TemporalMention) -> Resolved:
    """A ``TemporalMention`` as an interval: granularity day -> [d, d]; week (its value is
    the Monday) -> [Monday, Sunday]; month -> [1st, last day]; year -> [1 Jan, 31 Dec]. Form
    ``before`` -> [None, the value's last day]; ``after`` -> [the value's first day, None].
    It names no length, so ``duration_days`` is None. A mention that carries the days its
    expression names (``first``, ``last``) gives them: "by Friday" names Friday, and the
    bound PREMem reads into it ("Before" Friday) is the design's, not the expression's."""
    if mention.first is not None or mention.last is not None:
        return Resolved(mention.start, mention.end, mention.first, mention.last)
    first, last = _interval(mention.value, mention.granularity)
    if mention.form == "before":
        return Resolved(mention.start, mention.end, None, last)
    if mention.form == "after":
        return Resolved(mention.start, mention.end, first, None)
    return Resolved(mention.start, mention.end, first, last)


def _interval(value: str, granularity: str) -> tuple[date, date]:
    if granularity == "year":
        year = int(value)
        return date(year, 1, 1), date(year, 12, 31)
    if granularity == "month":
        year, month = (int(x) for x in value.split("-"))
        return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])
    day = date.fromisoformat(value)
    if granularity == "week":
        monday = day - timedelta(days=day.weekday())
        return monday, monday + timedelta(days=6)
    return day, day


def current(text: str, said_at: datetime) -> list[Resolved]:
    """What the designs read, ``graphmem.nlp.temporal.normalise_temporal`` (grounding and
    PREMem's vague bounds), through
    :func:`from_mention`."""
    from graphmem.nlp.temporal import normalise_temporal

    return [from_mention(m) for m in normalise_temporal(text, said_at)]


def imported(module: str, function: str) -> Callable[[], Resolver]:
    """A registry entry for ``module.function(text, said_at)`` whose results have ``start``,
    ``end`` and, where known, ``first``, ``last`` and ``duration_days``: imported only when
    the resolver is chosen."""

    def load() -> Resolver:
        found: Callable[[str, datetime], Iterable[object]] = getattr(
            importlib.import_module(module), function
        )
        return lambda text, said_at: [_coerce(x) for x in found(text, said_at)]

    return load


def _coerce(found: object) -> Resolved:
    if isinstance(found, Resolved):
        return found
    length = getattr(found, "duration_days", None)
    return Resolved(
        int(getattr(found, "start")),  # noqa: B009 (the attribute is the protocol)
        int(getattr(found, "end")),  # noqa: B009
        _day(getattr(found, "first", None)),
        _day(getattr(found, "last", None)),
        None if length is None else float(length),
    )


def _day(value: object) -> date | None:
    if value is None or type(value) is date:
        return value
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, str):
        return date.fromisoformat(value)
    raise TypeError(f"a resolver gave {type(value).__name__} for a day")


# name -> how to get the resolver. Another is one line, e.g.
# "grounding": imported("graphmem.nlp.grounding", "ground"),
RESOLVERS: dict[str, Callable[[], Resolver]] = {
    "current": lambda: current,
    "grounding": imported("graphmem.nlp.grounding", "ground"),  # the grounding alone
}


def resolver(name: str) -> Resolver:
    if name not in RESOLVERS:
        raise InputError(f"no date resolver {name!r}", hint=f"one of {', '.join(RESOLVERS)}")
    return RESOLVERS[name]()


# --- scoring ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the resolver did on one labelled line."""

    label: DateLabel
    judged: tuple[Resolved, ...]  # overlapping mentions that claim a date
    correct: int
    recalled: bool | None  # None: the label has no date
    lengths: int  # overlapping mentions that carry duration_days
    lengths_correct: int

    @property
    def wrong(self) -> bool:
        return self.recalled is False or self.correct < len(self.judged)


def judge(label: DateLabel, mentions: Sequence[Resolved]) -> Outcome:
    """One line by the rule of the module's docstring."""
    low, high = label.span
    near = [m for m in mentions if m.start < high and m.end > low]
    dated = tuple(m for m in near if m.claims_date)
    meant = label.meant
    correct = sum(
        1 for m in dated if meant is not None and (m.first, m.last) == (meant.start, meant.end)
    )
    lengths = [m.duration_days for m in near if m.duration_days is not None]
    want = label.duration_days
    return Outcome(
        label=label,
        judged=dated,
        correct=correct,
        recalled=None if meant is None else correct > 0,
        lengths=len(lengths),
        lengths_correct=sum(1 for x in lengths if want is not None and abs(x - want) < 1e-9),
    )


def score(labels: Iterable[DateLabel], resolve: Resolver) -> list[Outcome]:
    """Every line judged; the resolver runs once per turn (several lines share one)."""
    seen: dict[tuple[str, datetime], list[Resolved]] = {}
    out = []
    for label in labels:
        key = (label.text, label.said_at)
        if key not in seen:
            seen[key] = resolve(label.text, label.said_at)
        out.append(judge(label, seen[key]))
    return out


class DateRow(BaseModel):
    kind: str
    labels: int
    dated: int  # labels with a date: recall's denominator
    judged: int
    correct: int
    recalled: int
    precision: float | None
    recall: float | None


class PartScore(BaseModel):
    part: PartChoice
    rows: list[DateRow]  # each kind, then "all"
    durations: DateRow


def _row(kind: str, outcomes: Sequence[Outcome]) -> DateRow:
    dated = sum(1 for o in outcomes if o.recalled is not None)
    judged = sum(len(o.judged) for o in outcomes)
    correct = sum(o.correct for o in outcomes)
    recalled = sum(1 for o in outcomes if o.recalled)
    return DateRow(
        kind=kind,
        labels=len(outcomes),
        dated=dated,
        judged=judged,
        correct=correct,
        recalled=recalled,
        precision=correct / judged if judged else None,
        recall=recalled / dated if dated else None,
    )


def _durations(outcomes: Sequence[Outcome]) -> DateRow:
    labels = [o for o in outcomes if o.label.kind == "duration"]
    judged = sum(o.lengths for o in outcomes)
    correct = sum(o.lengths_correct for o in outcomes)
    recalled = sum(1 for o in labels if o.lengths_correct)
    return DateRow(
        kind="durations",
        labels=len(labels),
        dated=len(labels),
        judged=judged,
        correct=correct,
        recalled=recalled,
        precision=correct / judged if judged else None,
        recall=recalled / len(labels) if labels else None,
    )


def summarise(outcomes: Sequence[Outcome], part: PartChoice) -> PartScore:
    """Aggregates of ``part`` (``all``: both parts) by kind and overall."""
    mine = [o for o in outcomes if part in ("all", o.label.part)]
    rows = [_row(k, [o for o in mine if o.label.kind == k]) for k in KINDS]
    return PartScore(part=part, rows=[*rows, _row("all", mine)], durations=_durations(mine))


class ErrorLine(BaseModel):
    """A wrong or missed dev line, to read."""

    id: str
    said_at: str
    kind: Kind
    expression: str
    meant: str
    got: list[str]
    text: str


def _shown(first: date | None, last: date | None) -> str:
    return f"{first or '…'}..{last or '…'}"


def dev_errors(outcomes: Iterable[Outcome], limit: int) -> list[ErrorLine]:
    """Up to ``limit`` wrong or missed lines of the DEV part; frozen lines are skipped here,
    whatever the caller passes."""
    out: list[ErrorLine] = []
    for o in outcomes:
        if len(out) >= limit:
            break
        if o.label.part != "dev" or not o.wrong:
            continue
        label, meant = o.label, o.label.meant
        out.append(
            ErrorLine(
                id=label.id,
                said_at=label.said_at.strftime("%Y-%m-%dT%H:%M %a"),
                kind=label.kind,
                expression=label.expression,
                meant="none" if meant is None else _shown(meant.start, meant.end),
                got=[_shown(m.first, m.last) for m in o.judged],
                text=label.text,
            )
        )
    return out
