"""The kept-PageRank benchmark's table (``benchmarks.ppr_cache``): ratios are warm / off,
per conversation and over every question."""

from __future__ import annotations

from benchmarks.ppr_cache import report


def test_ratios_per_space_and_over_all_questions() -> None:
    numbers = {
        "times": {
            "a": {"off": [100.0] * 20, "warm": [50.0] * 20},
            "b": {"off": [200.0] * 20, "warm": [200.0] * 20},
        },
        "prepared_s": {"a": {"off": 0.1, "warm": 7.0}, "b": {"off": 0.2, "warm": 3.0}},
    }
    lines = report(numbers)
    cells = {
        line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]] for line in lines[2:]
    }
    assert cells["a"] == ["100.0", "100.0", "50.0", "50.0", "0.50", "0.50", "7.0"]
    assert cells["b"][4:6] == ["1.00", "1.00"]
    # Over all 40 questions (numpy's interpolated percentiles), prepare times added.
    assert cells["all"] == ["150.0", "200.0", "125.0", "200.0", "0.83", "1.00", "10.0"]


def test_the_varied_setting_names_the_columns() -> None:
    numbers = {
        "times": {"a": {"torch": [40.0] * 10, "onnx": [30.0] * 10}},
        "prepared_s": {"a": {"torch": 1.0, "onnx": 2.0}},
        "modes": ["torch", "onnx"],
    }
    lines = report(numbers)
    assert [c.strip() for c in lines[0].split("|")[1:-1]] == [
        "space",
        "torch p50",
        "torch p95",
        "onnx p50",
        "onnx p95",
        "p50 ratio",
        "p95 ratio",
        "onnx prepare s",
    ]
    assert [c.strip() for c in lines[-1].split("|")[2:-1]] == [
        "40.0",
        "40.0",
        "30.0",
        "30.0",
        "0.75",
        "0.75",
        "2.0",
    ]
