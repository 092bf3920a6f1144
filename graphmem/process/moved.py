"""A module's names that moved, still found at the old path for one release: a module
``__getattr__`` (neo4j-graphrag's shim is the model) that warns and forwards, so that
importing the old module costs nothing until a name is read."""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from typing import Any


def forward(old: str, new: str) -> Callable[[str], Any]:
    """The ``__getattr__`` of module ``old``, whose names now live in module ``new``."""

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):  # the import system's own probes (__path__, ...)
            raise AttributeError(name)
        warnings.warn(f"{old}.{name} moved to {new}.{name}", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(new), name)

    return __getattr__
