"""benchmarks.runs_paired: two runs' questions are paired by conversation, strategy, budget
and place; the difference is after minus before, with an interval that holds it."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.runs_paired import compare, table


def _run(folder: Path, values: list[float]) -> Path:
    folder.mkdir()
    records = [
        [
            "hybrid",
            1000,
            "temporal-reasoning" if i % 2 else "knowledge-update",
            1.0,
            {"evidence_recall_at_budget": v},
        ]
        for i, v in enumerate(values)
    ]
    row = {"conversation": "q1", "records": records}
    (folder / "conversations.jsonl").write_text(json.dumps(row) + "\n")
    return folder


def test_questions_are_paired_by_place_and_the_difference_is_after_minus_before(
    tmp_path: Path,
) -> None:
    before = _run(tmp_path / "before", [0.0, 0.5, 1.0, 0.5])
    after = _run(tmp_path / "after", [1.0, 0.5, 1.0, 0.0])
    found = compare(before, after, "evidence_recall_at_budget", 1000, set(), 500)
    rows = {p.group: p for p in found["hybrid"]}
    assert rows["all"].n == 4 and rows["all"].mean == (1.0 + 0 + 0 - 0.5) / 4
    assert (rows["knowledge-update"].better, rows["temporal-reasoning"].worse) == (1, 1)
    assert rows["all"].low <= rows["all"].mean <= rows["all"].high
    only = compare(before, after, "evidence_recall_at_budget", 1000, {"knowledge-update"}, 500)
    assert {p.group for p in only["hybrid"]} == {"all", "knowledge-update"}
    assert "| hybrid | all | 4 | +12.5 |" in table(found, "evidence_recall_at_budget")
    assert compare(before, after, "evidence_recall_at_budget", 2000, set(), 500) == {}
