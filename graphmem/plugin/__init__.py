"""The plug-in kit: what a memory design builds on, and all a design imports from graphmem
besides the semantic layer's public API (``from graphmem.plugin import Design, Builder,
Retriever``).

- the design record and its settings: ``Design``, ``Label``, ``Command``,
  ``DesignSettings``, ``Preset``, ``Reembed`` (``design``), node styles (``style``) and
  Browser captions (``captions``);
- building: ``Builder``, ``BuildContext``, ``SessionBatch``, ``BuildReport`` (``builder``);
- retrieving: ``Retriever``, ``SearchRetriever``, ``SnapshotRetriever``,
  ``RetrievalContext`` and the ``Hit`` / ``PassageRef`` / ``RetrievalResult`` it returns
  (``retriever``, ``snapshot``, ``hits``);
- the registry (``register`` a design at run time) and the settings' resolution
  (``DesignConfigs``);
- what designs use of the layers below them, re-exported so that a design imports the kit,
  never those modules (tests/unit/plugin/test_plugin_layers.py): the errors it raises, the
  ``GraphStore`` and its row helpers (``native``, ``chunks``), the over-fetch of indexed
  labels, content ids and session dates (``content_id``), the conversation models, the
  ``Embedder`` and ``rewrite_vectors`` for a ``Reembed`` hook, the passage, exact-match and
  BM25 helpers and the packer's rendering of turns, ``render_turn``, ``check_exists``, and
  the CLI helpers a design's commands use (``app``, ``emit``, ``handle_errors``,
  ``json_option``, ``plural``).

The layers below the designs (graph, retrieval, builders, semantic, ...) reach the designs
only through this kit (its ``registry`` finds them), never by importing ``graphmem.designs``
(tests/unit/plugin/test_plugin_layers.py).

Names load on first use (a module ``__getattr__``): ``graphmem --help`` reads the designs'
records (their commands) and must not import the driver, the models or the designs' code
that the rest of the kit needs. A design's other imports are the public names of
``graphmem.semantic``, ``graphmem.nlp`` and ``graphmem.llm``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graphmem.cli.common import app, emit, handle_errors, json_option
    from graphmem.embed import Embedder
    from graphmem.embed.rewrite import rewrite_vectors
    from graphmem.errors import GraphmemError, InputError, LLMError, LLMItemError
    from graphmem.graph.overfetch import SpaceTotals, over_fetch
    from graphmem.graph.readiness import check_exists
    from graphmem.graph.rows import chunks, native
    from graphmem.graph.store import GraphStore
    from graphmem.ingest.models import ConversationIn, SessionIn, Turn
    from graphmem.ingest.render import render_turn
    from graphmem.ingest.writer import content_id, session_date_text
    from graphmem.plugin.builder import OFFLINE, BuildContext, Builder, BuildReport, SessionBatch
    from graphmem.plugin.captions import CAPTION_WORDS, short_caption
    from graphmem.plugin.commands import ENTRY_POINT_GROUP
    from graphmem.plugin.configure import DesignConfigs
    from graphmem.plugin.design import (
        BuilderFactory,
        Command,
        Design,
        DesignKind,
        DesignSettings,
        Label,
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
    from graphmem.retrieval.bm25 import SpaceBM25
    from graphmem.retrieval.exact import ExactIndex
    from graphmem.retrieval.packer import EXCERPTS, PackedContext, session_header, turn_line
    from graphmem.retrieval.passages import FulltextRetriever, rrf
    from graphmem.serving.render import plural

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
    "Command": "design",
    "Design": "design",
    "DesignKind": "design",
    "DesignSettings": "design",
    "Label": "design",
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
# public name -> the module below the designs that defines it (re-exported, not moved: its
# other users keep importing it from there)
_BELOW = {
    "app": "graphmem.cli.common",
    "emit": "graphmem.cli.common",
    "handle_errors": "graphmem.cli.common",
    "json_option": "graphmem.cli.common",
    "Embedder": "graphmem.embed",
    "rewrite_vectors": "graphmem.embed.rewrite",
    "GraphmemError": "graphmem.errors",
    "InputError": "graphmem.errors",
    "LLMError": "graphmem.errors",
    "LLMItemError": "graphmem.errors",
    "SpaceTotals": "graphmem.graph.overfetch",
    "over_fetch": "graphmem.graph.overfetch",
    "check_exists": "graphmem.graph.readiness",
    "chunks": "graphmem.graph.rows",
    "native": "graphmem.graph.rows",
    "GraphStore": "graphmem.graph.store",
    "ConversationIn": "graphmem.ingest.models",
    "SessionIn": "graphmem.ingest.models",
    "Turn": "graphmem.ingest.models",
    "content_id": "graphmem.ingest.writer",
    "session_date_text": "graphmem.ingest.writer",
    "SpaceBM25": "graphmem.retrieval.bm25",
    "ExactIndex": "graphmem.retrieval.exact",
    "EXCERPTS": "graphmem.retrieval.packer",
    "PackedContext": "graphmem.retrieval.packer",
    "session_header": "graphmem.retrieval.packer",
    "turn_line": "graphmem.retrieval.packer",
    "FulltextRetriever": "graphmem.retrieval.passages",
    "rrf": "graphmem.retrieval.passages",
    "plural": "graphmem.serving.render",
    "render_turn": "graphmem.ingest.render",
}

__all__ = [
    "CAPTION_WORDS",
    "ENTRY_POINT_GROUP",
    "EXCERPTS",
    "OFFLINE",
    "BuildContext",
    "BuildReport",
    "Builder",
    "BuilderFactory",
    "Command",
    "ConversationIn",
    "Design",
    "DesignConfigs",
    "DesignKind",
    "DesignSettings",
    "Embedder",
    "ExactIndex",
    "FulltextRetriever",
    "GraphStore",
    "GraphmemError",
    "Hit",
    "InputError",
    "LLMError",
    "LLMItemError",
    "Label",
    "NoSettings",
    "NodeStyle",
    "PackedContext",
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
    "SessionIn",
    "SnapshotRetriever",
    "SpaceBM25",
    "SpaceTotals",
    "StatsFunction",
    "TokenCounter",
    "Turn",
    "app",
    "check_exists",
    "chunks",
    "content_id",
    "emit",
    "handle_errors",
    "json_option",
    "k_for_budget",
    "native",
    "over_fetch",
    "plural",
    "register",
    "render_turn",
    "rewrite_vectors",
    "rrf",
    "session_date_text",
    "session_header",
    "short_caption",
    "turn_line",
    "unregister",
]


def _module_of(name: str) -> str | None:
    if name in _HOME:
        return f"graphmem.plugin.{_HOME[name]}"
    return _BELOW.get(name)


def __getattr__(name: str) -> Any:
    home = _module_of(name)
    if home is None:
        raise AttributeError(f"module 'graphmem.plugin' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # the next read is a plain lookup
    return value
