"""What ``graphmem serve`` (HTTP) and ``graphmem mcp`` share: one service over a Memory,
with one confinement, one set of checks and errors, and one order of work; and the words a
query result or a history reads as (``render``), which the CLI prints too.

Names load on first use (a module ``__getattr__``): the CLI's plain words import
``graphmem.serving.render``, which must not load the service's Memory and driver."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graphmem.serving.service import MemoryService
    from graphmem.serving.turns import Turns

# public name -> the module that defines it
_HOME = {"MemoryService": "graphmem.serving.service", "Turns": "graphmem.serving.turns"}

__all__ = ["MemoryService", "Turns"]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'graphmem.serving' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # the next read is a plain lookup
    return value
