"""Which nouns WordNet knows, in none of their senses, as a person.

``data/wordnet-nonperson-nouns.tsv.gz`` is derived from WordNet 3.0 (Princeton University;
licence in ``data/LICENSE-WordNet.txt``) by ``scripts/wordnet_nouns.py``: a lemma per line
with ``c`` (a common noun: "osprey", "article") or ``p`` (only a name: "America", "Rosetta
Stone"). Read once, on first use.
"""

from __future__ import annotations

import functools
import gzip
from importlib import resources
from typing import Literal

Kind = Literal["c", "p"]


@functools.cache
def _table() -> dict[str, Kind]:
    raw = resources.files("graphmem.nlp").joinpath("data/wordnet-nonperson-nouns.tsv.gz")
    rows = gzip.decompress(raw.read_bytes()).decode("utf-8").splitlines()
    return {word: kind for word, kind in (row.split("\t") for row in rows)}  # type: ignore[misc]


def thing_noun(word: str) -> Kind | None:
    """``c`` or ``p`` when WordNet has ``word`` (lower case; a plural in -s or -es too) as
    a noun and never as a person, else None."""
    table = _table()
    for form in (
        word,
        word[:-1] if word.endswith("s") else "",
        word[:-2] if word.endswith("es") else "",
    ):
        if form and form in table:
            return table[form]
    return None
