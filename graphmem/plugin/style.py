"""How a design's nodes look in the Neo4j Browser: one ``NodeStyle`` per label it declares
(``Design.styles``). graphmem.browser generates the served graph style (grass) and the
guide's legend from these declarations, so a design owns its look like it owns its labels."""

from __future__ import annotations

import re
from dataclasses import dataclass

_HEX = re.compile(r"#[0-9A-Fa-f]{6}")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True)
class NodeStyle:
    """``color``, ``border`` and ``text`` are ``#RRGGBB``; ``diameter`` in pixels;
    ``caption`` a grass template naming properties (``'{speaker} said {text}'``) that says
    what the node is in a few words (no ids, no leading date); ``meaning`` is the legend's
    one-line description of the label."""

    color: str
    caption: str
    meaning: str
    border: str = "#5E5E5E"
    text: str = "#000000"
    diameter: int = 55

    def __post_init__(self) -> None:
        bad = [c for c in (self.color, self.border, self.text) if not _HEX.fullmatch(c)]
        if bad:
            raise ValueError(f"node style: colours {bad} are not #RRGGBB")
        # The Browser's style parser splits on colons and quotes: such a caption is dropped.
        if any(ch in self.caption for ch in ":'\"") or not self.caption.strip():
            raise ValueError(f"node style: caption {self.caption!r} is empty or has : ' or \"")
        names = _PLACEHOLDER.findall(self.caption)
        if not names or not all(name.isidentifier() for name in names):
            raise ValueError(f"node style: caption {self.caption!r} names no property")
        if not 20 <= self.diameter <= 120:
            raise ValueError(f"node style: diameter {self.diameter} outside 20-120 px")
        if not self.meaning.strip():
            raise ValueError("node style: the legend needs a meaning")

    @property
    def properties(self) -> list[str]:
        return _PLACEHOLDER.findall(self.caption)
