"""The Browser's graph style (grass) and the guide's legend, generated from the ``styles``
every registered design declares (``graphmem.plugin.style.NodeStyle``) and the core's
own ``BuildCost`` ledger: nothing here names a design's label."""

from __future__ import annotations

import html
import os
from pathlib import Path

from pydantic import BaseModel

from graphmem.builders.cost import LABEL as BUILD_COST
from graphmem.builders.cost import STYLE as BUILD_COST_STYLE
from graphmem.config import Settings
from graphmem.plugin.registry import registry
from graphmem.plugin.style import NodeStyle
from graphmem.validity.types import FADED, SUPERSEDED

STYLE_FILE = "graphmem.grass"
_HEAD = """node {
  diameter: 50px;
  color: #A5ABB6;
  border-color: #9AA1AC;
  border-width: 2px;
  text-color-internal: #FFFFFF;
  font-size: 10px;
}
relationship {
  color: #A5ABB6;
  shaft-width: 1px;
  font-size: 8px;
  padding: 3px;
  text-color-external: #000000;
  text-color-internal: #FFFFFF;
  caption: '<type>';
}
"""


class StyledLabel(BaseModel):
    label: str
    owner: str  # the design (or ``core``) that declares the style
    style: NodeStyle


def styled_labels() -> list[StyledLabel]:
    """Every declared style in registry order (layers and baselines, then the designs),
    the core's ledger last. A later grass rule wins on a node with two labels, so a
    ``Speaker`` that is also a ``Character`` takes the character's colour."""
    out = [
        # The passage baselines declare the core's own labels (turns, sessions, speakers).
        StyledLabel(label=label, owner="core" if d.kind == "baseline" else d.name, style=style)
        for d in registry().values()
        for label, style in d.styles.items()
    ]
    out.append(StyledLabel(label=BUILD_COST, owner="core", style=BUILD_COST_STYLE))
    return out


def grass(labels: list[StyledLabel] | None = None) -> str:
    """The Neo4j Browser style sheet: the defaults, then one rule per declared label."""
    rules = [_HEAD]
    for item in labels if labels is not None else styled_labels():
        s = item.style
        rules.append(
            f"node.{item.label} {{\n"
            f"  color: {s.color};\n"
            f"  border-color: {s.border};\n"
            f"  text-color-internal: {s.text};\n"
            f"  diameter: {s.diameter}px;\n"
            f"  caption: '{s.caption}';\n"
            "}\n"
        )
    # Last, so that it wins on a superseded Fact or Fragment: colours only, the node keeps
    # its own label's caption and size.
    faded = "".join(f"  {prop}: {value};\n" for prop, value in FADED.items())
    rules.append(f"node.{SUPERSEDED} {{\n{faded}}}\n")
    return "".join(rules)


def legend_html(labels: list[StyledLabel] | None = None) -> str:
    """The guide's legend: a swatch in each label's colours, the label, what it is and
    which design writes it; two columns, so that a slide holds every label."""
    items = labels if labels is not None else styled_labels()
    half = (len(items) + 1) // 2
    columns = []
    for part in (items[:half], items[half:]):
        rows = "\n".join(_legend_row(item) for item in part)
        if part is items[half:]:
            rows += "\n" + _faded_row()
        columns.append(
            f'<div class="col-sm-6"><table class="table table-condensed">\n{rows}\n</table></div>'
        )
    return '<div class="row">' + "".join(columns) + "</div>"


def _legend_row(item: StyledLabel) -> str:
    s = item.style
    swatch = (
        '<span style="display:inline-block;width:14px;height:14px;border-radius:7px;'
        f'background:{s.color};border:2px solid {s.border}"></span>'
    )
    # The Browser's guide breaks code anywhere: "Conversatio|n" without these.
    keep = "white-space:nowrap;word-break:keep-all;overflow-wrap:normal"
    name = f'<td style="{keep}"><code style="{keep}">{html.escape(item.label)}</code></td>'
    return (
        f"<tr><td>{swatch}</td>{name}"
        f"<td>{html.escape(s.meaning)} <small>({html.escape(item.owner)})</small></td></tr>"
    )


def _faded_row() -> str:
    swatch = (
        '<span style="display:inline-block;width:14px;height:14px;border-radius:7px;'
        f'background:{FADED["color"]};border:2px solid {FADED["border-color"]}"></span>'
    )
    return (
        f"<tr><td>{swatch}</td><td><code>{SUPERSEDED}</code></td><td>faded: a statement a "
        "later one replaced (valid_to, SUPERSEDES) <small>(core)</small></td></tr>"
    )


def label_counts_query(labels: list[StyledLabel] | None = None) -> str:
    """The guide's "nodes per label" query, one indexed count per styled label: a dynamic
    label (``MATCH (n:$(label))``) is not served by the per-label ``space`` indexes and
    scans every node of every space (seconds on a server holding benchmarks)."""
    items = labels if labels is not None else styled_labels()
    names = [item.label for item in items] + [SUPERSEDED]
    rows = ",\n".join(
        f"  ['{name}', COUNT {{ MATCH (:{name} {{space: $space}}) }}]" for name in names
    )
    return (
        f"UNWIND [\n{rows}\n] AS row\n"
        "WITH row[0] AS label, row[1] AS nodes WHERE nodes > 0\n"
        "RETURN label, nodes\nORDER BY nodes DESC"
    )


def write_style(settings: Settings) -> Path:
    """The generated style as a file to drag onto the Browser window (under the data home,
    rewritten on every call so it follows the installed designs)."""
    path = settings.home / "browser" / STYLE_FILE
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    text = grass()
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
    return path
