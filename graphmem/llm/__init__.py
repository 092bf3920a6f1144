"""LLM extraction layer: schema-validated structured output from OpenAI-compatible servers."""

from graphmem.llm.base import Message, StructuredLLM, Usage, build_llm
from graphmem.llm.cache import ResponseCache, cache_key

__all__ = [
    "Message",
    "ResponseCache",
    "StructuredLLM",
    "Usage",
    "build_llm",
    "cache_key",
]
