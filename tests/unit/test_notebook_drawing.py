"""notebooks/drawing.py: the Browser's palette and captions (one source of truth), dates a
person reads, and a drawing of many long captions that passes the figure check."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import matplotlib
import pytest
from neo4j.time import Date, DateTime

from graphmem.browser.style import styled_labels
from tests.figure_check import problems

matplotlib.use("Agg")  # the test draws into files only, whatever the display


@pytest.fixture(scope="module")
def drawing() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "notebooks" / "drawing.py"
    spec = importlib.util.spec_from_file_location("drawing", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["drawing"] = module
    spec.loader.exec_module(module)
    return module


def test_colours_and_captions_are_the_browsers(drawing: ModuleType) -> None:
    styles = {item.label: item.style for item in styled_labels()}
    # A speaker who is also a character takes the character's colour, as in the Browser.
    tom = drawing.Node("c", ("Speaker", "Character"), {"name": "Tom"})
    assert (tom.colour, tom.kind, tom.caption) == (styles["Character"].color, "Character", "Tom")
    turn = drawing.Node("p", ("Passage",), {"speaker": "Maya", "text": "Hey Tom! Guess what"})
    assert turn.caption.replace("\n", " ") == "Maya said Hey Tom! Guess what"
    item = drawing.Node(
        "s", ("StoryItem",), {"text": "(2024-03-02 18:10) Maya: Hi", "caption": "Maya: Hi"}
    )
    assert (item.caption, item.kind) == ("Maya: Hi", "StoryItem (amory)")
    assert drawing.Node("x", ("Unknown",), {}).caption == "x"


def test_dates_read_as_dates(drawing: ModuleType) -> None:
    rows = [
        {"ts": DateTime(2024, 3, 2, 18, 10, 0), "day": Date(2024, 3, 2), "n": 1},
        {"ts": None, "day": None, "n": 2},
    ]
    frame = drawing.table(rows)
    assert list(frame["ts"]) == ["2024-03-02 18:10", ""]
    assert list(frame["day"]) == ["2024-03-02", ""]
    assert list(frame["n"]) == [1, 2]


def test_a_crowded_drawing_stays_readable(drawing: ModuleType, tmp_path: Path) -> None:
    long = "a very long turn that goes on and on about the new job in Porto and the dog " * 3
    turns = [
        drawing.Node(f"t{i}", ("Passage",), {"speaker": "Maya", "text": long}) for i in range(8)
    ]
    kinds = [item.label for item in styled_labels()][6:]
    memories = [
        drawing.Node(f"m{i}", (kinds[i % len(kinds)],), {p: long for p in ("text", "caption")})
        for i in range(14)
    ]
    things = [drawing.Node(f"e{i}", ("Entity",), {"name": long}) for i in range(12)]
    links = [(f"m{i}", f"t{i % 8}") for i in range(14)] + [
        (f"t{i % 8}", f"e{i}") for i in range(12)
    ]
    fig = drawing.draw([memories, turns, things], links, "crowded")
    fig.savefig(tmp_path / "crowded.png")
    assert problems(fig) == []
