"""Benchmark evaluation of retrieval strategies on LoCoMo and LongMemEval.

One loop serves both datasets (``Evaluator``): every conversation goes into its own space
(ingest is idempotent: stored sessions are skipped), each question is retrieved ONCE per
strategy with the largest budget (that call is the latency), and the same hits are packed
at every budget (a retriever that is not ``prefix_consistent`` is asked again per budget).
Ranking metrics read ``RetrievalResult.ranked_source_ids()``; budget
metrics read the packed context. With an LLM configured, each packed context is also
answered and scored (F1, BLEU-1, LLM-as-judge); without one those keys are absent. What
one question scores is in ``scoring``.

Each conversation (LongMemEval: each question haystack) is evaluated on its own: one that
fails is reported in ``meta.failed`` and the run goes on; with ``out`` its results are
written as it finishes and a rerun resumes from them (``runlog``); ``jobs`` > 1 evaluates
several at once in worker processes (``parallel``). Errors no other conversation could
escape (the server, the schema, the catalog, the settings, the LLM backend) still end the
run.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from tqdm import tqdm

from graphmem.builders.cost import space_build_costs
from graphmem.config import given_settings
from graphmem.errors import ConfigError
from graphmem.eval.aggregate import Scored, aggregate
from graphmem.eval.code_identity import code_identity
from graphmem.eval.runlog import (
    Attempt,
    ConversationResult,
    RunLog,
    described,
    fatal,
    incomplete,
    summed,
)
from graphmem.eval.scoring import (
    BUDGET_METRICS,
    LLM_METRICS,
    LOCOMO_KS,
    LONGMEMEVAL_KS,
    Question,
    RankScorer,
    Values,
    budget_values,
    history_tokens,
    judge,
    locomo_metric_names,
    locomo_questions,
    locomo_rank_values,
    longmemeval_metric_names,
    longmemeval_rank_scorer,
)
from graphmem.graph.readiness import builders_read, check_ready
from graphmem.ingest.models import ConversationIn, Dataset
from graphmem.llm import LLMUsage
from graphmem.memory import Memory
from graphmem.plugin.retriever import Retriever
from graphmem.process.hashing import file_sha256
from graphmem.retrieval.packer import pack
from graphmem.retrieval.registry import build_retriever
from graphmem.retrieval.shared import sharing_snapshots
from graphmem.serving.limits import check_budget, check_strategy

# The scoring names live in ``scoring``; benchmarks and tests import them from here.
__all__ = [
    "BUDGET_METRICS",
    "LLM_METRICS",
    "LOCOMO_KS",
    "LONGMEMEVAL_KS",
    "Question",
    "RankScorer",
    "Values",
    "budget_values",
    "history_tokens",
    "judge",
    "locomo_metric_names",
    "locomo_questions",
    "locomo_rank_values",
    "longmemeval_metric_names",
    "longmemeval_rank_scorer",
]


class Evaluator:
    """Ingests spaces, asks questions, collects one ``Scored`` per strategy × budget per
    conversation; keeps finished conversations in ``log``."""

    def __init__(
        self,
        memory: Memory,
        strategies: Sequence[str],
        budgets: Sequence[int],
        meta: dict[str, Any],
        run: dict[str, Any],
    ) -> None:
        if not strategies:
            raise ConfigError("no retrieval strategy to evaluate")
        if not budgets:
            raise ConfigError("no budget to evaluate")
        for budget in budgets:  # what a query may be asked for (graphmem.serving.limits)
            check_budget(budget)
        self.memory = memory
        self._unsettled = False  # a space was opened and its first question not asked yet
        self.strategies = [check_strategy(s) for s in dict.fromkeys(strategies)]
        self.budgets = sorted(set(budgets))
        # Every layer each strategy reads (graphmem: every design it fuses), so that no
        # strategy is answered by another (graphmem's fallback on a space without designs).
        self.builders = builders_read(self.strategies, memory.configs)
        self.llm = memory.llm
        self.meta = {**meta, "n_questions": 0, "ignored_evidence_ids": 0, "skipped_no_evidence": 0}
        self.meta["llm"] = memory.settings.llm_model if self.llm is not None else None
        # Which preset each design ran with: a number means nothing without it.
        self.meta["presets"] = memory.configs.describe()
        # ... and which settings were given beside them (a variable left set in a shell
        # changes a number as much as a preset does).
        self.meta["settings"] = {
            "process": given_settings(memory.settings),
            "designs": memory.configs.overridden(),
        }
        self.meta["code"] = code_identity()
        identity = {k: self.meta[k] for k in ("dataset", "llm", "presets", "settings")}
        identity.update(strategies=self.strategies, budgets=self.budgets, **run)
        self.log = RunLog(run.get("out"), {k: v for k, v in identity.items() if k != "out"})
        self.done: dict[str, ConversationResult] = {}
        self.planned: dict[str, int] = {}  # conversation -> its place in the plan
        self.failed: list[dict[str, str]] = []
        self.resumed = 0
        self.current = ConversationResult("")
        self.usage: dict[str, LLMUsage] = {}
        self.history_tokens = 0

    def resume(self, conversations: Sequence[str]) -> None:
        """Take the planned conversations a former run with this identity finished."""
        stored = self.log.open()
        self.planned = {cid: n for n, cid in enumerate(conversations)}
        self.done = {cid: stored[cid] for cid in conversations if cid in stored}
        self.resumed = len(self.done)

    def attempt(self, conversation: str, work: Callable[[], None]) -> Attempt:
        """Run ``work`` (ingest and questions of one conversation); a failure is returned
        for ``record``, an error no conversation could escape (``fatal``) raised."""
        self.current, self.usage = ConversationResult(conversation), {}
        try:
            work()
        except Exception as exc:
            if fatal(exc):
                raise
            return Attempt(conversation, None, described(exc), traceback.format_exc())
        self.current.usage = {part: u.as_dict(prefix="") for part, u in self.usage.items()}
        return Attempt(conversation, self.current)

    def record(self, attempt: Attempt) -> None:
        """Keep one conversation's outcome (in ``out`` too) and go on."""
        cid = attempt.conversation
        if attempt.result is None:
            self.failed.append({"conversation": cid, "error": attempt.error})
            self.failed.sort(key=lambda f: self._position(f["conversation"]))
            self.log.failed(cid, attempt.trace)
            return
        self.done[cid] = attempt.result
        self.log.finished(attempt.result)
        self.log.results(self.results())

    def _position(self, conversation: str) -> int:
        """Where a conversation is in the plan: results never depend on finish order."""
        return self.planned.get(conversation, len(self.planned))

    def open_space(
        self,
        conversation: ConversationIn,
        dataset: Dataset,
        space: str,
        now: datetime | None = None,
    ) -> list[Retriever]:
        """Ingest one conversation (skipping stored sessions) and build its retrievers
        (``now``: when its questions are asked; None: after its latest session)."""
        cid = conversation.conversation_id
        one = Dataset(conversations=[conversation], qa={cid: dataset.qa.get(cid, [])})
        built = self.memory.ingest_dataset(one, space, self.builders)
        for report in built.builds:
            self._account(f"build.{report.builder}", report.llm)
        for name in self.strategies:  # a layer missing after the ingest: refused, not replaced
            check_ready(self.memory.store, space, name, complete=True, configs=self.memory.configs)
        self._ledger(space)
        self.history_tokens = history_tokens(conversation, self.memory.embedder.count_tokens)
        questions = len(dataset.qa.get(cid, []))
        ctx = self.memory.retrieval_context(space, now=now, expected_queries=questions)
        retrievers = [build_retriever(name, ctx) for name in self.strategies]
        prepare = self.current.prepare_ms
        with sharing_snapshots():  # the strategies read the same snapshots once
            for name, retriever in zip(self.strategies, retrievers, strict=True):
                started = time.perf_counter()
                with self.memory.nlp_context():  # the Memory's spaCy pipeline, as in its calls
                    retriever.prepare()  # one-off per space, reported apart from query latency
                prepare[name] = prepare.get(name, 0.0) + (time.perf_counter() - started) * 1000
        self.memory.settle()
        self._unsettled = True
        return retrievers

    def count(self, question: Question, ignored: int) -> None:
        self.add("n_questions", 1)
        self.add("ignored_evidence_ids", ignored)
        self.add("skipped_no_evidence", 0 if question.evidence else 1)

    def add(self, key: str, value: int) -> None:
        self.current.counts[key] = self.current.counts.get(key, 0) + value

    def ask(self, retrievers: Sequence[Retriever], question: Question, rank: RankScorer) -> None:
        with self.memory.nlp_context():
            self._ask(retrievers, question, rank)
        if self._unsettled:
            # As Memory.query does: what a retriever's first query loads lazily (the spaCy
            # pipeline, the date parsers, the model's first-call state) joins what settle()
            # froze; left out, the collector's full passes walk it every few queries
            # (~100 ms each, on the first conversation of a run). Nothing was dropped since
            # the settle of prepare: no collection.
            self.memory.settle(collect=False)
            self._unsettled = False

    def _ask(self, retrievers: Sequence[Retriever], question: Question, rank: RankScorer) -> None:
        largest = self.budgets[-1]
        count = self.memory.embedder.count_tokens
        for name, retriever in zip(self.strategies, retrievers, strict=True):
            # The Memory's one LLM client also serves retrievers that reason at query time
            # (Amory): what the question cost beyond answering and judging is retrieval's.
            began = self.llm.usage.snapshot() if self.llm else LLMUsage()
            judged = LLMUsage()
            started = time.perf_counter()
            result = retriever.retrieve(question.text, largest)
            latency_ms = (time.perf_counter() - started) * 1000
            ranked = rank(question, result)
            for budget in self.budgets:
                # A list cut to its budget and then reordered is asked again per budget.
                hits = result.hits
                if budget != largest and not retriever.prefix_consistent:
                    hits = retriever.retrieve(question.text, budget).hits
                context = pack(hits, budget, count, self.memory.settings.context_memory_cites)
                before = self.llm.usage.snapshot() if self.llm else LLMUsage()
                values = {
                    **ranked,
                    **budget_values(question, context, self.llm, self.history_tokens),
                }
                if self.llm:
                    spent = self.llm.usage.snapshot() - before
                    judged = judged + spent
                    self._account("answer_and_judge", spent)
                scored = Scored(question.group, latency_ms, values)
                self.current.records.append((name, budget, scored))
            if self.llm:
                retrieving = self.llm.usage.snapshot() - began - judged
                if retrieving.calls:
                    self._account(f"retrieve.{name}", retrieving)

    def _account(self, part: str, usage: LLMUsage) -> None:
        """LLM cost per part of the conversation (each design's build, answering and
        judging); ``meta.llm_usage`` sums the conversations of the results."""
        self.usage[part] = self.usage.get(part, LLMUsage()) + usage

    def _ledger(self, space: str) -> None:
        """``meta.build_cost``: what building the evaluated spaces cost over every run (the
        build ledger, summed over spaces). ``llm_usage`` charges only the runs that
        evaluated the conversations, so a run that reuses stored spaces shows 0 build
        calls there and the real cost here."""
        designs = space_build_costs(self.memory.store, space).get("designs", {})
        self.current.build_cost = {
            name: {
                key: value
                for key, value in figures.items()
                if isinstance(value, int | float) and not isinstance(value, bool)
            }
            for name, figures in designs.items()
        }

    def outcome(self) -> list[dict[str, Any]]:
        """The results; EvaluationIncomplete (carrying them) when a conversation failed."""
        results = self.results()
        if self.failed:
            raise incomplete(self.failed, results, self.log.out)
        return results

    def results(self) -> list[dict[str, Any]]:
        """One result per strategy × budget over the finished conversations."""
        metric_names, breakdown, groups, apart = self.shape
        finished = sorted(self.done.values(), key=lambda r: self._position(r.conversation))
        found = {g for r in finished for g in r.groups}
        listed = list(groups) if groups else sorted(found)
        records: dict[tuple[str, int], list[Scored]] = {
            (s, b): [] for s in self.strategies for b in self.budgets
        }
        for result in finished:
            for strategy, budget, scored in result.records:
                if (strategy, budget) in records:
                    records[(strategy, budget)].append(scored)
        meta = {**self.meta, **summed(finished)}
        meta["n_conversations"] = self.meta["n_conversations"] - len(self.failed)
        meta["failed"] = list(self.failed)
        meta["resumed"] = self.resumed
        out: list[dict[str, Any]] = []
        for (strategy, budget), pair in records.items():
            overall, by_group = aggregate(pair, metric_names, listed, apart)
            out.append(
                {
                    "strategy": strategy,
                    "budget": budget,
                    "overall": overall,
                    breakdown: by_group,
                    "meta": dict(meta),
                }
            )
        return out

    # (metric names, breakdown key, groups listed first (empty: the groups found, sorted),
    # groups kept out of the overall summary)
    shape: tuple[Sequence[str], str, Sequence[str], Collection[str]] = ((), "by_group", (), ())


def skipped_in(dataset: Dataset, conversations: Sequence[ConversationIn]) -> dict[str, Any]:
    """What the load left out of the evaluated conversations (``meta.input_skipped``)."""
    ids = [c.conversation_id for c in conversations]
    skipped = dataset.skipped.only(ids).model_dump(exclude={"by_conversation"})
    # What an export's importer left out is the file's, not a conversation's: in the load's
    # report (graphmem ingest), not in each evaluated conversation's.
    return {k: v for k, v in skipped.items() if k not in ("left_out", "notes")}


def progress_bar(total: int, enabled: bool) -> tqdm[Any]:
    return tqdm(total=total, unit="q", disable=not enabled, dynamic_ncols=True)


def run_identity(path: Path, space_prefix: str, out: Path | None, **more: Any) -> dict[str, Any]:
    """What a resumed run must share with the run that wrote ``out`` (besides the
    strategies, budgets, presets and settings the evaluator adds)."""
    return {"file_sha256": file_sha256(path), "space_prefix": space_prefix, "out": out, **more}
