"""The write points of an ingest and how to interrupt the real CLI at one of them (shared by
the crash and server fault tests).

A write point is ``NAME#N``: the N-th write statement named NAME (a catalog statement, or
``begin``/``commit`` of an explicit transaction) that ``graphmem.graph.store.FAULTS.hook`` sees.
The points are read off a counting run, never listed by hand, so a new design's statements
are points as soon as it is registered. Each point is owned by the design whose statements
it belongs to: a design's own statements, and the shared ones (``core.mark_built``,
``commit``, ``gds.*``) that follow them; ``core`` before the first design.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from graphmem.ingest.models import ConversationIn
from graphmem.plugin.registry import builder_names
from tests.integration.helpers import tiny_conversation

ROOT = Path(__file__).resolve().parents[2]
SESSIONS = 2  # a resumed build has a built session before the one it redoes
# A turn whose phrases are near each other under every embedder (kitten toys / cat toys):
# the clean build has SYNONYM edges for a crash to lose.
EXTRA = (
    "The cello lessons and the cello teacher were a gift; Pixel loves the kitten toys "
    "and the cat toys."
)


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


def crash_conversation(path: Path) -> Path:
    """The conversation the fault tests ingest, as a JSONL file (one full build: seconds)."""
    return write_jsonl(tiny_conversation(sessions=SESSIONS, extra=EXTRA), path)


def after_commits(points: list[Point]) -> list[Point]:
    """The points right after a transaction committed: no transaction of the run is open
    there, so a second ingest never waits on its locks."""
    return [points[i + 1] for i, p in enumerate(points[:-1]) if p.name == "commit"]


def amory_window(points: list[Point]) -> Point:
    """Amory's stories committed, the framework's built mark not yet written (issue 36)."""
    return next(p for p in after_commits(points) if p.owner == "amory")


@functools.cache
def cli_builders() -> list[str]:
    """The builders ``--builders all`` runs in the CLI: the installed designs, asked of the
    CLI itself (a test module may register a design in this process only, as the contract
    suite does with the example design, and the CLI never sees it)."""
    done = subprocess.run(
        [sys.executable, "-c", "from graphmem.cli.main import main; main()", "designs", "--json"],
        env=_env(None),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return [d["builder"] for d in json.loads(done.stdout) if d["builder"]]


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


def _env(env: dict[str, str] | None) -> dict[str, str]:
    """``env`` (the whole environment; this process's when None) with the test settings."""
    return {
        **(os.environ if env is None else env),
        "PYTHONPATH": str(ROOT),
        "HF_HUB_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
    }


def run(
    action: str,
    point: str,
    args: list[str],
    *,
    record: Path | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``graphmem ARGS`` in a subprocess, interrupted by ACTION at POINT (see
    tests/faults/cli_until_killed.py); ``env`` replaces this process's environment."""
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
