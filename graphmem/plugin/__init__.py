"""The plug-in kit: what a memory design builds on, and all a design imports from graphmem
besides the semantic layer's public API (``from graphmem.plugin import Design, Builder,
Retriever``).

- the design record and its settings: ``Design``, ``DesignSettings``, ``Preset``,
  ``Reembed`` (``design``), node styles (``style``) and Browser captions (``captions``);
- building: ``Builder``, ``BuildContext``, ``SessionBatch``, ``BuildReport`` (``builder``);
- retrieving: ``Retriever``, ``SearchRetriever``, ``SnapshotRetriever``,
  ``RetrievalContext`` and the ``Hit`` / ``PassageRef`` / ``RetrievalResult`` it returns
  (``retriever``, ``snapshot``, ``hits``);
- the registry (``register`` a design at run time) and the settings' resolution
  (``DesignConfigs``).

The layers below the designs (graph, retrieval, builders, semantic, ...) reach the designs
only through this kit (its ``registry`` finds them), never by importing ``graphmem.designs``
(tests/unit/test_plugin_layers.py).

Names load on first use (a module ``__getattr__``): ``graphmem --help`` reads the designs'
commands through ``graphmem.plugin.commands`` and must not import pydantic or the driver
that the rest of the kit needs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graphmem.plugin.builder import OFFLINE, BuildContext, Builder, BuildReport, SessionBatch
    from graphmem.plugin.captions import CAPTION_WORDS, short_caption
    from graphmem.plugin.commands import ENTRY_POINT_GROUP
    from graphmem.plugin.configure import DesignConfigs
    from graphmem.plugin.design import (
        BuilderFactory,
        Design,
        DesignKind,
        DesignSettings,
        NoSettings,
        Preset,
        Reembed,
        ReembedFunction,
        RetrieverFactory,
        StatsFunction,
    )
    from graphmem.plugin.hits import Hit, PassageRef, RetrievalResult
    from graphmem.plugin.registry import register, unregister
    from graphmem.plugin.retriever import (
        RetrievalContext,
        Retriever,
        SearchRetriever,
        TokenCounter,
        k_for_budget,
    )
    from graphmem.plugin.snapshot import SnapshotRetriever
    from graphmem.plugin.style import NodeStyle

# public name -> the kit module that defines it
_HOME = {
    "OFFLINE": "builder",
    "BuildContext": "builder",
    "Builder": "builder",
    "BuildReport": "builder",
    "SessionBatch": "builder",
    "CAPTION_WORDS": "captions",
    "short_caption": "captions",
    "ENTRY_POINT_GROUP": "commands",
    "DesignConfigs": "configure",
    "BuilderFactory": "design",
    "Design": "design",
    "DesignKind": "design",
    "DesignSettings": "design",
    "NoSettings": "design",
    "Preset": "design",
    "Reembed": "design",
    "ReembedFunction": "design",
    "RetrieverFactory": "design",
    "StatsFunction": "design",
    "Hit": "hits",
    "PassageRef": "hits",
    "RetrievalResult": "hits",
    "register": "registry",
    "unregister": "registry",
    "RetrievalContext": "retriever",
    "Retriever": "retriever",
    "SearchRetriever": "retriever",
    "TokenCounter": "retriever",
    "k_for_budget": "retriever",
    "SnapshotRetriever": "snapshot",
    "NodeStyle": "style",
}

__all__ = [
    "CAPTION_WORDS",
    "ENTRY_POINT_GROUP",
    "OFFLINE",
    "BuildContext",
    "BuildReport",
    "Builder",
    "BuilderFactory",
    "Design",
    "DesignConfigs",
    "DesignKind",
    "DesignSettings",
    "Hit",
    "NoSettings",
    "NodeStyle",
    "PassageRef",
    "Preset",
    "Reembed",
    "ReembedFunction",
    "RetrievalContext",
    "RetrievalResult",
    "Retriever",
    "RetrieverFactory",
    "SearchRetriever",
    "SessionBatch",
    "SnapshotRetriever",
    "StatsFunction",
    "TokenCounter",
    "k_for_budget",
    "register",
    "short_caption",
    "unregister",
]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'graphmem.plugin' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"graphmem.plugin.{home}"), name)
    globals()[name] = value  # the next read is a plain lookup
    return value
