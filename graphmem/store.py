"""Moved to ``graphmem.graph.store``: ``graphmem.store.GraphStore`` (the README's cookbook
line of earlier releases) keeps working, with a DeprecationWarning, for one release (a
module ``__getattr__``: nothing is imported until a name is read)."""

from __future__ import annotations

import importlib
import warnings
from typing import Any


def __getattr__(name: str) -> Any:
    if name.startswith("__"):  # the import system's own probes (__path__, ...)
        raise AttributeError(name)
    warnings.warn(
        f"graphmem.store.{name} moved to graphmem.graph.store.{name}",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(importlib.import_module("graphmem.graph.store"), name)
