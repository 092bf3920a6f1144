"""Builders of the registered designs, constructed with their resolved settings and ordered
so that each runs after the layers it requires (``graphmem.plugin.registry``)."""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.errors import ConfigError
from graphmem.plugin.builder import BuildContext, Builder
from graphmem.plugin.registry import build_order, builder_names, design

__all__ = ["build_builders", "builder_names"]


def build_builders(names: Sequence[str], ctx: BuildContext) -> list[Builder]:
    """``names`` plus what they require, in build order; unknown names are a ConfigError."""
    builders: list[Builder] = []
    for name in build_order(names):
        found = design(name)
        assert found.builder is not None  # build_order only returns designs with a builder
        made = found.builder(ctx, ctx.configs.get(name))
        if not isinstance(made, Builder):
            raise ConfigError(f"design {name}: its builder factory made no Builder ({made!r})")
        builders.append(made)
    return builders
