"""What one question scores: its ranking metrics per dataset (LoCoMo's evidence recall and
coverage at k, LongMemEval's session recall) and, for each packed context, the budget metrics
and with an LLM the answer scores (F1, BLEU-1, LLM-as-judge); a LoCoMo conversation's scored
questions and the tokens of a whole history. ``harness`` runs the loop and re-exports these
names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from graphmem.eval.aggregate import ranked_sessions, split_evidence
from graphmem.eval.metrics import (
    CATEGORY_NAMES,
    JUDGE_PROMPT,
    JudgeVerdict,
    answer_token_recall,
    bleu1,
    context_compression,
    coverage_at_k,
    evidence_recall_at_k,
    evidence_recall_in,
    locomo_f1,
    memory_coverage,
    recall_all_at_k,
    recall_any_at_k,
)
from graphmem.ingest.models import ConversationIn, Dataset
from graphmem.ingest.render import render_turn
from graphmem.ingest.writer import session_date_text
from graphmem.llm import Message, StructuredLLM, with_fallback
from graphmem.llm.answer import answer_or_none
from graphmem.plugin.retriever import RetrievalResult
from graphmem.retrieval.packer import PackedContext

LOCOMO_KS = (5, 10, 20)
LONGMEMEVAL_KS = (5, 10)
BUDGET_METRICS = (
    "evidence_recall_at_budget",
    "answer_token_recall_at_budget",
    "memory_coverage_at_budget",
    "context_compression_at_budget",
)
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
    messages = [Message(role="user", content=prompt)]
    return 1.0 if llm.generate(messages, JudgeVerdict).label == "CORRECT" else 0.0


def budget_values(
    question: Question,
    context: PackedContext,
    llm: StructuredLLM | None,
    history_tokens: int = 0,
) -> Values:
    """The metrics of one packed context: evidence and answer-token recall, Amory's memory
    coverage and context compression (against ``history_tokens``, the whole conversation),
    and with an LLM the answer scores (the reader sees exactly ``context.render()``)."""
    rendered = context.render()
    values: Values = {
        "evidence_recall_at_budget": evidence_recall_in(context.source_ids, question.evidence),
        "answer_token_recall_at_budget": (
            answer_token_recall(rendered, question.answer) if question.answer else None
        ),
        "memory_coverage_at_budget": memory_coverage(context.source_ids, question.evidence),
        "context_compression_at_budget": context_compression(context.tokens, history_tokens),
    }
    if llm is not None:
        if question.answer is None:
            values.update(dict.fromkeys(LLM_METRICS))
        else:
            # A question the model gives no valid answer (or verdict) for is scored as an
            # empty answer (and no verdict), logged and counted, instead of ending the run.
            predicted = answer_or_none(llm, question.text, rendered) or ""
            values["f1"] = locomo_f1(predicted, question.answer, question.category)
            values["bleu1"] = bleu1(predicted, question.answer)
            values["judge"] = with_fallback(
                llm,
                lambda p: judge(llm, question.text, question.answer or "", p),
                _no_verdict,
                predicted,
                what="judge",
            )
    return values


def _no_verdict(_: str) -> float | None:
    return None


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
