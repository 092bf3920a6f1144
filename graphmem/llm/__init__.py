"""LLM extraction layer: schema-validated structured output from OpenAI-compatible servers,
with per-server format negotiation, bounded retries and repairs, per-item fallback to the
offline backend, a response cache and usage accounting (docs/llm.md)."""

from graphmem.llm.base import StructuredLLM
from graphmem.llm.cache import ResponseCache, cache_key
from graphmem.llm.factory import PingResult, build_llm, ping
from graphmem.llm.fallback import (
    Outcome,
    attempt,
    map_attempts,
    map_with_fallback,
    with_fallback,
)
from graphmem.llm.types import Message
from graphmem.llm.usage import LLMUsage, Usage

__all__ = [
    "LLMUsage",
    "Message",
    "Outcome",
    "PingResult",
    "ResponseCache",
    "StructuredLLM",
    "Usage",
    "attempt",
    "build_llm",
    "cache_key",
    "map_attempts",
    "map_with_fallback",
    "ping",
    "with_fallback",
]
