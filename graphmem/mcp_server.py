"""Moved to ``graphmem.mcp.server``: this name keeps working, with a DeprecationWarning, for
one release (a module ``__getattr__``, so that importing it costs nothing until a name is
read)."""

from __future__ import annotations

import importlib
import warnings
from typing import Any


def __getattr__(name: str) -> Any:
    if name.startswith("__"):  # the import system's own probes (__path__, ...)
        raise AttributeError(name)
    warnings.warn(
        f"graphmem.mcp_server.{name} moved to graphmem.mcp.server.{name}",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(importlib.import_module("graphmem.mcp.server"), name)
