"""Scoring of `graphmem eval precision` (graphmem/eval/precision.py): what counts as judged,
unlabelled and gone, and the errors for a bad label file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphmem.errors import InputError
from graphmem.eval.precision import Extraction, Label, load_labels, score


def _label(kind: str, value: str, ok: int, turn: str | None = "D1:1", **more: str) -> Label:
    return Label.model_validate(
        {
            "kind": kind,
            "dataset": "locomo",
            "conversation": "c1",
            "turn": turn,
            "value": value,
            "label": ok,
            **more,
        }
    )


def _found(kind: str, value: str, turn: str | None = "D1:1", name: str | None = None) -> Extraction:
    return Extraction(
        kind=kind, dataset="locomo", conversation="c1", turn=turn, value=value, label_name=name
    )


def test_precision_counts_labelled_extractions_of_labelled_turns_only() -> None:
    labels = [
        _label("entity", "Porto", 1),
        _label("entity", "to try", 0),
        _label("entity", "Biscuit", 1),  # no longer extracted: gone
        _label("character", "Maya", 1, turn=None),
        _label("character", "Porto", 0, turn=None),
        _label("fact", "Maya moved to Porto", 1, label_name="Fragment"),
    ]
    found = [
        _found("entity", "porto"),  # case and spaces do not matter
        _found("entity", "To  try"),
        _found("entity", "a new phrase"),  # in a labelled turn, no label: unlabelled
        _found("entity", "elsewhere", turn="D9:9"),  # not a labelled turn: out of scope
        _found("character", "Maya", turn=None),
        _found("character", "Porto", turn=None),
        _found("fact", "Maya moved to Porto", name="Fragment"),
        _found("fact", "Maya moved", name="AtomicFact"),  # a label name never labelled
    ]
    rows, unlabelled = score(labels, found)
    by = {r.group: r for r in rows}
    assert (by["entity"].judged, by["entity"].correct, by["entity"].unlabelled) == (2, 1, 1)
    assert by["entity"].gone == 1 and by["entity"].precision == 0.5
    assert (by["character"].judged, by["character"].correct) == (2, 1)
    assert by["fact:Fragment"].precision == 1.0 and "fact:AtomicFact" not in by
    assert by["fact"].judged == 1 and by["fact"].target == 0.9
    assert [e.value for e in unlabelled] == ["a new phrase"]


def test_a_value_extracted_twice_is_judged_once() -> None:
    rows, _ = score([_label("entity", "Porto", 0)], [_found("entity", "Porto")] * 3)
    assert rows[0].judged == 1 and rows[0].precision == 0.0


def test_a_bad_label_line_names_its_file_and_line(tmp_path: Path) -> None:
    good = json.dumps(
        {
            "kind": "entity",
            "dataset": "locomo",
            "conversation": "c",
            "turn": "t",
            "value": "v",
            "label": 1,
        }
    )
    (tmp_path / "a.jsonl").write_text(good + "\n" + good.replace('"label": 1', '"label": 2') + "\n")
    with pytest.raises(InputError, match=r"a\.jsonl.*line 2"):
        load_labels(tmp_path)
    with pytest.raises(InputError, match=r"no \*\.jsonl"):
        load_labels(tmp_path / "empty")
