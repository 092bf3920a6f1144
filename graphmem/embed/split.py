"""The head of a text that an embedding model reads: its first word pieces, cut at a word
boundary (``windows`` embeds it). Apart from the embedders so that they can use it without
importing what uses them."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def head(text: str, offsets: Sequence[tuple[int, int]], words: Sequence[Any], width: int) -> str:
    """The start of ``text`` of at most ``width`` tokens, given its tokens' character
    ``offsets`` and word ids (the tokenizer's, no special tokens). The cut falls before a
    word's first token, so the head tokenises as it did inside the text; a first word
    longer than ``width`` is cut inside. ``text`` itself when it fits."""
    if len(offsets) <= width:
        return text
    end = width  # the first token left out
    while end > 0 and words[end] is not None and words[end] == words[end - 1]:
        end -= 1
    return text[: offsets[end if end > 0 else width][0]]


class Splitter:
    """A model's own tokenizer, untruncated, cutting texts to the window the model reads
    for each kind of text (``head``)."""

    def __init__(
        self, tokenizer_file: Path, windows: Mapping[Any, int], prefixes: Mapping[Any, str]
    ) -> None:
        from tokenizers import Tokenizer

        self._tokenizer = Tokenizer.from_file(str(tokenizer_file))
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()
        specials = len(self._tokenizer.encode("", add_special_tokens=True).ids)
        # What a text may hold of each kind: its window less [CLS], [SEP] and the prefix.
        self._width = {
            kind: windows[kind]
            - specials
            - len(self._tokenizer.encode(prefix, add_special_tokens=False).ids)
            for kind, prefix in prefixes.items()
        }
        self._lock = threading.Lock()  # one Tokenizer is not shared by threads at once

    def heads(self, texts: Sequence[str], kind: Any) -> list[str]:
        width = self._width[kind]
        with self._lock:
            found = self._tokenizer.encode_batch(list(texts), add_special_tokens=False)
        return [head(t, e.offsets, e.word_ids, width) for t, e in zip(texts, found, strict=True)]
