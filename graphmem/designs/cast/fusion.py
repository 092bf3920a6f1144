"""Algorithm 2 (retrieval fusion), the paper's slot-3 ablation, and the budget rule that
decides how long the semantic list is.

Fusion never adds a candidate: entries of the semantic list that the episodic side also
found move to the front in semantic order, the rest follow in semantic order.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from graphmem.plugin import EXCERPTS, PassageRef, session_header, turn_line

T = TypeVar("T", bound=Hashable)


def fuse(semantic: Sequence[T], episodic: Collection[T]) -> list[T]:
    """Algorithm 2: E(q) = [m in E_sem if m in E_epi] + [m in E_sem if m not in E_epi]."""
    found = set(episodic)  # line 2: I <- SET(E_epi(q))
    promoted = [m for m in semantic if m in found]  # lines 3-5
    rest = [m for m in semantic if m not in found]  # lines 6-8
    return promoted + rest


def slot3(semantic: Sequence[T], injected: T | None, keep: int | None = None) -> list[T]:
    """The paper's ablation: one scene-retrieved entry inserted at position 3 (the rest of
    the semantic list keeps its order); ``keep`` cuts the list back to its length k."""
    if injected is None or injected in semantic[:2]:
        return list(semantic)
    rest = [m for m in semantic if m != injected]
    out = [*rest[:2], injected, *rest[2:]]
    return out[:keep] if keep is not None else out


@dataclass(frozen=True)
class Entry:
    """One memory of the semantic list: a turn, shown with its view's other turns."""

    passage: PassageRef
    view: tuple[PassageRef, ...]  # the centre first, then its neighbours in turn order


def within_budget(
    entries: Sequence[Entry], budget: int, count: Callable[[str], int]
) -> list[Entry]:
    """The longest prefix of ``entries`` whose views the budget holds, costed as the packer
    costs them (a turn once, a session's date header once, the excerpts' heading once).
    The first entry that does not fit whole ends the list, cut to the turns of it that
    still fit (its centre first).
    The cost of a set of turns does not depend on their order, so any reordering of the
    returned list (fusion) packs exactly these turns."""
    used = count(EXCERPTS)  # the packer charges the turns' heading once
    seen: set[str] = set()
    headers: set[int] = set()
    out: list[Entry] = []
    for entry in entries:
        fresh = [p for p in entry.view if p.id not in seen]
        costs = []
        sessions = set(headers)
        for passage in fresh:
            header = 0 if passage.session_index in sessions else count(session_header(passage))
            sessions.add(passage.session_index)
            costs.append(count(turn_line(passage)) + header)
        if used + sum(costs) <= budget:
            used += sum(costs)
            seen.update(p.id for p in fresh)
            headers = sessions
            out.append(entry)
            continue
        kept = _fitting(entry, fresh, budget - used, count, headers)
        if kept:
            out.append(kept)
        break
    return out


def _fitting(
    entry: Entry,
    fresh: Sequence[PassageRef],
    room: int,
    count: Callable[[str], int],
    headers: set[int],
) -> Entry | None:
    """The part of ``entry`` that fits in ``room`` tokens, turn by turn in view order."""
    sessions = set(headers)
    kept_ids = {p.id for p in entry.view} - {p.id for p in fresh}
    for passage in fresh:
        header = 0 if passage.session_index in sessions else count(session_header(passage))
        cost = count(turn_line(passage)) + header
        if cost <= room:
            room -= cost
            sessions.add(passage.session_index)
            kept_ids.add(passage.id)
    if entry.passage.id not in kept_ids:
        return None
    return Entry(entry.passage, tuple(p for p in entry.view if p.id in kept_ids))
