"""What the notebooks share: tables whose dates read as dates, and drawings of a few nodes of
the graph in the colours the Neo4j Browser shows them in (each design's ``NodeStyle``, read
through ``graphmem.browser.style``: one palette for both), captioned the way the Browser
captions them.

A drawing is columns of nodes (say memories, the turns they come from, the entities those
turns mention) with the links between them; each column's captions sit where no other
column's do (left of the first column, right of the last, under the nodes in between), so
they cannot overlap whatever the data, and the figure is sized to hold them."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import cache
from typing import Any

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from neo4j.time import Date, DateTime

from graphmem.browser.style import StyledLabel, styled_labels
from graphmem.plugin.captions import short_caption

UNSTYLED = "#A5ABB6"  # the grass's default node colour, for a label no design styles
WRAP = 28  # characters per caption line
LINES = 3  # caption lines at most
FONT = 8  # caption size, points
SIDE = 2.0  # inches a side column's captions take
GAP = 2.4  # inches between two columns' nodes
ROW = {"side": 0.5, "middle": 0.8}  # inches per node: a caption beside it, or under it
TITLE = 0.45  # inches above the drawing
LEGEND_ROW = 0.3  # inches per legend row below it
LEGEND_COLUMNS = 4


def readable(value: Any) -> Any:
    """A Neo4j date or datetime as ``2024-03-02`` or ``2024-03-02 18:10``; else unchanged."""
    if isinstance(value, DateTime | Date):
        value = value.to_native()
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S" if value.second else "%Y-%m-%d %H:%M")
    if isinstance(value, date):
        return value.isoformat()
    return value


def table(rows: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Query rows as a table, dates and times written the way a person reads them (a date
    column's missing values left blank rather than shown as NaN)."""
    rows = list(rows)
    dated = {k for row in rows for k, v in row.items() if isinstance(v, DateTime | Date | date)}
    return pd.DataFrame(
        [
            {k: "" if v is None and k in dated else readable(v) for k, v in row.items()}
            for row in rows
        ]
    )


@cache
def _styles() -> dict[str, StyledLabel]:
    return {item.label: item for item in styled_labels()}


@dataclass(frozen=True)
class Node:
    """One node to draw: a key the links name, its labels and (some of) its properties."""

    key: str
    labels: tuple[str, ...]
    properties: Mapping[str, Any] = field(default_factory=dict)

    @property
    def styled(self) -> StyledLabel | None:
        """The style the Browser applies: of the node's styled labels, the last declared."""
        found = [_styles()[label] for label in self.labels if label in _styles()]
        order = list(_styles())
        return max(found, key=lambda item: order.index(item.label)) if found else None

    @property
    def kind(self) -> str:
        styled = self.styled
        if styled is None:
            return self.labels[0] if self.labels else "node"
        return styled.label if styled.owner == "core" else f"{styled.label} ({styled.owner})"

    @property
    def colour(self) -> str:
        return self.styled.style.color if self.styled else UNSTYLED

    @property
    def caption(self) -> str:
        """The Browser's caption template filled from the properties, cut to a few words and
        wrapped; the key where the node has none of the properties it names."""
        style = self.styled.style if self.styled else None
        template, names = (style.caption, style.properties) if style else ("{name}", ["name"])
        if not any(self.properties.get(name) for name in names):
            return self.key
        text = re.sub(r"\{(\w+)\}", lambda m: str(self.properties.get(m[1]) or ""), template)
        # A no-break space keeps the cut's "..." on the line of the word before it.
        words = short_caption(text.strip()).replace(" ...", "\u00a0...")
        return "\n".join(textwrap.wrap(words, WRAP, max_lines=LINES, placeholder=" ..."))


def draw(
    columns: Sequence[Sequence[Node]],
    links: Iterable[tuple[str, str]],
    title: str,
    anchor: int | None = None,
) -> Figure:
    """Columns of nodes left to right, a grey line per link (pairs of keys) and a legend of
    the kinds drawn. Column ``anchor`` (the middle one unless given) keeps its order; the
    others are sorted by where their links land in it, so lines cross less."""
    kept = [list(c) for c in columns if c]
    pairs = [(a, b) for a, b in links]
    ordered = _ordered(kept, pairs, len(kept) // 2 if anchor is None else anchor)
    kinds = sorted({n.kind: n.colour for c in ordered for n in c}.items())
    bottom = -(-len(kinds) // LEGEND_COLUMNS) * LEGEND_ROW + 0.35
    spots, width, height = _layout(ordered, bottom)
    fig = plt.figure(figsize=(width, height))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.axis("off")
    segments = [(spots[a], spots[b]) for a, b in pairs if a in spots and b in spots]
    ax.add_collection(LineCollection(segments, colors="#C8CBD0", linewidths=0.8, zorder=1))
    for kind, colour in kinds:
        shown = [spots[n.key] for c in ordered for n in c if n.kind == kind]
        xs, ys = zip(*shown, strict=True)
        ax.scatter(
            xs, ys, s=110, c=colour, edgecolors="#5E5E5E", linewidths=0.8, zorder=2, label=kind
        )
    for i, column in enumerate(ordered):
        for node in column:
            _caption(ax, node, spots[node.key], _place(i, len(ordered)), i == 0)
    ax.text(width / 2, height - 0.15, title, ha="center", va="top", fontsize=11)
    ax.legend(
        loc="lower center",
        ncol=min(LEGEND_COLUMNS, len(kinds)),
        frameon=False,
        fontsize=FONT,
        bbox_to_anchor=(0.5, 0.02),
        markerscale=0.8,
    )
    return fig


def _layout(
    columns: list[list[Node]], bottom: float
) -> tuple[dict[str, tuple[float, float]], float, float]:
    """Where each node goes, in inches from the lower left; the figure's width and height.
    Each column is centred on the tallest one."""
    body = max(len(c) * ROW[_place(i, len(columns))] for i, c in enumerate(columns))
    spots: dict[str, tuple[float, float]] = {}
    for i, column in enumerate(columns):
        x = SIDE + 0.3 + GAP * i
        row = ROW[_place(i, len(columns))]
        top = bottom + (body + len(column) * row) / 2
        for j, node in enumerate(column):
            spots[node.key] = (x, top - (j + 0.5) * row)
    return spots, 2 * (SIDE + 0.3) + GAP * (len(columns) - 1), body + TITLE + bottom


def _place(i: int, count: int) -> str:
    return "side" if i in (0, count - 1) else "middle"


def _caption(ax: Any, node: Node, at: tuple[float, float], place: str, first: bool) -> None:
    x, y = at
    if place == "middle":
        ax.text(
            x,
            y - 0.12,
            node.caption,
            ha="center",
            va="top",
            fontsize=FONT,
            zorder=3,
            bbox={"boxstyle": "square,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.85},
        )
    elif first:
        ax.text(x - 0.14, y, node.caption, ha="right", va="center", fontsize=FONT)
    else:
        ax.text(x + 0.14, y, node.caption, ha="left", va="center", fontsize=FONT)


def _ordered(
    columns: list[list[Node]], pairs: list[tuple[str, str]], anchor: int
) -> list[list[Node]]:
    where = {n.key: j for j, n in enumerate(columns[anchor])}
    linked: dict[str, list[int]] = {}
    for a, b in pairs:
        for one, other in ((a, b), (b, a)):
            if other in where:
                linked.setdefault(one, []).append(where[other])

    def centre(node: Node) -> float:
        found = linked.get(node.key)
        return sum(found) / len(found) if found else len(where)

    return [
        column if i == anchor else sorted(column, key=centre) for i, column in enumerate(columns)
    ]
