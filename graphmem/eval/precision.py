"""``graphmem eval precision``: how often what the offline extractors write is right, judged
against hand labels (``tests/fixtures/precision/``).

Three kinds, each labelled on real dev conversations:
- ``entity``: every entity a labelled turn mentions (``(:Passage)-[:MENTIONS]->(:Entity)``);
- ``character``: every ``Character`` of a labelled conversation;
- ``fact``: the statement nodes the designs declare (``Design.statements``: a semantic
  ``Fact``, a PREMem ``Fragment``, ...) of the labelled turns, per node label.

The conversations are built as an evaluation builds them (one space each, every builder;
a space already built is reused), then what the graph holds is matched to the labels by
(conversation, turn, text). Precision counts the labelled extractions; an extraction no
label covers is *unlabelled* (an extractor that changed writes new text: label it, with
``--todo``), a label whose text is no longer extracted is *gone*. Only the dev half of
LongMemEval may be labelled.

The labels are split by conversation (``graphmem.eval.parts``): rules are written from the
``dev`` part's errors only, and a rule stays when it does not lose on the ``frozen`` one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from graphmem.errors import InputError
from graphmem.eval.longmemeval import select
from graphmem.eval.parts import PARTS, Part, part_of
from graphmem.ingest.formats import ReadLimits, load
from graphmem.ingest.models import ConversationIn, Dataset
from graphmem.memory import Memory
from graphmem.plugin.label_statements import STATEMENT_TEXTS
from graphmem.plugin.registry import builders_for, registry
from graphmem.retrieval.registry import strategy_names

Kind = Literal["entity", "character", "fact"]
DatasetName = Literal["locomo", "longmemeval"]
TARGETS: Mapping[str, float] = {"entity": 0.9, "character": 0.95, "fact": 0.9}


class Label(BaseModel):
    """One hand label: is this extracted value right (1) or wrong (0)."""

    kind: Kind
    dataset: DatasetName
    conversation: str
    turn: str | None = None  # none for characters
    value: str
    label: Literal[0, 1]
    why: str = ""
    label_name: str | None = None  # facts: the node label
    design: str | None = None


class Extraction(BaseModel):
    kind: Kind
    dataset: DatasetName
    conversation: str
    turn: str | None
    value: str
    label_name: str | None = None  # facts: the node label

    @property
    def group(self) -> str:
        """The report row: entity, character, or fact:<node label>."""
        return _group(self.kind, self.label_name)


class PrecisionRow(BaseModel):
    group: str
    judged: int
    correct: int
    precision: float | None
    target: float
    unlabelled: int
    gone: int


def _group(kind: str, label_name: str | None) -> str:
    return f"fact:{label_name}" if kind == "fact" else kind


def _norm(value: str) -> str:
    return " ".join(value.split()).casefold()


Key = tuple[str, str, str, str, str]


def _key(kind: str, conversation: str, turn: str | None, value: str, name: str | None) -> Key:
    return (kind, conversation, turn or "", _norm(value), name or "")


def load_labels(folder: Path) -> list[Label]:
    """Every ``*.jsonl`` of ``folder``; a bad line names its file and line."""
    files = sorted(folder.glob("*.jsonl"))
    if not files:
        raise InputError("no *.jsonl label file", path=str(folder))
    out: list[Label] = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                out.append(Label.model_validate(json.loads(line)))
            except (ValueError, ValidationError) as exc:
                first = str(exc).splitlines()[0]
                raise InputError(
                    f"not a label: {first}", path=str(path), record=f"line {number}"
                ) from exc
    return out


def conversations_of(
    labelled: Iterable[tuple[str, str]], sources: Mapping[str, Path], memory: Memory
) -> dict[tuple[str, str], ConversationIn]:
    """The labelled conversations (``(dataset, conversation id)`` pairs), read from their
    data files (LongMemEval: dev half)."""
    wanted: dict[str, set[str]] = {}
    for dataset_name, conversation in labelled:
        wanted.setdefault(dataset_name, set()).add(conversation)
    found: dict[tuple[str, str], ConversationIn] = {}
    for name, ids in wanted.items():
        if name not in sources:
            raise InputError(f"labels of {name} need its data file", hint=f"pass --{name} PATH")
        dataset: Dataset = load(sources[name], name, ReadLimits.of(memory.settings))  # type: ignore[arg-type]
        pool = dataset.conversations if name == "locomo" else select(dataset.conversations, "dev")
        by_id = {c.conversation_id: c for c in pool}
        missing = sorted(ids - set(by_id))
        if missing:
            part = "" if name == "locomo" else "dev half of the "
            raise InputError(
                f"labelled conversations not in the {part}file: {', '.join(missing[:5])}",
                path=str(sources[name]),
            )
        found.update({(name, cid): by_id[cid] for cid in sorted(ids)})
    return found


def extractions(
    memory: Memory, space: str, dataset: DatasetName, conversation: str
) -> list[Extraction]:
    """What the space holds of the three kinds."""
    store = memory.store

    def one(kind: Kind, turn: str | None, value: str, name: str | None = None) -> Extraction:
        return Extraction(
            kind=kind,
            dataset=dataset,
            conversation=conversation,
            turn=turn,
            value=value,
            label_name=name,
        )

    out = [
        one("entity", r["turn"], r["value"]) for r in store.read("eval.turn_entities", space=space)
    ]
    out += [one("character", None, r["value"]) for r in store.read("eval.characters", space=space)]
    out += [
        one("fact", r["turn"], r["value"], r["label"])
        for r in store.read(STATEMENT_TEXTS, space=space)
        if r["value"]
    ]
    return out


def _in_scope(labels: Sequence[Label]) -> Callable[[Extraction], bool]:
    """Entities of labelled turns, characters of labelled conversations, facts of the
    labelled turns and node labels: the sets the labels were drawn from."""
    turns = {(x.conversation, x.turn) for x in labels if x.kind == "entity"}
    convs = {x.conversation for x in labels if x.kind == "character"}
    facts = {(x.conversation, x.turn, x.label_name) for x in labels if x.kind == "fact"}

    def scoped(e: Extraction) -> bool:
        if e.kind == "entity":
            return (e.conversation, e.turn) in turns
        if e.kind == "character":
            return e.conversation in convs
        return (e.conversation, e.turn, e.label_name) in facts

    return scoped


def score(
    labels: Sequence[Label], found: Iterable[Extraction]
) -> tuple[list[PrecisionRow], list[Extraction]]:
    """Rows per group (and ``fact`` over all statement labels) and the unlabelled extractions."""
    by_key = {_key(x.kind, x.conversation, x.turn, x.value, x.label_name): x for x in labels}
    scoped = _in_scope(labels)
    counts: dict[str, list[int]] = {}
    seen: set[Key] = set()
    unlabelled: list[Extraction] = []
    for e in found:
        if not scoped(e):
            continue
        key = _key(e.kind, e.conversation, e.turn, e.value, e.label_name)
        if key in seen:
            continue
        seen.add(key)
        row = counts.setdefault(e.group, [0, 0, 0])
        label = by_key.get(key)
        if label is None:
            row[2] += 1
            unlabelled.append(e)
        else:
            row[0] += 1
            row[1] += label.label
    gone: dict[str, int] = {}
    for key, label in by_key.items():
        if key not in seen:
            group = _group(label.kind, label.label_name)
            gone[group] = gone.get(group, 0) + 1
    groups = sorted(set(counts) | set(gone))
    rows = [_row(g, counts.get(g, [0, 0, 0]), gone.get(g, 0)) for g in groups]
    facts = [r for r in rows if r.group.startswith("fact:")]
    if facts:
        total = [
            sum(r.judged for r in facts),
            sum(r.correct for r in facts),
            sum(r.unlabelled for r in facts),
        ]
        rows.append(_row("fact", total, sum(r.gone for r in facts)))
    return rows, unlabelled


def _row(group: str, row: Sequence[int], gone: int) -> PrecisionRow:
    judged, correct, unlabelled = row
    return PrecisionRow(
        group=group,
        judged=judged,
        correct=correct,
        precision=correct / judged if judged else None,
        target=TARGETS[group.split(":")[0]],
        unlabelled=unlabelled,
        gone=gone,
    )


def measure(
    memory: Memory,
    labels: Sequence[Label],
    sources: Mapping[str, Path],
    space_prefix: str,
    progress: Callable[[str], None] | None = None,
) -> tuple[list[PrecisionRow], list[Extraction], dict[Part, list[PrecisionRow]]]:
    """Build (or reuse) each labelled conversation's space with every builder, then score:
    the rows over every label, the unlabelled extractions, the rows of each part."""
    conversations = conversations_of(((x.dataset, x.conversation) for x in labels), sources, memory)
    builders = builders_for(strategy_names())
    registry()  # the generated statement texts
    found: list[Extraction] = []
    for (name, cid), conv in conversations.items():
        space = f"{space_prefix}-{cid}"
        if progress is not None:
            progress(space)
        memory.ingest_dataset(Dataset(conversations=[conv], qa={}), space, builders)
        found += extractions(memory, space, name, cid)  # type: ignore[arg-type]
    rows, unlabelled = score(labels, found)
    return rows, unlabelled, score_parts(labels, found)


def score_parts(
    labels: Sequence[Label], found: Sequence[Extraction]
) -> dict[Part, list[PrecisionRow]]:
    """:func:`score` over each part's conversations alone."""
    return {
        part: score(
            [x for x in labels if part_of(x.conversation) == part],
            [e for e in found if part_of(e.conversation) == part],
        )[0]
        for part in PARTS
    }


def todo_lines(unlabelled: Sequence[Extraction]) -> list[dict[str, Any]]:
    """Unlabelled extractions as label lines to complete (``label`` left out)."""
    return [
        {
            "kind": e.kind,
            "dataset": e.dataset,
            "conversation": e.conversation,
            "turn": e.turn,
            "value": e.value,
            **({"label_name": e.label_name} if e.kind == "fact" else {}),
        }
        for e in unlabelled
    ]
