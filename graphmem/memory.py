"""``Memory``: the Python API for agent builders (ingest, add_messages, query, ask, forget).

A thin facade: it wires settings, store, embedder, LLM, builders and retrievers together and
delegates; the work lives in the components.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from graphmem.build_cost import record_build
from graphmem.builders.base import BuildContext, Builder, BuildReport, SessionBatch, run_build
from graphmem.builders.recorded import check as check_recorded
from graphmem.builders.recorded import record as record_settings
from graphmem.builders.registry import build_builders
from graphmem.config import Settings
from graphmem.designs.configure import DesignConfigs
from graphmem.embed import Embedder, build_embedder
from graphmem.ingest.formats import ReadLimits, load
from graphmem.ingest.jsonl import api_session
from graphmem.ingest.models import ConversationIn, Dataset
from graphmem.ingest.stored import check_turn_ids, stored_sessions
from graphmem.ingest.validate import check_budget, check_question, check_space
from graphmem.ingest.writer import IngestReport, PassageWriter, passage_id, session_id
from graphmem.llm import Message, StructuredLLM, build_llm
from graphmem.projections import drop_space_graphs
from graphmem.readiness import check_ready
from graphmem.retrieval.base import RetrievalContext, RetrievalResult, Retriever, settle
from graphmem.retrieval.packer import PackedContext, pack
from graphmem.retrieval.registry import DEFAULT_STRATEGY, build_retriever
from graphmem.schema import (
    check_embedder,
    check_space_embedder,
    init_schema,
    pin_space_embedder,
)
from graphmem.store import GraphStore
from graphmem.threads import limit_blas_threads

_MAX_RETRIEVERS = 32

# Relative dates, a place and a plan: the paths a question's analysis can take.
WARM_QUESTION = "What did we talk about last weekend, and where is the trip next month?"

Format = Literal["auto", "locomo", "longmemeval", "jsonl"]


@dataclass
class QueryResult:
    result: RetrievalResult
    context: PackedContext

    def as_dict(self, explain: bool = False) -> dict[str, Any]:
        items = [
            {
                "kind": item.kind,
                "text": item.text,
                "tokens": item.tokens,
                "source_id": item.passage.source_id if item.passage else None,
                # a turn: itself; a memory: the turns it comes from (shown or not)
                "turns": [t.source_id for t in item.turns],
                **({"strategy": item.strategy, "path": item.path} if explain else {}),
            }
            for item in self.context.items
        ]
        return {
            "query": self.result.query,
            "strategy": self.result.strategy,
            "budget": self.context.budget,
            "tokens": self.context.tokens,
            "latency_ms": round(self.result.timings_ms.get("total", 0.0), 1),
            "citations": self.context.cited_in_order,
            # what the strategy says of the answer as a whole (graphmem: which designs
            # voted, which the space lacks); a script needs it as much as --explain does
            "notes": list(self.result.notes),
            "items": items,
            "context": self.context.render(),
        }


class Memory:
    """Constructing one does no I/O: the driver, the embedder and the LLM open on first use."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        store: GraphStore | None = None,
        embedder: Embedder | None = None,
        llm: StructuredLLM | None = None,
        configs: DesignConfigs | None = None,
        preset: str | None = None,
    ) -> None:
        """``preset`` picks every design's preset (``"paper"``, ``"default"``); ``configs``
        gives full control (per-design presets and overrides, see ``DesignConfigs``)."""
        self.settings = settings or Settings()
        self.configs = configs or DesignConfigs(
            preset=preset or self.settings.preset,
            config_file=self.settings.design_config_file,
        )
        self.store = store or GraphStore(self.settings)
        self.embedder = embedder or build_embedder(self.settings)
        self._llm = llm
        self._checked = False
        # Retrievers keep per-space state (SEEM's snapshot of the space): reused across
        # queries, the least recently used dropped beyond ``_MAX_RETRIEVERS``.
        self._retrievers: OrderedDict[tuple[str, str], Retriever] = OrderedDict()

    @property
    def llm(self) -> StructuredLLM | None:
        if self._llm is None and self.settings.llm_enabled:
            self._llm = build_llm(self.settings)
        return self._llm

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _ready(self) -> None:
        if not self._checked:
            self.configs.check()
            # Here, not at import: spaCy (and torch under it) costs 3 s that `graphmem spaces`,
            # `stats` and `forget` never need.
            from graphmem.nlp.spacy_loader import use_model

            use_model(self.settings.spacy_model)  # GRAPHMEM_SPACY_MODEL for the nlp helpers
            limit_blas_threads(self.settings.blas_threads)
            check_embedder(self.store, self.embedder)
            # Load the model now, so the first query's latency is the query's, not the load's.
            self.embedder.embed(["warm-up"])
            self._checked = True

    def init(self) -> dict[str, Any]:
        return init_schema(self.store, self.embedder)

    # --- writing -------------------------------------------------------------------
    def ingest(
        self,
        path: Path,
        space: str,
        fmt: Format = "auto",
        builders: Sequence[str] = (),
        progress: Callable[[int], None] | None = None,
    ) -> tuple[IngestReport, list[BuildReport]]:
        """Load a file completely (bad input fails here, before anything is written), then
        write it conversation by conversation, session by session."""
        dataset = load(path, fmt, ReadLimits.of(self.settings))
        return self.ingest_dataset(dataset, space, builders, progress)

    def ingest_dataset(
        self,
        dataset: Dataset,
        space: str,
        builders: Sequence[str] = (),
        progress: Callable[[int], None] | None = None,
    ) -> tuple[IngestReport, list[BuildReport]]:
        check_space(space)
        self._ready()
        check_space_embedder(self.store, space, self.embedder)
        report = IngestReport()
        writer = PassageWriter(self.store, self.embedder, self.settings.ingest_batch_turns)
        ctx = BuildContext(
            self.store, self.embedder, self.settings, space, self.llm, configs=self.configs
        )
        active = build_builders(list(builders), ctx)
        settings_text = check_recorded(self.store, space, [b.name for b in active], self.configs)
        build_reports = {b.name: BuildReport(b.name) for b in active}
        pinned = False
        try:
            for conv in dataset.conversations:
                try:
                    writer.write_conversation(space, conv, report, progress)
                finally:
                    # The space node exists once one session is written; pinned even when a
                    # later session fails, or the rerun would read the space as one written
                    # before spaces were pinned (the database's first embedder).
                    if not pinned:
                        pin_space_embedder(self.store, space, self.embedder)
                        pinned = True
                record_settings(self.store, space, settings_text)
                settings_text = None
                for builder in active:
                    self._build(space, conv, builder, build_reports[builder.name], ctx.backend)
            for builder in active:
                builder.finish()
        finally:  # even a failed ingest may have written: the kept retrievers look again
            for key, retriever in self._retrievers.items():
                if key[1] == space:
                    retriever.refresh()
        return report, list(build_reports.values())

    def _build(
        self, space: str, conv: ConversationIn, builder: Builder, into: BuildReport, backend: str
    ) -> None:
        batch = self._pending(space, conv, builder.name)
        if batch.sessions:
            built = run_build(builder, batch)
            into.merge(built)
            record_build(self.store, space, built, backend)
            self.store.write(
                "core.mark_built",
                space=space,
                session_ids=list(batch.session_ids),
                builder=builder.name,
            )

    def _pending(self, space: str, conv: ConversationIn, builder: str) -> SessionBatch:
        rows = self.store.read(
            "core.pending_sessions",
            space=space,
            conversation_id=conv.conversation_id,
            builder=builder,
        )
        wanted = {row["session_id"] for row in rows}
        sessions = [s for s in conv.sessions if session_id(conv, s) in wanted]
        # Sessions to rebuild that this input does not hold (see core.release_session).
        missing = wanted - {session_id(conv, s) for s in sessions}
        if missing:
            sessions = sorted(
                [*sessions, *stored_sessions(self.store, space, missing)], key=lambda s: s.index
            )
        return SessionBatch(
            conversation=conv,
            sessions=sessions,
            session_ids=[session_id(conv, s) for s in sessions],
            passage_ids=[[passage_id(conv, s, t) for t in s.turns] for s in sessions],
        )

    def add_messages(
        self,
        space: str,
        conversation_id: str,
        session: str,
        messages: Sequence[dict[str, Any]],
        started_at: datetime | None = None,
        builders: Sequence[str] = (),
    ) -> tuple[IngestReport, list[BuildReport]]:
        """Streaming: store one session (or the turns of it seen so far). Calling it again
        with more turns of the same session rewrites that session in one transaction.

        The messages are validated like a JSONL file's (``speaker`` and ``text`` required,
        optional ``id``, ``timestamp``, ``caption``); bad input raises InputError naming the
        message and field, before anything is written."""
        check_space(space)
        conv = api_session(conversation_id, session, messages, started_at, 0)  # before I/O
        first = conv.sessions[0]
        check_turn_ids(self.store, space, conv.conversation_id, first)  # before the write
        index = self._session_index(space, conv.conversation_id, first.source_id)
        conv = conv.model_copy(update={"sessions": [first.model_copy(update={"index": index})]})
        return self.ingest_dataset(Dataset(conversations=[conv], qa={}), space, builders)

    def _session_index(self, space: str, conversation_id: str, session: str) -> int:
        rows = self.store.read(
            "core.session_index", space=space, conversation_id=conversation_id, source_id=session
        )
        return int(rows[0]["index"]) if rows else 0

    def forget(self, space: str) -> int:
        """Delete every node of a space (and its in-memory projections)."""
        check_space(space)
        drop_space_graphs(self.store, space)
        for key in [key for key in self._retrievers if key[1] == space]:
            del self._retrievers[key]
        deleted = 0
        while True:
            rows = self.store.write("core.delete_space_batch", space=space, batch=5000)
            if not rows[0]["deleted"]:
                return deleted
            deleted += rows[0]["deleted"]

    # --- reading -------------------------------------------------------------------
    def query(
        self, question: str, space: str, strategy: str = DEFAULT_STRATEGY, budget: int = 1000
    ) -> QueryResult:
        check_question(question)
        check_space(space)
        check_budget(budget)
        self._ready()
        check_ready(self.store, space, strategy)
        fresh = (strategy, space) not in self._retrievers
        result = self.retriever(strategy, space).retrieve(question, budget)
        if fresh:  # its first query prepared it
            settle(self.settings)
        return QueryResult(result, pack(result.hits, budget, self.embedder.count_tokens))

    def prepare(self, space: str, strategy: str = DEFAULT_STRATEGY) -> float:
        """Do now what the first query of ``strategy`` over ``space`` would do (projection,
        snapshots, every entity's PageRank run with ``ppr_cache = warm``; the spaCy pipeline
        and dateparser's patterns, see graphmem/nlp/warm.py): a long-lived process calls it
        at start so that its first queries cost what the later ones do.
        Returns the seconds it took."""
        check_space(space)
        self._ready()
        check_ready(self.store, space, strategy)
        started = time.perf_counter()
        from graphmem.nlp.warm import warm_nlp  # spaCy: here, not at import (see _ready)

        warm_nlp()  # process-wide: what a first question's analysis would pay
        retriever = self.retriever(strategy, space)
        retriever.prepare()
        # One question thrown away: what no prepare step names still runs once (the token
        # counter's tokenizer, each statement's first plan on the server, lazy imports).
        warm = retriever.retrieve(WARM_QUESTION, 1000)
        pack(warm.hits, 1000, self.embedder.count_tokens)
        settle(self.settings)
        return time.perf_counter() - started

    def retriever(self, strategy: str, space: str) -> Retriever:
        """The retriever of ``strategy`` over ``space``, kept for the next query."""
        key = (strategy, space)
        found = self._retrievers.pop(key, None)
        if found is None:
            self.configs.check()  # once: `query` checked already, a direct caller may not
            check_space_embedder(self.store, space, self.embedder)
            found = build_retriever(strategy, self.retrieval_context(space))
        self._retrievers[key] = found
        while len(self._retrievers) > _MAX_RETRIEVERS:
            self._retrievers.popitem(last=False)
        return found

    def retrieval_context(self, space: str) -> RetrievalContext:
        return RetrievalContext(
            self.store, self.embedder, self.settings, space, configs=self.configs
        )

    def ask(
        self, question: str, space: str, strategy: str = DEFAULT_STRATEGY, budget: int = 1000
    ) -> tuple[str | None, QueryResult]:
        """Answer with the LLM from the packed context; ``None`` without an LLM, or when the
        model gives no valid answer (logged)."""
        found = self.query(question, space, strategy, budget)
        if self.llm is None:
            return None, found
        from graphmem.answer import answer_or_none, own_answer_or_none

        own = self.retriever(strategy, space).answer_messages(question, found.context)
        if own is not None:  # the design's own reader prompt (SEEM: its Prompt 3)
            return own_answer_or_none(self.llm, own), found
        return answer_or_none(self.llm, question, found.context.render()), found


__all__ = ["Memory", "Message", "QueryResult"]
