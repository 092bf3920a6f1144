"""A passage's vector reads its head: the first ``GRAPHMEM_EMBEDDING_PASSAGE_TOKENS`` word
pieces (128 by default; the model's own window at most, prefix and [CLS]/[SEP] included).

A turn is stored, indexed for full text and cited whole however long it is (a pasted
document is one turn); its vector is the head's, cut at a word boundary. A turn opens with
what it is about (an assistant's answer with what it answers, ``nlp/openings.py``); the
lists and caveats after it add words every long answer shares. Measured on the LongMemEval
dev half (docs/eval.md, "Passage vectors"): the 128-piece head ranks the turns that hold an
answer higher than the whole turn's vector did (the model's 512-piece window, averaged over
windows past it), and a 512-piece run costs about twice as much a piece as a 128-piece one
(attention grows with the length). Shorter texts than the head are embedded as they are,
so their vectors are bit for bit what a plain ``embed`` gives; the vector cache keys the
head's text, so heads of any length share it.

:func:`embed_passages` is the one place passages are embedded (ingest and ``reembed``).
"""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.embed.base import Embedder, Vectors


def embed_passages(embedder: Embedder, texts: Sequence[str]) -> Vectors:
    """Unit vectors of passages ``texts``, each read up to its head (module docstring)."""
    return embedder.embed(embedder.heads(texts, "passage"), "passage")
