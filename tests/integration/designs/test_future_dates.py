"""Plans keep their dates (issue 61): a turn that names a day ahead is stored, by every
design, with that day, not with the same day of the year before or the weekday before.

Said on Saturday 3 February 2024, "on August 1" means 1 August 2024 and "on Monday" means
5 February 2024; today's graph holds no text of the wrong ones."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import pytest

from graphmem.graph.store import GraphStore
from graphmem.memory import Memory

pytestmark = pytest.mark.integration

SAID = datetime(2024, 2, 3, 9, 30)  # a Saturday
MESSAGES = [
    {"speaker": "Alice", "text": "We move to Porto on August 1."},
    {"speaker": "Bob", "text": "I start my new job at the bakery on Monday."},
    {"speaker": "Alice", "text": "Great! We went to Lisbon last Saturday, by the way."},
]
# The days as designs write them: ISO in PREMem and the semantic layer, words elsewhere.
RIGHT = {
    "August": re.compile(r"2024-08-01|1 August 2024"),
    "Monday": re.compile(r"2024-02-05|5 February 2024"),
    "Saturday": re.compile(r"2024-01-27|27 January 2024"),
}
WRONG = re.compile(r"2023-08-01|1 August 2023|2024-01-29|29 January 2024|2024-02-10")


def _texts(store: GraphStore, space: str) -> list[tuple[list[str], str]]:
    rows: list[dict[str, Any]] = store.read("core.digest_nodes", space=space, skip=["embedding"])
    out = []
    for row in rows:
        for _, value in row["props"]:
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, str):
                    out.append((row["labels"], item))
    return out


def test_every_design_stores_a_plan_with_its_day_ahead(
    memory: Memory, store: GraphStore, space: str
) -> None:
    memory.add_messages(space, "plans", "s1", MESSAGES, SAID, builders="all")
    texts = _texts(store, space)
    wrong = [(labels, text) for labels, text in texts if WRONG.search(text)]
    assert wrong == []
    for word, day in RIGHT.items():
        holding = {label for labels, text in texts if day.search(text) for label in labels}
        # The turn itself holds no resolved date; derived memories do.
        assert holding - {"Turn", "Passage"}, f"no derived memory dates {word!r}"
