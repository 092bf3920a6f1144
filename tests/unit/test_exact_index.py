"""``ExactIndex`` ranks as Neo4j's exact cosine does: score (1 + cos) / 2, best first, ties
to the smaller id, nodes without an embedding left out."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.retrieval.exact import ExactIndex


def _rows(vectors: list[list[float] | None]) -> list[dict[str, object]]:
    return [{"id": f"n{i:02d}", "embedding": v, "text": f"t{i}"} for i, v in enumerate(vectors)]


def test_scores_are_neo4j_cosine_and_ties_go_to_the_smaller_id() -> None:
    index = ExactIndex.from_rows(
        _rows([[0.0, 1.0], [1.0, 0.0], [2.0, 0.0], None, [-1.0, 0.0], []]), dim=2
    )
    assert len(index) == 4  # the rows without an embedding are not ranked
    top = index.top([3.0, 0.0], 10)
    assert [r["id"] for r in top] == ["n01", "n02", "n00", "n04"]  # n01 == n02 in score
    assert [r["score"] for r in top] == [1.0, 1.0, 0.5, 0.0]
    assert top[0]["text"] == "t1" and "embedding" not in top[0]
    assert [r["id"] for r in index.top([3.0, 0.0], 2)] == ["n01", "n02"]
    assert index.top([1.0, 0.0], 0) == []


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(st.floats(-1, 1, allow_nan=False), min_size=3, max_size=3).filter(
            lambda v: math.hypot(*v) > 1e-3
        ),
        min_size=1,
        max_size=30,
    ),
    st.lists(st.floats(-1, 1, allow_nan=False), min_size=3, max_size=3).filter(
        lambda v: math.hypot(*v) > 1e-3
    ),
    st.integers(1, 40),
)
def test_top_k_is_the_sorted_prefix_of_every_cosine(
    vectors: list[list[float]], query: list[float], k: int
) -> None:
    index = ExactIndex.from_rows(_rows(list(vectors)), dim=3)
    q = np.asarray(query)
    expected = sorted(
        (
            -(1 + float(np.dot(v, q) / (np.linalg.norm(v) * np.linalg.norm(q)))) / 2,
            f"n{i:02d}",
        )
        for i, v in enumerate(np.asarray(vectors))
    )
    got = index.top(query, k)
    assert len(got) == min(k, len(vectors))
    assert [r["score"] for r in got] == sorted((r["score"] for r in got), reverse=True)
    for row, (neg, _) in zip(got, expected, strict=False):
        assert math.isclose(row["score"], -neg, abs_tol=1e-9)
