"""The per-space BM25: Lucene's english analysis and BM25 formula re-done in Python, the
long questions, and the error a refused statement becomes."""

from __future__ import annotations

import math
import time

import pytest
from neo4j.exceptions import TransientError

from graphmem.errors import ServerError
from graphmem.graph.store import driver_error
from graphmem.retrieval.analysis import EnglishAnalyzer
from graphmem.retrieval.bm25 import K1, SpaceBM25, lucene_length


def test_analysis_is_lucenes_english() -> None:
    terms = EnglishAnalyzer().terms("Caroline's LGBTQ support-groups, and THE painting of 3.5 e.g.")
    assert terms == ["carolin", "lgbtq", "support", "group", "paint", "3.5", "e.g"]


def test_lengths_are_rounded_as_lucene_stores_them() -> None:
    assert [lucene_length(n) for n in (0, 7, 23, 24, 39, 40, 41, 42, 100)] == [
        0, 7, 23, 24, 39, 40, 40, 42, 96,
    ]  # fmt: skip


def test_scores_follow_lucenes_bm25() -> None:
    bm25 = SpaceBM25({"text": ["kitten shelter", "garden basil"]})
    # one document of two holds the term, at the average length: idf ln 2, tf part 1/2.2
    expected = math.log(2.0) / (1.0 + K1)
    assert bm25.top("kitten", 5) == [(0, pytest.approx(expected))]
    # a term twice in the question counts twice; fields add up
    assert bm25.top("kitten kitten", 5)[0][1] == pytest.approx(2 * expected)
    both = SpaceBM25({"text": ["kitten", "basil"], "speaker": ["Kitten", "Ana"]})
    assert both.top("kitten", 5)[0][1] == pytest.approx(2 * expected)
    assert bm25.top("nothing here", 5) == [] and bm25.top("kitten", 0) == []


def test_ties_keep_document_order() -> None:
    bm25 = SpaceBM25({"text": ["cello lesson", "cello lesson", "cello lesson"]})
    assert [i for i, _ in bm25.top("cello", 3)] == [0, 1, 2]


def test_idf_counts_only_documents_with_the_field() -> None:
    # "kitten" in one caption of the two turns that have one: idf ln 2, as with two turns
    bm25 = SpaceBM25({"caption": ["kitten photo", None, None, "garden photo"]})
    assert bm25.top("kitten", 5) == [(0, pytest.approx(math.log(2.0) / (1.0 + K1)))]


def test_a_long_question_ranks_in_time() -> None:
    texts: list[str | None] = [f"turn {i} about the marathon in Lisbon" for i in range(500)]
    bm25 = SpaceBM25({"text": texts})
    question = " ".join(f"word{i}" for i in range(1100)) + " marathon 42"
    started = time.perf_counter()
    top = bm25.top(question, 10)
    assert time.perf_counter() - started < 1.0
    assert top[0][0] == 42


def test_a_busy_server_stays_a_server_error() -> None:
    assert isinstance(driver_error(TransientError("busy"), "bolt://127.0.0.1:7687"), ServerError)
