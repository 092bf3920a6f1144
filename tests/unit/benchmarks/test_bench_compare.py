"""benchmarks.compare: the table the design docs quote."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.compare import _load, rows


def _summary(er: float, atr: float) -> dict[str, object]:
    return {
        "evidence_recall_at_budget": er,
        "answer_token_recall_at_budget": atr,
        "memory_coverage_at_budget": 0.5,
        "context_compression_at_budget": 0.9,
        "latency_ms": {"p50": 10.0, "p95": 20.4},
        "n": 3,
    }


def test_rows_show_each_run_per_strategy_with_categories(tmp_path: Path) -> None:
    result = {
        "strategy": "seem",
        "budget": 1000,
        "overall": _summary(0.7, 0.716),
        "by_category": {"temporal": _summary(0.8, 0.755)},
    }
    (tmp_path / "results.json").write_text(json.dumps([result]), encoding="utf-8")
    runs = [_load(f"paper={tmp_path}")]
    lines = rows(runs, 1000, ["seem", "hybrid"])
    assert lines[2] == "| seem | paper | 70.0 / 71.6 | – | 80.0 / 75.5 | – | – | 50.0 | 90.0 | 20 |"
    assert len(lines) == 3  # hybrid is not in the run: no row
    assert rows(runs, 500, None)[2:] == []


def test_coverage_cells_show_coverage_and_compression_per_category(tmp_path: Path) -> None:
    result = {
        "strategy": "graphmem",
        "budget": 500,
        "overall": _summary(0.7, 0.716),
        "by_category": {"open-domain": {**_summary(0.6, 0.3), "memory_coverage_at_budget": 0.25}},
    }
    (tmp_path / "results.json").write_text(json.dumps([result]), encoding="utf-8")
    lines = rows([_load(f"s12={tmp_path}")], 500, None, "coverage")
    expected = "| graphmem | s12 | 50.0 / 90.0 | – | – | 25.0 / 90.0 | – | 50.0 | 90.0 | 20 |"
    assert lines[2] == expected
