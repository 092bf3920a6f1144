"""bfloat16 embedding (``GRAPHMEM_EMBEDDING_PRECISION``) keeps the pinned model's vectors:
within a cosine tolerance of float32's and with the same nearest neighbours, so a
database built in one precision can be queried in the other."""

from __future__ import annotations

import numpy as np

from graphmem.config import Settings
from graphmem.embed.base import MiniLMEmbedder

TEXTS = [
    "(8 May 2023) Caroline: I went to a LGBTQ support group yesterday and it was so powerful.",
    "(8 May 2023) Melanie: That's awesome! What happened there?",
    "(25 May 2023) Melanie: We went camping with the kids at the beach last weekend.",
    "(9 June 2023) Caroline: I'm researching adoption agencies, I want to be a mom.",
    "(9 June 2023) Melanie: I painted a sunset over the lake, it calms me down.",
    "Jon: I lost my job as a banker, so I'm starting my own dance studio.",
]
QUESTIONS = ["When did Caroline go to the support group?", "What did Melanie paint?"]


def test_bfloat16_vectors_are_the_float32_vectors_within_tolerance() -> None:
    fp32 = MiniLMEmbedder(Settings(embedding_precision="float32"))
    bf16 = MiniLMEmbedder(Settings(embedding_precision="bfloat16"))
    a, b = fp32.embed(TEXTS), bf16.embed(TEXTS)
    assert b.dtype == np.float32
    assert np.allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-5)
    cosine = np.sum(a * b, axis=1)
    assert cosine.min() > 0.999
    for question in QUESTIONS:
        qa, qb = np.asarray(fp32.embed_query(question)), np.asarray(bf16.embed_query(question))
        assert list(np.argsort(-a @ qa)[:3]) == list(np.argsort(-b @ qb)[:3])


def test_auto_is_int8_for_the_jar_models_and_float32_else() -> None:
    assert Settings.model_fields["embedding_precision"].default == "auto"
    assert Settings().embedder == "e5-small-v2"
    assert Settings().resolved_precision == "int8"
    assert Settings(embedder="bge-small-en-v1.5").resolved_precision == "int8"
    assert Settings(embedder="minilm").resolved_precision == "float32"
    assert Settings(embedder="openai").resolved_precision == "float32"
    assert Settings(embedder="e5-small-v2", embedding_precision="float32").resolved_precision == (
        "float32"
    )
