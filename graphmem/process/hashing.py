"""The SHA-256 of a file, read in blocks: pinned model files, the dataset an evaluation ran
on. One place, so every pinned hash is computed the same way."""

from __future__ import annotations

import hashlib
from pathlib import Path


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
