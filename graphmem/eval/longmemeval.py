"""LongMemEval (Wu et al., ICLR 2025): every item is one question with its own haystack of
user-assistant sessions, evaluated in its own space.

Which items run: ``half`` picks positions in the file (``dev``: 0, 2, 4, ...; ``test``: 1,
3, 5, ...; ``all``), then ``types`` the question types, then ``limit`` the first N. The
whole file is loaded and validated first, so a broken item anywhere stops the run before
the first write. Abstention questions (ids ending ``_abs``: the haystack does not hold the
answer) form their own group, left out of the overall summary as the paper's retrieval
evaluation leaves them out. The question's date is "now" for the retrievers (a relative
date in the question counts from it), not the last session's.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, Literal

from tqdm import tqdm

from graphmem.errors import ConfigError
from graphmem.eval.harness import Evaluator, progress_bar, run_identity, skipped_in
from graphmem.eval.parallel import Item, evaluate_all
from graphmem.eval.scoring import Question, longmemeval_metric_names, longmemeval_rank_scorer
from graphmem.ingest.formats import ReadLimits, load
from graphmem.ingest.models import ConversationIn, Dataset
from graphmem.memory import Memory

Half = Literal["all", "dev", "test"]
HALVES: tuple[Half, ...] = ("all", "dev", "test")
QUESTION_TYPES = (
    "single-session-user",
    "single-session-assistant",
    "single-session-preference",
    "multi-session",
    "knowledge-update",
    "temporal-reasoning",
)
ABSTENTION = "abstention"


def question_group(conversation: ConversationIn) -> str:
    """The question's breakdown group: its type, or ``abstention`` for an ``_abs`` id."""
    if conversation.conversation_id.endswith("_abs"):
        return ABSTENTION
    return str(conversation.meta.get("question_type") or "unknown")


def select(
    conversations: Sequence[ConversationIn],
    half: Half = "all",
    types: Sequence[str] = (),
    limit: int | None = None,
) -> list[ConversationIn]:
    """The items a run evaluates, in file order (see the module's docstring)."""
    unknown = sorted(set(types) - {*QUESTION_TYPES, ABSTENTION})
    if unknown:
        raise ConfigError(
            f"unknown question type {', '.join(map(repr, unknown))}",
            hint=f"choose from {', '.join((*QUESTION_TYPES, ABSTENTION))}",
        )
    if half not in HALVES:
        raise ConfigError(f"unknown half {half!r}", hint="choose from all, dev, test")
    start, step = {"all": (0, 1), "dev": (0, 2), "test": (1, 2)}[half]
    chosen = list(conversations[start::step])
    if types:
        wanted = set(types)
        chosen = [
            c
            for c in chosen
            if question_group(c) in wanted or (c.meta.get("question_type") in wanted)
        ]
    return chosen[:limit]


def longmemeval_question(conversation: ConversationIn, dataset: Dataset) -> Question | None:
    items = dataset.qa.get(conversation.conversation_id, [])
    if not items:
        return None
    item = items[0]
    return Question(
        item.question,
        item.answer,
        None,
        question_group(conversation),
        list(item.evidence),
        list(item.answer_session_ids),
    )


def asked_at(conversation: ConversationIn) -> datetime | None:
    stamp = conversation.meta.get("question_date")
    return stamp if isinstance(stamp, datetime) else None


def run_longmemeval(
    memory: Memory,
    path: Path,
    strategies: Sequence[str],
    budgets: Sequence[int],
    *,
    space_prefix: str = "longmemeval",
    limit_conversations: int | None = None,
    progress: bool = True,
    out: Path | None = None,
    strict: bool = False,
    half: Half = "all",
    types: Sequence[str] = (),
    jobs: int = 1,
) -> list[dict[str, Any]]:
    """Evaluate on a LongMemEval file: every item is its own haystack, space and question
    (``out``: write each haystack's results as it finishes and resume from them;
    ``strict``: refuse the file's empty turns and repeated sessions rather than skip them,
    ``meta.input_skipped``; ``jobs``: haystacks evaluated at once, in worker processes,
    ``parallel``)."""
    dataset = load(path, "longmemeval", ReadLimits.of(memory.settings, strict))
    conversations = select(dataset.conversations, half, types, limit_conversations)
    meta = {
        "dataset": "longmemeval",
        "half": half,
        "types": sorted(types),
        "n_conversations": len(conversations),
        "input_skipped": skipped_in(dataset, conversations),
        "skipped_no_answer_sessions": 0,
    }
    identity = run_identity(path, space_prefix, out, half=half, types=sorted(types))
    run = Evaluator(memory, strategies, budgets, meta, identity)
    names = longmemeval_metric_names(run.llm is not None)
    run.shape = (names, "by_question_type", (*QUESTION_TYPES, ABSTENTION), (ABSTENTION,))
    run.resume([conv.conversation_id for conv in conversations])

    job = partial(evaluate_haystack, space_prefix=space_prefix)
    items = [
        Item.of(conv, dataset, 1)
        for conv in conversations
        if longmemeval_question(conv, dataset) is not None
    ]
    with progress_bar(len(items), progress) as bar:
        evaluate_all(run, items, job, bar, jobs)
    return run.outcome()


def evaluate_haystack(
    run: Evaluator,
    conv: ConversationIn,
    dataset: Dataset,
    bar: tqdm[Any] | None,
    *,
    space_prefix: str,
) -> None:
    """One item: its haystack's space, then its question (the bar counts haystacks)."""
    question = longmemeval_question(conv, dataset)
    if question is None:  # not planned (``run_longmemeval``)
        return
    session_of = {t.source_id: s.source_id for s in conv.sessions for t in s.turns}
    space = f"{space_prefix}-{conv.conversation_id}"
    retrievers = run.open_space(conv, dataset, space, now=asked_at(conv))
    run.count(question, 0)
    run.add("skipped_no_answer_sessions", 0 if question.answer_sessions else 1)
    run.ask(retrievers, question, longmemeval_rank_scorer(session_of))
    run.current.groups.append(question.group)
