"""Passages longer than the embedding model's window: embedded in pieces, one vector a text.

A model reads at most its window of word pieces (e5 and bge 512, MiniLM 256; the prefix and
the [CLS]/[SEP] tokens included) and drops the rest. A turn is stored and cited whole
however long it is (a pasted document is one turn), so a passage past the window is cut at
word boundaries into pieces that each fit, every piece is embedded as a passage, and the
passage's vector is the normalised mean of its pieces' vectors: one vector a turn, so the
graph model and every search over passage vectors stay as they are. The texts that fit are
embedded as before, in one call of their own, so their vectors are bit for bit the ones
they always had. The full-text index holds the whole text either way.

:func:`embed_passages` is the one place passages are embedded (ingest and ``reembed``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from graphmem.embed.base import Embedder, Vectors, normalise


def embed_passages(embedder: Embedder, texts: Sequence[str]) -> Vectors:
    """Unit vectors of passages ``texts``, each longer than the window as the normalised
    mean of its pieces' (module docstring)."""
    split = embedder.pieces(texts, "passage")
    long = [i for i, pieces in enumerate(split) if len(pieces) > 1]
    if not long:
        return embedder.embed(texts, "passage")
    out = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    whole = [i for i, pieces in enumerate(split) if len(pieces) == 1]
    if whole:
        out[whole] = embedder.embed([texts[i] for i in whole], "passage")
    vectors = embedder.embed([piece for i in long for piece in split[i]], "passage")
    at = 0
    for i in long:
        n = len(split[i])
        out[i] = normalise(vectors[at : at + n].mean(axis=0, keepdims=True))[0]
        at += n
    return out
