"""Which strategies vote, with what weight, and what the space is missing.

The members are found through the registry (never by importing a design): every strategy of
an entry of kind ``design`` whose builders completed in the space, the configured baselines,
and a layer's own strategy (``hipporag``) only when no member that re-orders it (``family``)
is present. Readiness is the one ``graphmem.graph.readiness`` uses: a strategy is ready when every
builder it needs (``required_builders``) built the space.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field

from graphmem.errors import ConfigError
from graphmem.graph.readiness import required_builders
from graphmem.plugin.registry import pagerank_strategies, registry, reorders
from graphmem.strategy.settings import GraphmemSettings

# Entry kinds whose strategies vote; a ``strategy`` entry (this one) never votes for itself.
_VOTING_KINDS = ("design", "layer")


@dataclass(frozen=True)
class Plan:
    members: tuple[str, ...]
    weights: dict[str, float]
    missing: dict[str, list[str]] = field(default_factory=dict)  # strategy -> absent builders
    excluded_fallback: str = ""  # the fallback the space would take, left out by ``exclude``
    fallback: str = ""  # the strategy answering alone: the space has no design to fuse

    def notes(self) -> list[str]:
        """What the space lacks, for ``--explain`` and the result's notes."""
        out = []
        if self.fallback:
            out.append(
                f"no design is built in this space: answered by the fallback {self.fallback} "
                "alone (graphmem ingest FILE --space S --builders all)"
            )
        for strategy, builders in sorted(self.missing.items()):
            out.append(
                f"{strategy} not fused: the space lacks the {', '.join(builders)} layer "
                f"(graphmem ingest FILE --space S --builders {','.join(builders)})"
            )
        if self.excluded_fallback:
            out.append(
                f"no fallback: {self.excluded_fallback} would answer a space without designs, "
                "but exclude leaves it out"
            )
        return out


def _candidates(settings: GraphmemSettings) -> list[str]:
    if settings.members:
        return list(settings.members)
    found = [
        strategy
        for kind in _VOTING_KINDS
        for design in registry().values()
        if design.kind == kind
        for strategy in design.retrievers
    ]
    return [*found, *settings.baselines]


def families(settings: GraphmemSettings) -> dict[str, str]:
    """Member -> the ranker it re-orders: the setting, or what the designs declare."""
    return reorders() if settings.family is None else settings.family


def check_names(settings: GraphmemSettings, voting: Collection[str]) -> None:
    """Every strategy a setting names can vote (``voting``): a misspelt member, exclusion,
    baseline, family or fallback would otherwise change the fusion without a word (an
    unknown member list fused nothing and answered with an empty context)."""
    named = {
        "members": settings.members,
        "baselines": settings.baselines,
        "exclude": settings.exclude,
        "family": (*families(settings), *families(settings).values()),
        "fallback": (settings.fallback,) if settings.fallback else (),
    }
    for setting, names in named.items():
        unknown = [n for n in names if n not in voting]
        if unknown:
            itself = " (graphmem cannot fuse itself)" if "graphmem" in unknown else ""
            raise ConfigError(
                f"graphmem setting {setting} (GRAPHMEM_GRAPHMEM_{setting.upper()}): unknown "
                f"strategy {', '.join(repr(n) for n in unknown)}{itself}",
                hint=f"choose from {', '.join(sorted(voting))}",
            )


def candidates(settings: GraphmemSettings) -> list[str]:
    """The strategies a space built with every layer would fuse (before families fold and
    without the fallback): what an evaluation of ``graphmem`` builds (``Design.reads``)."""
    skipped = set() if settings.pagerank else set(pagerank_strategies())
    return [
        strategy
        for strategy in dict.fromkeys(_candidates(settings))
        if strategy not in settings.exclude and strategy not in skipped
    ]


def plan(settings: GraphmemSettings, built: Collection[str]) -> Plan:
    """The members for a space whose completed builders are ``built``."""
    kinds = (*_VOTING_KINDS, "baseline")
    voting = {s for d in registry().values() if d.kind in kinds for s in d.retrievers}
    check_names(settings, voting)
    ready: list[str] = []
    missing: dict[str, list[str]] = {}
    for strategy in candidates(settings):
        absent = [b for b in required_builders(strategy) if b not in built]
        if absent:
            missing[strategy] = absent
        else:
            ready.append(strategy)
    excluded_fallback = fallback = ""
    if not settings.members and set(ready) <= set(settings.baselines) and settings.fallback:
        # No design or layer to fuse: the baselines alone would be BM25, weaker than the
        # dense + BM25 fusion a space without designs was answered with before. A fallback
        # that is excluded is left out like any member (an ablation asked for it).
        if settings.fallback in settings.exclude:
            excluded_fallback = settings.fallback
        else:
            ready, fallback = [settings.fallback], settings.fallback
    declared = families(settings)
    family = {s: declared.get(s, s) for s in ready}
    if not settings.members:  # a family's own ranker adds nothing its re-orderers do not
        heads = {f for s, f in family.items() if f != s}
        ready = [s for s in ready if s not in heads]
    sizes = Counter(family.get(s, s) for s in ready)
    weights = {s: 1.0 / sizes[family.get(s, s)] for s in ready}
    return Plan(tuple(ready), weights, missing, excluded_fallback, fallback)
