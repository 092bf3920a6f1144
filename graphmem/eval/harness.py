"""Benchmark evaluation of retrieval strategies on LoCoMo and LongMemEval.

One loop serves both datasets (``_Evaluator``): every conversation goes into its own space
(ingest is idempotent: stored sessions are skipped), each question is retrieved ONCE per
strategy with the largest budget (that call is the latency), and the same hits are packed
at every budget (a retriever that is not ``prefix_consistent`` is asked again per budget).
Ranking metrics read ``RetrievalResult.ranked_source_ids()``; budget
metrics read the packed context. With an LLM configured, each packed context is also
answered and scored (F1, BLEU-1, LLM-as-judge); without one those keys are absent. What
one question scores is in ``scoring``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tqdm import tqdm

from graphmem.build_cost import space_build_costs
from graphmem.code_identity import code_identity
from graphmem.config import given_settings
from graphmem.errors import ConfigError
from graphmem.eval.aggregate import Scored, aggregate, split_evidence
from graphmem.eval.metrics import ADVERSARIAL_CATEGORY, CATEGORY_NAMES
from graphmem.eval.scoring import (
    BUDGET_METRICS,
    LLM_METRICS,
    LOCOMO_KS,
    LONGMEMEVAL_KS,
    Question,
    RankScorer,
    Values,
    budget_values,
    judge,
    locomo_metric_names,
    locomo_rank_values,
    longmemeval_metric_names,
    longmemeval_rank_scorer,
)
from graphmem.ingest.formats import ReadLimits, load
from graphmem.ingest.models import ConversationIn, Dataset
from graphmem.ingest.writer import session_date_text
from graphmem.llm import LLMUsage
from graphmem.memory import Memory
from graphmem.retrieval.base import Retriever, settle
from graphmem.retrieval.packer import pack
from graphmem.retrieval.registry import build_retriever, builders_for
from graphmem.turns import render_turn

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
    "longmemeval_question",
    "longmemeval_rank_scorer",
    "run_locomo",
    "run_longmemeval",
]


class _Evaluator:
    """Ingests spaces, asks questions, collects one ``Scored`` per strategy × budget."""

    def __init__(
        self,
        memory: Memory,
        strategies: Sequence[str],
        budgets: Sequence[int],
        meta: dict[str, Any],
    ) -> None:
        if not strategies:
            raise ConfigError("no retrieval strategy to evaluate")
        if not budgets or min(budgets) < 1:
            raise ConfigError(f"budgets must be positive token counts, got {list(budgets)}")
        self.memory = memory
        self._unsettled = False  # a space was opened and its first question not asked yet
        self.strategies = list(dict.fromkeys(strategies))
        self.budgets = sorted(set(budgets))
        self.builders = builders_for(self.strategies)
        self.llm = memory.llm
        self.meta = {**meta, "n_questions": 0, "ignored_evidence_ids": 0, "skipped_no_evidence": 0}
        self.meta["llm"] = memory.settings.llm_model if self.llm is not None else None
        self.usage: dict[str, LLMUsage] = {}
        # Which preset each design ran with: a number means nothing without it.
        self.meta["presets"] = memory.configs.describe()
        # ... and which settings were given beside them (a variable left set in a shell
        # changes a number as much as a preset does).
        self.meta["settings"] = {
            "process": given_settings(memory.settings),
            "designs": memory.configs.overridden(),
        }
        self.meta["code"] = code_identity()
        self.history_tokens = 0
        self.records: dict[tuple[str, int], list[Scored]] = {
            (s, b): [] for s in self.strategies for b in self.budgets
        }

    def open_space(
        self, conversation: ConversationIn, dataset: Dataset, space: str
    ) -> list[Retriever]:
        """Ingest one conversation (skipping stored sessions) and build its retrievers."""
        cid = conversation.conversation_id
        one = Dataset(conversations=[conversation], qa={cid: dataset.qa.get(cid, [])})
        _, reports = self.memory.ingest_dataset(one, space, self.builders)
        for report in reports:
            self._account(f"build.{report.builder}", report.llm)
        self._ledger(space)
        self.history_tokens = history_tokens(conversation, self.memory.embedder.count_tokens)
        ctx = self.memory.retrieval_context(space)
        retrievers = [build_retriever(name, ctx) for name in self.strategies]
        prepare = self.meta.setdefault("prepare_ms", {})
        for name, retriever in zip(self.strategies, retrievers, strict=True):
            started = time.perf_counter()
            retriever.prepare()  # one-off per space, reported apart from query latency
            prepare[name] = prepare.get(name, 0.0) + (time.perf_counter() - started) * 1000
        settle(self.memory.settings)
        self._unsettled = True
        return retrievers

    def count(self, question: Question, ignored: int) -> None:
        self.meta["n_questions"] += 1
        self.meta["ignored_evidence_ids"] += ignored
        if not question.evidence:
            self.meta["skipped_no_evidence"] += 1

    def ask(self, retrievers: Sequence[Retriever], question: Question, rank: RankScorer) -> None:
        self._ask(retrievers, question, rank)
        if self._unsettled:
            # As Memory.query does: what a retriever's first query loads lazily (the spaCy
            # pipeline, the date parsers, the model's first-call state) joins what settle()
            # froze; left out, the collector's full passes walk it every few queries
            # (~100 ms each, on the first conversation of a run).
            settle(self.memory.settings)
            self._unsettled = False

    def _ask(self, retrievers: Sequence[Retriever], question: Question, rank: RankScorer) -> None:
        largest = self.budgets[-1]
        count = self.memory.embedder.count_tokens
        for name, retriever in zip(self.strategies, retrievers, strict=True):
            started = time.perf_counter()
            result = retriever.retrieve(question.text, largest)
            latency_ms = (time.perf_counter() - started) * 1000
            ranked = rank(question, result)
            for budget in self.budgets:
                # A list cut to its budget and then reordered is asked again per budget.
                hits = result.hits
                if budget != largest and not retriever.prefix_consistent:
                    hits = retriever.retrieve(question.text, budget).hits
                context = pack(hits, budget, count)
                before = self.llm.usage.snapshot() if self.llm else LLMUsage()
                values = {
                    **ranked,
                    **budget_values(question, context, self.llm, self.history_tokens),
                }
                if self.llm:
                    self._account("answer_and_judge", self.llm.usage.snapshot() - before)
                self.records[(name, budget)].append(Scored(question.group, latency_ms, values))

    def _account(self, part: str, usage: LLMUsage) -> None:
        """LLM cost per part of the run (each design's build, answering and judging)."""
        self.usage[part] = self.usage.get(part, LLMUsage()) + usage
        self.meta["llm_usage"] = {
            name: spent.as_dict(prefix="") for name, spent in sorted(self.usage.items())
        }

    def _ledger(self, space: str) -> None:
        """``meta.build_cost``: what building the evaluated spaces cost over every run (the
        build ledger, summed over spaces). ``llm_usage`` charges only this run, so a run
        that reuses stored spaces shows 0 build calls there and the real cost here."""
        designs = space_build_costs(self.memory.store, space).get("designs", {})
        if not designs:
            return  # nothing built (baselines only): no ledger to show
        ledger = self.meta.setdefault("build_cost", {})
        for name, figures in designs.items():
            mine = ledger.setdefault(name, {})
            for key, value in figures.items():
                if isinstance(value, int | float) and not isinstance(value, bool):
                    mine[key] = round(mine.get(key, 0) + value, 2)

    def results(
        self, metric_names: Sequence[str], breakdown: str, groups: Sequence[str]
    ) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for (strategy, budget), records in self.records.items():
            overall, by_group = aggregate(records, metric_names, groups)
            out.append(
                {
                    "strategy": strategy,
                    "budget": budget,
                    "overall": overall,
                    breakdown: by_group,
                    "meta": dict(self.meta),
                }
            )
        return out


def history_tokens(conversation: ConversationIn, count: Callable[[str], int]) -> int:
    """Tokens of the whole conversation as the reader would see it, turn by turn."""
    return sum(
        count(
            render_turn(
                turn.speaker,
                turn.text,
                date_text=session_date_text(session),
                caption=turn.caption,
            )
        )
        for session in conversation.sessions
        for turn in session.turns
    )


def _progress_bar(total: int, enabled: bool) -> tqdm[Any]:
    return tqdm(total=total, unit="q", disable=not enabled, dynamic_ncols=True)


def locomo_questions(conversation: ConversationIn, dataset: Dataset) -> list[tuple[Question, int]]:
    """Categories 1-4 of one conversation with their evidence split into stored turn ids
    and the number of ids ignored; category 5 (adversarial) is left out."""
    known = {t.source_id for s in conversation.sessions for t in s.turns}
    out: list[tuple[Question, int]] = []
    for item in dataset.qa.get(conversation.conversation_id, []):
        if item.category is None or item.category not in CATEGORY_NAMES:
            continue
        valid, ignored = split_evidence(item.evidence, known)
        question = Question(
            item.question, item.answer, item.category, CATEGORY_NAMES[item.category], valid
        )
        out.append((question, len(ignored)))
    return out


def run_locomo(
    memory: Memory,
    path: Path,
    strategies: Sequence[str],
    budgets: Sequence[int],
    *,
    space_prefix: str = "locomo",
    limit_conversations: int | None = None,
    progress: bool = True,
    limit_questions: int | None = None,
) -> list[dict[str, Any]]:
    """Evaluate ``strategies`` at ``budgets`` on a LoCoMo file; one result per pair
    (``limit_questions``: the first N scored questions of each conversation)."""
    dataset = load(path, "locomo", ReadLimits.of(memory.settings))
    conversations = dataset.conversations[:limit_conversations]
    plan = [(conv, locomo_questions(conv, dataset)[:limit_questions]) for conv in conversations]
    adversarial = sum(
        1
        for conv in conversations
        for q in dataset.qa.get(conv.conversation_id, [])
        if q.category == ADVERSARIAL_CATEGORY
    )
    meta = {"dataset": "locomo", "n_conversations": len(conversations)}
    run = _Evaluator(memory, strategies, budgets, {**meta, "skipped_adversarial": adversarial})
    with _progress_bar(sum(len(qs) for _, qs in plan), progress) as bar:
        for conv, questions in plan:
            bar.set_description(f"{conv.conversation_id}: ingest")
            retrievers = run.open_space(conv, dataset, f"{space_prefix}-{conv.conversation_id}")
            bar.set_description(conv.conversation_id)
            for question, ignored in questions:
                run.count(question, ignored)
                run.ask(retrievers, question, locomo_rank_values)
                bar.update()
    names = locomo_metric_names(run.llm is not None)
    return run.results(names, "by_category", list(CATEGORY_NAMES.values()))


def longmemeval_question(conversation: ConversationIn, dataset: Dataset) -> Question | None:
    items = dataset.qa.get(conversation.conversation_id, [])
    if not items:
        return None
    item = items[0]
    group = str(conversation.meta.get("question_type") or "unknown")
    return Question(
        item.question,
        item.answer,
        None,
        group,
        list(item.evidence),
        list(item.answer_session_ids),
    )


def run_longmemeval(
    memory: Memory,
    path: Path,
    strategies: Sequence[str],
    budgets: Sequence[int],
    *,
    space_prefix: str = "longmemeval",
    limit_conversations: int | None = None,
    progress: bool = True,
) -> list[dict[str, Any]]:
    """Evaluate on a LongMemEval file: every item is its own haystack, space and question."""
    dataset = load(path, "longmemeval", ReadLimits.of(memory.settings))
    conversations = dataset.conversations[:limit_conversations]
    meta = {"dataset": "longmemeval", "n_conversations": len(conversations)}
    run = _Evaluator(memory, strategies, budgets, {**meta, "skipped_no_answer_sessions": 0})
    groups: list[str] = []
    with _progress_bar(len(conversations), progress) as bar:
        for conv in conversations:
            question = longmemeval_question(conv, dataset)
            if question is not None:
                session_of = {t.source_id: s.source_id for s in conv.sessions for t in s.turns}
                retrievers = run.open_space(conv, dataset, f"{space_prefix}-{conv.conversation_id}")
                run.count(question, 0)
                run.meta["skipped_no_answer_sessions"] += 0 if question.answer_sessions else 1
                run.ask(retrievers, question, longmemeval_rank_scorer(session_of))
                groups.append(question.group)
            bar.update()
    names = longmemeval_metric_names(run.llm is not None)
    return run.results(names, "by_question_type", sorted(set(groups)))
