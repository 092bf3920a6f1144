"""What the CLI prints in words: counts with their nouns ("1 turn", "3 sessions"), and a
report with its zero figures left out (``stats`` without ``--all``)."""

from __future__ import annotations

from typing import Any

# Counts in words are shared with MCP's rendering (graphmem/serving/render.py); the CLI's
# modules keep importing them from here.
from graphmem.serving.render import plural

__all__ = ["nonzero", "plural"]


def nonzero(data: Any) -> tuple[Any, int]:
    """``data`` without its zero figures (a number 0, and a section left empty by them),
    and how many figures were left out. A text or a flag stays whatever its value."""
    if isinstance(data, dict):
        kept: dict[str, Any] = {}
        dropped = 0
        for key, value in data.items():
            if _is_zero(value):
                dropped += 1
                continue
            shown, left = nonzero(value)
            dropped += left
            if shown or not left:  # a section all of whose figures were zero goes too
                kept[key] = shown
        return kept, dropped
    if isinstance(data, list):
        pairs = [nonzero(v) for v in data]
        return [v for v, _ in pairs], sum(n for _, n in pairs)
    return data, 0


def _is_zero(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value == 0
