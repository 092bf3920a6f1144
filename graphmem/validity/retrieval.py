"""Valid time in every strategy's context: a retriever around the strategy's own.

After the strategy ranks its hits, one read (``validity.annotate``) finds, among the turns
they cite, those a superseded statement comes from and the statements that superseded it.
Then:

- a superseded memory (a fact, a fragment shown as a memory) gets its interval:
  "(until 30 May 2023)" and is shown after the current memories; the memory that
  replaced it, when found too, is ranked just before it;
- a turn a superseded statement comes from gets its interval and where the current
  value was said: "(until 30 May 2023, then [D5:3])";
- the turn of the current value is put right before the hit of the superseded one (when no
  better-ranked hit brings it already), so within a budget the current value is packed
  first and the reader sees both, marked.

``as_of`` (``RetrievalContext.as_of``: ``graphmem query --as-of``) bounds it all: a turn
said after it is not shown, and a statement superseded only after it is current then. A
question's own date (``RetrievalContext.now``, an evaluation's ``question_date``) bounds
nothing: it dates relative words only (LongMemEval dates answer sessions later on the day
it asks).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime
from typing import Any

from graphmem.graph.rows import native
from graphmem.plugin.design import DesignSettings
from graphmem.plugin.hits import Hit, PassageRef, RetrievalResult
from graphmem.plugin.retriever import RetrievalContext, Retriever
from graphmem.retrieval.packer import PackedContext

ANNOTATE = "validity.annotate"


class ValidTimeRetriever(Retriever[DesignSettings]):
    """``inner``'s hits, bounded by ``now`` and marked with valid time (module docstring).
    Its settings are ``inner``'s; its ``total`` time includes the marking."""

    def __init__(self, ctx: RetrievalContext, inner: Retriever) -> None:
        super().__init__(ctx, inner.settings)
        self.inner = inner
        self.prefix_consistent = inner.prefix_consistent

    def _retrieve(self, query: str, budget: int) -> RetrievalResult:
        found = self.inner.retrieve(query, budget)
        as_of = self.ctx.as_of
        hits = [h for h in (_before(h, as_of) for h in found.hits) if h is not None]
        ids = list(dict.fromkeys(p.id for h in hits for p in h.passages))
        rows = self.ctx.store.read(ANNOTATE, space=self.ctx.space, passage_ids=ids, as_of=as_of)
        if rows:
            hits = annotate(hits, rows)
        return found.model_copy(update={"hits": hits})

    def answer_messages(self, question: str, context: PackedContext) -> Any:
        return self.inner.answer_messages(question, context)

    def refresh(self) -> None:
        self.inner.refresh()

    def prepare(self) -> None:
        self.inner.prepare()


def _before(hit: Hit, now: datetime | None) -> Hit | None:
    """``hit`` without the turns said after ``now``; None when it cites only such turns."""
    if now is None:
        return hit
    kept = [p for p in hit.passages if p.ts is None or p.ts <= now]
    if len(kept) == len(hit.passages):
        return hit
    return hit.model_copy(update={"passages": kept}) if kept else None


def _day(value: Any) -> str:
    day = native(value)
    if isinstance(day, datetime):
        day = day.date()
    return f"{day.day} {day:%B %Y}" if isinstance(day, date) else str(day)


def annotate(hits: list[Hit], rows: list[dict[str, Any]]) -> list[Hit]:
    """Mark the superseded memories and turns of ``hits`` and bring each current value's
    turn before them (module docstring). ``rows``: ``validity.annotate``'s."""
    by_turn: dict[str, list[dict[str, Any]]] = defaultdict(list)
    by_node: dict[tuple[str, str], dict[str, Any]] = {}
    for row in rows:
        by_turn[row["passage_id"]].append(row)
        by_node[(row["old_label"], row["old_id"])] = row
    hits = _current_first(hits, by_node)
    out: list[Hit] = []
    shown: set[str] = set()
    for hit in hits:
        old = by_node.get((hit.label, hit.node_id))
        marked = [r for p in hit.passages for r in by_turn.get(p.id, [])]
        for row in marked:
            newer = [PassageRef.from_row(t) for t in row["newer"]]
            fresh = [t for t in newer if t.id not in shown]
            if fresh:
                out.append(_current(hit, fresh))
                shown.update(t.id for t in fresh)
        text = f"{hit.text} (until {_day(old['valid_to'])})" if old and hit.text else hit.text
        passages = [_noted(p, by_turn.get(p.id, [])) for p in hit.passages]
        update = {"text": text, "passages": passages, "superseded": old is not None}
        out.append(hit.model_copy(update=update))
        shown.update(p.id for p in hit.passages)
    return out


def _current_first(hits: list[Hit], by_node: dict[tuple[str, str], dict[str, Any]]) -> list[Hit]:
    """A memory ranked below the one it replaced moves up to just before it."""
    out = list(hits)
    for hit in hits:
        row = by_node.get((hit.label, hit.node_id))
        if row is None:
            continue
        at = out.index(hit)
        newer = next(
            (i for i, h in enumerate(out) if (h.label, h.node_id) == (hit.label, row["new_id"])),
            None,
        )
        if newer is not None and newer > at:
            out.insert(at, out.pop(newer))
    return out


def _current(hit: Hit, turns: list[PassageRef]) -> Hit:
    return Hit(
        node_id=turns[0].id,
        label="Passage",
        score=hit.score,
        strategy=hit.strategy,
        path=[*hit.path, "supersedes"],
        passages=turns,
    )


def _noted(passage: PassageRef, rows: list[dict[str, Any]]) -> PassageRef:
    if not rows or passage.note:
        return passage
    until = min(native(r["valid_to"]) for r in rows)
    later = sorted({str(t["source_id"]) for r in rows for t in r["newer"][:1]})
    cites = ", ".join(f"[{s}]" for s in later)
    # Built anew, not copied: a copy would keep the rendered line cached without the note.
    return PassageRef.model_validate(
        {**passage.model_dump(), "note": f"(until {_day(until)}, then {cites})"}
    )
