"""The query-embedding runtime table (``python -m benchmarks embedding``): ratios are
onnx / torch, and the runtime each embedder really used is shown (a fallback to torch is
visible, not hidden behind the name asked for)."""

from __future__ import annotations

from benchmarks.embedding import render_query_runtimes


def test_ratios_and_the_runtime_used() -> None:
    numbers = {
        "questions": 300,
        "rounds": 3,
        "torch": {"ms": {"p50": 20.0, "p95": 25.0, "p99": 30.0}, "used": "torch"},
        "onnx": {"ms": {"p50": 5.0, "p95": 6.0, "p99": 7.0}, "used": "torch"},
        "p50_ratio": 0.25,
        "p95_ratio": 0.24,
        "max_abs_difference": 1.6e-7,
    }
    lines = render_query_runtimes(numbers)
    rows = {
        line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
        for line in lines
        if line.startswith("| torch") or line.startswith("| onnx")
    }
    assert rows["onnx"] == ["torch", "5.0", "6.0", "7.0", "0.25", "0.24"]
    assert rows["torch"][4:] == ["1", "1"]
    assert lines[-1].endswith("1.6e-07.")
