"""Doctor checks that need more than a statement: a real LLM round trip and file modes."""

from __future__ import annotations

import time

from pydantic import BaseModel

from graphmem.config import Settings
from graphmem.errors import GraphmemError
from graphmem.llm import Message, build_llm
from graphmem.server.permissions import too_open


class _Pong(BaseModel):
    ok: bool


def llm_check(settings: Settings) -> str:
    """One real, cheap call (no cache, no retries): configured is not the same as working."""
    if not settings.llm_enabled:
        return "offline backend (no GRAPHMEM_LLM_MODEL set)"
    probe = settings.model_copy(update={"llm_cache": False, "llm_max_retries": 0})
    llm = build_llm(probe)
    assert llm is not None  # llm_enabled
    began = time.perf_counter()
    with llm:
        llm.generate([Message(role="user", content='Reply with the JSON {"ok": true}.')], _Pong)
    ms = (time.perf_counter() - began) * 1000
    where = settings.llm_base_url or "the OpenAI default URL"
    return f"{settings.llm_model} at {where} answered in {ms:.0f} ms"


def permissions_check(settings: Settings) -> str:
    """Nothing under GRAPHMEM_HOME readable by other users (store files, logs, auth.ini)."""
    home = settings.home
    if not home.exists():
        return f"{home} does not exist yet"
    loose = too_open(home)
    if loose:
        shown = ", ".join(str(p) for p in loose[:3])
        more = f" and {len(loose) - 3} more" if len(loose) > 3 else ""
        raise GraphmemError(f"{len(loose)} paths under {home} readable by others: {shown}{more}")
    return f"everything under {home} is private to its owner (0700/0600)"
