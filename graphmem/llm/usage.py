"""What the LLM cost: running counters per client, and frozen totals to subtract and add.

The framework snapshots a client's counters before and after each build
(``graphmem.plugin.builder.run_build``), so every design is charged its own calls without
counting anything itself.
"""

from __future__ import annotations

import threading
from typing import Any

from pydantic import BaseModel, ConfigDict


class LLMUsage(BaseModel):
    """Totals over some span of work.

    ``calls``: HTTP requests sent to the server (first tries, retries, repairs, format
    probes; answered or failed), so it equals the server's own request count.
    ``cache_hits``: answers served from the response cache (no request).
    ``errors``: requests that failed (HTTP error, timeout, connection).
    ``retries``: requests re-sent after a transient failure.
    ``repairs``: follow-up requests sent because an answer did not validate.
    ``fallbacks``: items that went to the offline backend after the LLM gave up on them.
    ``seconds``: time spent waiting for the server, summed over concurrent requests.
    """

    model_config = ConfigDict(frozen=True)

    calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    errors: int = 0
    retries: int = 0
    repairs: int = 0
    fallbacks: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: LLMUsage) -> LLMUsage:
        return LLMUsage(**{k: v + getattr(other, k) for k, v in self._values().items()})

    def __sub__(self, other: LLMUsage) -> LLMUsage:
        return LLMUsage(**{k: v - getattr(other, k) for k, v in self._values().items()})

    def _values(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in type(self).model_fields}

    def as_dict(self, prefix: str = "llm_") -> dict[str, Any]:
        """Flat keys for reports: ``llm_calls``, ``llm_cache_hits``, ..., ``llm_tokens``."""
        out: dict[str, Any] = {f"{prefix}{k}": v for k, v in self._values().items()}
        out[f"{prefix}seconds"] = round(self.seconds, 2)
        out[f"{prefix}tokens"] = self.total_tokens
        return out


class Usage:
    """Running totals for one client; every update happens under one lock, so concurrent
    requests never lose a count and a snapshot is never half of an update."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._totals = LLMUsage()

    def add(self, **counts: Any) -> None:
        """e.g. ``add(calls=1, prompt_tokens=120)``; unknown names are a TypeError."""
        delta = LLMUsage(**counts)
        with self._lock:
            self._totals = self._totals + delta

    def snapshot(self) -> LLMUsage:
        with self._lock:
            return self._totals
