"""graphmem: graph-native episodic memory for conversational agents, on Neo4j + GDS.

``from graphmem import Memory`` is the API (``graphmem.memory``); the names below load on
first use, so that ``import graphmem`` (the CLI's ``--help``, a test collecting) stays
cheap. Importing graphmem changes nothing process-wide: the tunings the CLI turns on are
``Memory(..., tune_process=True)`` for a library user who wants them.
"""

from __future__ import annotations

__version__ = "0.1.0"

# Not ``typing.TYPE_CHECKING``: importing typing would be most of this module's cost.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from graphmem.ingest.exports.base import ImportOptions
    from graphmem.memory import Memory
    from graphmem.types import AskResult, IngestResult, QueryResult

# public name -> the module that defines it
_LAZY = {
    "Memory": "graphmem.memory",
    "ImportOptions": "graphmem.ingest.exports.base",
    "AskResult": "graphmem.types",
    "IngestResult": "graphmem.types",
    "QueryResult": "graphmem.types",
}

__all__ = ["AskResult", "ImportOptions", "IngestResult", "Memory", "QueryResult", "__version__"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'graphmem' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # once: later lookups skip this hook
    return value
