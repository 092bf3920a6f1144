"""BM25 over one space's turns, in memory: a space's ranking depends on that space alone.

Lucene's full-text index keeps one set of statistics (document frequencies, average
lengths) for every space in the database, so one tenant's ingest moved another tenant's
ranking. This index holds one space's turns and scores them as Lucene's ``BM25Similarity``
does (k1 1.2, b 0.75, ``idf = ln(1 + (N - n + 0.5) / (n + 0.5))``, lengths rounded as
Lucene stores them, each field scored with its own statistics and the fields summed, as
the index's default multi-field query does), over the ``english`` analysis
(``graphmem.retrieval.analysis``).

Per-space statistics cost BM25 a little on the dev data: 62.0 / 65.2 at 1,000 tokens against
63.1 / 65.9 with the statistics of a database holding the same conversations several times;
hybrid, Amory and the graphmem strategy moved by less than half a point (docs/eval.md, "BM25
per space"). Smoothing towards a fixed English background ranked worse still
(docs/research-log.md, 2026-11-26).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from graphmem.retrieval.analysis import EnglishAnalyzer

K1 = 1.2
B = 0.75
Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


def lucene_length(length: int) -> int:
    """A field length as Lucene stores it (``SmallFloat.intToByte4`` and back): exact
    below 24, then 4 significant bits."""
    free = 24  # 255 - SmallFloat.longToInt4(Integer.MAX_VALUE)
    if length < free:
        return length
    rest = length - free
    shift = max(rest.bit_length() - 4, 0)  # the 4 most significant bits are kept
    return free + ((rest >> shift) << shift)


@dataclass(frozen=True)
class FieldIndex:
    """One field's postings (term -> turns, term counts) and statistics."""

    postings: dict[str, tuple[Ints, Floats]]
    inverse_norm: Floats  # per turn: 1 / (k1 (1 - b + b dl / avgdl)); 0 without the field
    idf: dict[str, float]

    def score(self, term: str, into: Floats) -> None:
        found = self.postings.get(term)
        if found is None:
            return
        docs, freqs = found
        weight = self.idf[term]
        tf_norm = freqs * self.inverse_norm[docs]
        into[docs] += weight - weight / (1.0 + tf_norm)


def _field_index(texts: Sequence[str | None], analyzer: EnglishAnalyzer) -> FieldIndex:
    postings: dict[str, tuple[list[int], list[float]]] = {}
    lengths = np.zeros(len(texts))
    docs = 0
    for i, text in enumerate(texts):
        if not text:
            continue
        terms = analyzer.terms(text)
        docs += 1
        lengths[i] = lucene_length(len(terms))
        for term, count in Counter(terms).items():
            ids, freqs = postings.setdefault(term, ([], []))
            ids.append(i)
            freqs.append(float(count))
    present = lengths > 0
    avgdl = float(lengths[present].sum()) / docs if docs else 1.0
    inverse = np.zeros(len(texts))
    inverse[present] = 1.0 / (K1 * (1.0 - B + B * lengths[present] / avgdl))
    # Lucene's idf over the documents that have the field.
    idf = {
        t: math.log(1.0 + (docs - len(i) + 0.5) / (len(i) + 0.5)) for t, (i, _) in postings.items()
    }
    arrays = {t: (np.asarray(i, dtype=np.int64), np.asarray(f)) for t, (i, f) in postings.items()}
    return FieldIndex(postings=arrays, inverse_norm=inverse, idf=idf)


class SpaceBM25:
    """BM25 over documents given as field texts (``fields``: name -> one text or None per
    document). ``top(question, k)``: (document index, score) of the best ``k`` matches,
    best first, ties in document order."""

    def __init__(self, fields: Mapping[str, Sequence[str | None]]) -> None:
        self.analyzer = EnglishAnalyzer()
        self.size = len(next(iter(fields.values()), ()))
        self.fields = [_field_index(texts, self.analyzer) for texts in fields.values()]

    def scores(self, question: str) -> Floats:
        """Each document's score; a term repeated in the question counts each time, as a
        Lucene query with the term twice does."""
        total = np.zeros(self.size)
        for term, times in Counter(self.analyzer.terms(question)).items():
            one = np.zeros(self.size)
            for field in self.fields:
                field.score(term, one)
            total += times * one
        return total

    def top(self, question: str, k: int) -> list[tuple[int, float]]:
        if k <= 0 or not self.size:
            return []
        scores = self.scores(question)
        matched = np.flatnonzero(scores > 0)
        order = matched[np.lexsort((matched, -scores[matched]))][:k]
        return [(int(i), float(scores[i])) for i in order]
