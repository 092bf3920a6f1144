"""Before a query: does the space hold what the strategy reads? Says what is missing and
how to build it, instead of a retriever failing deep inside (a reshape of no vectors, a
GDS projection of no nodes).

Two questions, two answers. ``required_builders``: what a strategy cannot answer without
(a design's own layers; nothing for ``graphmem``, which fuses what the space has and answers
a space without designs with its fallback, saying so in its notes). ``builders_read``: every
layer a strategy reads when all of them are built (for ``graphmem``: every member's). An
evaluation builds ``builders_read`` and refuses a strategy whose space lacks any of them
(``check_ready(..., complete=True)``), so it never reports one strategy's numbers under
another's name."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from graphmem.errors import ConfigError, InputError, UnknownSpaceError
from graphmem.graph.store import GraphStore
from graphmem.plugin.registry import build_order, builder_names, builders_for, strategy_owner

if TYPE_CHECKING:
    from graphmem.plugin.configure import DesignConfigs


def required_builders(strategy: str) -> list[str]:
    """The builders a strategy's design needs; [] for strategies the registry does not know
    (the retriever registry reports those)."""
    try:
        return builders_for([strategy])
    except (ConfigError, ImportError):  # ImportError: core registry entries not installed yet
        return []


def builders_read(strategies: Iterable[str], configs: DesignConfigs | None = None) -> list[str]:
    """The builders that give each strategy every layer it reads, in build order: a
    design's own (``builders_for``); for an entry of kind ``strategy`` those of every
    strategy it fuses with its settings from ``configs`` (``Design.reads``; without one,
    every builder)."""
    wanted: list[str] = []
    for strategy in strategies:
        owner, _ = strategy_owner(strategy)
        if owner.kind != "strategy":
            wanted.extend(builders_for([strategy]))
        elif owner.reads is None:
            wanted.extend(builder_names())
        else:
            settings = configs.get(owner.name) if configs is not None else owner.settings()
            wanted.extend(builders_for(owner.reads(settings)))
    return build_order(wanted)


def check_exists(store: GraphStore, space: str) -> str:
    """``space`` when it exists; an ``UnknownSpaceError`` naming the closest existing name
    otherwise. Every call that reads or deletes a space comes here (``Memory``, ``stats``,
    ``profile``): a misspelt name would read as an empty space, or ask to delete nothing."""
    if not store.read("core.space_exists", space=space)[0]["exists"]:
        names = [row["space"] for row in store.read("core.known_spaces")]
        raise UnknownSpaceError(space, names)
    return space


def check_stored(store: GraphStore, space: str) -> list[str]:
    """The builders recorded on the space's sessions; an ``UnknownSpaceError`` when the
    space does not exist, an input error when it holds no session (an ingest stopped
    before its first session was written)."""
    row = store.read("core.space_built", space=space)[0]
    if not row["sessions"]:
        check_exists(store, space)  # only here: a space with sessions exists
        raise InputError(
            f"space {space!r} holds no memories",
            field="space",
            hint=f"ingest into it first: graphmem ingest FILE --space {space}",
        )
    return list(row["builders"])


def check_ready(
    store: GraphStore,
    space: str,
    strategy: str,
    *,
    complete: bool = False,
    configs: DesignConfigs | None = None,
) -> None:
    """Refuse ``strategy`` over ``space`` when a layer it needs is missing; with
    ``complete`` (an evaluation) when any layer it reads is (``builders_read``)."""
    built = check_stored(store, space)
    needed = builders_read([strategy], configs) if complete else required_builders(strategy)
    missing = [b for b in needed if b not in built]
    if missing:
        raise InputError(
            f"strategy {strategy!r} needs the {', '.join(missing)} layer, which space "
            f"{space!r} does not have",
            field="strategy",
            hint=f"build it: graphmem ingest FILE --space {space} --builders {','.join(missing)}",
        )
