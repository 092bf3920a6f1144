"""The local server's password file: read by the store (to connect) and written by the
server launcher (on first start). A module of its own so neither imports the other."""

from __future__ import annotations

import os
import secrets

from graphmem.config import Settings


def read_password(settings: Settings) -> str | None:
    path = settings.password_file
    return path.read_text().strip() if path.is_file() else None


def create_password(settings: Settings) -> str:
    """A new random password in a 0600 file (in a 0700 folder); refuses to overwrite."""
    settings.password_file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    password = secrets.token_urlsafe(24)
    fd = os.open(settings.password_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(password)
    return password
