"""The rule: the members' results become ranked turns, the turns are fused, derived items
rank as the turns they cite do on average, and one list interleaves both kinds by token share.

Everything here is pure (no database, no model): ``retriever.py`` feeds it the members'
``RetrievalResult``s and a token counter.

1. Each member's hits, in order, give its ranked list of source turns (a hit's cited turns
   in the order it cites them, each turn once): the list ``ranked_source_ids`` scores.
2. ``fuse_turns``: reciprocal-rank fusion, score(t) = sum over members of
   weight(m) / (k + rank_m(t)).
3. ``promote`` (``fusion = "agreement"``): CAST's Algorithm 2 with more than two lists.
   A member votes for the turns in its top ``depth``; turns with at least ``minimum``
   votes come first, the rest after, each group in fused order. No candidate is added.
4. ``derived_items``: every hit with a text of its own (a fact, a fragment, an insight, a
   frame or event summary) is a derived item when it is shorter than the best-ranked turn
   it cites; it ranks as its cited turns do on average (``standing``) and is shown as its
   text, citing its turns without bringing them (``cite_only``).
5. ``interleave``: turns and derived items in one list, so that in every prefix the derived
   items hold about ``share`` of the tokens: the packer cuts any prefix, and every budget
   then gets the same split. An item restating turns the context holds stays only when it
   adds a number they lack (``redundant``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from graphmem.plugin.retriever import Hit, PassageRef, RetrievalResult
from graphmem.retrieval.packer import turn_line

Count = Callable[[str], int]
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Vote:
    member: str
    rank: int  # 1-based, in the member's list of turns
    hit: Hit  # the member's hit that first cited the turn (its path explains the vote)


@dataclass
class FusedTurn:
    ref: PassageRef
    score: float = 0.0
    votes: list[Vote] = field(default_factory=list)
    promoted: bool = False
    # The tokens of the turn's line, counted once: every placement of the list asks again.
    _cost: int = field(default=-1, init=False, repr=False, compare=False)

    def cost(self, count: Count) -> int:
        if self._cost < 0:
            self._cost = count(turn_line(self.ref))
        return self._cost


@dataclass
class Derived:
    hit: Hit  # the first member hit with this node; cite_only, text shown
    members: list[str]
    score: float  # the mean fused score of the turns it cites (an unranked turn: 0)
    best_turn: FusedTurn | None
    place: float  # where it ranks among the fused turns (``standing``)
    _numbers: frozenset[int] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def numbers(self) -> frozenset[int]:
        """The numbers the item adds to its turns (``new_numbers``), worked out once: every
        placement of the list asks again."""
        if self._numbers is None:
            self._numbers = frozenset(new_numbers(self.hit.text, self.hit.passages))
        return self._numbers


def member_turns(result: RetrievalResult) -> list[tuple[PassageRef, Hit]]:
    """A member's ranked turns with the hit that first cited each."""
    out: dict[str, tuple[PassageRef, Hit]] = {}
    for hit in result.hits:
        for passage in hit.passages:
            out.setdefault(passage.id, (passage, hit))
    return list(out.values())


def fuse_turns(
    results: Mapping[str, RetrievalResult], weights: Mapping[str, float], k: int
) -> list[FusedTurn]:
    """Reciprocal-rank fusion of the members' turn lists, best first (ties: the best single
    rank, then conversation order)."""
    fused: dict[str, FusedTurn] = {}
    for member, result in results.items():
        weight = weights.get(member, 1.0)
        for rank, (ref, hit) in enumerate(member_turns(result), start=1):
            turn = fused.setdefault(ref.id, FusedTurn(ref))
            turn.score += weight / (k + rank)
            turn.votes.append(Vote(member, rank, hit))
    return sorted(fused.values(), key=_order)


def _order(turn: FusedTurn) -> tuple[float, int, int, int]:
    best = min(v.rank for v in turn.votes)
    # Rounded: equal ranks summed in another member order differ in the last bit, and the
    # documented tie-break (best single rank, then conversation order) would never run.
    return (-round(turn.score, 12), best, turn.ref.session_index, turn.ref.turn_index)


def votes_within(turn: FusedTurn, weights: Mapping[str, float], depth: int) -> float:
    return sum(weights.get(v.member, 1.0) for v in turn.votes if v.rank <= depth)


def promote(
    turns: Sequence[FusedTurn], weights: Mapping[str, float], depth: int, minimum: float
) -> list[FusedTurn]:
    """Algorithm 2 generalised: E = [t if votes(t) >= minimum] + [t otherwise], each part in
    the fused order; a member votes with its weight for its top ``depth`` turns."""
    agreed: list[FusedTurn] = []
    rest: list[FusedTurn] = []
    for turn in turns:
        turn.promoted = votes_within(turn, weights, depth) >= minimum - 1e-9
        (agreed if turn.promoted else rest).append(turn)
    return agreed + rest


def derived_items(
    results: Mapping[str, RetrievalResult],
    turns: Sequence[FusedTurn],
    count: Count,
    k: int,
) -> list[Derived]:
    """The members' text items that compress (``compresses``), each node once, best first by
    ``standing`` over the fused turns (``k``: the fusion's RRF constant)."""
    position = {t.ref.id: i for i, t in enumerate(turns)}
    items: dict[str, Derived] = {}
    for member, result in results.items():
        texts = (h for h in result.hits if h.text and h.passages)
        for hit in texts:
            if hit.node_id in items:
                items[hit.node_id].members.append(member)
                continue
            cited = [position.get(p.id) for p in {p.id: p for p in hit.passages}.values()]
            ranked = [i for i in cited if i is not None]
            best = turns[min(ranked)] if ranked else None
            if not compresses(count, hit, best):
                continue
            shown = hit.model_copy(update={"cite_only": True, "path": list(hit.path)})
            score = sum(turns[i].score for i in ranked) / len(cited)
            place = standing(cited, k, len(turns))
            items[hit.node_id] = Derived(shown, [member], score, best, place)

    def tie(d: Derived) -> tuple[int, int, str]:
        # Equal places: the item more members returned, then the cheapest, then by id;
        # never the members' order, which is arbitrary.
        return (-len(d.members), count(d.hit.text), d.hit.node_id)

    return sorted(items.values(), key=lambda d: (d.place, *tie(d)))


def standing(positions: Sequence[int | None], k: int, unranked: int) -> float:
    """Where an item citing turns at ``positions`` (0-based in the fused order; None: a
    turn no member ranked) ranks among the turns: at the position of a turn whose
    reciprocal rank 1 / (k + rank) is the mean of its turns' (an unranked turn's is 0).

    An item citing one turn ranks as that turn. An item is evidence only as far as its turns
    are: a summary of eight turns of which one ranks first and the rest are found by no one
    (an association of "thanks, that helps" across sessions) ranks far below it, where the
    best turn alone would put seven unfound sessions ahead of the turns the members agree
    on. ``unranked`` (the number of turns): an item none of whose turns is ranked."""
    if not positions:
        return float(unranked)
    mean = sum(1.0 / (k + i + 1) for i in positions if i is not None) / len(positions)
    return 1.0 / mean - k - 1 if mean > 0 else float(unranked)


def compresses(count: Count, hit: Hit, best: FusedTurn | None) -> bool:
    """Whether the item is shorter than what it stands for: the best-ranked turn it cites (a
    long summary of many turns is no cheaper way to show the one that matters), or all its
    turns when none of them is ranked."""
    stands_for = [best.ref] if best is not None else hit.passages
    return count(hit.text) < sum(count(turn_line(p)) for p in stands_for)


def _words(passages: Sequence[PassageRef]) -> set[str]:
    seen = " ".join(f"{p.date_text} {p.speaker} {p.text} {p.caption}" for p in passages)
    return set(_WORD.findall(seen.lower()))


def new_numbers(text: str, passages: Sequence[PassageRef]) -> set[int]:
    """The numbers ``text`` says that its turns (as the reader sees them) do not, by value:
    the "02" of an ISO date header is the "2" of "2 March"."""
    values = {int(w) for w in _words(passages) if w.isdecimal()}
    return _numbers_in(text) - values


def _numbers_in(text: str) -> set[int]:
    return {int(w) for w in _WORD.findall(text.lower()) if w.isdecimal()}


def redundant(
    item: Derived,
    inside: set[str],
    ahead: frozenset[str],
    noted: Mapping[str, set[int]],
) -> bool:
    """An item every turn of which the context already holds (shown, or cited by a better
    item) or will show (``ahead``) adds no evidence: it is kept only when it gives one of
    its turns a number (a resolved date) that neither the turn nor an item kept before it
    (``noted``: turn -> the numbers such items added to it) gave that turn."""
    passages = item.hit.passages
    if not all(p.id in inside or p.id in ahead for p in passages):
        return False
    # Per turn: an item dating one turn already dated and one not still dates the second.
    return not any(item.numbers - noted.get(p.id, set()) for p in passages)


def interleave(
    turns: Sequence[FusedTurn],
    derived: Sequence[Derived],
    share: float,
    count: Count,
    ahead: frozenset[str] | None = None,
    cut: frozenset[str] = frozenset(),
) -> list[tuple[FusedTurn | Derived, int]]:
    """Both queues in one list with their token costs: the next item is derived while the
    derived items hold at most ``share`` of the tokens so far (and derived are left).
    Derived items that would be redundant when their turn comes are skipped, redundant
    against the turns the context holds so far and the turns ``ahead``, and against the
    numbers derived items kept before them added to the same turns (a second item giving a
    shown turn the same resolved date tells the reader nothing). Without ``ahead`` a turn
    placed before an item is held; given ``ahead`` (the turns the budget's context shows),
    only a turn in it is: a turn placed but cut by the packer shows nothing, and an item
    left out for it would lose it. Likewise a kept item in ``cut`` (node ids: items the
    packer cut from the last list) holds neither its turns nor its numbers for the items
    after it."""
    out: list[tuple[FusedTurn | Derived, int]] = []
    used = {"turns": 0, "derived": 0}
    inside: set[str] = set()
    known = frozenset() if ahead is None else ahead
    noted: dict[str, set[int]] = {}
    t = d = 0
    while t < len(turns) or d < len(derived):
        total = used["turns"] + used["derived"]
        wants = share > 0 and used["derived"] <= share * total
        if d < len(derived) and (t >= len(turns) or wants):
            item = derived[d]
            d += 1
            if redundant(item, inside, known, noted):
                continue
            cost = count(item.hit.text)
            used["derived"] += cost
            if item.hit.node_id not in cut:
                inside.update(p.id for p in item.hit.passages)
                _note(noted, item)
            out.append((item, cost))
        else:
            cost = turns[t].cost(count)
            used["turns"] += cost
            if ahead is None or turns[t].ref.id in ahead:
                inside.add(turns[t].ref.id)
            out.append((turns[t], cost))
            t += 1
    return out


def _note(noted: dict[str, set[int]], item: Derived) -> None:
    """The numbers ``item`` gives each of its turns, for the items after it."""
    added = item.numbers
    if added:
        for p in item.hit.passages:
            noted.setdefault(p.id, set()).update(added)
