"""The write points of an ingest and how to interrupt the real CLI at one of them (shared by
the crash and server fault tests).

A write point is ``NAME#N``: the N-th write statement named NAME (a catalog statement, or
``begin``/``commit`` of an explicit transaction) that ``graphmem.store.FAULTS.hook`` sees.
The points are read off a counting run, never listed by hand, so a new design's statements
are points as soon as it is registered. Each point is owned by the design whose statements
it belongs to: a design's own statements, and the shared ones (``core.mark_built``,
``commit``, ``gds.*``) that follow them; ``core`` before the first design.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from graphmem.designs.registry import builder_names
from graphmem.ingest.models import ConversationIn

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Point:
    name: str
    nth: int
    owner: str
    ordinal: int  # position among all the run's write statements, from 1

    @property
    def key(self) -> str:
        return f"{self.name}#{self.nth}"


def write_jsonl(conv: ConversationIn, path: Path) -> Path:
    """``conv`` as the JSONL file a user would ingest."""
    rows = [
        {
            "conversation": conv.conversation_id,
            "session": s.index,
            "speaker": t.speaker,
            "text": t.text,
            "timestamp": f"{t.timestamp:%Y-%m-%dT%H:%M:%S}",
        }
        for s in conv.sessions
        for t in s.turns
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def points_of(record: Path) -> list[Point]:
    """The write points of a counting run's record, in order, each with its owner."""
    designs = set(builder_names())
    seen: Counter[str] = Counter()
    owner = "core"
    out = []
    for ordinal, name in enumerate(record.read_text(encoding="utf-8").split(), start=1):
        seen[name] += 1
        prefix = name.split(".", 1)[0]
        if prefix in designs:
            owner = prefix
        out.append(Point(name, seen[name], owner, ordinal))
    return out


def _command(action: str, point: str, args: list[str], record: Path | None) -> list[str]:
    cmd = [sys.executable, "-m", "tests.faults.cli_until_killed", action, point]
    return [*cmd, str(record) if record else "-", "--", *args]


def _env(extra: dict[str, str] | None) -> dict[str, str]:
    base = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "HF_HUB_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
    }
    return {**base, **(extra or {})}


def run(
    action: str,
    point: str,
    args: list[str],
    *,
    record: Path | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``graphmem ARGS`` in a subprocess, interrupted by ACTION at POINT (see
    tests/faults/cli_until_killed.py)."""
    return subprocess.run(
        _command(action, point, args, record),
        cwd=ROOT,
        env=_env(env),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def start(
    action: str, point: str, args: list[str], *, env: dict[str, str] | None = None
) -> subprocess.Popen[str]:
    """As ``run``, without waiting."""
    return subprocess.Popen(
        _command(action, point, args, None),
        cwd=ROOT,
        env=_env(env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
