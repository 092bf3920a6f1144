"""Cosine thresholds read on one reference scale, mapped to the embedder in use.

Embedders spread cosines differently: unrelated English nouns meet at about 0.28 under
all-MiniLM-L6-v2 and 0.85 under e5-small-v2 (whose card says its scores gather in
0.7-1.0, only their order meaning anything). A threshold is therefore a number on one
model's scale. graphmem reads every cosine threshold a design declares on MiniLM's scale
(the one its values and tests were set on) and maps it to the configured embedder's by
matching the mean and spread of unrelated pairs, per comparison kind::

    raw = mu_model + (t - mu_minilm) * sd_model / sd_minilm

mu and sd are the mean and standard deviation of the cosines of every distinct pair of a
neutral reference set written here (generic nouns, short sentences and questions; no
evaluation data): nouns against nouns embedded as ``symmetric``, sentences against
sentences as ``passage``, each question (``query``) against each sentence (``passage``).
Distances (``1 - cosine``) map through ``1 - map(1 - d)``. Under MiniLM the map is the
identity. A design declares a field as a threshold with ``json_schema_extra``
``{"cosine": KIND}`` (``COSINE_KINDS``); ``on_scale`` maps a settings instance.

The pairs of the pinned embedders are measured once (``tests/unit/test_scale.py`` checks
them against the models); any other embedder (openai) is measured at its first use.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Literal, TypeVar, get_args

import numpy as np
from pydantic import BaseModel

from graphmem.config import Settings
from graphmem.embed.base import Embedder

# What a threshold compares: entity names with each other (symmetric), stored texts with
# each other (passage), a question with stored texts (query); distance-*: 1 - cosine.
CosineKind = Literal["symmetric", "passage", "query", "distance-passage"]
COSINE_KINDS: tuple[str, ...] = get_args(CosineKind)
Pair = Literal["symmetric", "passage", "query"]

NOUNS = (
    "apple", "bicycle", "candle", "desert", "engine", "feather", "guitar", "harbor",
    "island", "jacket", "kettle", "ladder", "mirror", "needle", "orchard", "pencil",
    "quarry", "river", "saddle", "tunnel", "umbrella", "valley", "window", "yogurt",
    "anchor", "blanket", "cabinet", "dolphin", "elbow", "forest", "glacier", "hammer",
    "insect", "jungle", "kitchen", "lantern", "meadow", "noodle", "oyster", "parrot",
)  # fmt: skip
SENTENCES = (
    "The train left the station a few minutes late.",
    "She planted tomatoes along the back fence.",
    "The printer on the third floor is out of paper.",
    "A storm knocked down two trees near the bridge.",
    "He repaired the leaking tap in the bathroom.",
    "The museum opens at ten on weekdays.",
    "Our team finished the report before lunch.",
    "The cat slept on the warm windowsill all afternoon.",
    "They painted the fence a pale shade of blue.",
    "The bakery sells fresh bread every morning.",
    "A new bus line connects the airport to the city.",
    "The violin lessons start again in the autumn.",
    "He forgot his umbrella at the restaurant.",
    "The lake froze early this winter.",
    "She wrote a letter to her grandmother.",
    "The shop around the corner sells old maps.",
    "Our neighbours adopted a small brown dog.",
    "The meeting was moved to Thursday afternoon.",
    "A pair of hawks nested on the church tower.",
    "The soup needed more salt and pepper.",
    "He ran five miles along the beach.",
    "The library added a section of comic books.",
    "The car battery died on the coldest day of the year.",
    "She learned to knit during the long evenings.",
    "The farmers harvested the wheat in late summer.",
    "A loud alarm rang through the empty office.",
    "The children built a sandcastle by the water.",
    "The old clock in the hall stopped at midnight.",
    "He bought a second-hand piano for the living room.",
    "The hikers reached the summit before sunrise.",
    "Rain flooded the basement of the school.",
    "The chef prepared a dish of grilled fish and rice.",
    "She moved to a flat near the university.",
    "The festival brought thousands of visitors to the town.",
    "The kettle whistled while he read the newspaper.",
    "A thin layer of dust covered the bookshelves.",
    "The ferry crosses the bay twice an hour.",
    "They played chess on the porch until dark.",
    "The garden hose has a hole near the tap.",
    "Our flight was delayed by fog.",
)
QUESTIONS = (
    "What time does the pharmacy close on Sundays?",
    "How many moons does Jupiter have?",
    "Who won the football match last night?",
    "Where can I buy cheap concert tickets?",
    "Why do leaves change colour in autumn?",
    "What is the capital of Australia?",
    "How do you change a flat tyre?",
    "When was the telephone invented?",
    "Which wine goes well with cheese?",
    "How long does it take to learn Spanish?",
    "What is a good name for a goldfish?",
    "Where is the nearest post office?",
    "How much does a new laptop cost?",
    "Who wrote the first detective novel?",
    "What should I pack for a ski trip?",
    "How do bees make honey?",
    "When does the swimming pool reopen?",
    "What causes earthquakes?",
    "Which programming language should a beginner learn?",
    "How tall is the highest mountain in Europe?",
    "What is the recipe for pancakes?",
    "Why is the sky blue?",
    "How do I reset my email password?",
    "Who painted the ceiling of the Sistine Chapel?",
    "What are the symptoms of the flu?",
    "How far is the moon from the earth?",
    "Where do penguins live?",
    "What does a tax accountant do?",
    "How often should I water a cactus?",
    "Which planet is closest to the sun?",
    "When do the clocks go back this year?",
    "What is the best way to store coffee beans?",
    "How do you say thank you in Japanese?",
    "Who invented the printing press?",
    "What is the speed limit on motorways?",
    "How many players are on a rugby team?",
    "Why do cats purr?",
    "What is the boiling point of water at altitude?",
    "Where was the first Olympic Games held?",
    "How do solar panels work?",
)


@dataclass(frozen=True)
class Stat:
    """Mean and standard deviation of the cosines of unrelated pairs of one kind."""

    mu: float
    sd: float


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
# Measured by ``measure`` (rounded to 4 places; tests/unit/test_scale.py re-measures them).
# MiniLM's bfloat16 path shares the float32 name (and, within rounding, its scale).
PINNED: dict[str, Scale] = {
    REFERENCE_NAME: Scale(Stat(0.2744, 0.0809), Stat(0.0959, 0.0920), Stat(0.0590, 0.0798)),
    f"{REFERENCE_NAME}:int8": Scale(
        Stat(0.2786, 0.0806), Stat(0.0979, 0.0913), Stat(0.0594, 0.0799)
    ),
    "intfloat/e5-small-v2": Scale(Stat(0.8271, 0.0197), Stat(0.7179, 0.0295), Stat(0.6899, 0.0252)),
    "intfloat/e5-small-v2:int8": Scale(
        Stat(0.8335, 0.0188), Stat(0.7221, 0.0291), Stat(0.6952, 0.0249)
    ),
    "BAAI/bge-small-en-v1.5": Scale(
        Stat(0.5985, 0.0485), Stat(0.4386, 0.0666), Stat(0.3334, 0.0631)
    ),
    "BAAI/bge-small-en-v1.5:int8": Scale(
        Stat(0.6015, 0.0485), Stat(0.4430, 0.0665), Stat(0.3386, 0.0628)
    ),
}
REFERENCE = PINNED[REFERENCE_NAME]

_measured: dict[str, Scale] = {}
_lock = threading.Lock()


def _stat(cosines: np.ndarray) -> Stat:
    return Stat(round(float(np.mean(cosines)), 4), round(float(np.std(cosines)), 4))


def measure(embedder: Embedder) -> Scale:
    """The embedder's scale, computed from the reference texts (about 120 embeddings)."""
    nouns = embedder.embed(list(NOUNS), "symmetric").astype(np.float64)
    sentences = embedder.embed(list(SENTENCES), "passage").astype(np.float64)
    questions = embedder.embed(list(QUESTIONS), "query").astype(np.float64)
    upper = np.triu_indices(len(NOUNS), k=1)
    same = np.triu_indices(len(SENTENCES), k=1)
    return Scale(
        symmetric=_stat((nouns @ nouns.T)[upper]),
        passage=_stat((sentences @ sentences.T)[same]),
        query=_stat((questions @ sentences.T).ravel()),
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
    return round(min(1.0, max(-1.0, own.mu + (t - ref.mu) * own.sd / ref.sd)), 4)


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
    from graphmem.embed.models import MODELS

    name = MODELS[settings.embedder].name
    return name if precision == "float32" else f"{name}:{precision}"
