"""The split of hand labels by conversation (graphmem/eval/parts.py) and the precision
scored on each part (``score_parts``)."""

from __future__ import annotations

import json

from graphmem.eval.dates import load_labels as load_date_labels
from graphmem.eval.parts import part_of
from graphmem.eval.precision import Extraction, Label, score_parts
from tests.paths import FIXTURES

DATES = FIXTURES / "dates" / "labels.jsonl"


def test_the_date_labels_follow_the_shared_split() -> None:
    # Reads each line's conversation and part only: never a frozen line's words.
    lines = [json.loads(x) for x in DATES.read_text().splitlines() if x.strip()]
    assert lines and all(part_of(x["conversation"]) == x["part"] for x in lines)
    assert {x.part for x in load_date_labels(DATES, "dev")} == {"dev"}


def _label(conversation: str, value: str, ok: int) -> Label:
    return Label(
        kind="entity", dataset="locomo", conversation=conversation, turn="D1:1", value=value,
        label=ok,
    )  # fmt: skip


def _found(conversation: str, value: str) -> Extraction:
    return Extraction(
        kind="entity", dataset="locomo", conversation=conversation, turn="D1:1", value=value
    )


def test_each_part_is_scored_on_its_own_conversations() -> None:
    dev, frozen = "conv-26", "conv-30"
    assert (part_of(dev), part_of(frozen)) == ("dev", "frozen")
    labels = [_label(dev, "a", 1), _label(dev, "b", 0), _label(frozen, "c", 1)]
    found = [_found(dev, "a"), _found(dev, "b"), _found(frozen, "c"), _found(frozen, "new")]
    parts = score_parts(labels, found)
    (d,), (f,) = parts["dev"], parts["frozen"]
    assert (d.judged, d.correct, d.precision, d.unlabelled) == (2, 1, 0.5, 0)
    assert (f.judged, f.correct, f.precision, f.unlabelled) == (1, 1, 1.0, 1)
