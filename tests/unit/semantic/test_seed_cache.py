"""The kept PageRank runs' bookkeeping (``graphmem.semantic.seed_cache``); the runs
themselves, their sums and their memory bound are checked against GDS in
``tests/integration/semantic/test_semantic_ppr.py``."""

from __future__ import annotations

import numpy as np

from graphmem.semantic.seed_cache import SeedPageRank
from graphmem.semantic.seeds import SeedGroup


def test_kept_runs_are_taken_from_any_iterable() -> None:
    """``take`` reads its nodes once: a generator (as the retriever passes) is not lost."""
    cache = SeedPageRank("t", [10, 11], capacity=4)
    cache._vectors[1] = np.array([0.5, 0.0])
    have, need = cache.take(n for n in (1, 2, 2))
    assert set(have) == {1} and need == [2]


def test_groups_combine_as_weighted_sums_of_their_seeds_runs() -> None:
    cache = SeedPageRank("t", [10, 11, 12], capacity=4)
    runs = {1: np.array([0.5, 0.0, 0.1]), 2: np.array([0.25, 0.0, 0.0])}
    combined = cache.combine([SeedGroup([1, 2], 2.0), SeedGroup([2], 1.0)], runs)
    assert combined == {10: 0.5 * 2 + 0.25 * 2 + 0.25, 12: 0.2}  # passage 11 scored 0: left out
