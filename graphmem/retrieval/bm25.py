"""BM25 over one space's turns, in memory: a space's ranking depends on that space alone.

Lucene's full-text index keeps one set of statistics (document frequencies, average
lengths) for every space in the database, so one tenant's ingest moved another tenant's
ranking. This index holds one space's turns and scores them as Lucene's ``BM25Similarity``
does (k1 1.2, b 0.75, ``idf = ln(1 + (N - n + 0.5) / (n + 0.5))``, lengths rounded as
Lucene stores them, each field scored with its own statistics and the fields summed, as
the index's default multi-field query does), over the ``english`` analysis
(``graphmem.retrieval.analysis``).

A conversation of a few hundred turns is a small sample of how rare a word is: with one
space's own counts BM25 ranked worse on the dev data than with the whole database's. So the
text fields' document frequencies are smoothed towards a fixed English background, a
Dirichlet prior of ``prior_docs`` pseudo-turns (``fulltext_background_docs``): ``n' = n + μ
p(t)`` of ``N' = N + μ`` turns, where ``p(t) = 1 - (1 - f(t))^L`` is the chance that a turn
of the space's mean length ``L`` (in words) holds the term, ``f(t)`` the term's share of
English words (wordfreq's ``small`` English list, ~29,000 words at frequencies down to
1e-6, each word's frequency given to its stem). The background is the same for every
space and every database, so it moves no space's ranking. The speaker field is a name
list, not English text: it keeps the space's own counts.
"""

from __future__ import annotations

import functools
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


@functools.cache
def background_frequencies() -> Mapping[str, float]:
    """Each English term's share of running words (wordfreq's ``small`` list, stemmed as
    the index stems), read once per process on first use (~0.3 s)."""
    import wordfreq

    analyzer = EnglishAnalyzer()
    shares: dict[str, float] = {}
    for word, share in wordfreq.get_frequency_dict("en", wordlist="small").items():
        for term in analyzer.terms(word):
            shares[term] = shares.get(term, 0.0) + share
    return shares


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


def _field_index(
    texts: Sequence[str | None],
    analyzer: EnglishAnalyzer,
    background: Mapping[str, float] | None,
    prior_docs: float,
) -> FieldIndex:
    postings: dict[str, tuple[list[int], list[float]]] = {}
    lengths = np.zeros(len(texts))
    words = 0
    docs = 0
    for i, text in enumerate(texts):
        if not text:
            continue
        terms = analyzer.terms(text)
        words += len(analyzer.words(text))
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
    mu = prior_docs if background is not None else 0.0
    mean_words = words / docs if docs else 0.0
    idf = {}
    for term, (ids, _) in postings.items():
        share = background.get(term, 0.0) if background is not None else 0.0
        n = len(ids) + mu * (1.0 - (1.0 - share) ** mean_words)
        total = docs + mu
        idf[term] = math.log(1.0 + (total - n + 0.5) / (n + 0.5))
    arrays = {t: (np.asarray(i, dtype=np.int64), np.asarray(f)) for t, (i, f) in postings.items()}
    return FieldIndex(postings=arrays, inverse_norm=inverse, idf=idf)


class SpaceBM25:
    """BM25 over documents given as field texts (``fields``: name -> one text or None per
    document). ``top(question, k)``: (document index, score) of the best ``k`` matches,
    best first, ties in document order. Fields in ``english`` are smoothed towards the
    background with ``prior_docs`` pseudo-documents (0: the documents' own counts)."""

    def __init__(
        self,
        fields: Mapping[str, Sequence[str | None]],
        english: Sequence[str] = (),
        prior_docs: float = 0.0,
    ) -> None:
        self.analyzer = EnglishAnalyzer()
        self.size = len(next(iter(fields.values()), ()))
        background = background_frequencies() if prior_docs > 0 and english else None
        self.fields = [
            _field_index(texts, self.analyzer, background if name in english else None, prior_docs)
            for name, texts in fields.items()
        ]

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
