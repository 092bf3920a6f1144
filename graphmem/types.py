"""What ``Memory``'s calls return: ``ingest``/``ingest_dataset``/``add_messages`` an
``IngestResult``, ``query`` a ``QueryResult``, ``ask`` an ``AskResult`` (a ``QueryResult``
with the answer).

The parts are the components' own records (the writer's ``IngestReport``, each builder's
``BuildReport``, the retriever's ``RetrievalResult``, the packer's ``PackedContext``), held
as they are: wrapping them costs a query nothing measurable.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from graphmem.ingest.models import Skipped
from graphmem.ingest.writer import IngestReport
from graphmem.plugin.builder import BuildReport
from graphmem.plugin.retriever import RetrievalResult
from graphmem.retrieval.explain import explain_item, member_weights
from graphmem.retrieval.packer import PackedContext


class IngestResult(BaseModel):
    """What one ingest wrote (``report``: conversations, sessions, turns, seconds), what
    each builder it ran built (``builds``, one ``BuildReport`` per builder, in run order)
    and what the load of the input left out (``skipped``: empty turns, repeated sessions).
    ``seconds`` is the whole call's wall time (the report's are the turns' alone)."""

    model_config = ConfigDict(frozen=True)

    report: IngestReport
    builds: list[BuildReport]
    skipped: Skipped = Skipped()
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """The JSON the CLI, the MCP server and the HTTP API return for a write: the
        writer's counts (``seconds``: writing the turns), ``wall_seconds`` (the whole
        call, builders and model loading included), ``skipped`` (what the load left out)
        and ``builders``, one entry per builder."""
        return {
            **self.report.as_dict(),
            "wall_seconds": round(self.seconds, 2),
            "skipped": self.skipped.model_dump(),
            "builders": [b.as_dict() for b in self.builds],
        }


class QueryResult(BaseModel):
    """A retrieval (``result``: the ranked hits, timings and notes) and the context packed
    from it within the budget (``context``: the cited items, ``context.render()`` the text
    a reader is given)."""

    model_config = ConfigDict(frozen=True)

    result: RetrievalResult
    context: PackedContext

    def as_dict(self, explain: bool = False) -> dict[str, Any]:
        """The JSON the CLI, the MCP server and the HTTP API return for a query;
        ``explain`` adds each item's strategy, path and ``explanation`` (the path read into
        its numbers, and one plain line: ``graphmem.retrieval.explain``)."""
        weights = member_weights(self.result.notes) if explain else {}
        items = [
            {
                "kind": item.kind,
                "text": item.text,
                "tokens": item.tokens,
                # a turn's id in its space (<conversation>/<source_id>), its conversation
                # and the id its input gave it
                "turn_id": item.passage.turn_id if item.passage else None,
                "conversation": item.passage.conversation if item.passage else None,
                "source_id": item.passage.source_id if item.passage else None,
                # a turn: itself; a memory: the turns it comes from (shown or not)
                "turns": [t.turn_id for t in item.turns],
                **(
                    {
                        "strategy": item.strategy,
                        "path": item.path,
                        "explanation": explain_item(
                            item.strategy, item.path, item.rank + 1, weights
                        ),
                    }
                    if explain
                    else {}
                ),
            }
            for item in self.context.items
        ]
        return {
            "query": self.result.query,
            "strategy": self.result.strategy,
            "budget": self.context.budget,
            "tokens": self.context.tokens,
            "latency_ms": round(self.result.timings_ms.get("total", 0.0), 1),
            # every turn the context cites, by turn id, in conversation order
            "citations": self.context.cited_in_order,
            # what the strategy says of the answer as a whole (graphmem: which designs
            # voted, which the space lacks); a script needs it as much as --explain does
            "notes": list(self.result.notes),
            "items": items,
            "context": self.context.render(),
        }


class AskResult(QueryResult):
    """``ask``: the query's result and context, and the LLM's ``answer`` from that context
    (None without an LLM, or when the model gave no valid answer)."""

    answer: str | None = None

    def as_dict(self, explain: bool = False) -> dict[str, Any]:
        """The query's JSON with the ``answer``."""
        return {**super().as_dict(explain), "answer": self.answer}


__all__ = ["AskResult", "IngestResult", "QueryResult"]
