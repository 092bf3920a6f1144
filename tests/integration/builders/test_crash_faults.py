"""Issue 36 item 1: the real CLI (``graphmem ingest FILE --builders all``, offline backend)
is interrupted right before a write statement, the ingest is rerun, and the space's digest
must equal a clean build's (``graphmem stats --digest``).

The write points are generated: a counting run records every statement that reaches
``graphmem.graph.store.FAULTS.hook`` (tests/faults/points.py), so core and every registered design
are covered without a list of statements here. ``-m long`` kills the CLI at every point
(``CRASH_DESIGNS=amory,seem`` keeps the points of those owners); the default run kills it
at a sample of ``CRASH_SAMPLE`` (3) points that rotates with the date (``CRASH_SEED``
overrides it), and prints the seed and the points. ``CRASH_POINTS=amory.upsert_subplots#1``
(comma-separated) pins the points instead.

A second ingest of the same file started in a window (the first paused right before the
statement) must leave the same graph too, once both have finished.
"""

from __future__ import annotations

import os
import random
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import pytest

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.graph.digest import SpaceDigest, space_digest
from graphmem.graph.store import GraphStore
from graphmem.ingest.formats import load
from graphmem.memory import Memory
from tests.faults.points import (
    Point,
    after_commits,
    amory_window,
    cli_builders,
    crash_conversation,
    points_of,
    run,
    start,
)

pytestmark = pytest.mark.integration
SAMPLE = int(os.environ.get("CRASH_SAMPLE", "3"))
# The windows of issue 36 (after Amory's narratives commit; before the synonym pass).
WINDOWS = ["amory.upsert_subplots#1", "amory.prune_characters#1", "semantic.link_synonyms#1"]


@dataclass
class Plan:
    path: Path
    points: list[Point]
    clean: SpaceDigest
    store: GraphStore
    spaces: list[str] = field(default_factory=list)

    def new_space(self) -> str:
        self.spaces.append(f"crash-{uuid.uuid4().hex[:8]}")
        return self.spaces[-1]

    def drop(self, space: str) -> None:
        while self.store.write("core.delete_space_batch", space=space, batch=5000)[0]["deleted"]:
            pass
        self.spaces.remove(space)


def ingest_args(path: Path, space: str) -> list[str]:
    return ["ingest", str(path), "--space", space, "--builders", "all", "--no-progress"]


@pytest.fixture(scope="module")
def plan(store: GraphStore, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Plan]:
    """A clean CLI build that records its write points, and its digest."""
    folder = tmp_path_factory.mktemp("crash")
    path = crash_conversation(folder / "conv.jsonl")
    record = folder / "points.txt"
    made = Plan(path, [], SpaceDigest.model_construct(), store)
    space = made.new_space()
    done = run("kill", "-", ingest_args(path, space), record=record)
    assert done.returncode == 0, done.stderr[-3000:]
    made.points = points_of(record)
    made.clean = space_digest(store, space)
    assert made.points and made.clean.types.get("SYNONYM")
    yield made
    for name in list(made.spaces):
        made.drop(name)


@pytest.fixture(scope="module")
def memory(settings: Settings, store: GraphStore, embedder: Embedder) -> Memory:
    return Memory(settings, store=store, embedder=embedder)


def _difference(found: SpaceDigest, clean: SpaceDigest) -> str | None:
    if found.sha256 == clean.sha256:
        return None
    labels = {k: (found.labels.get(k), v) for k, v in clean.labels.items()}
    labels.update({k: (v, None) for k, v in found.labels.items() if k not in clean.labels})
    types = {k: (found.types.get(k), v) for k, v in clean.types.items()}
    types.update({k: (v, None) for k, v in found.types.items() if k not in clean.types})
    diff = {k: v for k, v in {**labels, **types}.items() if v[0] != v[1]}
    return f"digest differs (found, clean): {diff or 'same counts, other content'}"


def crash_and_rerun(plan: Plan, memory: Memory, point: Point) -> str | None:
    """None when the rerun after a kill at ``point`` gives the clean graph, else why not."""
    space = plan.new_space()
    killed = run("kill", point.key, ingest_args(plan.path, space))
    if killed.returncode != -9:
        return f"not killed there (exit {killed.returncode}): {killed.stderr[-2000:]}"
    memory.ingest_dataset(load(plan.path), space, cli_builders())
    found = _difference(space_digest(plan.store, space), plan.clean)
    plan.drop(space)
    return found


def _check(plan: Plan, memory: Memory, points: list[Point]) -> None:
    tried: Counter[str] = Counter()
    matched: Counter[str] = Counter()
    failed = []
    started = time.monotonic()
    for point in points:
        tried[point.owner] += 1
        why = crash_and_rerun(plan, memory, point)
        if why is None:
            matched[point.owner] += 1
        else:
            failed.append(f"{point.key} (write {point.ordinal} of {len(plan.points)}): {why}")
    print(f"\n{'owner':<12}{'kill points':>12}{'equal digests':>15}")
    for owner in tried:
        print(f"{owner:<12}{tried[owner]:>12}{matched[owner]:>15}")
    seconds = time.monotonic() - started
    print(f"total {sum(tried.values())} / {sum(matched.values())}, {seconds:.0f} s")
    assert not failed, "\n".join(failed)


def _pinned(plan: Plan) -> list[Point] | None:
    wanted = [p for p in os.environ.get("CRASH_POINTS", "").split(",") if p]
    if not wanted:
        return None
    by_key = {p.key: p for p in plan.points}
    unknown = [k for k in wanted if k not in by_key]
    assert not unknown, f"no such write point: {unknown}; the points: {list(by_key)}"
    return [by_key[k] for k in wanted]


def test_the_write_points_cover_core_and_every_design(plan: Plan) -> None:
    owners = {p.owner for p in plan.points}
    assert owners == {"core", *cli_builders()}, owners
    keys = {p.key for p in plan.points}
    assert set(WINDOWS) <= keys and "commit#1" in keys


def test_kill_at_sampled_points_then_rerun_equals_a_clean_build(plan: Plan, memory: Memory) -> None:
    points = _pinned(plan)
    if points is None:
        seed = int(os.environ.get("CRASH_SEED", date.today().toordinal()))
        points = random.Random(seed).sample(plan.points, min(SAMPLE, len(plan.points)))
        print(f"\nCRASH_SEED={seed}: CRASH_POINTS={','.join(p.key for p in points)}")
    _check(plan, memory, points)


@pytest.mark.long
def test_kill_at_every_point_then_rerun_equals_a_clean_build(plan: Plan, memory: Memory) -> None:
    owners = [d for d in os.environ.get("CRASH_DESIGNS", "").split(",") if d]
    points = _pinned(plan) or [p for p in plan.points if not owners or p.owner in owners]
    assert points, f"no write point owned by {owners}"
    _check(plan, memory, points)


def _second_ingest_in(plan: Plan, memory: Memory, window: str, tmp_path: Path) -> str | None:
    space = plan.new_space()
    first = start(f"pause:{tmp_path}", window, ingest_args(plan.path, space))
    deadline = time.monotonic() + 600
    while not (tmp_path / "paused").exists():
        assert first.poll() is None, first.communicate()[1][-3000:]
        if time.monotonic() > deadline:
            first.kill()
            raise AssertionError(f"the first ingest never reached {window}")
        time.sleep(0.1)
    try:
        memory.ingest_dataset(load(plan.path), space, cli_builders())
    finally:  # the first ingest goes on whatever became of the second
        (tmp_path / "go").touch()
    _, err = first.communicate(timeout=600)
    assert first.returncode == 0, err[-3000:]
    found = _difference(space_digest(plan.store, space), plan.clean)
    plan.drop(space)
    return found


def _windows(plan: Plan, long: bool) -> list[Point]:
    """Amory's stories committed, the built mark not yet written; before the synonym pass.
    The long variant adds every point after a commit and every owner's first point."""
    amory = amory_window(plan.points)
    chosen = {amory.key: amory, "semantic.link_synonyms#1": _pinned_one(plan, WINDOWS[2])}
    if long:
        firsts: dict[str, Point] = {}
        for p in plan.points:
            firsts.setdefault(p.owner, p)
        chosen.update({p.key: p for p in [*after_commits(plan.points), *firsts.values()]})
    return list(chosen.values())


def _pinned_one(plan: Plan, key: str) -> Point:
    return next(p for p in plan.points if p.key == key)


def _second_ingests(plan: Plan, memory: Memory, tmp_path: Path, long: bool) -> None:
    failed = []
    windows = _windows(plan, long)
    print(f"\nsecond ingest in the windows: {','.join(p.key for p in windows)}")
    for i, point in enumerate(windows):
        folder = tmp_path / str(i)
        folder.mkdir()
        why = _second_ingest_in(plan, memory, point.key, folder)
        if why is not None:
            failed.append(f"{point.key}: {why}")
    assert not failed, "\n".join(failed)


def test_a_second_ingest_in_a_window_leaves_the_clean_graph(
    plan: Plan, memory: Memory, tmp_path: Path
) -> None:
    _second_ingests(plan, memory, tmp_path, long=False)


@pytest.mark.long
def test_a_second_ingest_in_many_windows_leaves_the_clean_graph(
    plan: Plan, memory: Memory, tmp_path: Path
) -> None:
    _second_ingests(plan, memory, tmp_path, long=True)
