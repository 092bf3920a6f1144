"""The members' results -> the strategy's hits, each with the path ``--explain`` shows: which
members found it, at which rank, and why it sits where it does."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from graphmem.plugin.retriever import Hit, RetrievalResult
from graphmem.retrieval.packer import MEMORY_CITES, PackedContext, pack
from graphmem.strategy.fusion import (
    Count,
    Derived,
    FusedTurn,
    derived_items,
    fuse_turns,
    interleave,
    promote,
    votes_within,
)
from graphmem.strategy.members import Plan
from graphmem.strategy.settings import GraphmemSettings

STRATEGY = "graphmem"


@dataclass(frozen=True)
class Arrangement:
    hits: list[Hit]
    # What the derived items were judged against: the turns taken as shown (all shown) and
    # the items taken as cut (the rest hold only if kept).
    held: Held


def arrange(
    results: Mapping[str, RetrievalResult],
    plan: Plan,
    config: GraphmemSettings,
    budget: int,
    count: Count,
    cites: int = MEMORY_CITES,
) -> Arrangement:
    """One ranked list of turns and derived items (``.hits``; ``fusion.py`` has the rule),
    with what its placement was judged against (tests check the rule's promises on it)."""
    voting = {m: r for m, r in results.items() if m in plan.weights}
    k = config.depth(budget)
    turns = fuse_turns(voting, plan.weights, k)
    depth = config.depth(budget)
    if config.fusion == "agreement":
        turns = promote(turns, plan.weights, depth, config.agreement_min)
    derived = derived_items(voting, turns, count, k)
    ranks = {t.ref.id: i for i, t in enumerate(turns, start=1)}
    shown: dict[int, Hit] = {}  # by the item's identity: turns and items live for the call

    def show(item: FusedTurn | Derived) -> Hit:
        # Each item's hit is built once: the budget scope packs the list before it is final.
        found = shown.get(id(item))
        if found is None:
            scoring = (plan.weights, depth, k)
            found = shown[id(item)] = _hit(item, ranks, len(voting), config, scoring)
        return found

    placement = place(turns, derived, config, budget, count, show, cites)
    return Arrangement([show(item) for item, _ in placement.placed], placement.held)


def _hit(
    item: FusedTurn | Derived,
    ranks: dict[str, int],
    members: int,
    config: GraphmemSettings,
    agreement: tuple[Mapping[str, float], int, int],
) -> Hit:
    if isinstance(item, Derived):
        return _derived_hit(item, ranks)
    # The votes only go into an agreement path; counting them for every turn of every
    # member's list cost a few ms a query.
    weights, depth, k = agreement
    agreed = votes_within(item, weights, depth) if config.fusion == "agreement" else 0.0
    return _turn_hit(item, ranks[item.ref.id], members, config, (agreed, depth), k)


Placed = list[tuple[FusedTurn | Derived, int]]


class Placement(NamedTuple):
    placed: Placed
    held: Held


_EXACT_ROUNDS = 3  # placements judged against exactly what the last context held


def place(
    turns: Sequence[FusedTurn],
    derived: Sequence[Derived],
    config: GraphmemSettings,
    budget: int,
    count: Count,
    show: Callable[[FusedTurn | Derived], Hit],
    cites: int = MEMORY_CITES,
) -> Placement:
    """Turns and derived items in one list (``interleave``), placed again knowing which
    turns the budget's context shows, so an item restating one of them leaves its tokens to
    an item for a turn the reader would not see; what the budget holds then comes first in
    rank order (the interleave order, which keeps the token share in every prefix, is no
    ranking: ``ER@k`` and a reader of the hits want the best first), the rest after it."""
    queues = (turns, derived, config)
    placed = _interleave(queues, count)
    placed, packed, held = settle(placed, queues, budget, count, show, cites)
    placed = _best_first(placed, {item.rank for item in packed.items}, turns)
    return Placement(placed, held)


Queues = tuple[Sequence[FusedTurn], Sequence[Derived], GraphmemSettings]


def _interleave(
    queues: Queues,
    count: Count,
    ahead: frozenset[str] | None = None,
    cut: frozenset[str] = frozenset(),
) -> Placed:
    """``interleave`` with the settings' rule."""
    turns, derived, config = queues
    return interleave(turns, derived, config.derived_share, count, ahead=ahead, cut=cut)


def settle(
    placed: Placed,
    queues: Queues,
    budget: int,
    count: Count,
    show: Callable[[FusedTurn | Derived], Hit],
    cites: int = MEMORY_CITES,
) -> tuple[Placed, PackedContext, Held]:
    """Place again until the context holds what the items were judged against: the final
    list, its context, and what it was judged against (``Held``: the turns taken as shown,
    the items taken as cut). Every turn taken as shown is shown and every item that held
    its turns is in the context, so no item is left out for a turn the reader does not
    get; when the judgement was exact (all but a few questions in 100), no kept item
    restates a shown turn either."""
    # Leaving items out frees room, so the new list's context can show turns the last one
    # did not, and a turn (or an item) can come and go with the items left out for it.
    # Three rounds are judged against exactly what the last context held; from then on the
    # turns taken as shown only shrink and the items taken as cut only grow, until the
    # context shows every such turn and keeps every item that held one, which ends. The
    # price of ending so is an item kept for a turn that is shown after all (a few tokens),
    # not a turn lost with its item: the rule is there to gain evidence.
    known: Held | None = None  # the first list was placed without knowing: judge it
    rounds = 0
    while True:
        packed = _packed(placed, budget, count, show, cites)
        got = _held(placed, packed)
        if known is not None and got.settles(known, exact=rounds < _EXACT_ROUNDS):
            return placed, packed, known
        rounds += 1
        known = got if known is None or rounds <= _EXACT_ROUNDS else known.narrow(got)
        placed = _interleave(queues, count, ahead=known.turns, cut=known.cut)


@dataclass(frozen=True)
class Held:
    """What a placement's context held (node ids): the turns it shows, the derived items
    it keeps, and the items the list placed that it cut."""

    turns: frozenset[str]
    items: frozenset[str]
    cut: frozenset[str]

    def settles(self, known: Held, exact: bool) -> bool:
        """Whether a list judged against ``known`` gave this context: exactly (the turns
        taken as shown are the shown ones, no item taken as cut came back); or, once
        ``exact`` is off, safely (every turn taken as shown is shown, every item that held
        its turns is kept)."""
        safe = self.cut <= known.cut
        if exact:
            return safe and self.turns == known.turns and not self.items & known.cut
        return safe and self.turns >= known.turns

    def narrow(self, got: Held) -> Held:
        """The turns every context showed; the items any cut."""
        return Held(self.turns & got.turns, self.items & got.items, self.cut | got.cut)


def _held(placed: Placed, packed: PackedContext) -> Held:
    kept = {i.rank for i in packed.items if i.passage is None}
    items = [(i, item) for i, (item, _) in enumerate(placed) if isinstance(item, Derived)]
    return Held(
        frozenset(p.id for p in packed.passages),
        frozenset(d.hit.node_id for i, d in items if i in kept),
        frozenset(d.hit.node_id for i, d in items if i not in kept),
    )


def _best_first(placed: Placed, chosen: set[int], turns: Sequence[FusedTurn]) -> Placed:
    """The ``chosen`` places first, in rank order (a turn at its fused rank, an item at its
    ``standing``, after a turn of the same place), the rest after them in their order. The
    packer takes every chosen item in any order (they fit together, session headers
    included) and none of the rest (each found at most the room the chosen leave), so this
    keeps the context; the one exception, a turn left out whose session header a later
    chosen turn paid, can only fit in addition."""
    position = {t.ref.id: i for i, t in enumerate(turns)}

    def rank(index: int) -> tuple[float, int, int]:
        item = placed[index][0]
        if isinstance(item, FusedTurn):
            return (position[item.ref.id], 0, index)
        return (item.place, 1, index)

    first = sorted(chosen, key=rank)
    return [placed[i] for i in first] + [p for i, p in enumerate(placed) if i not in chosen]


def _packed(
    placed: Placed,
    budget: int,
    count: Count,
    show: Callable[[FusedTurn | Derived], Hit],
    cites: int = MEMORY_CITES,
) -> PackedContext:
    """What the packer takes from this list at ``budget`` (the packer itself, so session
    headers, memory citations and skipped misfits count as they will)."""
    return pack([show(item) for item, _ in placed], budget, count, cites)


def _turn_hit(
    turn: FusedTurn,
    rank: int,
    members: int,
    config: GraphmemSettings,
    agreed: tuple[float, int],
    k: int,
) -> Hit:
    found_by = ", ".join(f"{v.member} #{v.rank}" for v in turn.votes)
    head = (
        f"graphmem {config.fusion}: turn rank {rank}, score {turn.score:.4f}"
        f" (k {k}); "
        f"found by {len(turn.votes)} of {members}: {found_by}"
    )
    if config.fusion == "agreement":
        state = "promoted" if turn.promoted else "not promoted"
        head += f"; {state} ({agreed[0]:.2g} votes in the members' top {agreed[1]})"
    why = [f"{v.member}: {v.hit.path[0]}" for v in turn.votes if v.hit.path]
    # Built from validated parts, one per turn of every member's list (hundreds a query):
    # no validation pass, and every field given (a default left to model_construct is
    # looked up per hit: a fifth of the fusion's time).
    return Hit.model_construct(
        node_id=turn.ref.id,
        label="Passage",
        score=turn.score,
        strategy=STRATEGY,
        path=[head, *why],
        text="",
        passages=[turn.ref],
        cite_only=False,
    )


def _derived_hit(item: Derived, ranks: dict[str, int]) -> Hit:
    hit = item.hit
    cited = ", ".join(
        f"{p.source_id} (turn rank {ranks[p.id]})" if p.id in ranks else f"{p.source_id} (unranked)"
        for p in hit.passages
    )
    place = f"{item.place + 1:.1f}" if item.place < len(ranks) else "after every turn"
    head = (
        f"graphmem: {hit.label} from {', '.join(item.members)}, ranked as its cited turns "
        f"on average: place {place}, score {item.score:.4f}; shown as its own text, citing "
        f"{cited}"
    )
    return hit.model_copy(
        update={
            "score": item.score,
            "strategy": STRATEGY,
            "path": [head, *(f"{item.members[0]}: {p}" for p in hit.path)],
        }
    )
