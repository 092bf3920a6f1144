"""Builder name -> class. Each design registers its builder here."""

from __future__ import annotations

from graphmem.builders.base import BuildContext, Builder
from graphmem.errors import ConfigError

BUILDERS: dict[str, type[Builder]] = {}
from graphmem.designs.seem.builder import SeemBuilder  # noqa: E402

BUILDERS["seem"] = SeemBuilder
# <seem-builders>
# <anchormem-builders>
from graphmem.designs.anchormem.builder import AnchorMemBuilder  # noqa: E402

BUILDERS["anchormem"] = AnchorMemBuilder


def builder_names() -> list[str]:
    return list(BUILDERS)


def build_builders(names: list[str], ctx: BuildContext) -> list[Builder]:
    unknown = [n for n in names if n not in BUILDERS]
    if unknown:
        raise ConfigError(
            f"unknown builder(s) {', '.join(unknown)}",
            hint=f"choose from {', '.join(BUILDERS) or '(none registered)'}",
        )
    return [BUILDERS[n](ctx) for n in names]
