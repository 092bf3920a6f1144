"""A passage's vector reads its head (``embed/windows.py``): the first
``embedding_passage_tokens`` word pieces, cut at a word boundary; a shorter passage keeps,
bit for bit, the vector a plain ``embed`` gives it."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem.config import Settings
from graphmem.embed.base import Embedder, MiniLMEmbedder, passage_windows
from graphmem.embed.cache import CachedEmbedder
from graphmem.embed.factory import build_model
from graphmem.embed.split import Splitter, head
from graphmem.embed.windows import embed_passages

# Words of several pieces each ("unquestionably" is more than one word piece), numbers
# and punctuation: a cut must never fall inside a word.
LONG = " ".join(
    f"Paragraph {i}: the unquestionably extraordinary reorganisation of item-{i}, again."
    for i in range(700)
)
SHORT = [
    "[2023-05-20 02:21] user: Can you suggest a pasta recipe?",
    "[2023-05-20 02:21] assistant: Try aglio e olio.",
    "Ana: " + "short words " * 20,
]


@pytest.fixture(scope="module", params=["minilm", "e5-small-v2"])
def model(request: pytest.FixtureRequest) -> Embedder:
    # the default precision of each: float32 torch batches for minilm, int8 ONNX for e5
    return build_model(Settings(embedder=request.param))


def test_the_head_is_a_prefix_cut_between_words() -> None:
    windows = passage_windows(256, 64)
    splitter = Splitter(
        MiniLMEmbedder.model_dir() / "tokenizer.json",
        windows,
        {"query": "", "passage": "", "symmetric": ""},
    )
    (cut,) = splitter.heads([LONG], "passage")
    counter = MiniLMEmbedder(Settings())
    # it fits the passage window less [CLS] and [SEP], and ends where a word ends: the
    # next character starts a word, so the head tokenises as it did inside the text
    assert LONG.startswith(cut) and 50 <= counter.count_tokens(cut) <= 62
    assert LONG[len(cut)] == " " or not LONG[len(cut) - 1].isalnum()
    # queries read the model's whole window, and short texts are kept whole
    (query,) = splitter.heads([LONG], "query")
    assert 240 <= counter.count_tokens(query) <= 254
    assert splitter.heads(SHORT[:2], "passage") == SHORT[:2]


def test_a_first_word_longer_than_the_head_is_cut_inside() -> None:
    offsets = [(i, i + 1) for i in range(10)]
    assert head("abcdefghij", offsets, [0] * 10, 4) == "abcd"
    assert head("abcdefghij", offsets, [0] * 10, 10) == "abcdefghij"
    assert (
        head("ab cdefghij", [(0, 2), *[(i, i + 1) for i in range(3, 11)]], [0] + [1] * 8, 4)
        == "ab "
    )


def test_short_vectors_are_unchanged_and_a_long_one_is_its_heads(model: Embedder) -> None:
    texts = [SHORT[0], LONG, SHORT[1], SHORT[2]]
    vectors = embed_passages(model, texts)
    # within the head: the one call a plain embed makes, so the same bits
    assert np.array_equal(vectors[[0, 2, 3]], model.embed(SHORT, "passage"))
    (cut,) = model.heads([LONG], "passage")
    assert len(cut) < len(LONG) // 20
    np.testing.assert_allclose(vectors[1], model.embed([cut], "passage")[0], rtol=0, atol=1e-6)
    assert abs(float(np.linalg.norm(vectors[1])) - 1.0) < 1e-5


def test_the_head_follows_the_setting(model: Embedder) -> None:
    wider = build_model(Settings(embedder=_key(model), embedding_passage_tokens=256))
    (narrow,) = model.heads([LONG], "passage")
    (wide,) = wider.heads([LONG], "passage")
    assert wide.startswith(narrow) and len(wide) > len(narrow) * 1.7


def _key(model: Embedder) -> str:
    return "minilm" if isinstance(model, MiniLMEmbedder) else "e5-small-v2"


def test_the_cache_cuts_as_its_model_does(model: Embedder) -> None:
    cached = CachedEmbedder.wrap(model)
    assert cached.heads([LONG, SHORT[0]]) == model.heads([LONG, SHORT[0]])
    np.testing.assert_array_equal(embed_passages(cached, SHORT), model.embed(SHORT, "passage"))
