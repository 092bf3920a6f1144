"""The LoCoMo runner: each conversation its own space, its questions scored by category
(``graphmem eval locomo``); one conversation per worker with ``jobs`` (``parallel``)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from tqdm import tqdm

from graphmem.eval.harness import Evaluator, progress_bar, run_identity, skipped_in
from graphmem.eval.metrics import ADVERSARIAL_CATEGORY, CATEGORY_NAMES
from graphmem.eval.parallel import Item, evaluate_all
from graphmem.eval.scoring import locomo_metric_names, locomo_questions, locomo_rank_values
from graphmem.ingest.formats import ReadLimits, load
from graphmem.ingest.models import ConversationIn, Dataset
from graphmem.memory import Memory


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
    out: Path | None = None,
    strict: bool = False,
    jobs: int = 1,
) -> list[dict[str, Any]]:
    """Evaluate ``strategies`` at ``budgets`` on a LoCoMo file; one result per pair
    (``limit_questions``: the first N scored questions of each conversation; ``out``: write
    each conversation's results as it finishes and resume from them; ``strict``: refuse the
    file's empty turns and repeated turn ids rather than skip them, ``meta.input_skipped``;
    ``jobs``: conversations evaluated at once, in worker processes, ``parallel``)."""
    dataset = load(path, "locomo", ReadLimits.of(memory.settings, strict))
    conversations = dataset.conversations[:limit_conversations]
    plan = [(conv, locomo_questions(conv, dataset)[:limit_questions]) for conv in conversations]
    adversarial = sum(
        1
        for conv in conversations
        for q in dataset.qa.get(conv.conversation_id, [])
        if q.category == ADVERSARIAL_CATEGORY
    )
    meta = {
        "dataset": "locomo",
        "n_conversations": len(conversations),
        "input_skipped": skipped_in(dataset, conversations),
    }
    identity = run_identity(path, space_prefix, out, questions=limit_questions)
    run = Evaluator(
        memory, strategies, budgets, {**meta, "skipped_adversarial": adversarial}, identity
    )
    categories = list(CATEGORY_NAMES.values())
    run.shape = (locomo_metric_names(run.llm is not None), "by_category", categories, ())
    run.resume([conv.conversation_id for conv in conversations])

    job = partial(evaluate_locomo, space_prefix=space_prefix, limit_questions=limit_questions)
    items = [Item.of(conv, dataset, len(questions)) for conv, questions in plan]
    with progress_bar(sum(item.weight for item in items), progress) as bar:
        evaluate_all(run, items, job, bar, jobs)
    return run.outcome()


def evaluate_locomo(
    run: Evaluator,
    conv: ConversationIn,
    dataset: Dataset,
    bar: tqdm[Any] | None,
    *,
    space_prefix: str,
    limit_questions: int | None,
) -> None:
    """One LoCoMo conversation: its space, then its questions (``bar``: None in a worker)."""
    cid = conv.conversation_id
    if bar is not None:
        bar.set_description(f"{cid}: ingest")
    retrievers = run.open_space(conv, dataset, f"{space_prefix}-{cid}")
    if bar is not None:
        bar.set_description(cid)
    for question, ignored in locomo_questions(conv, dataset)[:limit_questions]:
        run.count(question, ignored)
        run.ask(retrievers, question, locomo_rank_values)
        if bar is not None:
            bar.update()
