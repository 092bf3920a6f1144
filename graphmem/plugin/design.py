"""The design plug-in contract: what a memory design declares so graphmem can build, query,
configure, count and test it without knowing it.

A design is one package. Its ``DESIGN`` object names the builder that writes its layer, the
retrievers (strategies) that read it, its pydantic settings and named presets, the node
labels it writes, the Cypher folder it owns, its ``graphmem stats`` section and its docs
page. Built-in designs live in ``graphmem/designs/<name>/`` and are found by scanning that
package; third parties publish a ``graphmem.designs`` entry point pointing at their
``DESIGN``. Shared layers (the HippoRAG 2 semantic layer) and the passage baselines declare
themselves the same way, with ``kind`` saying what they are.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from graphmem.plugin.style import NodeStyle

if TYPE_CHECKING:
    from graphmem.embed import Embedder
    from graphmem.graph.store import GraphStore

# ``strategy``: retrieval over what other entries built (the cross-design ``graphmem``
# strategy); it builds nothing and reaches the others through the registry only.
DesignKind = Literal["design", "layer", "baseline", "strategy"]
# A label a statement may spell out (label totals are generated from declared ones).
_LABEL = re.compile(r"[A-Z][A-Za-z0-9_]*")


class DesignSettings(BaseSettings):
    """Base of every design's settings. A subclass sets its own environment prefix
    (``GRAPHMEM_<NAME>_``); values resolve as: class defaults < preset < config file (TOML)
    < environment < explicit overrides (``plugin.configure``)."""

    model_config = SettingsConfigDict(extra="forbid", frozen=True)


class NoSettings(DesignSettings):
    """For a design or layer without knobs."""

    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_NOSETTINGS_", extra="forbid")


class Preset(BaseModel):
    """Named settings of one design. ``values`` overrides the settings' defaults; ``sources``
    says where each value comes from (for ``paper``: the paper's section or table)."""

    model_config = ConfigDict(frozen=True)

    description: str
    values: dict[str, Any] = Field(default_factory=dict)
    sources: dict[str, str] = Field(default_factory=dict)


# ``factory(ctx, settings)``: a ``graphmem.plugin.builder.Builder`` from a ``BuildContext``,
# a ``graphmem.plugin.retriever.Retriever`` from a ``RetrievalContext``. Typed loosely on
# purpose: those modules carry the resolved settings (``plugin.configure``, which reads
# this registry), so naming them here would make the contract import itself in a cycle;
# the two call sites (builders/registry.py, retrieval/registry.py) type what they get.
BuilderFactory = Callable[[Any, Any], Any]
RetrieverFactory = Callable[[Any, Any], Any]
StatsFunction = Callable[["GraphStore", str], dict[str, Any]]
# ``run(store, embedder, space)`` recomputes with ``embedder`` every vector the design stored
# in ``space`` (the labels it names), exactly as its builder computes them, and returns how
# many it wrote; ``graphmem reembed`` calls it after the passages. It must be idempotent: an
# interrupted re-embedding runs it again from the start.
ReembedFunction = Callable[["GraphStore", "Embedder", str], int]


@dataclass(frozen=True)
class Reembed:
    labels: tuple[str, ...]
    run: ReembedFunction


@dataclass(frozen=True)
class Design:
    """One memory design, shared layer or baseline family.

    ``builder`` and each retriever factory are called as ``factory(ctx, settings)`` with the
    design's resolved settings instance; constructors must do no I/O.
    ``requires`` names other entries whose builders must have run first (SEEM, CAST and Amory
    require ``semantic``); their builders run before this one and their strategies' spaces
    get them too. ``labels`` are the node labels the builder writes: ``derived_labels`` of
    them must each point at passages of their own space with ``FROM`` (the contract suite
    checks it); the rest (e.g. ``Entity``) are structural.
    """

    name: str
    title: str
    summary: str
    settings: type[DesignSettings] = NoSettings
    kind: DesignKind = "design"
    builder: BuilderFactory | None = None
    retrievers: Mapping[str, RetrieverFactory] = field(default_factory=dict)
    requires: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    derived_labels: tuple[str, ...] = ()
    relationships: tuple[str, ...] = ()
    presets: Mapping[str, Preset] = field(default_factory=dict)
    cypher: tuple[str, ...] = ()  # catalog prefixes (folders under cypher/) it owns
    # A design keeps its statements in its own folder (the built-in ones in their package's
    # ``cypher/``); they load into the catalog as ``<name>.<file>`` when it is registered.
    cypher_dir: Path | None = None
    stats: StatsFunction | None = None
    docs: str = ""  # path of its docs page, relative to the repository root
    # The settings its builder reads: recorded per space at the first build, so a later
    # build with other values is refused instead of mixed in (graphmem/builders/recorded.py).
    build_settings: tuple[str, ...] = ()
    # How `graphmem reembed` recomputes the vectors it stores; None: a space holding its
    # vectors is refused by reembed (graphmem/embed/reembed.py).
    reembed: Reembed | None = None
    # Labels with a vector or full-text index (shared by every space): the over-fetch counts
    # them (``core.label_totals`` is generated from every design's list, graphmem.graph.overfetch).
    indexed_labels: tuple[str, ...] = ()
    # A plug-in's schema folder, laid out as ``schema/`` (``constraints/``, ``indexes/``,
    # ``fulltext/``, ``vector/``): ``graphmem init`` applies it with the built-in schema.
    schema_dir: Path | None = None
    # strategy -> the strategy whose ranked list it re-orders (its family in the ``graphmem``
    # strategy: they share one vote, and the ranker alone is left out when one is present).
    reorders: Mapping[str, str] = field(default_factory=dict)
    # Its strategies run Personalized PageRank per query (the ``fast`` preset leaves them out).
    pagerank: bool = False
    # The strategy ``query``/``ask`` use when none is given (one entry in all declares it).
    default_strategy: str | None = None
    # An entry of kind ``strategy``: ``reads(settings)`` names the strategies its retriever
    # fuses, given its resolved settings, when every layer is built; an evaluation builds
    # their layers (``graphmem.graph.readiness.builders_read``). None: it reads every builder's.
    reads: Callable[[Any], Sequence[str]] | None = None
    # ``graphmem`` CLI commands it adds: ``commands()`` returns click commands, imported
    # only when the CLI starts.
    commands: Callable[[], Sequence[Any]] | None = None
    # Derived labels whose nodes each state one thing a turn says, with the property that
    # holds the statement (``graphmem eval precision`` judges them against hand labels).
    statements: Mapping[str, str] = field(default_factory=dict)
    # Statement labels whose nodes carry valid time (graphmem/validity/): each states
    # something of a subject that a later statement may change, so it gets ``valid_from``
    # and, once a later one replaces it, ``valid_to`` and a ``SUPERSEDES`` edge.
    valid_time: tuple[str, ...] = ()
    # label -> how its nodes look in the Neo4j Browser (graphmem/browser/style.py generates
    # the served style and the guide's legend from every design's): one entry styles a
    # label, usually the one that owns it (``Character``: the core; ``Fact``: semantic).
    styles: Mapping[str, NodeStyle] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or self.name != self.name.lower():
            raise ValueError(f"design name {self.name!r}: lower-case identifier expected")
        missing = set(self.derived_labels) - set(self.labels)
        if missing:
            raise ValueError(f"design {self.name}: derived labels {sorted(missing)} not in labels")
        unknown = [name for preset in self.presets.values() for name in preset.values]
        bad = sorted(set(unknown) - set(self.settings.model_fields))
        if bad:
            raise ValueError(f"design {self.name}: presets set unknown settings {bad}")
        bad = sorted(set(self.build_settings) - set(self.settings.model_fields))
        if bad:
            raise ValueError(f"design {self.name}: unknown build settings {bad}")
        bad = [label for label in self.indexed_labels if not _LABEL.fullmatch(label)]
        if bad:
            raise ValueError(f"design {self.name}: indexed labels {bad} are not label names")
        bad = sorted(set(self.reorders) - set(self.retrievers))
        if bad:
            raise ValueError(f"design {self.name}: reorders names strategies {bad} it lacks")
        bad = sorted(
            label
            for label, prop in self.statements.items()
            if label not in self.derived_labels or not prop.isidentifier()
        )
        if bad:
            raise ValueError(f"design {self.name}: statements {bad}: a derived label, a property")
        bad = sorted(set(self.valid_time) - set(self.statements))
        if bad:
            raise ValueError(f"design {self.name}: valid time for {bad}: not statement labels")
        bad = sorted(set(self.styles) - set(self.labels))
        if bad:
            raise ValueError(f"design {self.name}: styles for labels {bad} it does not declare")
        if self.default_strategy is not None and self.default_strategy not in self.retrievers:
            raise ValueError(f"design {self.name}: default strategy is not one of its own")

    @property
    def preset_names(self) -> list[str]:
        """``default`` first (always present: the settings' own defaults), then the rest."""
        return ["default", *(name for name in self.presets if name != "default")]

    def preset(self, name: str) -> Preset:
        if name in self.presets:
            return self.presets[name]
        if name == "default":
            return Preset(description="the settings' defaults")
        raise KeyError(name)

    def describe(self) -> dict[str, Any]:
        """What ``graphmem designs --json`` prints for this entry."""
        settings = []
        for fname, info in self.settings.model_fields.items():
            settings.append(
                {
                    "name": fname,
                    "env": f"{self.settings.model_config.get('env_prefix', '')}{fname}".upper(),
                    "default": _jsonable(info.get_default(call_default_factory=True)),
                    "description": info.description or "",
                }
            )
        return {
            "name": self.name,
            "kind": self.kind,
            "title": self.title,
            "summary": self.summary,
            "builder": self.name if self.builder else None,
            "requires": list(self.requires),
            "retrievers": list(self.retrievers),
            "labels": list(self.labels),
            "derived_labels": list(self.derived_labels),
            "relationships": list(self.relationships),
            "indexed_labels": list(self.indexed_labels),
            "reorders": dict(self.reorders),
            "pagerank": self.pagerank,
            "commands": [c.name for c in self.commands()] if self.commands else [],
            "cypher": list(self.cypher) or ([self.name] if self.cypher_dir else []),
            "docs": self.docs,
            "presets": {
                name: {
                    "description": self.preset(name).description,
                    "values": {k: _jsonable(v) for k, v in self.preset(name).values.items()},
                    "sources": dict(self.preset(name).sources),
                }
                for name in self.preset_names
            },
            "settings": settings,
        }


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return str(value)
