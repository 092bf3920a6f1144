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

# The cues that make a statement no state of now: its values replace nothing.
_NOT_A_STATE = ("plan", "wish", "negated", "question")
# Value kinds one at a time per subject, whatever the statements' topics: two statements
# giving one of these are compared even when they name no thing in common.
SLOT_KINDS = frozenset({"home", "job"})
# Value kinds keyed by their verb and thing: compared per key.
KEYED_KINDS = frozenset({"span", "rate", "weekday"})
# Value kinds keyed by a noun: ``rank:status=premier gold``.
RANKS = "rank"
# Where one thing was put: ``placed:ethereal dreams painting=bed``.
PLACED = "placed"


def state_changed(a: Claim, b: Claim) -> str:
    """Why ``b`` replaces ``a`` by the rules of the module docstring, "" when none does."""
    if any(b.has(cue) for cue in _NOT_A_STATE) or a.has("negated") or a.has("question"):
        return ""
    placed = _elsewhere(_keyed(a, PLACED), _keyed(b, PLACED))
    if placed:
        return placed
    if any(a.has(cue) for cue in _NOT_A_STATE):
        return ""
    for kind in sorted(SLOT_KINDS):
        was, now = _values(a, kind), _values(b, kind)
        if was and now and not was & now:
            return f"{kind}: {_listed(was)}, later {_listed(now)}"
    ranked = _another_rank(_keyed(a, "rank"), _keyed(b, "rank"))
    if ranked:
        return ranked
    for kind, rule in (("span", _longer), ("rate", _other), ("weekday", _moved)):
        earlier, later = _keyed(a, kind), _keyed(b, kind)
        for key, other in _meeting(earlier, later, loose=kind == "rate"):
            if rule(earlier[key], later[other]):
                return f"{kind} of {other}: {_listed(earlier[key])}, later {_listed(later[other])}"
    return ""


def _meeting(
    earlier: dict[str, set[str]], later: dict[str, set[str]], loose: bool
) -> list[tuple[str, str]]:
    """The keys (``<verb>|<thing>[|<period>]``) of one verb and thing on both sides; with
    ``loose``, of one thing and period whatever the verb, the one thing's words among the
    other's ("does yoga twice a week", later "attends yoga classes three times a week")."""
    out = []
    for key in sorted(earlier):
        _, thing, *period = key.split("|")
        if not thing:
            continue
        for other in sorted(later):
            _, o_thing, *o_period = other.split("|")
            if other == key or (loose and period == o_period and _within(thing, o_thing)):
                out.append((key, other))
    return out


def _within(x: str, y: str) -> bool:
    """Every word of the shorter key in the longer one ("yoga", "yoga class")."""
    words = [set(k.removeprefix("to ").removeprefix("in ").split()) for k in (x, y)]
    short, long = sorted(words, key=len)
    return bool(short) and short <= long


def _another_rank(earlier: dict[str, set[str]], later: dict[str, set[str]]) -> str:
    """ "Premier Silver status", later "Premier Gold status": one rank for another of one
    programme, a word in common says so ("gold status" at a hotel and "silver status" of an
    airline are two; so, for want of that word, are "a blue belt" and "a purple belt")."""
    for noun in sorted(earlier.keys() & later.keys()):
        for was in sorted(earlier[noun]):
            for now in sorted(later[noun] - earlier[noun]):
                if set(was.split()) & set(now.split()) and was not in now:
                    return f"{noun}: {was}, later {now}"
    return ""


def _elsewhere(earlier: dict[str, set[str]], later: dict[str, set[str]]) -> str:
    """One specific thing (the words of one key among the other's: "ethereal dreams",
    "ethereal dreams painting") put in a place the earlier did not name."""
    for thing in sorted(earlier):
        for other in sorted(later):
            if _within(thing, other) and not earlier[thing] & later[other]:
                was, now = _listed(earlier[thing]), _listed(later[other])
                return f"{other}: {was}, later {now}"
    return ""


def _moved(earlier: set[str], later: set[str]) -> bool:
    """A habit's weekday said later, none in common with the earlier's (a day "once" said
    later is one occurrence, no new habit)."""
    days = {v.removesuffix(" once") for v in earlier}
    return all(not v.endswith(" once") for v in later) and not days & later


def _listed(values: set[str]) -> str:
    return ", ".join(sorted(values))


def _values(claim: Claim, kind: str) -> set[str]:
    return {v.partition(":")[2] for v in claim.of_kind(kind)}


def _keyed(claim: Claim, kind: str) -> dict[str, set[str]]:
    """``kind:<key>=<value>`` values by key."""
    out: dict[str, set[str]] = defaultdict(set)
    for value in _values(claim, kind):
        key, _, said = value.rpartition("=")
        out[key].add(said)
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
    found = {f"slot:{kind}" for kind in SLOT_KINDS if claim.of_kind(kind)}
    found |= {f"slot:rank:{noun}" for noun in _keyed(claim, RANKS)}
    # A thing's key differs with its words ("the 'Ethereal Dreams' painting", "'Ethereal
    # Dreams'"): one slot per subject, and ``_elsewhere`` matches the things.
    found |= {f"slot:{PLACED}" for _ in _keyed(claim, PLACED)}
    for kind in KEYED_KINDS:
        found |= {f"slot:{kind}:{key}" for key in _keyed(claim, kind) if key.split("|")[1]}
    return found
