"""An event frame's vector, from its parts: what the builder computes and what
``graphmem reembed`` recomputes with another embedder.

A frame is created from one draft (a window of turns) and fused with later drafts; each
draft is one *part*. A part's vector is its summary's embedding (LLM backend) or the
normalised mean of its turns' stored vectors (offline, ``window_vector``). A fused frame's
vector is folded part by part: the running vector weighted by the passages the frame held,
the new part by its own (``weighted``). Normalising at every step loses the running sum's
length, so the fold cannot be undone from the result nor redone from the passages alone:
the frame stores its parts (``vector_parts``: passages per part, ``vector_passages``:
their ids, ``vector_texts``: the summaries an LLM build embedded) and ``fold`` replays it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]


def window_vector(vectors: Sequence[Vector]) -> Vector:
    """An offline part: its turns say what it says, so it is the normalised mean of their
    stored vectors rather than an embedding of a paraphrase of them."""
    mean = np.mean(vectors, axis=0)
    out: Vector = (mean / (np.linalg.norm(mean) or 1.0)).astype(np.float32)
    return out


def weighted(a: Vector, a_passages: int, b: Vector, b_passages: int) -> Vector:
    """Two frames fused: the passage-weighted mean of their vectors, normalised."""
    mean = a * a_passages + b * b_passages
    norm = float(np.linalg.norm(mean))
    out: Vector = (mean / norm if norm else mean).astype(np.float32)
    return out


def fold(parts: Sequence[Vector], sizes: Sequence[int], passages: Sequence[str]) -> Vector:
    """The vector of a frame made of ``parts`` in fusion order; ``sizes[i]`` passages of
    ``passages`` (concatenated in the same order) belong to part ``i``. The running frame
    counts its distinct passages, as ``Consolidator`` does."""
    vector = parts[0]
    held = dict.fromkeys(passages[: sizes[0]])
    start = sizes[0]
    for part, size in zip(parts[1:], sizes[1:], strict=True):
        vector = weighted(vector, len(held), part, size)
        held.update(dict.fromkeys(passages[start : start + size]))
        start += size
    return vector
