"""The paired comparison's arithmetic (``benchmarks.graphmem_paired``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.graphmem_paired import interval, paired


def test_counts_and_mean_per_group() -> None:
    (row,) = paired({"open-domain": [0.5, -1.0, 0.0, 0.5]}, resamples=200, seed=1)
    assert (row.n, row.better, row.worse) == (4, 2, 1)
    assert row.mean == pytest.approx(0.0)
    assert row.low < 0.0 < row.high


def test_no_spread_gives_a_point_interval() -> None:
    assert interval([0.25] * 7, resamples=100, seed=0) == (0.25, 0.25)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-1, 1), min_size=1, max_size=40), st.integers(0, 9))
def test_the_interval_lies_within_the_values_and_repeats_with_its_seed(
    diffs: list[float], seed: int
) -> None:
    low, high = interval(diffs, resamples=200, seed=seed)
    assert min(diffs) - 1e-9 <= low <= high <= max(diffs) + 1e-9
    assert interval(diffs, resamples=200, seed=seed) == (low, high)
