"""Finding designs: the shared layers and baselines graphmem ships, every package under
``graphmem/designs/`` that has a ``design`` module with a ``DESIGN``, and every
``graphmem.designs`` entry point of an installed distribution.

Nothing is imported at import time of this module; ``registry()`` discovers once per process
(``register`` adds one by hand, e.g. a design defined in a notebook or a test).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from graphmem.errors import ConfigError
from graphmem.graph.catalog import register_schema, register_statement, register_tree
from graphmem.plugin.commands import ENTRY_POINT_GROUP, builtin_packages, entry_point_targets
from graphmem.plugin.design import Command, Design, RetrieverFactory
from graphmem.plugin.label_statements import (
    DELETE_SPACE_LABELLED,
    LABEL_TOTALS,
    SPACE_LABEL_COUNTS,
    STATEMENT_TEXTS,
    VALIDITY_HISTORY,
    VALIDITY_STATEMENTS,
    delete_space_labelled_source,
    label_totals_source,
    space_label_counts_source,
    statement_texts_source,
    validity_history_source,
    validity_statements_source,
)

# Below the designs: the passage baselines and the HippoRAG 2 semantic layer they share.
_CORE: tuple[str, ...] = ("graphmem.retrieval.baselines", "graphmem.semantic.design")
# Above the designs: strategies over what the others built (they reach them by name only).
_ABOVE: tuple[str, ...] = ("graphmem.strategy.design",)
_EXTRA: dict[str, Design] = {}


def _load(target: str) -> Design:
    module_name, _, attr = target.partition(":")
    module = importlib.import_module(module_name)
    found = getattr(module, attr or "DESIGN", None)
    if not isinstance(found, Design):
        raise ConfigError(f"{target} does not define a graphmem Design")
    return found


def _builtin_designs() -> Iterable[Design]:
    for package in builtin_packages():
        yield _load(f"{package}.design")


def _entry_point_designs() -> Iterable[Design]:
    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            found = point.load()
        except Exception as exc:  # a broken third-party plug-in must not hide the others
            raise ConfigError(
                f"design plug-in {point.name!r} ({point.value}) failed to load: {exc}",
                hint="fix or uninstall the distribution that provides it",
            ) from exc
        if not isinstance(found, Design):
            raise ConfigError(f"entry point {point.name!r} ({point.value}) is not a Design")
        yield found


@cache
def _discovered() -> tuple[Design, ...]:
    found = [_load(target) for target in _CORE]
    found.extend(_builtin_designs())
    found.extend(_entry_point_designs())
    found.extend(_load(target) for target in _ABOVE)
    return tuple(found)


def register(design: Design) -> None:
    """Add a design at run time (tests, notebooks). Replaces one of the same name."""
    _EXTRA[design.name] = design
    _validate(list(_merged().values()))


def unregister(name: str) -> None:
    _EXTRA.pop(name, None)


def _merged() -> dict[str, Design]:
    out: dict[str, Design] = {}
    for design in _discovered():
        if design.name in out:
            raise ConfigError(f"two designs are named {design.name!r}")
        out[design.name] = design
    out.update(_EXTRA)
    for design in out.values():
        if design.cypher_dir is not None:
            register_tree(design.name, design.cypher_dir)
        if design.schema_dir is not None:
            register_schema(design.name, design.schema_dir)
    indexed = [label for d in out.values() for label in d.indexed_labels]
    register_statement(LABEL_TOTALS, label_totals_source(indexed))
    every = [label for d in out.values() for label in d.labels]
    register_statement(SPACE_LABEL_COUNTS, space_label_counts_source(every))
    register_statement(DELETE_SPACE_LABELLED, delete_space_labelled_source(every))
    stated = [pair for d in out.values() for pair in d.statements.items()]
    register_statement(STATEMENT_TEXTS, statement_texts_source(stated))
    timed = [(label, d.statements[label]) for d in out.values() for label in d.valid_time]
    register_statement(VALIDITY_STATEMENTS, validity_statements_source(timed))
    register_statement(VALIDITY_HISTORY, validity_history_source(timed))
    return out


def _validate(designs: list[Design]) -> None:
    names = {d.name for d in designs}
    owner: dict[str, str] = {}
    styled: dict[str, str] = {}  # label -> the one entry that styles it for the Browser
    for design in designs:
        for label in design.styles:
            if label in styled and styled[label] != design.name:
                raise ConfigError(
                    f"label {label!r} is styled by both {styled[label]} and {design.name}"
                )
            styled[label] = design.name
        for strategy in design.retrievers:
            if strategy in owner and owner[strategy] != design.name:
                raise ConfigError(
                    f"strategy {strategy!r} is declared by both {owner[strategy]} and {design.name}"
                )
            owner[strategy] = design.name
        missing = [r for r in design.requires if r not in names]
        if missing:
            raise ConfigError(f"design {design.name} requires unknown {', '.join(missing)}")


def registry() -> dict[str, Design]:
    """Every design by name: layers and baselines first, then designs alphabetically."""
    merged = _merged()
    _validate(list(merged.values()))
    return merged


def design(name: str) -> Design:
    found = registry().get(name)
    if found is None:
        raise ConfigError(f"unknown design {name!r}", hint=f"choose from {', '.join(registry())}")
    return found


def release_session(run: Callable[..., Any], space: str, session_id: str) -> Any:
    """The core's release of a session's derived nodes (``core.release_session``: its rows,
    whose ``loose`` the caller prunes once the passages are settled), then each design's own
    (``Design.release``); ``run(statement, **params)`` is the caller's (a transaction's
    ``run``, or the store's ``write``)."""
    released = run("core.release_session", space=space, session_id=session_id)
    for entry in registry().values():
        if entry.release is not None:
            entry.release(run, space, session_id)
    return released


def builder_names() -> list[str]:
    return [d.name for d in registry().values() if d.builder is not None]


def strategy_names() -> list[str]:
    return [s for d in registry().values() for s in d.retrievers]


def strategy_owner(strategy: str) -> tuple[Design, RetrieverFactory]:
    for found in registry().values():
        if strategy in found.retrievers:
            return found, found.retrievers[strategy]
    raise ConfigError(
        f"unknown strategy {strategy!r}", hint=f"choose one of {', '.join(strategy_names())}"
    )


def build_order(names: Iterable[str]) -> list[str]:
    """The builders to run for ``names``, each after the ones it requires, each once."""
    designs = registry()
    order: list[str] = []

    def visit(name: str, trail: tuple[str, ...]) -> None:
        if name in trail:
            raise ConfigError(f"designs require each other in a cycle: {' -> '.join(trail)}")
        found = designs.get(name)
        if found is None or found.builder is None:
            raise ConfigError(
                f"unknown builder {name!r}", hint=f"choose from {', '.join(builder_names())}"
            )
        for required in found.requires:
            visit(required, (*trail, name))
        if name not in order:
            order.append(name)

    for name in names:
        visit(name, ())
    return order


def default_strategy() -> str:
    """The strategy ``query`` and ``ask`` use when none is given: the one an entry declares
    (``Design.default_strategy``)."""
    declared = [d.default_strategy for d in registry().values() if d.default_strategy]
    if len(declared) != 1:
        raise ConfigError(f"one default strategy expected, the designs declare {declared}")
    return declared[0]


def reorders() -> dict[str, str]:
    """Strategy -> the strategy whose list it re-orders, as the designs declare it."""
    return {s: r for d in registry().values() for s, r in d.reorders.items()}


def pagerank_strategies() -> list[str]:
    """The strategies of entries that run Personalized PageRank per query."""
    return [s for d in registry().values() if d.pagerank for s in d.retrievers]


def _listed() -> dict[str, Design]:
    """The records ``registry()`` finds, for ``graphmem --help``: without its catalog work,
    the entry points read from their ``entry_points.txt`` (``commands.entry_point_targets``:
    2 ms where ``importlib.metadata`` takes 35-60 ms); a plug-in whose record fails to load
    is left out here (running graphmem otherwise reports why)."""
    found = {d.name: d for d in (*(_load(t) for t in _CORE), *_builtin_designs())}
    for target in entry_point_targets():
        try:
            plugin = _load(target)
        except Exception:  # the listing must not fail on a broken plug-in
            continue
        found[plugin.name] = plugin
    found.update({d.name: d for d in (_load(t) for t in _ABOVE)})
    found.update(_EXTRA)
    return found


def commands() -> dict[str, Command]:
    """The CLI commands the designs add (``Design.commands``), by name, read from their
    records: listing them imports no command (``Command.load`` does, when one runs)."""
    found: dict[str, Command] = {}
    owner: dict[str, str] = {}
    for design in _listed().values():
        for name, command in design.commands.items():
            if name in owner:
                raise ConfigError(
                    f"command {name!r} is declared by both {owner[name]} and {design.name}"
                )
            found[name], owner[name] = command, design.name
    return found


def builders_for(strategies: Iterable[str]) -> list[str]:
    """Builders a space needs before these strategies can query it."""
    wanted: list[str] = []
    for strategy in strategies:
        owner, _ = strategy_owner(strategy)
        if owner.builder is not None:
            wanted.append(owner.name)
        else:
            wanted.extend(owner.requires)
    return build_order(wanted)
