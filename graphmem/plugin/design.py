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

from graphmem.plugin.lazy import Hook, HookMap, RequiredHook, check_target, import_target
from graphmem.plugin.style import NodeStyle

if TYPE_CHECKING:
    import click

    from graphmem.embed import Embedder
    from graphmem.graph.store import GraphStore

# ``strategy``: retrieval over what other entries built (the cross-design ``graphmem``
# strategy); it builds nothing and reaches the others through the registry only.
DesignKind = Literal["design", "layer", "baseline", "strategy"]
# A label a statement may spell out (label totals are generated from declared ones).
_LABEL = re.compile(r"[A-Z][A-Za-z0-9_]*")
# A command's name as `graphmem` takes it.
_COMMAND = re.compile(r"[a-z][a-z0-9-]*")


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
ReadsFunction = Callable[[Any], Sequence[str]]
# ``release(run, space, session_id)``: a session's derived nodes are being deleted, to be
# built again (a forget, a redaction, a changed session); the core deletes every node with
# FROM to its turns and the nodes without FROM next to them that nothing grounds any more.
# A design that keeps something else the session fed (a node without FROM, a count over
# the space) removes or resets it here, with ``run(statement, **params)`` (its catalog
# statements: in the writer's transaction for a changed session, one by one in a forget,
# which a rerun after a crash repeats, so it must be idempotent); its builder then builds
# the session again.
ReleaseFunction = Callable[[Callable[..., Any], str, str], None]


@dataclass(frozen=True)
class Reembed:
    """``run`` is the function or its import string (``"pkg.reembed:reembed_x"``)."""

    labels: tuple[str, ...]
    # The ``Hook`` defaults are field descriptors, one per field, not shared values.
    run: RequiredHook[ReembedFunction] = RequiredHook()  # noqa: RUF009


@dataclass(frozen=True)
class Label:
    """One node label a design's builder writes, and what graphmem does with it.

    ``derived``: its nodes each point at passages of their own space with ``FROM`` (the
    contract suite checks it); a label that is not (``Entity``) is structural.
    ``indexed``: it has a vector or full-text index (shared by every space): the over-fetch
    counts it (``core.label_totals`` is generated from every design's, graphmem.graph.overfetch).
    ``statement``: its nodes each state one thing a turn says, in this property
    (``graphmem eval precision`` judges them against hand labels).
    ``valid_time``: its statements carry valid time (graphmem/validity/): each states
    something of a subject that a later statement may change, so it gets ``valid_from``
    and, once a later one replaces it, ``valid_to`` and a ``SUPERSEDES`` edge.
    ``style``: how its nodes look in the Neo4j Browser (graphmem/browser/style.py generates
    the served style and the guide's legend from every design's): one entry styles a label,
    usually the one that owns it (``Character``: the core; ``Fact``: semantic).
    """

    derived: bool = False
    indexed: bool = False
    statement: str | None = None
    valid_time: bool = False
    style: NodeStyle | None = None

    def __post_init__(self) -> None:
        if self.statement is not None and not (self.derived and self.statement.isidentifier()):
            raise ValueError(f"statement {self.statement!r}: a derived label, a property name")
        if self.valid_time and self.statement is None:
            raise ValueError("valid time: only a statement label carries it")
        if self.style is not None and not isinstance(self.style, NodeStyle):
            raise TypeError(f"style {self.style!r}: a NodeStyle expected")


@dataclass(frozen=True)
class Command:
    """A ``graphmem`` command a design adds. ``help`` is its one-line help as ``graphmem
    --help`` lists it, so the listing imports no command (a unit test keeps it equal to the
    command's own); ``target`` is the click command or its import string
    (``"pkg.cli:profile"``), imported when the command runs."""

    help: str
    target: str | click.Command

    def __post_init__(self) -> None:
        if not self.help.strip():
            raise ValueError("command: the listing needs a help line")
        if isinstance(self.target, str):
            check_target(self.target)

    def load(self) -> click.Command:
        import click

        found = import_target(self.target) if isinstance(self.target, str) else self.target
        if not isinstance(found, click.Command):
            raise TypeError(f"{self.target!r} is not a click command")
        return found


@dataclass(frozen=True)
class Design:
    """One memory design, shared layer or baseline family.

    ``builder`` and each retriever factory are called as ``factory(ctx, settings)`` with the
    design's resolved settings instance; constructors must do no I/O. They, ``stats``,
    ``reads`` and ``Reembed.run`` are given as import strings (``"pkg.builder:MyBuilder"``)
    or as callables: a string is imported on first use, so reading the record imports
    none of that code (``graphmem.plugin.lazy``).
    ``requires`` names other entries whose builders must have run first (SEEM, CAST and Amory
    require ``semantic``); their builders run before this one and their strategies' spaces
    get them too. ``labels`` are the node labels the builder writes, each with what it is
    (``Label``: derived, indexed, a statement with valid time, its style).
    """

    name: str
    title: str
    summary: str
    settings: type[DesignSettings] = NoSettings
    kind: DesignKind = "design"
    # The ``Hook`` defaults are field descriptors, one per field, not shared values.
    builder: Hook[BuilderFactory] = Hook()  # noqa: RUF009
    retrievers: HookMap[RetrieverFactory] = HookMap()  # noqa: RUF009
    requires: tuple[str, ...] = ()
    labels: Mapping[str, Label] = field(default_factory=dict)
    relationships: tuple[str, ...] = ()
    presets: Mapping[str, Preset] = field(default_factory=dict)
    cypher: tuple[str, ...] = ()  # catalog prefixes (folders under cypher/) it owns
    # A design keeps its statements in its own folder (the built-in ones in their package's
    # ``cypher/``); they load into the catalog as ``<name>.<file>`` when it is registered.
    cypher_dir: Path | None = None
    stats: Hook[StatsFunction] = Hook()  # noqa: RUF009
    docs: str = ""  # path of its docs page, relative to the repository root
    # The settings its builder reads: recorded per space at the first build, so a later
    # build with other values is refused instead of mixed in (graphmem/builders/recorded.py).
    build_settings: tuple[str, ...] = ()
    # How `graphmem reembed` recomputes the vectors it stores; None: a space holding its
    # vectors is refused by reembed (graphmem/embed/reembed.py).
    reembed: Reembed | None = None
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
    reads: Hook[ReadsFunction] = Hook()  # noqa: RUF009
    # ``graphmem`` CLI commands it adds, by name: ``graphmem --help`` lists them from here,
    # each command's module is imported when it runs.
    commands: Mapping[str, Command] = field(default_factory=dict)
    # What it keeps of a session beyond FROM, removed when the session is released (see
    # ``ReleaseFunction``); None: FROM reaches all of it (every built-in design).
    release: Hook[ReleaseFunction] = Hook()  # noqa: RUF009

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or self.name != self.name.lower():
            raise ValueError(f"design name {self.name!r}: lower-case identifier expected")
        if not isinstance(self.labels, Mapping) or not isinstance(self.commands, Mapping):
            raise TypeError(f"design {self.name}: labels and commands are mappings by name")
        bad = sorted(
            str(label)
            for label, kind in self.labels.items()
            if not (isinstance(label, str) and _LABEL.fullmatch(label) and isinstance(kind, Label))
        )
        if bad:
            raise ValueError(f"design {self.name}: labels {bad}: label names mapped to a Label")
        unknown = [name for preset in self.presets.values() for name in preset.values]
        bad = sorted(set(unknown) - set(self.settings.model_fields))
        if bad:
            raise ValueError(f"design {self.name}: presets set unknown settings {bad}")
        bad = sorted(set(self.build_settings) - set(self.settings.model_fields))
        if bad:
            raise ValueError(f"design {self.name}: unknown build settings {bad}")
        bad = sorted(set(self.reorders) - set(self.retrievers))
        if bad:
            raise ValueError(f"design {self.name}: reorders names strategies {bad} it lacks")
        bad = sorted(
            str(name)
            for name, command in self.commands.items()
            if not (isinstance(name, str) and _COMMAND.fullmatch(name))
            or not isinstance(command, Command)
        )
        if bad:
            raise ValueError(f"design {self.name}: commands {bad}: names mapped to a Command")
        if self.default_strategy is not None and self.default_strategy not in self.retrievers:
            raise ValueError(f"design {self.name}: default strategy is not one of its own")

    # What the labels say, read as the lists the rest of graphmem takes (in label order).
    @property
    def label_names(self) -> tuple[str, ...]:
        return tuple(self.labels)

    @property
    def derived_labels(self) -> tuple[str, ...]:
        return tuple(name for name, label in self.labels.items() if label.derived)

    @property
    def indexed_labels(self) -> tuple[str, ...]:
        return tuple(name for name, label in self.labels.items() if label.indexed)

    @property
    def statements(self) -> dict[str, str]:
        """Statement label -> the property holding its statement."""
        return {n: label.statement for n, label in self.labels.items() if label.statement}

    @property
    def valid_time(self) -> tuple[str, ...]:
        return tuple(name for name, label in self.labels.items() if label.valid_time)

    @property
    def styles(self) -> dict[str, NodeStyle]:
        return {name: label.style for name, label in self.labels.items() if label.style}

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
            "commands": list(self.commands),
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
