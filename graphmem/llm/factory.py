"""Building the configured client, and one real, cheap round trip to check it works."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from pydantic import BaseModel

from graphmem.llm.base import StructuredLLM
from graphmem.llm.types import FormatMode, Message
from graphmem.llm.usage import LLMUsage

if TYPE_CHECKING:
    from graphmem.config import Settings


def build_llm(settings: Settings) -> StructuredLLM | None:
    """The configured LLM client, or None when no model is set (callers go offline)."""
    if not settings.llm_enabled:
        return None
    # Imported here so that offline use never pays for importing the openai SDK.
    from graphmem.llm.openai_llm import OpenAIStructuredLLM

    return OpenAIStructuredLLM(settings)


class _Pong(BaseModel):
    ok: bool


class PingResult(BaseModel):
    """What ``graphmem doctor`` shows about the LLM."""

    model: str
    base_url: str | None
    ms: float
    response_format: FormatMode | None
    usage: LLMUsage


def ping(settings: Settings) -> PingResult | None:
    """One real request, bypassing the cache and with no retries (configured is not the
    same as working); None without an LLM. Raises ``LLMError`` when the call fails."""
    if not settings.llm_enabled or not settings.llm_model:
        return None
    from graphmem.llm.openai_llm import OpenAIStructuredLLM

    probe = settings.model_copy(update={"llm_cache": False, "llm_max_retries": 0})
    began = time.perf_counter()
    with OpenAIStructuredLLM(probe) as llm:
        llm.generate([Message(role="user", content='Reply with the JSON {"ok": true}.')], _Pong)
        mode = llm.response_format_mode
        usage = llm.usage.snapshot()
    return PingResult(
        model=settings.llm_model,
        base_url=settings.llm_base_url,
        ms=round((time.perf_counter() - began) * 1000, 1),
        response_format=mode,
        usage=usage,
    )
