"""Which code produced a number: the package's version, where it was imported from, and the
commit of the checkout it lives in. Kept with every evaluation (``graphmem eval``'s meta)
and benchmark: a comparison of two revisions (one in a worktree) is only as good as the
proof that each run imported the revision it names; the working directory decides that
(``python -c`` puts it first on the path), not the checkout one meant."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import graphmem


def code_identity() -> dict[str, Any]:
    """``version``, ``path`` (the imported package's folder), ``commit`` (short hash of the
    checkout holding it, None outside git) and ``dirty`` (uncommitted changes under it)."""
    package = Path(graphmem.__file__).resolve().parent
    return {
        "version": graphmem.__version__,
        "path": str(package),
        "commit": _git(package, "rev-parse", "--short", "HEAD"),
        "dirty": bool(_git(package, "status", "--porcelain", "--", ".")),
    }


def _git(where: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", *args], cwd=where, capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None
