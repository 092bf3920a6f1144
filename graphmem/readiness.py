"""Before a query: does the space hold what the strategy reads? Says what is missing and
how to build it, instead of a retriever failing deep inside (a reshape of no vectors, a
GDS projection of no nodes)."""

from __future__ import annotations

from graphmem.designs.registry import builders_for
from graphmem.errors import ConfigError, InputError
from graphmem.store import GraphStore


def required_builders(strategy: str) -> list[str]:
    """The builders a strategy's design needs; [] for strategies the registry does not know
    (the retriever registry reports those)."""
    try:
        return builders_for([strategy])
    except (ConfigError, ImportError):  # ImportError: core registry entries not installed yet
        return []


def check_stored(store: GraphStore, space: str) -> list[str]:
    """The builders recorded on the space's sessions; an input error when it has none (a
    misspelt space reads as empty, which no command should report as a result)."""
    row = store.read("core.space_built", space=space)[0]
    if not row["sessions"]:
        raise InputError(
            f"space {space!r} holds no memories",
            field="space",
            hint=f"ingest into it first: graphmem ingest FILE --space {space}",
        )
    return list(row["builders"])


def check_ready(store: GraphStore, space: str, strategy: str) -> None:
    built = check_stored(store, space)
    missing = [b for b in required_builders(strategy) if b not in built]
    if missing:
        raise InputError(
            f"strategy {strategy!r} needs the {', '.join(missing)} layer, which space "
            f"{space!r} does not have",
            field="strategy",
            hint=f"build it: graphmem ingest FILE --space {space} --builders {','.join(missing)}",
        )
