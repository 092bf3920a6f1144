"""``Memory``: the Python API for agent builders (ingest, add_messages, query, ask, forget).

A thin facade: it wires settings, store, embedder, LLM, builders and retrievers together and
delegates; the work lives in the components. Its results are the typed models of
``graphmem.types``.

A ``Memory`` changes nothing process-wide unless asked (``tune_process=True``, what the CLI
does): its spaCy pipeline is set per call (``graphmem.nlp.spacy_loader.using_model``), so
two of them with different ``spacy_model`` settings coexist in one process.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any, overload

from graphmem.builders.cost import record_build
from graphmem.builders.recorded import check as check_recorded
from graphmem.builders.recorded import record as record_settings
from graphmem.builders.registry import build_builders
from graphmem.config import Settings
from graphmem.embed import Embedder, build_embedder
from graphmem.errors import InputError, UnknownSpaceError
from graphmem.graph.forget import delete_space_nodes
from graphmem.graph.projections import drop_space_graphs
from graphmem.graph.readiness import check_exists, check_ready
from graphmem.graph.schema import (
    check_embedder,
    check_space_embedder,
    init_schema,
    pin_space_embedder,
)
from graphmem.graph.store import GraphStore
from graphmem.ingest import forget as forgetting
from graphmem.ingest.exports import ImportOptions
from graphmem.ingest.exports.stamps import Clock, zone_named
from graphmem.ingest.forget import REDACTED, ForgetReport, Selection
from graphmem.ingest.formats import Format, ReadLimits, load
from graphmem.ingest.jsonl import api_session
from graphmem.ingest.models import ConversationIn, Dataset
from graphmem.ingest.stored import (
    check_turn_ids,
    place_sessions,
    stored_sessions,
    unbuilt_conversations,
)
from graphmem.ingest.validate import check_space
from graphmem.ingest.writer import IngestReport, PassageWriter, passage_id, session_id
from graphmem.llm import Message, StructuredLLM, build_llm
from graphmem.plugin.builder import BuildContext, Builder, BuildReport, SessionBatch, run_build
from graphmem.plugin.configure import DesignConfigs
from graphmem.plugin.retriever import RetrievalContext, Retriever, settle, space_out_collections
from graphmem.process import uses
from graphmem.process.threads import limit_blas_threads
from graphmem.retrieval.packer import pack
from graphmem.retrieval.registry import DEFAULT_STRATEGY, build_retriever
from graphmem.retrieval.shared import sharing_snapshots
from graphmem.serving.limits import (
    DEFAULT_BUDGET,
    DEFAULT_BUILDERS,
    BuilderChoice,
    check_budget,
    check_question,
    check_strategy,
    check_subject,
    parse_builders,
)
from graphmem.types import AskResult, IngestResult, QueryResult
from graphmem.validity.history import Change, history
from graphmem.validity.ingest import refresh_after_ingest

_MAX_RETRIEVERS = 32

# Relative dates, a place and a plan: the paths a question's analysis can take.
WARM_QUESTION = "What did we talk about last weekend, and where is the trip next month?"

# Told (builder, 0) when a builder starts on a conversation's sessions and (builder, their
# number) when it is done with them (built now, or by an earlier ingest): a progress bar of
# the build beside the turns'.
BuildProgress = Callable[[str, int], None]


class Memory:
    """Constructing one does no I/O: the driver, the embedder and the LLM open on first use.

    ``tune_process=True`` lets it tune the process for graphmem (the CLI's ``Memory`` does):
    spaCy's import keeps torch out (``graphmem/process/lean_imports.py``; effective when spaCy is
    not imported yet), numpy's BLAS threads are capped at ``blas_threads``
    (``graphmem/process/threads.py``), the garbage collector's passes are spaced out and, once a
    retriever is prepared, what is alive leaves its full passes (``settle_gc``;
    ``plugin/retriever.py``: ``space_out_collections``, ``settle``). Each
    is process-wide, so an application embedding graphmem opts in; without them queries
    return the same results, with a longer p95 on a busy machine."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        store: GraphStore | None = None,
        embedder: Embedder | None = None,
        llm: StructuredLLM | None = None,
        configs: DesignConfigs | None = None,
        preset: str | None = None,
        tune_process: bool = False,
    ) -> None:
        """``preset`` picks every design's preset (``"paper"``, ``"default"``); ``configs``
        gives full control (per-design presets and overrides, see ``DesignConfigs``);
        ``tune_process``: see the class."""
        self.settings = settings or Settings()
        self.configs = configs or DesignConfigs(
            preset=preset or self.settings.preset,
            config_file=self.settings.design_config_file,
        )
        self.store = store or GraphStore(self.settings)
        self.embedder = embedder or build_embedder(self.settings)
        self._llm = llm
        self.tune_process = tune_process
        self._checked = False
        # Retrievers keep per-space state (SEEM's snapshot of the space): reused across
        # queries, the least recently used dropped beyond ``_MAX_RETRIEVERS``.
        self._retrievers: OrderedDict[tuple[str, str], Retriever] = OrderedDict()
        # The servers run calls of different spaces on threads at once: the table's
        # changes and walks take this lock (a space's own calls come one at a time).
        self._table = threading.Lock()
        if tune_process:
            from graphmem.process import lean_imports as _lean_imports

            _lean_imports.install()
            # Before the first load: reading a large dataset is where the collector's
            # default passes cost most.
            space_out_collections(self.settings)

    @property
    def llm(self) -> StructuredLLM | None:
        """The one LLM client of this Memory (None without ``llm_model``): its builders,
        retrievers (through ``RetrievalContext.llm``) and ``ask`` share it."""
        if self._llm is None and self.settings.llm_enabled:
            self._llm = build_llm(self.settings)
        return self._llm

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def nlp_context(self) -> Iterator[None]:
        """Within the block, the helpers in ``graphmem.nlp`` use this Memory's spaCy pipeline
        (``spacy_model``). Every call of the Memory enters it; code that runs a retriever
        of ``retriever()`` directly (the eval harness) enters it around that."""
        # Here, not at import: spaCy (and torch under it) costs 3 s that `graphmem spaces`,
        # `stats` and `forget` never need.
        from graphmem.nlp.spacy_loader import using_model

        with using_model(self.settings.spacy_model):
            yield

    def settle(self, collect: bool = True) -> None:
        """With ``tune_process``: what is alive now leaves the collector's full passes
        (``plugin/retriever.py``: ``settle``); a no-op otherwise."""
        if self.tune_process:
            settle(self.settings, collect)

    def _ready(self) -> None:
        if not self._checked:
            self.configs.check()
            if self.tune_process:
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
        path: str | Path,
        space: str,
        fmt: Format = "auto",
        builders: BuilderChoice = DEFAULT_BUILDERS,
        progress: Callable[[int], None] | None = None,
        *,
        strict: bool = False,
        build_progress: BuildProgress | None = None,
        options: ImportOptions | None = None,
    ) -> IngestResult:
        """Load a file, zip or folder completely (bad input fails here, before anything is
        written; ``options``: how a chat app's export is read, the settings' by default), then
        write it conversation by conversation, session by session, and run ``builders``
        (``graphmem.serving.limits.parse_builders``: all by default, "none" or [] for the turns
        only). Empty turns and repeated sessions are left out and counted in the result's
        ``skipped``; ``strict`` refuses them instead (an ``InputError``, as for any bad
        input)."""
        chosen = parse_builders(builders)  # a misspelt builder is said before the file is read
        how = options or ImportOptions.of(self.settings)
        dataset = load(Path(path), fmt, ReadLimits.of(self.settings, strict), how)
        return self.ingest_dataset(dataset, space, chosen, progress, build_progress=build_progress)

    def ingest_dataset(
        self,
        dataset: Dataset,
        space: str,
        builders: BuilderChoice = DEFAULT_BUILDERS,
        progress: Callable[[int], None] | None = None,
        *,
        build_progress: BuildProgress | None = None,
        others: bool = True,
    ) -> IngestResult:
        """Write ``dataset`` into ``space`` and run ``builders`` (all by default; "none" or
        []: the turns only) over the sessions they have not built yet, of ``dataset``'s
        conversations and (``others``) of the space's other ones. ``progress`` is told
        the turns written, ``build_progress`` each builder's sessions (``BuildProgress``);
        the result's ``seconds`` is the whole call's."""
        check_space(space)
        chosen = parse_builders(builders)
        started = time.perf_counter()
        with self.nlp_context():
            done = self._ingest_dataset(
                dataset, space, chosen, (progress, build_progress), others=others
            )
        return done.model_copy(update={"seconds": time.perf_counter() - started})

    def _ingest_dataset(
        self,
        dataset: Dataset,
        space: str,
        builders: Sequence[str],
        progress: tuple[Callable[[int], None] | None, BuildProgress | None],
        refresh: bool = False,
        others: bool = True,
    ) -> IngestResult:
        """``refresh``: valid time is read again even without new conversations; ``others``:
        the builders also build the space's other conversations they have not completed
        (a rewritten session may have released what another's fed; a forget rebuilds every
        conversation it touches itself, each with its own builders)."""
        turns_written, built = progress
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
        if dataset.conversations:
            # Before the first passage: a process killed while writing it leaves a space
            # that says its embedder, not one read as written before spaces were pinned
            # (the database's first embedder).
            pin_space_embedder(self.store, space, self.embedder)
        # A space-wide step's cache uses are the space's (a conversation's: its own).
        with uses.scope(space), self._refreshing(space):
            for conv in dataset.conversations:
                conv = place_sessions(self.store, space, conv)
                with uses.scope(space, conv.conversation_id):
                    writer.write_conversation(space, conv, report, turns_written)
                record_settings(self.store, space, settings_text)
                settings_text = None
                for builder in active:
                    if built is not None:
                        built(builder.name, 0)
                    self._build(space, conv, builder, build_reports[builder.name], ctx.backend)
                    if built is not None:  # built now, or by an earlier ingest
                        built(builder.name, len(conv.sessions))
            for builder in active:
                rest = unbuilt_conversations(self.store, space, builder.name) if others else []
                for other in rest:
                    self._build(space, other, builder, build_reports[builder.name], ctx.backend)
                builder.finish()
            if self.settings.validity and (dataset.conversations or refresh):
                judged = refresh_after_ingest(
                    self.store, space, self.settings, self.llm, ctx.backend
                )
                if judged is not None:  # the LLM judge's cost, reported like a build's
                    build_reports[judged.builder] = judged
        return IngestResult(
            report=report, builds=list(build_reports.values()), skipped=dataset.skipped
        )

    @contextmanager
    def _refreshing(self, space: str) -> Iterator[None]:
        try:
            yield
        finally:  # even a failed ingest may have written: the kept retrievers look again
            for retriever in self._kept(space):
                retriever.refresh()

    def _build(
        self, space: str, conv: ConversationIn, builder: Builder, into: BuildReport, backend: str
    ) -> None:
        batch = self._pending(space, conv, builder.name)
        if batch.sessions:
            with uses.scope(space, conv.conversation_id):
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
        builders: BuilderChoice = DEFAULT_BUILDERS,
    ) -> IngestResult:
        """Streaming: store one session (or the turns of it seen so far) and run
        ``builders`` over it (all by default; "none" or []: the turns only). Calling it
        again with more turns of the same session rewrites that session in one transaction.

        The messages are validated like a JSONL file's (``speaker`` and ``text`` required,
        optional ``id``, ``timestamp``, ``caption``); bad input raises InputError naming the
        message and field, before anything is written."""
        check_space(space)
        builders = parse_builders(builders)  # before I/O, as the messages are
        clock = Clock(zone_named(self.settings.import_timezone or None))  # epoch stamps' zone
        conv = api_session(conversation_id, session, messages, started_at, 0, clock)  # before I/O
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

    @overload
    def forget(self, space: str, *, missing_ok: bool = False) -> int: ...

    @overload
    def forget(
        self,
        space: str,
        *,
        turns: Sequence[str] = (),
        session: str | None = None,
        conversation: str | None = None,
        dry_run: bool = False,
    ) -> ForgetReport: ...

    def forget(
        self,
        space: str,
        *,
        missing_ok: bool = False,
        turns: Sequence[str] = (),
        session: str | None = None,
        conversation: str | None = None,
        dry_run: bool = False,
    ) -> int | ForgetReport:
        """Without a selection: delete every node of a space (and its in-memory
        projections); a space that does not exist is an ``UnknownSpaceError`` (a misspelt
        name deletes nothing), unless ``missing_ok`` (a clean-up that may run before the
        space was written): 0 then; the nodes deleted.
        With ``turns`` (turn ids), a ``session`` or a ``conversation`` (ids as the input gave
        them; ``conversation`` also says whose turns or session): forget that part, and the
        space becomes what a build without it would have made (``graphmem.ingest.forget``);
        unknown ids are an ``UnknownIdError`` naming them, nothing written; ``dry_run``: only
        count what would go. Returns a ``ForgetReport``."""
        if turns or session is not None or conversation is not None:
            chosen = Selection(turns=tuple(turns), session=session, conversation=conversation)
            return self._forget_part(space, chosen, dry_run)
        check_space(space)
        try:
            check_exists(self.store, space)
        except UnknownSpaceError:
            if missing_ok:
                return 0
            raise
        drop_space_graphs(self.store, space)
        with self._table:
            for key in [key for key in self._retrievers if key[1] == space]:
                del self._retrievers[key]
        deleted = delete_space_nodes(self.store, space)
        self._sweep(space, None, math.inf)
        return deleted

    def _sweep(self, space: str, conversations: Sequence[str] | None, before: float) -> None:
        """Erase from the vector and LLM caches what only the scopes ``conversations`` of
        ``space`` (None: all) used before ``before`` (``graphmem.process.uses``)."""
        self.embedder.sweep(space, conversations, before)
        if self.llm is not None:
            self.llm.sweep(space, conversations, before)

    def redact(
        self,
        space: str,
        turns: Sequence[str],
        *,
        text: str = REDACTED,
        conversation: str | None = None,
        dry_run: bool = False,
    ) -> ForgetReport:
        """Replace the text of ``turns`` (ids as the input gave them) by ``text`` and drop
        their captions, keeping their ids, speakers and times; the space becomes what a
        build of the redacted input would have made, as for ``forget``."""
        if not isinstance(text, str) or not text.strip():
            raise InputError("a redaction's text may not be blank", field="text")
        chosen = Selection(turns=tuple(turns), conversation=conversation, redaction=text)
        return self._forget_part(space, chosen, dry_run)

    def _forget_part(self, space: str, selection: Selection, dry_run: bool) -> ForgetReport:
        started = time.perf_counter()
        check_space(space)
        selection.check()
        self._ready()
        check_exists(self.store, space)
        under_way = forgetting.pending(self.store, space, selection)
        found = forgetting.plan(self.store, space, selection, under_way is not None)
        convs = forgetting.closure(self.store, space, [*found.conversations, *(under_way or [])])
        touched = forgetting.kept(self.store, space, found, convs)
        counted = forgetting.counts(self.store, space, found)
        report = forgetting.report(space, found, touched, counted, dry_run)
        if dry_run:
            return report
        built = forgetting.built_by(self.store, space, convs)
        asked = forgetting.request(self.store, space, selection, built, convs)
        # The cache's vectors of the forgotten turns first, while their texts are stored
        # (the graph's go with their nodes).
        texts = [t.rendered for t in found.targets]
        self.embedder.forget(self.embedder.heads(texts, "passage"), "passage")
        self.embedder.clear_memory()  # the rebuild's uses reach the disk, recorded
        kept = [c for k in touched if (c := forgetting.release(self.store, space, k))]
        drop_space_graphs(self.store, space)
        with self.nlp_context():
            # No group when nothing is kept: one empty pass still reads valid time again
            # and refreshes the kept retrievers.
            groups = forgetting.by_builders(kept, asked.builders) or [([], [])]
            for builders, group in groups:
                dataset = Dataset(conversations=group, qa={})
                self._ingest_dataset(dataset, space, builders, (None, None), True, others=False)
        # Then what the rebuild did not use again: the caches' entries only the forgotten
        # turns fed, and every question's (any of whose contexts may have held them, one
        # asked while this ran too).
        self._sweep(space, [*asked.conversations, ""], asked.started_at)
        self._sweep(space, [uses.QUESTIONS], time.time())
        forgetting.done(self.store, space, found, asked.conversations)
        return report.model_copy(update={"seconds": time.perf_counter() - started})

    # --- reading -------------------------------------------------------------------
    def query(
        self,
        question: str,
        space: str,
        strategy: str = DEFAULT_STRATEGY,
        budget: int = DEFAULT_BUDGET,
        *,
        as_of: datetime | None = None,
    ) -> QueryResult:
        """The cited context for ``question`` from ``space`` within ``budget`` tokens;
        ``as_of``: as it stood then (only what was said by then, superseded as of then).
        The question, strategy and budget follow ``graphmem.serving.limits``."""
        check_question(question)
        check_space(space)
        check_strategy(strategy)
        check_budget(budget)
        with self.nlp_context():
            self._ready()
            check_ready(self.store, space, strategy)
            with self._table:
                fresh = as_of is None and (strategy, space) not in self._retrievers
            # A first query prepares the retriever: its members share the snapshots they read.
            questions = uses.scope(space, uses.QUESTIONS)
            with sharing_snapshots() if fresh else nullcontext(), questions:
                result = self._retriever_at(strategy, space, as_of).retrieve(question, budget)
        if fresh:  # its first query prepared it
            self.settle()
        packed = pack(
            result.hits, budget, self.embedder.count_tokens, self.settings.context_memory_cites
        )
        return QueryResult(result=result, context=packed)

    def prepare(self, space: str, strategy: str = DEFAULT_STRATEGY) -> float:
        """Do now what the first query of ``strategy`` over ``space`` would do (projection,
        snapshots, every entity's PageRank run with ``ppr_cache = warm``; the spaCy pipeline
        and the date rules, see graphmem/nlp/warm.py): a long-lived process calls it
        at start so that its first queries cost what the later ones do.
        Returns the seconds it took."""
        check_space(space)
        check_strategy(strategy)
        with self.nlp_context():
            self._ready()
            check_ready(self.store, space, strategy)
            started = time.perf_counter()
            from graphmem.nlp.warm import warm_nlp  # spaCy: here, not at import

            warm_nlp()  # process-wide: what a first question's analysis would pay
            retriever = self.retriever(strategy, space)
            with sharing_snapshots():  # its members read a snapshot they share once
                retriever.prepare()
            # One question thrown away: what no prepare step names still runs once (the
            # token counter's tokenizer, each statement's first plan, lazy imports).
            warm = retriever.retrieve(WARM_QUESTION, 1000)
        pack(warm.hits, 1000, self.embedder.count_tokens, self.settings.context_memory_cites)
        self.settle()
        return time.perf_counter() - started

    def _retriever_at(self, strategy: str, space: str, as_of: datetime | None) -> Retriever:
        """The kept retriever, or for a date in the past one of its own (not kept: its
        clock is that date)."""
        if as_of is None:
            return self.retriever(strategy, space)
        check_space_embedder(self.store, space, self.embedder)
        context = replace(self.retrieval_context(space, now=as_of), as_of=as_of)
        return build_retriever(strategy, context)

    def retriever(self, strategy: str, space: str) -> Retriever:
        """The retriever of ``strategy`` over ``space``, kept for the next query."""
        key = (strategy, space)
        with self._table:
            found = self._retrievers.pop(key, None)
        if found is None:
            check_strategy(strategy)  # an InputError, as `query` gives (graphmem.serving.limits)
            self.configs.check()  # once: `query` checked already, a direct caller may not
            check_space_embedder(self.store, space, self.embedder)
            found = build_retriever(strategy, self.retrieval_context(space))
        with self._table:
            self._retrievers[key] = found
            while len(self._retrievers) > _MAX_RETRIEVERS:
                self._retrievers.popitem(last=False)
        return found

    def _kept(self, space: str) -> list[Retriever]:
        with self._table:
            return [r for key, r in self._retrievers.items() if key[1] == space]

    def retrieval_context(
        self, space: str, now: datetime | None = None, expected_queries: int | None = None
    ) -> RetrievalContext:
        """What this Memory's retrievers of ``space`` share: its store, embedder, settings,
        design configs and LLM client (``now``: when questions are asked; None: after the
        space's latest session; ``expected_queries``: how many, when known)."""
        return RetrievalContext(
            self.store,
            self.embedder,
            self.settings,
            space,
            configs=self.configs,
            llm=self.llm,
            now=now,
            expected_queries=expected_queries,
        )

    def history(self, space: str, subject: str) -> list[Change]:
        """The changes of ``subject`` in ``space``: each superseded statement about it and
        what replaced it, with citations (docs/validity.md)."""
        check_space(space)
        check_subject(subject)
        check_exists(self.store, space)  # a misspelt name is no space without changes
        self._ready()
        return history(self.store, space, subject)

    def ask(
        self,
        question: str,
        space: str,
        strategy: str = DEFAULT_STRATEGY,
        budget: int = DEFAULT_BUDGET,
        *,
        as_of: datetime | None = None,
    ) -> AskResult:
        """The query's result and context, and the LLM's answer from that context: ``None``
        without an LLM, or when the model gives no valid answer (logged)."""
        found = self.query(question, space, strategy, budget, as_of=as_of)
        with self.nlp_context(), uses.scope(space, uses.QUESTIONS):
            answer = self._answer(question, self._retriever_at(strategy, space, as_of), found)
        return AskResult(result=found.result, context=found.context, answer=answer)

    def _answer(self, question: str, retriever: Retriever, found: QueryResult) -> str | None:
        if self.llm is None:
            return None
        from graphmem.llm.answer import answer_or_none, own_answer_or_none

        own = retriever.answer_messages(question, found.context)
        if own is not None:  # the design's own reader prompt (SEEM: its Prompt 3)
            return own_answer_or_none(self.llm, own)
        return answer_or_none(self.llm, question, found.context.render())


__all__ = ["AskResult", "IngestResult", "Memory", "Message", "QueryResult"]
