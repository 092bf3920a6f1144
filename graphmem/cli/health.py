"""Doctor checks that need more than a statement: a real LLM round trip and file modes."""

from __future__ import annotations

from graphmem.cli.plain import plural
from graphmem.config import Settings
from graphmem.errors import GraphmemError
from graphmem.llm import ping
from graphmem.server.permissions import too_open


def llm_check(settings: Settings) -> str:
    """One real, cheap call (no cache, no retries): configured is not the same as working."""
    result = ping(settings)
    if result is None:
        return "offline backend (no GRAPHMEM_LLM_MODEL set)"
    where = result.base_url or "the OpenAI default URL"
    return (
        f"{result.model} at {where} answered in {result.ms:.0f} ms "
        f"(structured output: {result.response_format})"
    )


def permissions_check(settings: Settings) -> str:
    """Nothing under GRAPHMEM_HOME readable by other users (store files, logs, auth.ini)."""
    home = settings.home
    if not home.exists():
        return f"{home} does not exist yet"
    loose = too_open(home)
    if loose:
        shown = ", ".join(str(p) for p in loose[:3])
        more = f" and {len(loose) - 3} more" if len(loose) > 3 else ""
        paths = plural(len(loose), "path")
        raise GraphmemError(f"{paths} under {home} readable by others: {shown}{more}")
    return f"everything under {home} is private to its owner (0700/0600)"
