"""``python -m benchmarks oneshot``: the table and its ratios (the processes it times are
real ``graphmem query`` runs, measured by hand; see benchmarks/README.md)."""

from __future__ import annotations

import pytest

from benchmarks.__main__ import main
from benchmarks.oneshot import render_oneshot


def test_the_table_gives_medians_and_new_over_old_ratios() -> None:
    results = {
        "config": {"space": "s", "strategy": "graphmem", "question": "q", "rounds": 3},
        "runs": {
            "kept out": [[3.0, 500.0], [4.0, 520.0], [3.5, 510.0]],
            "allowed": [[5.0, 1000.0], [7.0, 1020.0], [6.0, 1010.0]],
        },
    }
    text = render_oneshot(results)
    assert "| torch kept out | 3.50 | 510 |" in text
    assert "| torch allowed | 6.00 | 1010 |" in text
    assert "| ratio (kept out / allowed) | 0.58 | 0.50 |" in text
    assert "median of 3 alternating rounds" in text


def test_the_command_needs_a_space(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["oneshot"])
    assert stopped.value.code == 2
    assert "--space" in capsys.readouterr().err
