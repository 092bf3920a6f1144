"""Everything under GRAPHMEM_HOME is private to its user: directories 0700, files 0600.

The Neo4j store files, its logs and ``auth.ini`` hold every memory and the password hash;
other local users must not read them. New files get it from the umask the server and
neo4j-admin run with; files that already exist (an older install) are fixed on start and
reported by ``graphmem doctor``.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

UMASK = 0o077
_DIR_MODE = 0o700
_FILE_MODE = 0o600


def _walk(root: Path) -> list[tuple[Path, os.stat_result]]:
    found: list[tuple[Path, os.stat_result]] = []
    if not root.exists():
        return found
    for folder, dirs, files in os.walk(root):
        for name in [folder, *(os.path.join(folder, n) for n in dirs + files)]:
            try:
                info = os.lstat(name)
            except FileNotFoundError:  # a file the running server just rotated away
                continue
            if not stat.S_ISLNK(info.st_mode):
                found.append((Path(name), info))
    return found


def too_open(root: Path) -> list[Path]:
    """Files and directories under ``root`` that another user could read or write."""
    return [path for path, info in _walk(root) if stat.S_IMODE(info.st_mode) & 0o077]


def restrict_tree(root: Path) -> int:
    """chmod what exists under ``root`` (and ``root``) to 0700/0600; returns how many."""
    changed = 0
    for path, info in _walk(root):
        mode = stat.S_IMODE(info.st_mode)
        if not mode & 0o077:
            continue
        # Keep the owner's bits (an executable stays executable), drop everyone else's.
        wanted = _DIR_MODE if stat.S_ISDIR(info.st_mode) else (mode & 0o700) | _FILE_MODE
        try:
            os.chmod(path, wanted)
        except FileNotFoundError:
            continue
        changed += 1
    return changed
