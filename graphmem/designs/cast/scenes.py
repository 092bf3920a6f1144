"""Algorithm 1 (greedy scene aggregation) and role assignment, as the paper states them.

Per character stream, views in time order; each view scans the person's scenes in creation
order and joins the first where at least two of three tests pass:
``|t(v) - t_max(s)| <= Delta_t``, ``d_l(l(v), l(s)) <= Delta_l``,
``d_tau(tau(v), tau(s)) <= Delta_tau``; otherwise it opens a new scene.

``l(s)`` and ``tau(s)`` are the paper's "running representatives (e.g. centroids)": the
most frequent known place of the scene's views (ties: the one seen first) and the mean of
their topic vectors. ``d_l`` is 0 for the same normalised place and 1 for another; an
unknown place on either side has no distance and fails the test (ours: the paper gives no
``d_l`` and no ``Delta_l``). ``d_tau`` is 1 - cosine. A view whose time is unknown fails the
time test.

A scene's statistics are a function of its member views in order, so a scene read back
from the graph and extended by a later batch ends as the one-batch build would.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]
MAIN, SUPPORTING = "MC", "SC"


@dataclass(frozen=True)
class StreamView:
    """What Algorithm 1 needs of a view (the same view sits in several streams)."""

    id: str
    t: datetime | None
    place: str | None
    topic: Vector
    speaker: str  # the central message's speaker: the character the view is "linked to"
    participants: tuple[str, ...]
    order: tuple[int, int]  # (session index, turn index): ties in time keep turn order

    @property
    def key(self) -> tuple[datetime, int, int, str]:
        # Two conversations of a space may hold a view at the same time, session and turn
        # index: the id breaks the tie, or their order would be the database's read order.
        return (self.t or datetime.min, *self.order, self.id)


@dataclass(frozen=True)
class Thresholds:
    delta_t: timedelta
    delta_l: float
    delta_tau: float


@dataclass
class Scene:
    id: str
    owner: str  # the stream's character (name)
    seq: int  # creation order within the stream
    views: list[StreamView] = field(default_factory=list)
    _topic_sum: npt.NDArray[np.float64] | None = None
    _places: Counter[str] = field(default_factory=Counter)
    _t_max: datetime | None = None

    def add(self, view: StreamView) -> None:
        """UpdateSceneStats(s, v)."""
        self.views.append(view)
        if view.t is not None and (self._t_max is None or view.t > self._t_max):
            self._t_max = view.t
        vec = view.topic.astype(np.float64)
        self._topic_sum = vec if self._topic_sum is None else self._topic_sum + vec
        if view.place:
            self._places[view.place] += 1

    @property
    def t_max(self) -> datetime | None:
        return self._t_max

    @property
    def t_min(self) -> datetime | None:
        times = [v.t for v in self.views if v.t is not None]
        return min(times) if times else None

    @property
    def place(self) -> str | None:
        # Counter.most_common keeps first-insertion order among equal counts.
        best = self._places.most_common(1)
        return best[0][0] if best else None

    @property
    def places(self) -> list[str]:
        return list(self._places)

    @property
    def centroid(self) -> npt.NDArray[np.float64] | None:
        if self._topic_sum is None:
            return None
        return self._topic_sum / len(self.views)

    @property
    def participants(self) -> list[str]:
        return list(dict.fromkeys(p for v in self.views for p in v.participants))

    def role(self, character: str) -> str:
        """rho(c, s): MC when c speaks at least one view of the scene, else SC."""
        return MAIN if any(v.speaker == character for v in self.views) else SUPPORTING

    @property
    def main(self) -> list[str]:
        return [p for p in self.participants if self.role(p) == MAIN]

    @property
    def supporting(self) -> list[str]:
        return [p for p in self.participants if self.role(p) == SUPPORTING]


def place_distance(a: str | None, b: str | None) -> float:
    """0 for the same normalised place, 1 for another, infinite when either is unknown."""
    if a is None or b is None:
        return math.inf
    return 0.0 if a == b else 1.0


def topic_distance(topic: Vector, centroid: npt.NDArray[np.float64] | None) -> float:
    """1 - cosine between a view's topic and the scene's topic centroid."""
    if centroid is None:
        return math.inf
    norm = float(np.linalg.norm(centroid)) * float(np.linalg.norm(topic))
    if norm == 0.0:
        return math.inf
    return 1.0 - float(np.dot(topic.astype(np.float64), centroid)) / norm


def continuity(view: StreamView, scene: Scene, th: Thresholds) -> tuple[bool, bool, bool]:
    """The three continuity tests of Algorithm 1 (lines 5-8)."""
    t_max = scene.t_max
    timely = view.t is not None and t_max is not None and abs(view.t - t_max) <= th.delta_t
    near = place_distance(view.place, scene.place) <= th.delta_l
    on_topic = topic_distance(view.topic, scene.centroid) <= th.delta_tau
    return timely, near, on_topic


def aggregate(
    stream: Sequence[StreamView],
    scenes: list[Scene],
    owner: str,
    th: Thresholds,
    new_id: Callable[[str, StreamView], str],
) -> set[str]:
    """Algorithm 1 over ``stream`` (sorted here by time), extending ``scenes`` (the owner's
    stored scenes in creation order) in place. Returns the ids of scenes that changed."""
    touched: set[str] = set()
    for view in sorted(stream, key=lambda v: v.key):
        for scene in scenes:  # in creation order: the first that fits wins
            if sum(continuity(view, scene, th)) >= 2:
                scene.add(view)
                touched.add(scene.id)
                break
        else:
            scene = Scene(id=new_id(owner, view), owner=owner, seq=len(scenes))
            scene.add(view)
            scenes.append(scene)
            touched.add(scene.id)
    return touched


def streams(views: Sequence[StreamView]) -> dict[str, list[StreamView]]:
    """Each view replicated into the stream of every participant (paper 3.2)."""
    out: dict[str, list[StreamView]] = {}
    for view in views:
        for person in view.participants:
            out.setdefault(person, []).append(view)
    return out
