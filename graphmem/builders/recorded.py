"""Build settings recorded per space.

A builder skips sessions it has already built, so a space built with one set of builder
settings and extended (or evaluated) with another would silently mix the two: `--preset
paper` on a space built with the defaults would report the defaults as the paper. Each design
names the settings its builder reads (``Design.build_settings``); their values are stored on
the ``Space`` node at the first build and compared on every later one. A mismatch on a
space that holds that builder's memory is a ConfigError naming the settings that differ,
raised before anything is written; retrieval-only settings never count.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from graphmem.errors import ConfigError
from graphmem.graph.store import GraphStore
from graphmem.plugin.configure import DesignConfigs
from graphmem.plugin.registry import design


def build_values(name: str, configs: DesignConfigs) -> dict[str, Any]:
    """The values of the settings ``name``'s builder reads, JSON-ready."""
    settings = configs.get(name)
    fields = design(name).build_settings
    values: dict[str, Any] = json.loads(
        json.dumps({f: getattr(settings, f) for f in fields}, default=str)
    )
    return values


def check(
    store: GraphStore, space: str, builders: Sequence[str], configs: DesignConfigs
) -> str | None:
    """Raise when a builder would extend memory built with other settings; else the JSON
    text to record once the space exists (None: nothing new to record)."""
    row = store.read("core.build_settings", space=space)[0]
    stored: dict[str, Any] = json.loads(row["settings"]) if row["settings"] else {}
    built = set(row["builders"])
    wanted = {name: build_values(name, configs) for name in builders}
    for name, values in wanted.items():
        before = stored.get(name)
        if name in built and before is not None and before != values:
            changed = sorted(k for k in set(before) | set(values) if before.get(k) != values.get(k))
            shown = ", ".join(f"{k}: {before.get(k)!r} -> {values.get(k)!r}" for k in changed)
            raise ConfigError(
                f"space {space!r} was built by {name} with other settings ({shown})",
                hint="use the settings (or --preset) it was built with, a new space, or "
                f"`graphmem forget --space {space}` and ingest again",
            )
    merged = {**stored, **wanted}
    if merged == stored:
        return None
    return json.dumps(merged, sort_keys=True, separators=(",", ":"))


def record(store: GraphStore, space: str, settings: str | None) -> None:
    """Store what ``check`` returned, on the space's node (written with its conversation)."""
    if settings is not None:
        store.write("core.record_build_settings", space=space, settings=settings)
