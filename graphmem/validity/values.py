"""The values a claim gives (``Claim.values``, ``measures``, ``clause_measures``), typed.

Each value is a frozen record; ``str(value)`` is the text the graph stores
(``claim_values``: ``count:watch|mcu film|the last 3 months|total=4``) and
:func:`parse_value` reads it back, so the graph keeps one plain string per value (the
Browser and Cypher read them) while the rules read fields, never split strings.

- :class:`Said`: one text of a kind: an amount (``num``), a time or score (``clock``), how
  often (``freq``), a place or name (``place``, ``name``), a specific thing named
  (``thing``), a thing planned, begun, ended or called off (``planned``, ``begun``,
  ``ended``, ``dropped``; ``validity.aspect``), a home or an employer (``home``, ``job``);
- :class:`Now`: an activity on a thing now ("currently reading Dune": ``now:read=dune``);
- :class:`Span`, :class:`Rate`, :class:`Weekday`, :class:`Rank`, :class:`Placed`: the
  values held one at a time (``validity.states``);
- :class:`Count`: a number of things (``validity.counts``).

A value's text fields hold none of the separators after them (``=`` ends a key, ``|``
parts a key); :func:`parse_value` splits as the fields were joined, the last ``=`` and
the outer ``|`` first, so a key holding ``|`` or ``=`` still reads back.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

SaidKind = Literal[
    "num", "clock", "freq", "place", "name", "thing",
    "planned", "begun", "ended", "dropped", "home", "job",
]  # fmt: skip
SAID_KINDS: frozenset[str] = frozenset(SaidKind.__args__)  # type: ignore[attr-defined]


class _Value(BaseModel):
    """The stored text is the value's identity: values sort, and compare, by it."""

    model_config = ConfigDict(frozen=True)

    def text(self) -> str:  # pragma: no cover - every kind defines it
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text()

    def __lt__(self, other: Any) -> bool:
        return str(self) < str(other)


class Said(_Value):
    kind: SaidKind
    said: str

    def text(self) -> str:
        return f"{self.kind}:{self.said}"


class Now(_Value):
    kind: Literal["now"] = "now"
    activity: str
    thing: str

    def text(self) -> str:
        return f"now:{self.activity}={self.thing}"


class KeyedValue(_Value):
    """A value held one at a time per key (``validity.moves``): ``key`` its parts,
    ``said`` the value as text."""

    @property
    def key(self) -> tuple[str, ...]:  # pragma: no cover - every kind defines it
        raise NotImplementedError

    @property
    def said(self) -> str:  # pragma: no cover - every kind defines it
        raise NotImplementedError

    @property
    def key_text(self) -> str:
        return "|".join(self.key)

    def text(self) -> str:
        return f"{self.kind}:{self.key_text}={self.said}"  # type: ignore[attr-defined]


class Span(KeyedValue):
    """How long a state of a verb and thing has lasted, in days."""

    kind: Literal["span"] = "span"
    verb: str
    thing: str
    days: int

    @property
    def key(self) -> tuple[str, ...]:
        return (self.verb, self.thing)

    @property
    def said(self) -> str:
        return str(self.days)


class Rate(KeyedValue):
    """How much or how often per period ("1 hour" a "day")."""

    kind: Literal["rate"] = "rate"
    verb: str
    thing: str
    period: str
    amount: str

    @property
    def key(self) -> tuple[str, ...]:
        return (self.verb, self.thing, self.period)

    @property
    def said(self) -> str:
        return self.amount


class Weekday(KeyedValue):
    """The weekday of a habit (``"<day> once"``: of one occurrence)."""

    kind: Literal["weekday"] = "weekday"
    verb: str
    thing: str
    day: str

    @property
    def key(self) -> tuple[str, ...]:
        return (self.verb, self.thing)

    @property
    def said(self) -> str:
        return self.day


class Rank(KeyedValue):
    """A rank held, keyed by its noun ("status": "premier gold")."""

    kind: Literal["rank"] = "rank"
    noun: str
    words: str

    @property
    def key(self) -> tuple[str, ...]:
        return (self.noun,)

    @property
    def said(self) -> str:
        return self.words


class Placed(KeyedValue):
    """Where one specific thing was put."""

    kind: Literal["placed"] = "placed"
    thing: str
    place: str

    @property
    def key(self) -> tuple[str, ...]:
        return (self.thing,)

    @property
    def said(self) -> str:
        return self.place


class Count(_Value):
    """A number of things a verb counts over a period; ``total``: a running total or a
    state ("has read", "owns"), not one event's number."""

    kind: Literal["count"] = "count"
    verb: str
    thing: str
    period: str
    total: bool
    number: str

    def text(self) -> str:
        total = "total" if self.total else ""
        return f"count:{self.verb}|{self.thing}|{self.period}|{total}={self.number}"


Value = Said | Now | Span | Rate | Weekday | Rank | Placed | Count


def parse_value(text: str) -> Value:
    """The value a stored text names (``str(value)`` read back); ValueError when the
    text is none (no known kind, or a part missing)."""
    kind, colon, rest = text.partition(":")
    if not colon:
        raise ValueError(f"not a claim value: {text!r}")
    if kind in SAID_KINDS:
        return Said(kind=kind, said=rest)  # type: ignore[arg-type]
    if kind == "now":
        activity, _, thing = rest.partition("=")
        return Now(activity=activity, thing=thing)
    key, equals, said = rest.rpartition("=")
    if not equals:
        raise ValueError(f"not a claim value (a {kind} value has '='): {text!r}")
    return _keyed(kind, key, said, text)


def _keyed(kind: str, key: str, said: str, text: str) -> Value:
    first, _, others = key.partition("|")
    if kind in ("rank", "placed"):
        return Rank(noun=key, words=said) if kind == "rank" else Placed(thing=key, place=said)
    if kind in ("span", "weekday"):
        if kind == "span":
            return Span(verb=first, thing=others, days=int(said))
        return Weekday(verb=first, thing=others, day=said)
    middle, _, last = others.rpartition("|")
    if kind == "rate":
        return Rate(verb=first, thing=middle, period=last, amount=said)
    if kind == "count":
        thing, _, period = middle.rpartition("|")
        return Count(verb=first, thing=thing, period=period, total=last == "total", number=said)
    raise ValueError(f"not a claim value: {text!r}")


def parse_values(texts: Any) -> tuple[Value, ...]:
    """The stored texts of a claim property (None: none) read back, in their order."""
    return tuple(parse_value(t) for t in texts or ())


def said(values: Any, kind: str) -> set[str]:
    """The texts of ``values`` of one :class:`Said` kind."""
    return {v.said for v in values if isinstance(v, Said) and v.kind == kind}
