"""Moved to ``graphmem.plugin.registry`` (the plug-in kit, issue 58): ``register`` and the
registry's look-ups. Plug-ins written against ``graphmem.designs.registry`` keep working,
with a DeprecationWarning, for one release (a module ``__getattr__``: nothing is imported
until a name is read)."""

from __future__ import annotations

import importlib
import warnings
from typing import Any


def __getattr__(name: str) -> Any:
    if name.startswith("__"):  # the import system's own probes (__path__, ...)
        raise AttributeError(name)
    warnings.warn(
        f"graphmem.designs.registry.{name} moved to graphmem.plugin.registry.{name}",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(importlib.import_module("graphmem.plugin.registry"), name)
