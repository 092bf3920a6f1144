"""What makes a matplotlib figure unreadable, measured on the drawn figure: texts on top of
each other, anything cut at the figure's edge (or at the axes that clip it), several colours
of data without a legend that names each, and an axis labelled in percent over fractions.

``problems(fig)`` lists them in words (empty: nothing found). The notebook test runs it in
the kernel on every figure a notebook leaves open; tests/unit/test_figure_check.py shows it
fails on figures made bad on purpose."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.axis import Tick, XTick
from matplotlib.collections import Collection, LineCollection, PathCollection
from matplotlib.colors import to_hex, to_rgba
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.text import Text
from matplotlib.transforms import Bbox, BboxBase

# Pixels two extents may share (anti-aliasing, a glyph's side bearing) before they overlap.
SLACK = 1.0


def problems(fig: Figure) -> list[str]:
    """Every readability problem found on ``fig`` (drawn here, at its own dpi)."""
    fig.canvas.draw()
    texts = _texts(fig)
    return [
        *_overlaps(texts),
        *_cut(fig, texts),
        *_legend_missing(fig),
        *_percent_over_fractions(fig),
    ]


def _texts(artist: Artist) -> list[Text]:
    """Visible texts with something written, not inside a hidden parent (a hidden legend)."""
    if not artist.get_visible() or (isinstance(artist, Tick) and not _in_view(artist)):
        return []
    own = [artist] if isinstance(artist, Text) and artist.get_text().strip() else []
    return own + [t for child in artist.get_children() for t in _texts(child)]


def _in_view(tick: Tick) -> bool:
    """Axes keep ticks past their limits (not drawn) among their children."""
    axis = tick.axes.xaxis if isinstance(tick, XTick) else tick.axes.yaxis
    low, high = sorted(axis.get_view_interval())
    loc = tick.get_loc()
    room = (high - low) * 1e-9
    return bool(low - room <= loc <= high + room)


def _extent(artist: Artist, fig: Figure) -> Bbox:
    return artist.get_window_extent(fig.canvas.get_renderer())  # type: ignore[attr-defined]


def _overlaps(texts: list[Text]) -> Iterator[str]:
    boxes = [(t, _extent(t, t.figure)) for t in texts]  # type: ignore[arg-type]
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1 :]:
            width = min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0)
            height = min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0)
            if width > SLACK and height > SLACK:
                yield f"texts overlap: {_name(a)} and {_name(b)}"


def _cut(fig: Figure, texts: list[Text]) -> Iterator[str]:
    edge = fig.bbox
    for text in texts:
        box = _extent(text, fig)
        if not _inside(box, edge):
            yield f"text cut at the figure edge: {_name(text)}"
        clip = text.get_clip_box() if text.get_clip_on() else None
        if clip is not None and not _inside(box, clip):
            yield f"text cut by its axes: {_name(text)}"
    for legend in _legends(fig):
        if not _inside(_extent(legend, fig), edge):
            yield "legend cut at the figure edge"
    for ax in fig.axes:
        for artist in [*ax.collections, *ax.patches]:
            if not artist.get_visible():
                continue
            for box in _pieces(artist, fig):
                clip = artist.get_clip_box() if artist.get_clip_on() else None
                if not _inside(box, edge) or (clip is not None and not _inside(box, clip)):
                    yield f"{type(artist).__name__} cut at the edge of {_axes_name(ax)}"
                    break


def _pieces(artist: Artist, fig: Figure) -> list[Bbox]:
    """Markers one by one (a scatter's extent is its centres, not its discs)."""
    offsets = artist.get_offsets() if isinstance(artist, PathCollection) else None
    if isinstance(artist, PathCollection) and offsets is not None and len(offsets):  # type: ignore[arg-type]
        centres = artist.get_offset_transform().transform(offsets)
        sizes = artist.get_sizes()
        boxes = []
        for i, (x, y) in enumerate(centres):
            area = sizes[i % len(sizes)] if len(sizes) else 36.0
            radius = math.sqrt(area) / 2 * fig.dpi / 72
            boxes.append(Bbox.from_extents(x - radius, y - radius, x + radius, y + radius))
        return boxes
    return [_extent(artist, fig)]


def _inside(box: BboxBase, frame: BboxBase) -> bool:
    return (
        box.x0 >= frame.x0 - SLACK
        and box.y0 >= frame.y0 - SLACK
        and box.x1 <= frame.x1 + SLACK
        and box.y1 <= frame.y1 + SLACK
    )


def _legends(fig: Figure) -> list[Legend]:
    found = [ax.get_legend() for ax in fig.axes]
    return [legend for legend in [*fig.legends, *found] if legend is not None]


def _legend_missing(fig: Figure) -> Iterator[str]:
    """Data in several colours needs a legend naming every colour."""
    drawn = {colour for ax in fig.axes for colour in _data_colours(ax)}
    if len(drawn) < 2:
        return
    named = {c for legend in _legends(fig) for h in legend.legend_handles for c in _colours(h)}
    if not _legends(fig):
        yield f"{len(drawn)} colours of data and no legend"
    elif drawn - named:
        yield f"colours without a legend entry: {sorted(drawn - named)}"


def _data_colours(ax: Axes) -> set[str]:
    out: set[str] = set()
    for artist in [*ax.collections, *ax.patches]:
        # Edges (a LineCollection) link things; they are not a kind of thing.
        if artist.get_visible() and not isinstance(artist, LineCollection):
            out |= _colours(artist)
    return out


def _colours(artist: Artist | None) -> set[str]:
    if isinstance(artist, Collection) and len(artist.get_facecolor()):
        return {_hex(c) for c in artist.get_facecolor() if _alpha(c) > 0}
    if isinstance(artist, Patch):
        face = artist.get_facecolor()
        return {_hex(face)} if _alpha(face) > 0 else set()
    if isinstance(artist, Line2D) and artist.get_marker() not in (None, "", "None"):
        return {_hex(artist.get_markerfacecolor())}
    return set()


def _hex(colour: Any) -> str:
    return to_hex(to_rgba(colour))


def _alpha(colour: Any) -> float:
    return float(to_rgba(colour)[3])


def _percent_over_fractions(fig: Figure) -> Iterator[str]:
    """A "%" axis whose bars all lie within 0-1: fractions drawn under a percent label."""
    for ax in fig.axes:
        bars = [p for p in ax.patches if isinstance(p, Rectangle) and p.get_visible()]
        for label, values in (
            (ax.get_ylabel(), [b.get_height() for b in bars]),
            (ax.get_xlabel(), [b.get_width() for b in bars]),
        ):
            if "%" in label and values and 0 < max(abs(v) for v in values) <= 1:
                yield f"{_axes_name(ax)}: the axis says {label!r} over values within 0-1"


def _name(text: Text) -> str:
    return repr(text.get_text()[:40])


def _axes_name(ax: Axes) -> str:
    return f"axes {ax.get_title()!r}" if ax.get_title() else "an axes"
