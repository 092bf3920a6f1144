"""Issue 59 item 2: the real CLI's ``graphmem forget --session 0 --yes`` (every design built)
is killed right before one of its write statements, the same forget is run again, and the
space's digest must equal an uninterrupted forget's.

The write points are generated as for the ingest's crash test (tests/faults/points.py): a
counting run of the forget records every write statement. The default run kills it at
``CRASH_SAMPLE`` (3) points chosen by the date (``CRASH_SEED`` overrides it; the seed and the
points are printed); ``-m long`` at every point; ``CRASH_POINTS`` pins them."""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import pytest

from graphmem.graph.digest import SpaceDigest, space_digest
from graphmem.graph.store import GraphStore
from graphmem.ingest.formats import load
from graphmem.memory import Memory
from tests.conftest import delete_space
from tests.faults.points import Point, cli_builders, crash_conversation, points_of, run

pytestmark = pytest.mark.integration
SAMPLE = int(os.environ.get("CRASH_SAMPLE", "3"))


@dataclass
class Plan:
    path: Path
    points: list[Point]
    clean: SpaceDigest
    spaces: list[str] = field(default_factory=list)


def _forget_args(space: str) -> list[str]:
    return ["forget", "--space", space, "--session", "0", "--yes"]


def _built(memory: Memory, plan_path: Path, spaces: list[str]) -> str:
    space = f"crash-forget-{uuid.uuid4().hex[:8]}"
    spaces.append(space)
    memory.ingest_dataset(load(plan_path), space, cli_builders())
    return space


@pytest.fixture(scope="module")
def plan(
    memory: Memory, store: GraphStore, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Plan]:
    """A space built with every design, forgotten by the CLI in a counting run: its write
    points, and the digest an uninterrupted forget leaves."""
    folder = tmp_path_factory.mktemp("forget-crash")
    made = Plan(crash_conversation(folder / "conv.jsonl"), [], SpaceDigest.model_construct())
    space = _built(memory, made.path, made.spaces)
    record = folder / "points.txt"
    done = run("kill", "-", _forget_args(space), record=record)
    assert done.returncode == 0, done.stderr[-3000:]
    made.points = points_of(record)
    made.clean = space_digest(store, space)
    yield made
    for name in made.spaces:
        delete_space(store, name)


@pytest.fixture(scope="module")
def memory(settings: object, store: GraphStore, embedder: object) -> Memory:
    return Memory(settings, store=store, embedder=embedder)  # type: ignore[arg-type]


def _check(plan: Plan, memory: Memory, store: GraphStore, points: list[Point]) -> None:
    failed = []
    for point in points:
        space = _built(memory, plan.path, plan.spaces)
        killed = run("kill", point.key, _forget_args(space))
        if killed.returncode != -9:
            failed.append(f"{point.key}: not killed there (exit {killed.returncode})")
            continue
        again = run("kill", "-", _forget_args(space))
        assert again.returncode == 0, again.stderr[-3000:]
        if space_digest(store, space).sha256 != plan.clean.sha256:
            failed.append(f"{point.key} (write {point.ordinal} of {len(plan.points)})")
    assert not failed, "the rerun differs from an uninterrupted forget at: " + ", ".join(failed)


def test_the_forget_writes_a_request_first_and_rebuilds_every_design(plan: Plan) -> None:
    assert plan.points[0].name == "core.forget_request"
    owners = {p.owner for p in plan.points}
    assert owners >= set(cli_builders()), owners


def test_kill_a_forget_at_sampled_points_then_rerun_equals_an_uninterrupted_one(
    plan: Plan, memory: Memory, store: GraphStore
) -> None:
    pinned = [p for p in os.environ.get("CRASH_POINTS", "").split(",") if p]
    if pinned:
        points = [p for p in plan.points if p.key in pinned]
    else:
        seed = int(os.environ.get("CRASH_SEED", date.today().toordinal()))
        points = random.Random(seed).sample(plan.points, min(SAMPLE, len(plan.points)))
        print(f"\nCRASH_SEED={seed}: CRASH_POINTS={','.join(p.key for p in points)}")
    _check(plan, memory, store, points)


@pytest.mark.long
def test_kill_a_forget_at_every_point_then_rerun_equals_an_uninterrupted_one(
    plan: Plan, memory: Memory, store: GraphStore
) -> None:
    _check(plan, memory, store, plan.points)
