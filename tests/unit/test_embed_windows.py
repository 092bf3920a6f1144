"""Passages past the model's window (``embed/windows.py``): cut at word boundaries into
pieces that fit, embedded piece by piece, one vector a passage (the normalised mean); a
passage within the window keeps, bit for bit, the vector a plain ``embed`` gives it."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem.config import Settings
from graphmem.embed.base import Embedder, MiniLMEmbedder, normalise
from graphmem.embed.cache import CachedEmbedder
from graphmem.embed.factory import build_model
from graphmem.embed.models import MODELS
from graphmem.embed.split import Splitter, cut
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
    "Ana: " + "short words " * 40,
]


@pytest.fixture(scope="module", params=["minilm", "e5-small-v2"])
def model(request: pytest.FixtureRequest) -> Embedder:
    # the default precision of each: float32 torch batches for minilm, int8 ONNX for e5
    return build_model(Settings(embedder=request.param))


def test_cut_keeps_every_character_and_cuts_between_words() -> None:
    splitter = Splitter(MiniLMEmbedder.model_dir() / "tokenizer.json", 64, {"passage": ""})
    (pieces,) = splitter.split([LONG], "passage")
    assert len(pieces) > 10 and "".join(pieces) == LONG
    counter = MiniLMEmbedder(Settings())
    # each piece fits (the window less [CLS] and [SEP]) and starts a word: re-tokenised
    # alone it gives the tokens it had inside the text
    assert all(counter.count_tokens(p) <= 62 for p in pieces)
    assert sum(counter.count_tokens(p) for p in pieces) == counter.count_tokens(LONG)
    assert all(p[0].isalnum() or p[0] in "-:,." for p in pieces)
    assert splitter.split(SHORT[:2], "passage") == [[t] for t in SHORT[:2]]


def test_a_word_longer_than_the_window_is_cut_inside() -> None:
    offsets = [(i, i + 1) for i in range(10)]
    assert cut("abcdefghij", offsets, [0] * 10, 4) == ["abcd", "efgh", "ij"]
    assert cut("abcdefghij", offsets, [0] * 10, 10) == ["abcdefghij"]


def test_in_window_vectors_are_unchanged_and_a_long_one_is_the_mean_of_its_pieces(
    model: Embedder,
) -> None:
    texts = [SHORT[0], LONG, SHORT[1], SHORT[2]]
    vectors = embed_passages(model, texts)
    # within the window: the one call a plain embed makes, so the same bits
    assert np.array_equal(vectors[[0, 2, 3]], model.embed(SHORT, "passage"))
    assert np.array_equal(embed_passages(model, SHORT), model.embed(SHORT, "passage"))
    (pieces,) = model.pieces([LONG], "passage")
    window = MODELS["minilm" if isinstance(model, MiniLMEmbedder) else "e5-small-v2"].max_tokens
    assert len(pieces) >= model.count_tokens(LONG) // window
    mean = normalise(model.embed(pieces, "passage").mean(axis=0, keepdims=True))[0]
    np.testing.assert_allclose(vectors[1], mean, rtol=0, atol=1e-6)
    assert abs(float(np.linalg.norm(vectors[1])) - 1.0) < 1e-5
    # not the truncated text's vector: the end of the document counts too
    assert not np.allclose(vectors[1], model.embed([LONG], "passage")[0], atol=1e-3)


def test_the_cache_splits_as_its_model_does(model: Embedder) -> None:
    cached = CachedEmbedder.wrap(model)
    assert cached.pieces([LONG, SHORT[0]]) == model.pieces([LONG, SHORT[0]])
    np.testing.assert_array_equal(embed_passages(cached, SHORT), model.embed(SHORT, "passage"))
