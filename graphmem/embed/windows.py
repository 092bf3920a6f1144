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

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from graphmem.embed.base import Embedder, Kind, Vectors, normalise


def cut(
    text: str, offsets: Sequence[tuple[int, int]], words: Sequence[Any], width: int
) -> list[str]:
    """``text`` cut into pieces of at most ``width`` tokens, given its tokens' character
    ``offsets`` and word ids (the tokenizer's, no special tokens): each cut falls before a
    word's first token, so every piece tokenises as it did inside the text; a word longer
    than the window alone is cut inside. ``[text]`` when it fits."""
    if len(offsets) <= width:
        return [text]
    pieces: list[str] = []
    start_token, start_char = 0, 0
    while len(offsets) - start_token > width:
        end = start_token + width  # the next piece's first token
        back = end
        while back > start_token and words[back] is not None and words[back] == words[back - 1]:
            back -= 1
        end = back if back > start_token else end
        char = offsets[end][0]
        pieces.append(text[start_char:char])
        start_token, start_char = end, char
    pieces.append(text[start_char:])
    return pieces


class Splitter:
    """A model's own tokenizer, untruncated, cutting texts to its window (``cut``)."""

    def __init__(self, tokenizer_file: Path, window: int, prefixes: dict[Kind, str]) -> None:
        from tokenizers import Tokenizer

        self._tokenizer = Tokenizer.from_file(str(tokenizer_file))
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()
        specials = len(self._tokenizer.encode("", add_special_tokens=True).ids)
        # What a text may hold on each side: the window less [CLS], [SEP] and the prefix.
        self._width = {
            kind: window
            - specials
            - len(self._tokenizer.encode(head, add_special_tokens=False).ids)
            for kind, head in prefixes.items()
        }
        self._lock = threading.Lock()  # one Tokenizer is not shared by threads at once

    def split(self, texts: Sequence[str], kind: Kind) -> list[list[str]]:
        width = self._width[kind]
        with self._lock:
            found = self._tokenizer.encode_batch(list(texts), add_special_tokens=False)
        return [cut(t, e.offsets, e.word_ids, width) for t, e in zip(texts, found, strict=True)]


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
