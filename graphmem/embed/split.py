"""Texts cut to an embedding model's window at word boundaries (``windows`` embeds the
pieces). Apart from the embedders so that they can use it without importing what uses them."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


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

    def __init__(self, tokenizer_file: Path, window: int, prefixes: Mapping[Any, str]) -> None:
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

    def split(self, texts: Sequence[str], kind: str) -> list[list[str]]:
        width = self._width[kind]
        with self._lock:
            found = self._tokenizer.encode_batch(list(texts), add_special_tokens=False)
        return [cut(t, e.offsets, e.word_ids, width) for t, e in zip(texts, found, strict=True)]
