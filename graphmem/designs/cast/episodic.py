"""The episodic side of a query (paper 3.2): k-nearest scenes by their summary vectors,
with the names, places and times the question mentions used to filter them.

Ours (the package's ``README.md``): cue matching is a soft filter by default. A scene
matches a name cue when its stream's character is named, a place cue when one of its
views' places is named, a time cue when a date or period of the question falls within its time span
widened by Delta_t on each side (a relative one, "last week", only when the question has a
date of its own: ``relative_cues``). Scenes are ranked by how many of the question's cue
kinds they match, then by cosine ("filter": a question naming Gina gets Gina's scenes
first, and when no scene matches, the plain ranking); "boost" adds ``cue_boost`` per kind
to the cosine instead; "off" ignores the cues. The scenes found give E_epi: the turns of
their views.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from spacy.tokens import Doc

from graphmem.designs.cast.views import PersonResolver, places
from graphmem.nlp import normalise_temporal
from graphmem.plugin import PassageRef

Matrix = npt.NDArray[np.float32]
CueMode = Literal["filter", "boost", "off"]


def _native(value: Any) -> Any:
    return value.to_native() if hasattr(value, "to_native") else value


@dataclass(frozen=True)
class SceneRow:
    id: str
    character: str
    role: str
    start: datetime | None
    end: datetime | None
    date_text: str | None
    places: frozenset[str]
    summary: str
    passage_ids: tuple[str, ...]

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> SceneRow:
        return cls(
            id=row["id"],
            character=row["character"],
            role=row["role"],
            start=_native(row["start"]),
            end=_native(row["end"]),
            date_text=row["date_text"],
            places=frozenset(row["places"] or []),
            summary=row["summary"],
            passage_ids=tuple(row["passage_ids"]),
        )


@dataclass(frozen=True)
class Cues:
    names: frozenset[str] = frozenset()
    places: frozenset[str] = frozenset()
    periods: tuple[tuple[date, date], ...] = ()

    @property
    def kinds(self) -> int:
        return sum(1 for cue in (self.names, self.places, self.periods) if cue)


@dataclass(frozen=True)
class RankedScene:
    scene: SceneRow
    rank: int
    score: float
    matched: tuple[str, ...]  # which cue kinds it matched


def question_cues(
    doc: Doc, resolver: PersonResolver, reference: datetime, relative: bool = False
) -> Cues:
    """The names (characters of the space), places and dates a question holds: with
    ``relative`` (``reference`` is the question's own date), every date it resolves
    ("last week", "on May 10"); else only those naming their year, since "last week"
    counted from the space's latest turn is a guess."""
    names = {p for p in resolver.mentioned(doc) if p}
    periods: list[tuple[date, date]] = []
    for mention in normalise_temporal(doc.text, reference, doc):
        if not (mention.explicit or relative):
            continue
        start = date.min if mention.form == "before" else mention.first or date.min
        end = date.max if mention.form == "after" else mention.last or date.max
        periods.append((start, end))
    return Cues(frozenset(names), frozenset(places(doc)), tuple(periods))


def matches(scene: SceneRow, cues: Cues, slack: timedelta) -> tuple[str, ...]:
    out = []
    if cues.names and scene.character in cues.names:
        out.append("name")
    if cues.places & scene.places:
        out.append("place")
    if cues.periods and scene.start and scene.end:
        first, last = _widened(scene.start, scene.end, slack)
        if any(a <= last and b >= first for a, b in cues.periods):
            out.append("time")
    return tuple(out)


def _widened(start: datetime, end: datetime, slack: timedelta) -> tuple[date, date]:
    """The scene's days widened by ``slack`` on each side, held to the calendar's ends (a
    turn dated 9999-12-31 or 0001-01-01 has no day past them)."""
    first = start - slack if start - datetime.min > slack else datetime.min
    last = end + slack if datetime.max - end > slack else datetime.max
    return first.date(), last.date()


@dataclass
class EpisodicIndex:
    """A space's scenes and views, held in memory for exact search."""

    scenes: list[SceneRow]
    scene_vectors: Matrix
    views: dict[str, tuple[str, ...]]  # centre passage id -> window passage ids
    view_vectors: dict[str, Matrix]  # centre passage id -> topic vector
    passages: dict[str, PassageRef]
    characters: list[str] = field(default_factory=list)

    @property
    def latest(self) -> datetime:
        ends = [s.end for s in self.scenes if s.end]
        return max(ends) if ends else datetime.now()

    def rank(
        self,
        query: Sequence[float],
        cues: Cues,
        mode: CueMode,
        boost: float,
        slack: timedelta,
    ) -> list[RankedScene]:
        if not self.scenes:
            return []
        cosine = self.scene_vectors @ np.asarray(query, dtype=np.float32)
        scored = []
        for i, scene in enumerate(self.scenes):
            found = matches(scene, cues, slack) if mode != "off" else ()
            score = float(cosine[i]) + (boost * len(found) if mode == "boost" else 0.0)
            key = (len(found), score) if mode == "filter" else (0, score)
            scored.append((key, i, score, found))
        scored.sort(key=lambda x: (-x[0][0], -x[0][1], x[1]))
        return [
            RankedScene(self.scenes[i], rank, score, found)
            for rank, (_, i, score, found) in enumerate(scored)
        ]

    def best_turn(
        self, scene: SceneRow, query: Sequence[float], exclude: Iterable[str]
    ) -> str | None:
        """The scene's turn whose view is closest to the query (slot-3 injection)."""
        skip = set(exclude)
        vec = np.asarray(query, dtype=np.float32)
        candidates = [pid for pid in scene.passage_ids if pid in self.view_vectors]
        candidates = [pid for pid in candidates if pid not in skip]
        if not candidates:
            return None
        return max(candidates, key=lambda pid: (float(self.view_vectors[pid] @ vec), pid))


def episodic_turns(ranked: Sequence[RankedScene], k: int) -> dict[str, RankedScene]:
    """E_epi(q): the turns of the top-k scenes, each with the best scene that holds it."""
    out: dict[str, RankedScene] = {}
    for item in ranked[:k]:
        for pid in item.scene.passage_ids:
            out.setdefault(pid, item)
    return out
