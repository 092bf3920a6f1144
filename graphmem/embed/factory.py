"""Building the configured embedder (``GRAPHMEM_EMBEDDER``, ``GRAPHMEM_EMBEDDING_PRECISION``)
behind the vector cache. A module of its own: the models it builds
(``onnx_jar_embedder.py``) and the cache (``cache.py``) import ``base`` for the interface,
and ``base`` building them closed an import cycle."""

from __future__ import annotations

from graphmem.config import Settings
from graphmem.embed.base import Embedder, MiniLMEmbedder, OpenAIEmbedder
from graphmem.errors import ConfigError


def build_embedder(settings: Settings) -> Embedder:
    """The configured embedder (``GRAPHMEM_EMBEDDER``) in the configured precision
    (``GRAPHMEM_EMBEDDING_PRECISION``); a precision the model lacks is a ``ConfigError``.
    Every embedder comes behind the vector cache (``embed/cache.py``): ingest, builders,
    ``reembed`` and queries each embed a distinct text once."""
    from graphmem.embed.cache import CachedEmbedder

    return CachedEmbedder.wrap(build_model(settings), settings)


def build_model(settings: Settings) -> Embedder:
    """The configured embedder itself, without the vector cache."""
    precision = settings.resolved_precision
    if settings.embedder == "openai":
        if precision != "float32":
            raise ConfigError(f"GRAPHMEM_EMBEDDING_PRECISION={precision} is not for openai")
        return OpenAIEmbedder(settings, settings.embedding_dim)
    if settings.embedder == "minilm" and precision in ("float32", "bfloat16"):
        return MiniLMEmbedder(settings)
    from graphmem.embed.models import MODELS
    from graphmem.embed.onnx_jar_embedder import OnnxModelEmbedder

    spec = MODELS[settings.embedder]
    if precision not in spec.jars:
        raise ConfigError(
            f"GRAPHMEM_EMBEDDING_PRECISION={precision} is not available for "
            f"{settings.embedder} (it has {', '.join(sorted(spec.jars))})",
            hint="bfloat16 is the torch path of minilm only",
        )
    return OnnxModelEmbedder(settings, spec, precision)
