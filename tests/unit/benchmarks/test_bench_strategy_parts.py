"""``python -m benchmarks strategy-parts``: the table of a query's parts (the timings are the
strategy's own, measured by hand on built spaces; see benchmarks/README.md)."""

from __future__ import annotations

from benchmarks.strategy_parts import report


def test_parts_come_largest_first_with_their_share_of_the_total() -> None:
    numbers = {
        "budget": 1000,
        "parts_ms": {
            "premem": [2.0, 3.0, 4.0],
            "cast": [20.0, 25.0, 30.0],
            "fusion": [10.0, 12.0, 14.0],
            "total": [40.0, 50.0, 60.0],
        },
    }
    lines = report(numbers)
    assert lines[0] == "graphmem at 1000 tokens, 3 questions, one process"
    body = lines[4:]
    assert [line.split(" | ")[0].strip("| ") for line in body] == [
        "cast",
        "fusion",
        "premem",
        "total",
    ]
    assert body[0] == "| cast | 25.0 | 29.5 | 50 % |"
    assert body[-1] == "| total | 50.0 | 59.0 | 100 % |"
