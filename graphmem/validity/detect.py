"""Which statements replace which: candidate pairs, the offline verdict, the chains.

**Candidates.** Two statements of one label (a fragment is compared with fragments, a fact
with facts), one conversation and one subject that share a topic or the slot of a value
held one at a time (``validity.moves.slots``: a home, an employer, a rank, a span, rate or
weekday of one verb and thing), the earlier said in an earlier session: within a session
a speaker elaborates, across sessions time has passed.
A statement whose subject is an unresolved pronoun has no candidates (``claim``).

**Offline verdict** (``Settings.validity_judge = "offline"``, the default; docs/validity.md),
precision first (a wrong "update" hides a true memory behind "(until ...)"; a missed one
leaves two values side by side, as before):

- a question or a request states nothing, nor what a shared picture shows: ``unrelated``;
- the same predicate and the same values: ``same``;
- something under way (``begun``) or planned, later over (``ended``), one specific thing
  named by both (``specific``): ``update`` ("just started a trip to Yosemite", later "just
  got back from Yosemite");
- another thing under way now ("currently reading X", later "currently reading Y"):
  ``update``;
- the same verb counting the same thing over the same period (``count:`` values,
  ``validity.counts``) with another number, the later a state or a running total:
  "has watched 4 MCU films in the last 3 months", later "5"; "is on page 200", later
  "is on page 220": ``update``;
- a value held one at a time said again with another value (``validity.moves``): a span
  that grew, another rate or weekday of a habit, another home, employer or rank:
  ``update``; a plan called off or moved ("postponed the Kyoto trip"): ``update``;
- one specific thing named by both and a measure of it with no value in common (a time or
  score, a rate, an amount of one unit), not two events: ``update``;
- else the thing acted on (the verbs' direct objects, amounts aside) decides, with the
  values of the main verb's own clause (``Claim.measures``): another time, score or rate of
  it, or told as a state on both sides with the later saying a change: ``update``;
- anything else: ``unrelated``.

**Chains.** A statement is superseded by the earliest later statement judged an update
(or contradiction) of it; its ``valid_to`` is that statement's ``valid_from``, or the day
it was said when the words put it earlier.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from graphmem.validity.lexicon import AMOUNTS, LEADING_AMOUNTS
from graphmem.validity.moves import slots, state_changed
from graphmem.validity.types import (
    MEASURED,
    SUPERSEDING,
    Candidate,
    Claim,
    Judgement,
    Statement,
)
from graphmem.validity.values import Count, Now, Said

# A topic named by more statements of one subject than this is a theme of the whole
# conversation ("run" in a runner's chats), not an attribute: pairing all of them would
# judge thousands of pairs that share only the theme.
MAX_TOPIC_STATEMENTS = 40
# Value kinds that measure the topic itself: a time or score (``clock``), how often (``freq``).
_RATES = frozenset({"clock", "freq"})


def candidates(statements: Sequence[Statement], claims: Sequence[Claim]) -> list[Candidate]:
    """Every candidate pair (module docstring), earlier first, in conversation order."""
    groups: dict[tuple[str, str, str, str], list[int]] = defaultdict(list)
    for i, (s, c) in enumerate(zip(statements, claims, strict=True)):
        # An undated statement has no time at which one value could replace another.
        if c.subject and c.valid_from is not None:
            # A home or a job said in other words ("lives in Boston", "moved to Denver")
            # shares no topic: its slot pairs it (``validity.moves``).
            for topic in (*c.topics, *sorted(slots(c))):
                groups[(s.label, s.conversation, c.subject, topic)].append(i)
    shared: dict[tuple[int, int], list[str]] = defaultdict(list)
    for (_, _, _, topic), members in groups.items():
        if len(members) > MAX_TOPIC_STATEMENTS:
            continue
        ordered = sorted(members, key=lambda i: statements[i].order)
        for n, i in enumerate(ordered):
            for j in ordered[n + 1 :]:
                if statements[i].session_index < statements[j].session_index:
                    shared[(i, j)].append(topic)
    return [
        Candidate(
            earlier=statements[i],
            later=statements[j],
            earlier_claim=claims[i],
            later_claim=claims[j],
            shared=tuple(sorted(topics)),
        )
        for (i, j), topics in sorted(
            shared.items(), key=lambda kv: (statements[kv[0][1]].order, statements[kv[0][0]].order)
        )
    ]


def judge(pair: Candidate) -> Judgement:
    """The offline verdict on one pair (module docstring)."""
    a, b = pair.earlier_claim, pair.later_claim
    if a.has("question") or b.has("question"):
        return Judgement(verdict="unrelated", reason="a question or a request states nothing")
    if a.has("picture") or b.has("picture"):
        return Judgement(verdict="unrelated", reason="what a picture shows is no state")
    same_predicate = a.predicate == b.predicate
    if (
        same_predicate
        and a.values
        and a.values == b.values
        and a.has("negated") == b.has("negated")
    ):
        return Judgement(verdict="same", reason=f"{b.predicate}: the same values again")
    over = carried_through(a, b)
    if over:
        return Judgement(verdict="update", reason=over)
    moved = moved_on(a, b)
    if moved:
        return Judgement(verdict="update", reason=moved)
    recounted = another_count(a, b)
    if recounted:
        return Judgement(verdict="update", reason=recounted)
    changed = state_changed(a, b)
    if changed:
        return Judgement(verdict="update", reason=changed)
    about = specific(a, b)
    # Two events ("spent 3 hours at the Louvre", "has spent 2 hours there") are two facts.
    if about and not (a.has("past") or b.has("past")):
        other = another_measure(a.clause_measures, b.clause_measures)
        if other:
            return Judgement(verdict="update", reason=f"{about}: another {other}")
    return _same_thing(a, b, same_predicate)


def _same_thing(a: Claim, b: Claim, same_predicate: bool) -> Judgement:
    """The rules over the thing the verb acts on (its direct object) and the values of
    that verb's own clause (``Claim.measures``)."""
    thing = bare(a.object)
    if not thing or thing != bare(b.object):
        return Judgement(verdict="unrelated", reason="not the same thing acted on")
    # A score or a rate of the thing is its state, whatever verb carries it ("set a best
    # time of 27:12", later "hoping to beat my best time of 25:50").
    measured = another_measure(a.measures, b.measures, kinds=_RATES)
    if measured:
        return Judgement(verdict="update", reason=f"{thing}: another {measured}")
    # A count of it is ``another_count``'s ("has made six bowls", later "twenty bowls").
    states = not (a.has("past") or b.has("past") or a.has("plan") or b.has("plan"))
    if states and same_predicate and b.has("change"):
        return Judgement(
            verdict="update", reason=f"{b.predicate} {thing}: the later says it changed"
        )
    return Judgement(verdict="unrelated", reason="nothing says one replaces the other")


def specific(a: Claim, b: Claim) -> str:
    """The longest specific thing both statements name (``thing:`` values,
    ``validity.aspect``), "" when none: one common noun ("trouble", "track") or an
    adjective and a noun ("best friend") is no evidence that they are about one thing."""
    shared = a.said("thing") & b.said("thing")
    return max(shared, key=lambda k: (len(k), k), default="")


def carried_through(a: Claim, b: Claim) -> str:
    """ "just started X" or "is planning X", later "finished X" or "got back from X": what
    was under way or planned is over ("" when not)."""
    starts = list(a.said("begun") | a.said("planned"))
    for end in sorted(b.said("ended")):
        if any(one_thing(start, end) for start in starts):
            return f"{end}: under way, later over"
    # A plan called off or moved: whatever the earlier said of it to come no longer holds
    # ("has the Kyoto trip in May", later "postponed the Kyoto trip"); an event told as
    # done ("went on the Kyoto trip") is not undone.
    if not a.has("past"):
        named = starts + list(a.said("thing"))
        for drop in sorted(b.said("dropped")):
            if any(one_thing(thing, drop) for thing in named):
                return f"{drop}: planned, later called off or moved"
    return ""


def moved_on(a: Claim, b: Claim) -> str:
    """ "currently reading X", later "currently reading Y": the same activity now on
    another thing (``now:`` values), and the later does not name the earlier's."""
    earlier = [(v.activity, v.thing) for v in sorted(a.of_type(Now))]
    named = b.said("thing")
    for value in sorted(b.of_type(Now)):
        activity, thing = value.activity, value.thing
        for was_doing, was in earlier:
            if was_doing != activity or not was or not thing or one_thing(was, thing):
                continue
            if not any(one_thing(was, other) for other in named):
                return f"{activity}: {was} now, later {thing}"
    return ""


def another_count(a: Claim, b: Claim) -> str:
    """ "has watched 4 MCU films in the last 3 months", later "has watched 5 MCU films in the
    last 3 months"; "is on page 200", later "is on page 220": the same verb counting the
    same thing over the same period (``count:`` values, ``validity.counts``) with another
    number, the later a state or a running total, or both over one said period ("" when
    none)."""
    earlier = _counted(a)
    for (verb, key, period), (total, number) in sorted(_counted(b).items()):
        was = earlier.get((verb, key, period))
        if was is not None and was[1] != number and (total or period):
            return f"{verb} {key}: {was[1]}, later {number}"
    return ""


def _counted(claim: Claim) -> dict[tuple[str, str, str], tuple[bool, str]]:
    """(verb, thing, period) -> (total, number) of each ``count:`` value."""
    return {(v.verb, v.thing, v.period): (v.total, v.number) for v in sorted(claim.of_type(Count))}


def one_thing(x: str, y: str) -> bool:
    """Two keys of one thing: the shorter ends the longer, as an English noun phrase ends
    in its head ("solo camping trip", "amazing solo camping trip"; not "dune", "dune
    messiah")."""
    short, long = sorted((x.split(), y.split()), key=len)
    return bool(short) and long[len(long) - len(short) :] == short


def another_measure(
    earlier: Sequence[Said], later: Sequence[Said], kinds: frozenset[str] = MEASURED
) -> str:
    """The kind of measure both give with no value in common: a time or score, a rate, or
    an amount of one unit ("5-6 hours", later "10-12 hours"); "" when none. A bare number
    has no unit, so nothing says what it counts."""
    mine, theirs = _by_measure(earlier, kinds), _by_measure(later, kinds)
    for measure in sorted(mine.keys() & theirs.keys()):
        if not mine[measure] & theirs[measure]:
            return measure
    return ""


def _by_measure(values: Sequence[Said], kinds: frozenset[str]) -> dict[str, set[str]]:
    """The values by what they measure: ``clock``, ``freq``, or an amount's unit ("hours"
    for "5-6 hours"; only after a number: "this afternoon" is no amount)."""
    out: dict[str, set[str]] = defaultdict(set)
    for value in values:
        kind: str = value.kind
        text = value.said
        if kind not in kinds:
            continue
        if kind == "num":
            words = text.split()
            number = len(words) == 2 and (any(c.isdigit() for c in words[0]) or words[0] in AMOUNTS)
            if not number or not words[1].isalpha() or words[1] in AMOUNTS:
                continue
            kind = words[1].removesuffix("s")
        out[kind].add(text)
    return out


def bare(key: str) -> str:
    """A thing's key without the amount in front ("six bowl", "twenty bowl": "bowl")."""
    words = key.split()
    while len(words) > 1 and (words[0].isdigit() or words[0] in LEADING_AMOUNTS):
        words.pop(0)
    return " ".join(words)


@dataclass(frozen=True)
class Supersession:
    """``newer`` replaces ``older`` (ids of one label); ``older`` held until ``until``."""

    label: str
    newer: str
    older: str
    until: date
    verdict: str
    reason: str
    backend: str


def chains(pairs: Sequence[Candidate], verdicts: Sequence[Judgement]) -> list[Supersession]:
    """Each superseded statement with its earliest superseder (module docstring)."""
    first: dict[tuple[str, str], tuple[Candidate, Judgement]] = {}
    for pair, verdict in zip(pairs, verdicts, strict=True):
        # A question states nothing, whoever judged it: it neither replaces a statement
        # nor is replaced, so `history` and `current_facts` never list one as a change.
        asked = pair.earlier_claim.has("question") or pair.later_claim.has("question")
        if verdict.verdict not in SUPERSEDING or asked:
            continue
        key = (pair.earlier.label, pair.earlier.id)
        known = first.get(key)
        if known is None or pair.later.order < known[0].later.order:
            first[key] = (pair, verdict)
    out = []
    for pair, verdict in first.values():
        start, until = pair.earlier_claim.valid_from, pair.later_claim.valid_from
        if start is None or until is None or pair.later.said_at is None:
            continue  # candidates() pairs dated statements only
        if until <= start:
            until = max(pair.later.said_at.date(), start)
        out.append(
            Supersession(
                label=pair.earlier.label,
                newer=pair.later.id,
                older=pair.earlier.id,
                until=until,
                verdict=verdict.verdict,
                reason=verdict.reason,
                backend=verdict.backend,
            )
        )
    return sorted(out, key=lambda s: (s.label, s.older))
