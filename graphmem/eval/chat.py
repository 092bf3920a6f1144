"""Your own chats as a benchmark (``graphmem eval chat``): any input graphmem ingests (a chat
app's export, JSONL, ...) and a JSON Lines file of questions about it, scored as LoCoMo is
(evidence recall@k, coverage, and within a budget ER@B and ATR@B), by the questions' own
categories. Each conversation with questions is its own space, ``<prefix>-<hash of its id>``
(a conversation id may hold any character, a space name may not).

A question, one JSON object a line::

    {"conversation": "Ana", "question": "When do we land?", "answer": "Friday",
     "evidence": ["2024-03-02:4"], "category": "temporal"}

``conversation`` may be left out when the input holds one conversation; ``evidence``: the
turn ids (as ``graphmem query`` cites them, with or without the ``<conversation>/``
prefix) that hold the answer, at least one; ``answer`` (for ATR@B and an LLM's scores) and
``category`` (default ``all``) are optional. A bad line is one InputError naming it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from tqdm import tqdm

from graphmem.errors import InputError
from graphmem.eval.harness import Evaluator, progress_bar, run_identity, skipped_in
from graphmem.eval.parallel import Item, evaluate_all
from graphmem.eval.scoring import Question, locomo_metric_names, locomo_rank_values
from graphmem.ingest.exports import ImportOptions
from graphmem.ingest.formats import Format, ReadLimits, load
from graphmem.ingest.models import ConversationIn, Dataset, QAItem
from graphmem.ingest.validate import MAX_TEXT_CHARS, Rec
from graphmem.memory import Memory
from graphmem.process.hashing import file_sha256

DEFAULT_GROUP = "all"


def run_chat(
    memory: Memory,
    path: Path,
    strategies: Sequence[str],
    budgets: Sequence[int],
    *,
    questions: Path,
    fmt: Format = "auto",
    options: ImportOptions | None = None,
    space_prefix: str = "chat",
    limit_conversations: int | None = None,
    progress: bool = True,
    out: Path | None = None,
    strict: bool = False,
    jobs: int = 1,
) -> list[dict[str, Any]]:
    """Evaluate ``strategies`` at ``budgets`` on the chats of ``path`` with the questions
    of ``questions``; one result per pair, as ``run_locomo``'s."""
    limits = ReadLimits.of(memory.settings, strict)
    loaded = load(path, fmt, limits, options or ImportOptions.of(memory.settings))
    dataset, names = with_questions(loaded, questions)
    asked = [c for c in dataset.conversations if dataset.qa.get(c.conversation_id)]
    conversations = asked[:limit_conversations]
    groups = sorted(
        {names[q.category or 0] for c in conversations for q in dataset.qa[c.conversation_id]}
    )
    meta = {
        "dataset": "chat",
        "n_conversations": len(conversations),
        "input_skipped": skipped_in(dataset, conversations),
        "input_left_out": dataset.skipped.left_out,  # the export's, as graphmem ingest says
        "input_notes": dataset.skipped.notes,
    }
    identity = run_identity(path if path.is_file() else questions, space_prefix, out)
    identity["questions_sha256"] = file_sha256(questions)
    run = Evaluator(memory, strategies, budgets, meta, identity)
    run.shape = (locomo_metric_names(run.llm is not None), "by_category", groups, ())
    run.resume([c.conversation_id for c in conversations])
    job = partial(evaluate_chat, space_prefix=space_prefix, names=names)
    items = [Item.of(c, dataset, len(dataset.qa[c.conversation_id])) for c in conversations]
    with progress_bar(sum(item.weight for item in items), progress) as bar:
        evaluate_all(run, items, job, bar, jobs)
    return run.outcome()


def evaluate_chat(
    run: Evaluator,
    conv: ConversationIn,
    dataset: Dataset,
    bar: tqdm[Any] | None,
    *,
    space_prefix: str,
    names: dict[int, str],
) -> None:
    """One conversation: its space, then its questions (``bar``: None in a worker;
    ``names``: each category number's name)."""
    cid = conv.conversation_id
    retrievers = run.open_space(conv, dataset, space_name(space_prefix, cid))
    for item in dataset.qa.get(cid, []):
        category = item.category or 0
        question = Question(item.question, item.answer, category, names[category], item.evidence)
        run.count(question, 0)
        run.ask(retrievers, question, locomo_rank_values)
        if bar is not None:
            bar.update()


def space_name(prefix: str, conversation: str) -> str:
    """A conversation's space: its id may hold spaces, slashes or any script."""
    return f"{prefix}-{hashlib.sha256(conversation.encode()).hexdigest()[:12]}"


def with_questions(dataset: Dataset, path: Path) -> tuple[Dataset, dict[int, str]]:
    """``dataset`` with the questions of ``path``, each checked against its turns, and the
    name of each category number (numbered in order of first use, from 1)."""
    turns = {
        c.conversation_id: {t.source_id for s in c.sessions for t in s.turns}
        for c in dataset.conversations
    }
    qa: dict[str, list[QAItem]] = {cid: [] for cid in turns}
    numbers: dict[str, int] = {}
    for rec, raw in _lines(path):
        cid, item, group = _question(rec, raw, turns)
        number = numbers.setdefault(group, len(numbers) + 1)
        qa[cid].append(item.model_copy(update={"category": number}))
    if not any(qa.values()):
        raise InputError("holds no question", path=str(path))
    names = {number: group for group, number in numbers.items()}
    return dataset.model_copy(update={"qa": qa}), names


def _lines(path: Path) -> Iterator[tuple[Rec, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the questions ({exc})", path=str(path)) from None
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            rec = Rec(str(path), f"line {number}")
            try:
                yield rec, json.loads(line)
            except ValueError as exc:
                raise rec.error(f"broken JSON ({exc})") from None


def _question(rec: Rec, raw: Any, turns: dict[str, set[str]]) -> tuple[str, QAItem, str]:
    """One question: its conversation, the item and its category's name."""
    obj = rec.obj(raw)
    cid = _conversation(rec, obj, turns)
    text = rec.opt_str(obj, "question", MAX_TEXT_CHARS)
    if text is None or not text.strip():
        raise rec.error("missing or empty", "question")
    evidence = [e.removeprefix(f"{cid}/") for e in rec.str_list(obj, "evidence", True)]
    unknown = [e for e in evidence if e not in turns[cid]]
    if not evidence or unknown:
        said = f"no turn {unknown[0]!r} in conversation {cid!r}" if unknown else "is empty"
        raise rec.error(said, "evidence", hint="turn ids as `graphmem query` cites them")
    group = rec.opt_str(obj, "category", 128) or DEFAULT_GROUP
    item = QAItem(
        question=text,
        answer=rec.answer(obj, "answer"),
        category=None,
        evidence=evidence,
        raw_evidence=list(evidence),
    )
    return cid, item, group


def _conversation(rec: Rec, obj: dict[str, Any], turns: dict[str, set[str]]) -> str:
    if obj.get("conversation") is None and len(turns) == 1:
        return next(iter(turns))
    cid = rec.label(obj, "conversation")
    if cid not in turns:
        known = ", ".join(sorted(turns)[:5])
        raise rec.error(f"no conversation {cid!r} in the input (it holds {known})", "conversation")
    return cid
