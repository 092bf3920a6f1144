"""``ExactIndex`` ranks as Neo4j's exact cosine does: score (1 + cos) / 2, best first, ties
to the smaller id, nodes without an embedding left out."""

from __future__ import annotations

import math
from typing import Any, cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.graph.store import GraphStore
from graphmem.retrieval.exact import ExactIndex, Versioned


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
    # The ids too, wherever the order is not a near-tie: a row whose expected score is more
    # than 1e-9 from both neighbours' has one place (float rounding may swap closer ones).
    scores = [-neg for neg, _ in expected]
    for i, row in enumerate(got):
        apart = all(
            abs(scores[i] - scores[j]) > 1e-9 for j in (i - 1, i + 1) if 0 <= j < len(scores)
        )
        if apart:
            assert row["id"] == expected[i][1]


def test_top_many_breaks_ties_by_id_even_across_the_kth_place() -> None:
    # Rows 1, 2 and 4 tie with query [1, 0]; ids are not in row order, so the partition
    # alone would pick any two of them: the id decides.
    rows = [
        {"id": "b", "embedding": [0.0, 1.0]},
        {"id": "e", "embedding": [1.0, 0.0]},
        {"id": "c", "embedding": [2.0, 0.0]},
        {"id": "a", "embedding": [-1.0, 0.0]},
        {"id": "d", "embedding": [5.0, 0.0]},
    ]
    index = ExactIndex.from_rows(rows, dim=2)
    found = index.top_many([[1.0, 0.0], [0.0, 2.0]], 2)
    assert [[index.rows[i]["id"] for i, _ in hits] for hits in found] == [["c", "d"], ["b", "a"]]
    assert [s for _, s in found[0]] == [1.0, 1.0]
    assert [s for _, s in found[1]] == [1.0, 0.5]  # a, c, d, e tie at 0.5: "a" is first


def test_top_many_keeps_only_scores_at_or_above_the_threshold() -> None:
    index = ExactIndex.from_rows(_rows([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]]), dim=2)
    (hits,) = index.top_many([[1.0, 0.0]], 10, min_score=0.5)
    assert [(index.rows[i]["id"], s) for i, s in hits] == [("n00", 1.0), ("n01", 0.5)]
    assert index.top_many([[1.0, 0.0]], 10, min_score=1.01) == [[]]


def test_top_many_on_an_empty_space_or_with_no_queries() -> None:
    empty = ExactIndex.from_rows([], dim=3)
    assert empty.top_many([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], 5) == [[], []]
    index = ExactIndex.from_rows(_rows([[1.0, 0.0, 0.0]]), dim=3)
    assert index.top_many(np.zeros((0, 3)), 5) == []
    assert index.top_many([[1.0, 0.0, 0.0]], 0) == [[]]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(st.integers(-2, 2).map(float), min_size=3, max_size=3).filter(any),
        min_size=1,
        max_size=30,
    ),
    st.lists(
        st.lists(st.integers(-2, 2).map(float), min_size=3, max_size=3).filter(any),
        min_size=1,
        max_size=4,
    ),
    st.integers(1, 40),
)
def test_top_many_ranks_as_top_does_for_each_query(
    vectors: list[list[float]], queries: list[list[float]], k: int
) -> None:
    # Small integer vectors tie often. Equal vectors tie exactly (bitwise) in both paths and
    # go to the smaller id; a mathematical tie of different vectors may round apart by an
    # ulp differently in a matrix product, so there only the scores must agree.
    index = ExactIndex.from_rows(_rows(list(vectors)), dim=3)
    for query, hits in zip(queries, index.top_many(queries, k), strict=True):
        one = index.top(query, k)
        assert len(hits) == len(one) == min(k, len(vectors))
        assert [s for _, s in hits] == pytest.approx([r["score"] for r in one], abs=1e-12)
        every = [r["score"] for r in index.top(query, len(index))]
        for (i, score), row in zip(hits, one, strict=True):
            near = sum(abs(score - other) <= 1e-9 for other in every)
            if near == 1:  # no other row within rounding: one place only
                assert index.rows[i]["id"] == row["id"]


class _VersionStore:
    """A store whose version row never changes, as after an update in place."""

    def __init__(self) -> None:
        self.reads = 0

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        self.reads += 1
        return [{"items": 1, "updated": "2024-01-01"}]


def test_forget_reads_the_snapshot_again_even_when_the_version_row_is_unchanged() -> None:
    store = _VersionStore()
    loads: list[int] = []

    def load() -> int:
        loads.append(len(loads))
        return len(loads)

    snapshot = Versioned(cast(GraphStore, store), "s", "x.version", load, recheck=600.0)
    assert snapshot.get() == 1 and snapshot.get() == 1
    assert store.reads == 1  # trusted within recheck seconds
    snapshot.forget()  # this process wrote: the next get reads the snapshot, not only the row
    assert snapshot.get() == 2
    assert snapshot.get() == 2 and len(loads) == 2
