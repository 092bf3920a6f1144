"""A subject's changes: each superseded statement about it, what replaced it, when, and the
turns both come from (``graphmem history``, ``Memory.history``, the MCP tool ``history``)."""

from __future__ import annotations

from datetime import date, datetime, time
from typing import Any

from pydantic import BaseModel, field_validator

from graphmem.graph.rows import native
from graphmem.graph.store import GraphStore
from graphmem.plugin.label_statements import VALIDITY_HISTORY
from graphmem.plugin.registry import registry


class Change(BaseModel):
    """One superseded statement (``earlier``, true from ``earlier_from`` until ``until``)
    and the one that replaced it (``later``), each with the turns it cites."""

    label: str
    earlier: str
    earlier_from: date | None
    earlier_turns: list[str]
    later: str
    later_from: date | None
    later_turns: list[str]
    until: date | None
    verdict: str
    reason: str = ""

    @field_validator("earlier_from", "later_from", "until", mode="before")
    @classmethod
    def _native(cls, value: Any) -> Any:
        return native(value)


def history(store: GraphStore, space: str, subject: str) -> list[Change]:
    """The changes of ``subject`` (whose state, or a thing the statements are about; case
    ignored) in ``space``, in conversation order."""
    registry()  # the generated statement
    rows = store.read(VALIDITY_HISTORY, space=space, subject=" ".join(subject.split()).lower())
    return [Change.model_validate(r) for r in rows]


def as_of_moment(value: date | datetime | None) -> datetime | None:
    """``--as-of`` as a moment: a date (or a midnight) means the whole of that day."""
    if value is None:
        return None
    if not isinstance(value, datetime):
        return datetime.combine(value, time(23, 59, 59))
    if value.time() == time(0, 0):
        return datetime.combine(value.date(), time(23, 59, 59))
    return value.replace(tzinfo=None)
