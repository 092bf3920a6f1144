"""One ``Embedder`` interface: local all-MiniLM-L6-v2 (default) or OpenAI-compatible."""

from graphmem.embed.base import Embedder
from graphmem.embed.factory import build_embedder

__all__ = ["Embedder", "build_embedder"]
