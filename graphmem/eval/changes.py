"""``graphmem eval validity``: how well the offline detector finds statements that replace
earlier ones, judged against hand labels (``tests/fixtures/validity/``).

A label is one candidate pair (``graphmem.validity.detect``: two statements of one label,
one subject, a shared topic, the earlier in an earlier session) and what a reader decides
it is: ``same``, ``update``, ``contradiction`` or ``unrelated``. The labelled conversations
are built as an evaluation builds them (one space each, every builder; a built space is
reused), the pairs and the detector's verdicts are read from the graph, and matched to
the labels by (conversation, node label, turns, texts).

A pair is *positive* when it supersedes (``update`` or ``contradiction``). ``precision``:
labelled positives among the detector's labelled positives; ``recall``: the detector's
positives among the labelled positives, so recall is over candidate pairs (a change the
candidates miss is counted by no one). A pair no label covers is *unlabelled* (``--todo``
writes it to be judged); a label whose pair is no longer a candidate is *gone*. Only the
dev half of LongMemEval may be labelled.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from graphmem.errors import InputError
from graphmem.eval.longmemeval import select
from graphmem.eval.parts import part_of
from graphmem.eval.precision import DatasetName, conversations_of
from graphmem.ingest.formats import ReadLimits, load
from graphmem.ingest.models import Dataset, SessionIn, Turn
from graphmem.memory import Memory
from graphmem.plugin.registry import build_order, registry
from graphmem.validity.detect import judge as judge_pair
from graphmem.validity.types import SUPERSEDING, Candidate, Statement, Verdict
from graphmem.validity.update import judged_pairs

PRECISION_TARGET = 0.9


class _Pair(BaseModel):
    """Two statements of one label of one conversation, as the graph holds them."""

    dataset: DatasetName
    conversation: str
    label_name: str
    earlier_turn: str
    earlier: str
    later_turn: str
    later: str
    verdict: Verdict


class PairLabel(_Pair):
    """One hand label: what the later statement does to the earlier one."""

    why: str = ""


class JudgedPair(_Pair):
    """A candidate pair as the graph holds it and the detector's verdict on it."""

    reason: str


class ChangeScore(BaseModel):
    """The detector against the labels (module docstring)."""

    judged: int
    labelled_positive: int
    detected_positive: int
    true_positive: int
    precision: float | None
    recall: float | None
    target: float = PRECISION_TARGET
    unlabelled: int
    gone: int
    by_verdict: dict[str, dict[str, int]]  # label verdict -> detector verdict -> count


Key = tuple[str, str, str, str, str, str, str]


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _key(x: _Pair) -> Key:
    return (
        x.dataset,
        x.conversation,
        x.label_name,
        x.earlier_turn,
        _norm(x.earlier),
        x.later_turn,
        _norm(x.later),
    )


def load_pair_labels(folder: Path) -> list[PairLabel]:
    """Every ``*.jsonl`` of ``folder``; a bad line names its file and line."""
    files = sorted(folder.glob("*.jsonl"))
    if not files:
        raise InputError("no *.jsonl label file", path=str(folder))
    out: list[PairLabel] = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                out.append(PairLabel.model_validate(json.loads(line)))
            except (ValueError, ValidationError) as exc:
                first = str(exc).splitlines()[0]
                raise InputError(
                    f"not a pair label: {first}", path=str(path), record=f"line {number}"
                ) from exc
    return out


def judged(memory: Memory, space: str, dataset: DatasetName, conversation: str) -> list[JudgedPair]:
    """The space's candidate pairs with the offline detector's verdicts."""
    return [
        JudgedPair(
            dataset=dataset,
            conversation=conversation,
            label_name=pair.earlier.label,
            earlier_turn=pair.earlier.turn,
            earlier=pair.earlier.text,
            later_turn=pair.later.turn,
            later=pair.later.text,
            verdict=verdict.verdict,
            reason=verdict.reason,
        )
        for pair, verdict in judged_pairs(memory.store, space, memory.settings.assistant_speakers)
    ]


def score(
    labels: Sequence[PairLabel], found: Sequence[JudgedPair]
) -> tuple[ChangeScore, list[JudgedPair]]:
    """The score over labelled pairs, and the unlabelled pairs of the labelled conversations."""
    by_key = {_key(x): x for x in labels}
    convs = {(x.dataset, x.conversation) for x in labels}
    seen: set[Key] = set()
    unlabelled: list[JudgedPair] = []
    matrix: dict[str, dict[str, int]] = {}
    counts = {"judged": 0, "labelled": 0, "detected": 0, "both": 0}
    for pair in found:
        key = _key(pair)
        if key in seen or (pair.dataset, pair.conversation) not in convs:
            continue
        seen.add(key)
        label = by_key.get(key)
        if label is None:
            unlabelled.append(pair)
            continue
        truth, said = label.verdict in SUPERSEDING, pair.verdict in SUPERSEDING
        counts["judged"] += 1
        counts["labelled"] += truth
        counts["detected"] += said
        counts["both"] += truth and said
        row = matrix.setdefault(label.verdict, {})
        row[pair.verdict] = row.get(pair.verdict, 0) + 1
    result = ChangeScore(
        judged=counts["judged"],
        labelled_positive=counts["labelled"],
        detected_positive=counts["detected"],
        true_positive=counts["both"],
        precision=counts["both"] / counts["detected"] if counts["detected"] else None,
        recall=counts["both"] / counts["labelled"] if counts["labelled"] else None,
        unlabelled=len(unlabelled),
        gone=sum(1 for key in by_key if key not in seen),
        by_verdict=matrix,
    )
    return result, unlabelled


def measure(
    memory: Memory,
    labels: Sequence[PairLabel],
    sources: Mapping[str, Path],
    space_prefix: str,
    progress: Callable[[str], None] | None = None,
) -> tuple[ChangeScore, list[JudgedPair]]:
    """Build (or reuse) each labelled conversation's space with the designs whose statements
    carry valid time (and what they require: the others write nothing the detector reads;
    a later evaluation with the same prefix builds the rest), then score."""
    conversations = conversations_of(((x.dataset, x.conversation) for x in labels), sources, memory)
    builders = build_order(
        d.name for d in registry().values() if d.valid_time and d.builder is not None
    )
    found: list[JudgedPair] = []
    for (name, cid), conv in conversations.items():
        space = f"{space_prefix}-{cid}"
        if progress is not None:
            progress(space)
        memory.ingest_dataset(Dataset(conversations=[conv], qa={}), space, builders)
        found += judged(memory, space, name, cid)  # type: ignore[arg-type]
    return score(labels, found)


def todo_lines(unlabelled: Sequence[JudgedPair]) -> list[dict[str, Any]]:
    """Unlabelled pairs as label lines to complete: ``verdict`` left out, and the
    detector's too, so that the label is judged from the two statements alone."""
    return [p.model_dump(exclude={"verdict", "reason"}) for p in unlabelled]


class Reach(BaseModel):
    """How many haystacks of one part have a change marked (``reach``)."""

    # "dev" (rules are written reading these haystacks only), "frozen" (never read: do the
    # rules hold on them?), by graphmem.eval.parts's split of the question id, or "all".
    part: str
    haystacks: int
    reached: int
    calls: int


def reach(
    memory: Memory,
    path: Path,
    space_prefix: str,
    types: Sequence[str] = ("knowledge-update",),
    progress: Callable[[str], None] | None = None,
) -> tuple[list[Reach], list[JudgedPair]]:
    """Build (or reuse) each dev haystack of ``types`` with the designs whose statements
    carry valid time, and count per part the haystacks where the offline rules mark a
    change; the calls are returned to be checked by hand (``--calls``)."""
    dataset = load(path, "longmemeval", ReadLimits.of(memory.settings))
    builders = build_order(
        d.name for d in registry().values() if d.valid_time and d.builder is not None
    )
    calls: list[JudgedPair] = []
    per: dict[str, list[int]] = {}
    for conv in select(dataset.conversations, "dev", types):
        cid = conv.conversation_id
        space = f"{space_prefix}-{cid}"
        if progress is not None:
            progress(space)
        memory.ingest_dataset(Dataset(conversations=[conv], qa={}), space, builders)
        found = [p for p in judged(memory, space, "longmemeval", cid) if p.verdict in SUPERSEDING]
        calls += found
        for part in (part_of(cid), "all"):
            per.setdefault(part, []).append(len(found))
    rows = [
        Reach(part=part, haystacks=len(n), reached=sum(1 for x in n if x), calls=sum(n))
        for part, n in sorted(per.items())
    ]
    return rows, calls


def judge_labels(
    labels: Sequence[PairLabel], sources: Mapping[str, Path], memory: Memory
) -> tuple[ChangeScore, list[JudgedPair]]:
    """The offline rules on the labelled pairs as the labels write them, nothing built:
    each statement's claim is read from the label's text with its turn's speaker and date
    (a PREMem fragment's own key, not in the label, is left out). Fast, and what a rule
    change does to the labels; ``measure`` scores the pairs a build gives."""
    from graphmem.validity.claim_reader import claims  # spaCy: only when judging

    conversations = conversations_of(((x.dataset, x.conversation) for x in labels), sources, memory)
    turns = {
        (name, cid, turn.source_id): (session, turn)
        for (name, cid), conv in conversations.items()
        for session in conv.sessions
        for turn in session.turns
    }
    statements = [
        _labelled_statement(
            x, side, *turns[(x.dataset, x.conversation, getattr(x, f"{side}_turn"))]
        )
        for x in labels
        for side in ("earlier", "later")
    ]
    read = claims(statements)
    found = []
    for n, x in enumerate(labels):
        pair = Candidate(
            earlier=statements[2 * n],
            later=statements[2 * n + 1],
            earlier_claim=read[2 * n],
            later_claim=read[2 * n + 1],
            shared=(),
        )
        verdict = judge_pair(pair)
        found.append(
            JudgedPair(
                **x.model_dump(exclude={"verdict", "why"}),
                verdict=verdict.verdict,
                reason=verdict.reason,
            )
        )
    return score(labels, found)


def _labelled_statement(x: PairLabel, side: str, session: SessionIn, turn: Turn) -> Statement:
    return Statement(
        label=x.label_name,
        id=f"{side}:{x.earlier_turn}:{x.later_turn}",
        text=getattr(x, side),
        speaker=turn.speaker,
        said_at=turn.timestamp or session.started_at,
        session_index=session.index,
        turn_index=turn.index,
        turn=turn.source_id,
        conversation=x.conversation,
    )
