"""The associative event graph: grouping similar facts, pruning redundant groups, and
integrating the kept groups into event narratives.

Grouping and pruning are pure functions of the neighbour lists, so they are unit-tested
without a database; the builder feeds them from the vector index.

The rule implemented (graphmem/designs/anchormem/README.md explains the choice):

1. Candidates of a fact f: facts g != f with cos(f, g) > tau, most similar first.
2. Group of f: f plus the first N candidates whose source context differs from f's and
   from every candidate already taken (at most one fact per context, the paper's eq. 10).
   A fact with no such candidate forms no group.
3. Groups are visited in the order of their seed facts (chronological). A group is
   discarded when fewer than ceil(N/2) of its facts are not yet integrated by a kept
   event (of this batch or an earlier one); otherwise it is kept and its facts count as
   integrated from then on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from graphmem.designs.anchormem.extract import human_date
from graphmem.designs.anchormem.prompts import (
    INTEGRATE_SYSTEM,
    IntegratedEvent,
    integrate_user_prompt,
)
from graphmem.llm import Message, Outcome, StructuredLLM, map_attempts
from graphmem.plugin import content_id


@dataclass(frozen=True)
class Neighbour:
    id: str
    context: str
    cosine: float


@dataclass(frozen=True)
class Group:
    seed: str
    neighbours: tuple[Neighbour, ...]

    @property
    def members(self) -> tuple[str, ...]:
        return (self.seed, *(n.id for n in self.neighbours))

    @property
    def id(self) -> str:
        return event_id(self.members)


def event_id(members: Sequence[str]) -> str:
    """Content hash of the member fact ids: the same facts always make the same event,
    whichever of them seeded it."""
    return content_id("assoc_event", *sorted(set(members)))


def select_group(
    seed: str, seed_context: str, candidates: Sequence[Neighbour], n: int, tau: float
) -> Group | None:
    """Steps 1-2 of the rule: the seed and its top-``n`` candidates above ``tau``, one
    fact per source context; None when no candidate qualifies."""
    taken: list[Neighbour] = []
    contexts = {seed_context}
    for cand in sorted(candidates, key=lambda c: (-c.cosine, c.id)):
        if len(taken) == n:
            break
        if cand.id == seed or cand.cosine <= tau or cand.context in contexts:
            continue
        taken.append(cand)
        contexts.add(cand.context)
    return Group(seed, tuple(taken)) if taken else None


def select_group_eq9(
    seed: str, seed_context: str, candidates: Sequence[Neighbour], n: int, tau: float
) -> Group | None:
    """The paper's rule (AnchorMem Eq. 8-10): the seed and its top-``n`` candidates above
    ``tau`` form the cluster; when ``O_max``, the most facts of the cluster mapped to one
    context, reaches ceil(n/2) the cluster is locally redundant and discarded (Eq. 9);
    otherwise each context keeps its most similar fact (Eq. 10)."""
    ranked = sorted(candidates, key=lambda c: (-c.cosine, c.id))
    top = [c for c in ranked if c.id != seed and c.cosine > tau][:n]
    if not top:
        return None
    per_context: dict[str, int] = {seed_context: 1}
    for cand in top:
        per_context[cand.context] = per_context.get(cand.context, 0) + 1
    if max(per_context.values()) >= -(-n // 2):
        return None
    return select_group(seed, seed_context, top, n, tau)


@dataclass
class Pruned:
    kept: list[Group] = field(default_factory=list)
    discarded: list[Group] = field(default_factory=list)
    existing: list[Group] = field(default_factory=list)  # stored by an earlier run


def prune_groups(
    groups: Sequence[Group], integrated: set[str], stored_events: set[str], min_new: int
) -> Pruned:
    """Step 3 of the rule. ``integrated``: facts already integrated by stored events;
    ``stored_events``: ids of events already in the graph (a re-run keeps them as they
    are, not kept again, and counts their twins as the first run did); ``min_new`` 0: no
    novelty rule
    (the paper's Eq. 9 pruned in ``select_group_eq9`` already)."""
    covered = set(integrated)
    out = Pruned()
    seen: set[str] = set()
    for group in groups:
        if group.id in stored_events and group.id not in seen:
            # Stored by an earlier run: kept as it is, not kept again. Its twins (the same
            # event found from another of its facts) are discarded below exactly as in the
            # first run, so a rerun writes the same pruning counters (idempotence).
            out.existing.append(group)
            seen.add(group.id)
            continue
        fresh = [m for m in group.members if m not in covered]
        if len(fresh) < min_new:
            out.discarded.append(group)
            continue
        out.kept.append(group)
        seen.add(group.id)
        covered.update(group.members)
    return out


# --- integration ------------------------------------------------------------------------
@dataclass(frozen=True)
class MemberFact:
    """What integration needs to know of a fact: its text, when, and its source turns."""

    id: str
    text: str
    ts: datetime | None
    order: tuple[int, int]
    context: str
    turns: tuple[str, ...]  # rendered source turns, for the LLM prompt


def chronological(facts: Sequence[MemberFact]) -> list[MemberFact]:
    return sorted(facts, key=lambda f: (f.ts is None, f.ts or datetime.min, f.order, f.text))


def extractive_narrative(facts: Sequence[MemberFact]) -> str:
    """The offline event: the member facts in time order, each date said once."""
    parts: list[str] = []
    last_date: str | None = None
    for fact in chronological(facts):
        day = human_date(fact.ts.date()) if fact.ts else None
        sentence = fact.text if fact.text.endswith((".", "!", "?")) else fact.text + "."
        if day and day != last_date:
            sentence = f"On {day}, {sentence}"
            last_date = day
        parts.append(sentence)
    return " ".join(parts)


def integration_messages(facts: Sequence[MemberFact]) -> list[Message]:
    """The paper's integration prompt over (context, fact) pairs, one per context."""
    ordered = chronological(facts)
    contexts: list[list[str]] = []
    seen: set[str] = set()
    for fact in ordered:
        if fact.context not in seen:
            seen.add(fact.context)
            contexts.append(list(fact.turns))
    user = integrate_user_prompt([f.text for f in ordered], contexts)
    return [Message(role="system", content=INTEGRATE_SYSTEM), Message(role="user", content=user)]


def integrate(
    groups: Sequence[Sequence[MemberFact]], llm: StructuredLLM | None
) -> list[Outcome[str]]:
    """One narrative per group: extractive offline, the integration prompt with an LLM
    (all groups of a batch sent together; a group the LLM gives up on stays extractive and
    its outcome is marked as a fallback)."""
    if llm is None:
        return [Outcome(extractive_narrative(g)) for g in groups]
    return map_attempts(
        llm,
        lambda g: " ".join(llm.generate(integration_messages(g), IntegratedEvent).narrative),
        extractive_narrative,
        groups,
        what="anchormem integration",
    )
