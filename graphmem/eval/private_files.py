"""Files the CLI writes that hold what users said (evaluation reports and run logs, lists
of extractions to label): readable by their owner only, 0600 in a 0700 folder, whatever the
process's umask. Secrets and the server's store have their own code (``credentials``,
``server.permissions``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TextIO

_FILE_MODE = 0o600
_DIR_MODE = 0o700


def private_dir(path: Path) -> Path:
    """``path`` as a folder; created 0700 when missing (a folder that exists keeps the
    mode its owner gave it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.mkdir(exist_ok=True, mode=_DIR_MODE)
    return path


def write_private(path: Path, text: str) -> None:
    """Replace ``path`` whole with ``text`` (a reader never sees half a file), mode 0600."""
    partial = path.with_name(path.name + ".partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, _FILE_MODE)
    os.fchmod(fd, _FILE_MODE)  # a partial left by a killed run keeps its old mode otherwise
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(partial, path)


def append_private(path: Path) -> TextIO:
    """``path`` opened to append, created 0600 when missing."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, _FILE_MODE)
    return os.fdopen(fd, "a", encoding="utf-8")
