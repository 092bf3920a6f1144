"""Benchmark evaluation of retrieval strategies on LoCoMo and LongMemEval.

One loop serves both datasets (``_Evaluator``): every conversation goes into its own space
(ingest is idempotent: stored sessions are skipped), each question is retrieved ONCE per
strategy with the largest budget (that call is the latency), and the same hits are packed
at every budget. Ranking metrics read ``RetrievalResult.ranked_source_ids()``; budget
metrics read the packed context. With an LLM configured, each packed context is also
answered and scored (F1, BLEU-1, LLM-as-judge); without one those keys are absent.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from graphmem.answer import answer_question
from graphmem.errors import ConfigError
from graphmem.eval.aggregate import Scored, aggregate, ranked_sessions, split_evidence
from graphmem.eval.metrics import (
    ADVERSARIAL_CATEGORY,
    CATEGORY_NAMES,
    JUDGE_PROMPT,
    JudgeVerdict,
    answer_token_recall,
    bleu1,
    coverage_at_k,
    evidence_recall_at_k,
    evidence_recall_in,
    locomo_f1,
    recall_all_at_k,
    recall_any_at_k,
)
from graphmem.ingest.formats import load
from graphmem.ingest.models import ConversationIn, Dataset
from graphmem.llm import Message, StructuredLLM
from graphmem.memory import Memory
from graphmem.retrieval.base import RetrievalResult, Retriever
from graphmem.retrieval.packer import PackedContext, pack
from graphmem.retrieval.registry import build_retriever, builders_for

LOCOMO_KS = (5, 10, 20)
LONGMEMEVAL_KS = (5, 10)
BUDGET_METRICS = ("evidence_recall_at_budget", "answer_token_recall_at_budget")
LLM_METRICS = ("f1", "bleu1", "judge")

Values = dict[str, float | None]


@dataclass(frozen=True)
class Question:
    """A question ready to score: ``evidence`` holds only ids of stored turns."""

    text: str
    answer: str | None
    category: int | None
    group: str
    evidence: list[str]
    answer_sessions: list[str] = field(default_factory=list)


RankScorer = Callable[[Question, RetrievalResult], Values]


def locomo_metric_names(with_llm: bool) -> list[str]:
    names = [f"evidence_recall_at_{k}" for k in LOCOMO_KS]
    names += [f"coverage_at_{k}" for k in LOCOMO_KS]
    return names + list(BUDGET_METRICS) + (list(LLM_METRICS) if with_llm else [])


def longmemeval_metric_names(with_llm: bool) -> list[str]:
    names = [f"recall_any_at_{k}" for k in LONGMEMEVAL_KS]
    names += [f"recall_all_at_{k}" for k in LONGMEMEVAL_KS]
    return names + list(BUDGET_METRICS) + (list(LLM_METRICS) if with_llm else [])


def judge(llm: StructuredLLM, question: str, gold: str, generated: str) -> float:
    """LLM-as-judge J for one answer: 1.0 for CORRECT, 0.0 for WRONG."""
    prompt = JUDGE_PROMPT.format(question=question, gold_answer=gold, generated_answer=generated)
    messages = [
        Message(role="system", content='Reply with JSON: {"reasoning": "...", "label": "..."}.'),
        Message(role="user", content=prompt),
    ]
    return 1.0 if llm.generate(messages, JudgeVerdict).label == "CORRECT" else 0.0


def budget_values(question: Question, context: PackedContext, llm: StructuredLLM | None) -> Values:
    """The metrics of one packed context: evidence and answer-token recall, and with an
    LLM the answer scores (the reader sees exactly ``context.render()``)."""
    rendered = context.render()
    values: Values = {
        "evidence_recall_at_budget": evidence_recall_in(context.source_ids, question.evidence),
        "answer_token_recall_at_budget": (
            answer_token_recall(rendered, question.answer) if question.answer else None
        ),
    }
    if llm is not None:
        if question.answer is None:
            values.update(dict.fromkeys(LLM_METRICS))
        else:
            predicted = answer_question(llm, question.text, rendered)
            values["f1"] = locomo_f1(predicted, question.answer, question.category)
            values["bleu1"] = bleu1(predicted, question.answer)
            values["judge"] = judge(llm, question.text, question.answer, predicted)
    return values


def locomo_rank_values(question: Question, result: RetrievalResult) -> Values:
    ranked = result.ranked_source_ids()
    values: Values = {}
    for k in LOCOMO_KS:
        values[f"evidence_recall_at_{k}"] = evidence_recall_at_k(ranked, question.evidence, k)
        values[f"coverage_at_{k}"] = coverage_at_k(ranked, question.evidence, k)
    return values


def longmemeval_rank_scorer(session_of: Mapping[str, str]) -> RankScorer:
    """Session-level recall: the ranked turns mapped to their sessions (first hit wins)."""

    def score(question: Question, result: RetrievalResult) -> Values:
        sessions = ranked_sessions(result.ranked_source_ids(), session_of)
        values: Values = {}
        for k in LONGMEMEVAL_KS:
            values[f"recall_any_at_{k}"] = recall_any_at_k(sessions, question.answer_sessions, k)
            values[f"recall_all_at_{k}"] = recall_all_at_k(sessions, question.answer_sessions, k)
        return values

    return score


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
        self.strategies = list(dict.fromkeys(strategies))
        self.budgets = sorted(set(budgets))
        self.builders = builders_for(self.strategies)
        self.llm = memory.llm
        self.meta = {**meta, "n_questions": 0, "ignored_evidence_ids": 0, "skipped_no_evidence": 0}
        self.meta["llm"] = memory.settings.llm_model if self.llm is not None else None
        # Which preset each design ran with: a number means nothing without it.
        self.meta["presets"] = memory.configs.describe()
        self.records: dict[tuple[str, int], list[Scored]] = {
            (s, b): [] for s in self.strategies for b in self.budgets
        }

    def open_space(
        self, conversation: ConversationIn, dataset: Dataset, space: str
    ) -> list[Retriever]:
        """Ingest one conversation (skipping stored sessions) and build its retrievers."""
        cid = conversation.conversation_id
        one = Dataset(conversations=[conversation], qa={cid: dataset.qa.get(cid, [])})
        self.memory.ingest_dataset(one, space, self.builders)
        ctx = self.memory.retrieval_context(space)
        retrievers = [build_retriever(name, ctx) for name in self.strategies]
        prepare = self.meta.setdefault("prepare_ms", {})
        for name, retriever in zip(self.strategies, retrievers, strict=True):
            started = time.perf_counter()
            retriever.prepare()  # one-off per space, reported apart from query latency
            prepare[name] = prepare.get(name, 0.0) + (time.perf_counter() - started) * 1000
        return retrievers

    def count(self, question: Question, ignored: int) -> None:
        self.meta["n_questions"] += 1
        self.meta["ignored_evidence_ids"] += ignored
        if not question.evidence:
            self.meta["skipped_no_evidence"] += 1

    def ask(self, retrievers: Sequence[Retriever], question: Question, rank: RankScorer) -> None:
        largest = self.budgets[-1]
        count = self.memory.embedder.count_tokens
        for name, retriever in zip(self.strategies, retrievers, strict=True):
            started = time.perf_counter()
            result = retriever.retrieve(question.text, largest)
            latency_ms = (time.perf_counter() - started) * 1000
            ranked = rank(question, result)
            for budget in self.budgets:
                context = pack(result.hits, budget, count)
                values = {**ranked, **budget_values(question, context, self.llm)}
                self.records[(name, budget)].append(Scored(question.group, latency_ms, values))

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
) -> list[dict[str, Any]]:
    """Evaluate ``strategies`` at ``budgets`` on a LoCoMo file; one result per pair."""
    dataset = load(path, "locomo")
    conversations = dataset.conversations[:limit_conversations]
    plan = [(conv, locomo_questions(conv, dataset)) for conv in conversations]
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
    dataset = load(path, "longmemeval")
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
