"""The database's own files (store and transaction logs), moved and erased by
``graphmem server compact``, on a stopped local server.

Neo4j keeps a deleted record's bytes in its store files until the space is reused, and
every write in its transaction logs until they are pruned; Community Edition has no
command that copies a store without them. So a compaction builds a new store from the
spaces' conversations and erases the old files: each is overwritten with zeros, flushed
to the device, then removed. (On a copy-on-write or flash device the old blocks may
survive an overwrite: docs/privacy.md says so.)
"""

from __future__ import annotations

import os
from pathlib import Path

from graphmem.config import Settings
from graphmem.graph.store import GraphStore
from graphmem.server.process import layout

_CHUNK = 1 << 20


def database_dirs(settings: Settings) -> list[Path]:
    """The store and the transaction logs of graphmem's database (never ``system``'s:
    it holds the password)."""
    data = layout(settings).data
    name = GraphStore(settings).database  # the local server's: always "neo4j"
    return [data / "databases" / name, data / "transactions" / name]


def _kept(into: Path, folder: Path) -> Path:
    return into / folder.parent.name  # databases, transactions


def set_aside(settings: Settings, into: Path) -> None:
    """Move the database's folders into ``into`` (a server started after makes a new
    empty store). Run again after a crash, it moves only what is still in place."""
    into.mkdir(parents=True, exist_ok=True, mode=0o700)
    for folder in database_dirs(settings):
        target = _kept(into, folder)
        if folder.exists() and not target.exists():
            folder.rename(target)


def put_back(settings: Settings, into: Path) -> None:
    """Undo ``set_aside``: the new store is erased and the old one returns."""
    for folder in database_dirs(settings):
        target = _kept(into, folder)
        if target.exists():
            if folder.exists():
                erase(folder)
            target.rename(folder)


def erase(path: Path) -> int:
    """Overwrite every file under ``path`` with zeros, flush it, remove it, then the
    folders; the bytes overwritten."""
    if not path.exists():
        return 0
    files = [path] if path.is_file() else [f for f in path.rglob("*") if f.is_file()]
    total = 0
    for file in files:
        total += _zero(file)
        file.unlink()
    if path.is_dir():
        for folder in sorted((d for d in path.rglob("*") if d.is_dir()), reverse=True):
            folder.rmdir()
        path.rmdir()
    return total


def _zero(file: Path) -> int:
    size = file.stat().st_size
    with file.open("r+b") as fh:
        left = size
        while left > 0:
            step = min(left, _CHUNK)
            fh.write(b"\0" * step)
            left -= step
        fh.flush()
        os.fsync(fh.fileno())
    return size
