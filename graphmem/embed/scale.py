"""Cosine thresholds read on one reference scale, mapped to the embedder in use.

Embedders spread cosines differently: unrelated English nouns meet at about 0.28 under
all-MiniLM-L6-v2 and 0.85 under e5-small-v2 (whose card says its scores gather in
0.7-1.0, only their order meaning anything). A threshold is therefore a number on one
model's scale. graphmem reads every cosine threshold a design declares on MiniLM's scale
(the one its values and tests were set on) and maps it to the configured embedder's by
matching two anchors per comparison kind, the mean cosine of unrelated pairs (mu) and of
related pairs (rel)::

    raw = mu_model + (t - mu_minilm) * (rel_model - mu_model) / (rel_minilm - mu_minilm)

so a pair as far above unrelated, in units of how far related pairs sit above it, passes
under either model. The pairs come from a neutral reference set written for graphmem
(``embed/scale_texts.py``; no evaluation data). Unrelated: every distinct pair of generic
nouns (``symmetric``), of short sentences (``passage``), each generic question (``query``)
against each sentence. Related: synonyms and aliases (``symmetric``), paraphrases
(``passage``), a question and the sentence that answers it. Distances (``1 - cosine``) map
through ``1 - map(1 - d)``. Under MiniLM the map is the identity. A design declares a
field as a threshold with ``json_schema_extra`` ``{"cosine": KIND}`` (``COSINE_KINDS``);
``on_scale`` maps a settings instance. (Matching the spread of unrelated pairs instead of
the related anchor was measured too: it read e5's thresholds stricter, 95 synonym edges
and 30 AnchorMem events on conv-26 against MiniLM's 328 and 295; docs/research-log.md,
2026-11-26.)

The pairs of the pinned embedders are measured once (``tests/unit/embed/test_scale.py`` checks
them against the models); any other embedder (openai) is measured at its first use.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Literal, TypeVar, get_args

import numpy as np
from pydantic import BaseModel

from graphmem.config import Settings
from graphmem.embed.base import Embedder, Kind
from graphmem.embed.scale_texts import ANSWERS, NOUNS, PARAPHRASES, QUESTIONS, SENTENCES, SYNONYMS

# What a threshold compares: entity names with each other (symmetric), stored texts with
# each other (passage), a question with stored texts (query); distance-*: 1 - cosine.
CosineKind = Literal["symmetric", "passage", "query", "distance-passage"]
COSINE_KINDS: tuple[str, ...] = get_args(CosineKind)
Pair = Literal["symmetric", "passage", "query"]


@dataclass(frozen=True)
class Stat:
    """Mean cosine of unrelated pairs (``mu``) and of related pairs (``rel``) of one kind."""

    mu: float
    rel: float


@dataclass(frozen=True)
class Scale:
    symmetric: Stat
    passage: Stat
    query: Stat

    def of(self, pair: Pair) -> Stat:
        found: Stat = getattr(self, pair)
        return found


# all-MiniLM-L6-v2 float32: the reference scale every declared threshold is read on.
REFERENCE_NAME = "sentence-transformers/all-MiniLM-L6-v2"
# Measured by ``measure`` (rounded to 4 places; tests/unit/embed/test_scale.py re-measures them).
# MiniLM's bfloat16 path shares the float32 name (and, within rounding, its scale).
PINNED: dict[str, Scale] = {
    REFERENCE_NAME: Scale(Stat(0.2744, 0.7745), Stat(0.0959, 0.8271), Stat(0.0590, 0.7610)),
    f"{REFERENCE_NAME}:int8": Scale(
        Stat(0.2786, 0.7649), Stat(0.0979, 0.8189), Stat(0.0594, 0.7496)
    ),
    "intfloat/e5-small-v2": Scale(Stat(0.8271, 0.9422), Stat(0.7179, 0.9463), Stat(0.6899, 0.8608)),
    "intfloat/e5-small-v2:int8": Scale(
        Stat(0.8335, 0.9422), Stat(0.7221, 0.9437), Stat(0.6952, 0.8614)
    ),
    "BAAI/bge-small-en-v1.5": Scale(
        Stat(0.5985, 0.8594), Stat(0.4386, 0.9121), Stat(0.3334, 0.7612)
    ),
    "BAAI/bge-small-en-v1.5:int8": Scale(
        Stat(0.6015, 0.8567), Stat(0.4430, 0.9103), Stat(0.3386, 0.7576)
    ),
}
REFERENCE = PINNED[REFERENCE_NAME]

_measured: dict[str, Scale] = {}
_lock = threading.Lock()


def _stat(unrelated: np.ndarray, related: np.ndarray) -> Stat:
    return Stat(round(float(np.mean(unrelated)), 4), round(float(np.mean(related)), 4))


def _related(
    embedder: Embedder, pairs: tuple[tuple[str, str], ...], left: Kind, right: Kind
) -> np.ndarray:
    a = embedder.embed([x for x, _ in pairs], left).astype(np.float64)
    b = embedder.embed([y for _, y in pairs], right).astype(np.float64)
    related: np.ndarray = np.sum(a * b, axis=1)
    return related


def measure(embedder: Embedder) -> Scale:
    """The embedder's scale, computed from the reference texts (about 120 embeddings)."""
    nouns = embedder.embed(list(NOUNS), "symmetric").astype(np.float64)
    sentences = embedder.embed(list(SENTENCES), "passage").astype(np.float64)
    questions = embedder.embed(list(QUESTIONS), "query").astype(np.float64)
    upper = np.triu_indices(len(NOUNS), k=1)
    same = np.triu_indices(len(SENTENCES), k=1)
    return Scale(
        symmetric=_stat(
            (nouns @ nouns.T)[upper], _related(embedder, SYNONYMS, "symmetric", "symmetric")
        ),
        passage=_stat(
            (sentences @ sentences.T)[same], _related(embedder, PARAPHRASES, "passage", "passage")
        ),
        query=_stat(
            (questions @ sentences.T).ravel(), _related(embedder, ANSWERS, "query", "passage")
        ),
    )


def scale_of(embedder: Embedder) -> Scale:
    """The pinned scale of a known embedder, else measured once per process and name."""
    pinned = PINNED.get(embedder.name)
    if pinned is not None:
        return pinned
    with _lock:
        if embedder.name not in _measured:
            _measured[embedder.name] = measure(embedder)
        return _measured[embedder.name]


def map_cosine(t: float, pair: Pair, scale: Scale) -> float:
    """Cosine threshold ``t`` (MiniLM's scale) on ``scale``; exactly ``t`` on MiniLM's."""
    if scale == REFERENCE:
        return t
    ref, own = REFERENCE.of(pair), scale.of(pair)
    # Clipped to the cosine's range: a threshold mapped past 1 (merge_threshold 0.95 under
    # bge) is one no pair of distinct texts reaches, as its tail would be on MiniLM's.
    stretch = (own.rel - own.mu) / (ref.rel - ref.mu)
    return round(min(1.0, max(-1.0, own.mu + (t - ref.mu) * stretch)), 4)


def cosine_fields(settings: type[BaseModel]) -> dict[str, CosineKind]:
    """The fields ``settings`` declares as cosine thresholds, with their kind."""
    out: dict[str, CosineKind] = {}
    for name, info in settings.model_fields.items():
        extra = info.json_schema_extra
        kind = extra.get("cosine") if isinstance(extra, dict) else None
        if kind is None:
            continue
        if kind not in COSINE_KINDS:
            raise ValueError(f"{settings.__name__}.{name}: unknown cosine kind {kind!r}")
        out[name] = kind  # type: ignore[assignment]
    return out


def map_value(value: float, kind: CosineKind, scale: Scale) -> float:
    if kind == "distance-passage":
        return round(1.0 - map_cosine(1.0 - value, "passage", scale), 4)
    return map_cosine(value, kind, scale)


S = TypeVar("S", bound=BaseModel)


def on_scale(settings: S, scale: Scale) -> S:
    """``settings`` with each declared cosine threshold mapped to ``scale``."""
    fields = cosine_fields(type(settings))
    if not fields or scale == REFERENCE:
        return settings
    update = {f: map_value(getattr(settings, f), k, scale) for f, k in fields.items()}
    return settings.model_copy(update=update)


def for_embedder(settings: S, embedder: Embedder) -> S:
    """``settings`` as ``embedder`` reads them; its scale is looked up (or measured) only
    when ``settings`` declares a cosine threshold."""
    if not cosine_fields(type(settings)):
        return settings
    return on_scale(settings, scale_of(embedder))


def configured_name(settings: Settings) -> str | None:
    """The name the configured embedder will have, known without loading it (None: openai,
    whose scale is measured at its first use)."""
    precision = settings.resolved_precision
    if settings.embedder == "openai":
        return None
    if settings.embedder == "minilm" and precision in ("float32", "bfloat16"):
        return REFERENCE_NAME
    from graphmem.embed.models import MODELS, pinned_name

    return pinned_name(MODELS[settings.embedder], precision)
