"""The offline rules over the values of a state that hold one at a time
(``validity.states``): the ways people say one replaced another.

- a span of one state said again, longer: "has been using the Fitbit for 6 months now",
  later "for 9 months now" (the same verb and thing): ``update``;
- another rate of one activity over one period: "an hour each day", later "two hours
  each day"; "twice a week", later "three times a week": ``update``;
- another weekday of one habit: "a cocktail class on Thursday", later "on Fridays":
  ``update``;
- another rank: "eligible for Premier Silver status", later "reached Premier Gold
  status": ``update``;
- another home or employer: "lives in Boston", later "moved to Denver"; "works at
  Google", later "got a new job at Stripe": ``update``;
- a plan called off or moved: "has a trip to Kyoto planned", later "postponed the Kyoto
  trip" (``dropped:``; ``validity.aspect``): ``update``;
- one thing put somewhere else: "will leave the painting above the sofa", later "moved
  the painting above the bed": ``update``; the earlier may be a plan (where it was to go).

Neither statement may be a plan, a wish, denied or a question: "is thinking of moving
to Denver" replaces nothing.
"""

from __future__ import annotations

from collections import defaultdict

from graphmem.validity.types import Claim
from graphmem.validity.values import KeyedValue, Placed, Rank, Rate, Span, Weekday

# The cues that make a statement no state of now: its values replace nothing.
_NOT_A_STATE = ("plan", "wish", "negated", "question")
# Value kinds one at a time per subject, whatever the statements' topics: two statements
# giving one of these are compared even when they name no thing in common.
SLOT_KINDS = frozenset({"home", "job"})
# Value types keyed by their verb and thing: compared per key.
_KEYED: tuple[tuple[str, type[KeyedValue]], ...] = (
    ("span", Span),
    ("rate", Rate),
    ("weekday", Weekday),
)


def state_changed(a: Claim, b: Claim) -> str:
    """Why ``b`` replaces ``a`` by the rules of the module docstring, "" when none does."""
    if any(b.has(cue) for cue in _NOT_A_STATE) or a.has("negated") or a.has("question"):
        return ""
    placed = _elsewhere(_keyed(a, Placed), _keyed(b, Placed))
    if placed:
        return placed
    if any(a.has(cue) for cue in _NOT_A_STATE):
        return ""
    for kind in sorted(SLOT_KINDS):
        was, now = a.said(kind), b.said(kind)
        if was and now and not was & now:
            return f"{kind}: {_listed(was)}, later {_listed(now)}"
    ranked = _another_rank(_keyed(a, Rank), _keyed(b, Rank))
    if ranked:
        return ranked
    rules = {"span": _longer, "rate": _other, "weekday": _moved}
    for kind, type_ in _KEYED:
        earlier, later = _keyed(a, type_), _keyed(b, type_)
        for key, other in _meeting(earlier, later, loose=kind == "rate"):
            if rules[kind](earlier[key], later[other]):
                told = _listed(earlier[key]), _listed(later[other])
                return f"{kind} of {'|'.join(other)}: {told[0]}, later {told[1]}"
    return ""


def _meeting(
    earlier: dict[tuple[str, ...], set[str]], later: dict[tuple[str, ...], set[str]], loose: bool
) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """The keys (verb, thing[, period]) of one verb and thing on both sides; with ``loose``,
    of one thing and period whatever the verb, the one thing's words among the other's
    ("does yoga twice a week", later "attends yoga classes three times a week")."""
    out = []
    for key in sorted(earlier, key="|".join):  # as the graph stores them
        _, thing, *period = key
        if not thing:
            continue
        for other in sorted(later, key="|".join):
            _, o_thing, *o_period = other
            if other == key or (loose and period == o_period and _within(thing, o_thing)):
                out.append((key, other))
    return out


def _within(x: str, y: str) -> bool:
    """Every word of the shorter key in the longer one ("yoga", "yoga class")."""
    words = [set(k.removeprefix("to ").removeprefix("in ").split()) for k in (x, y)]
    short, long = sorted(words, key=len)
    return bool(short) and short <= long


def _another_rank(
    earlier: dict[tuple[str, ...], set[str]], later: dict[tuple[str, ...], set[str]]
) -> str:
    """ "Premier Silver status", later "Premier Gold status": one rank for another of one
    programme, a word in common says so ("gold status" at a hotel and "silver status" of an
    airline are two; so, for want of that word, are "a blue belt" and "a purple belt")."""
    for noun in sorted(earlier.keys() & later.keys()):
        for was in sorted(earlier[noun]):
            for now in sorted(later[noun] - earlier[noun]):
                if set(was.split()) & set(now.split()) and was not in now:
                    return f"{'|'.join(noun)}: {was}, later {now}"
    return ""


def _elsewhere(
    earlier: dict[tuple[str, ...], set[str]], later: dict[tuple[str, ...], set[str]]
) -> str:
    """One specific thing (the words of one key among the other's: "ethereal dreams",
    "ethereal dreams painting") put in a place the earlier did not name."""
    for thing in sorted(earlier):
        for other in sorted(later):
            if _within(thing[0], other[0]) and not earlier[thing] & later[other]:
                was, now = _listed(earlier[thing]), _listed(later[other])
                return f"{other[0]}: {was}, later {now}"
    return ""


def _moved(earlier: set[str], later: set[str]) -> bool:
    """A habit's weekday said later, none in common with the earlier's (a day "once" said
    later is one occurrence, no new habit)."""
    days = {v.removesuffix(" once") for v in earlier}
    return all(not v.endswith(" once") for v in later) and not days & later


def _listed(values: set[str]) -> str:
    return ", ".join(sorted(values))


def _keyed(claim: Claim, type_: type[KeyedValue]) -> dict[tuple[str, ...], set[str]]:
    """A claim's values of one keyed type, their texts by key."""
    out: dict[tuple[str, ...], set[str]] = defaultdict(set)
    for value in claim.of_type(type_):
        out[value.key].add(value.said)
    return out


def _longer(earlier: set[str], later: set[str]) -> bool:
    """A span that grew: the state went on (a shorter one may be another stretch)."""
    return max(int(x) for x in later) > max(int(x) for x in earlier)


def _other(earlier: set[str], later: set[str]) -> bool:
    """Another value: none in common, and the later's unit one of the earlier's."""
    units = {v.partition(" ")[2] for v in earlier}
    return not earlier & later and all(v.partition(" ")[2] in units for v in later)


def slots(claim: Claim) -> set[str]:
    """The candidate keys of a claim's one-at-a-time values (``candidates``): ``slot:home``,
    ``slot:span:use|fitbit``."""
    found = {f"slot:{kind}" for kind in SLOT_KINDS if claim.said(kind)}
    found |= {f"slot:rank:{value.key_text}" for value in claim.of_type(Rank)}
    # A thing's key differs with its words ("the 'Ethereal Dreams' painting", "'Ethereal
    # Dreams'"): one slot per subject, and ``_elsewhere`` matches the things.
    found |= {"slot:placed" for _ in claim.of_type(Placed)}
    for kind, type_ in _KEYED:
        found |= {f"slot:{kind}:{v.key_text}" for v in claim.of_type(type_) if v.key[1]}
    return found
