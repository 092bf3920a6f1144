"""English text analysis as Lucene's ``english`` analyzer does it, in Python.

The per-space BM25 (``graphmem.retrieval.bm25``) ranks turns in-process, so that a space's
ranking depends on that space alone; its terms are those the ``passage_search`` full-text
index would have produced, so the scores stay comparable with Lucene's: a word-boundary
tokenizer (an approximation of Unicode's word segmentation, as ``StandardTokenizer``
applies it: letters and digits joined across an apostrophe, a full stop or a colon, digits
across a comma), English possessives removed, lower case, Lucene's 33 English stop words
removed, Porter's original stemmer (Snowball's ``porter`` through PyStemmer, a C extension
that imports in milliseconds where NLTK's takes seconds; like Lucene's, it leaves words of
one or two letters alone).
"""

from __future__ import annotations

import re

import Stemmer

# Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.
STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "for",
        "if",
        "in",
        "into",
        "is",
        "it",
        "no",
        "not",
        "of",
        "on",
        "or",
        "such",
        "that",
        "the",
        "their",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "will",
        "with",
    ]
)
_WORD = re.compile(r"\w+(?:(?:['’.:]|(?<=\d),(?=\d))\w+)*")
_POSSESSIVE = re.compile(r"['’＇][sS]$")


class EnglishAnalyzer:
    """``terms(text)``: the indexed terms of a text, in order, repeats kept; ``words(text)``:
    the tokens before stop words and stemming (what a word-frequency list counts). Stems
    are remembered per analyzer."""

    def __init__(self) -> None:
        self._stemmer = Stemmer.Stemmer("porter")
        self._stems: dict[str, str] = {}

    def _stem(self, word: str) -> str:
        found = self._stems.get(word)
        if found is None:
            found = word if len(word) <= 2 else str(self._stemmer.stemWord(word))
            self._stems[word] = found
        return found

    def words(self, text: str) -> list[str]:
        """Lower-cased tokens without possessives, stop words still in."""
        return [_POSSESSIVE.sub("", w).lower() for w in _WORD.findall(text)]

    def terms(self, text: str) -> list[str]:
        return [self._stem(w) for w in self.words(text) if w and w not in STOP_WORDS]


ANALYZER_NAME = "english (Lucene's, re-done in Python)"
