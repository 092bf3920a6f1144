"""Secret files under GRAPHMEM_HOME: the local server's password (read by the store to
connect, written by the server launcher on first start) and the HTTP API's bearer token
(``graphmem serve``). A module of its own so neither side imports the other."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from graphmem.config import Settings
from graphmem.errors import ConfigError


def read_secret(path: Path) -> str | None:
    return path.read_text().strip() if path.is_file() else None


def create_secret(path: Path) -> str:
    """A new random secret in a 0600 file (in a 0700 folder); refuses to overwrite."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    secret = secrets.token_urlsafe(24)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(secret)
    return secret


def read_password(settings: Settings) -> str | None:
    return read_secret(settings.password_file)


def create_password(settings: Settings) -> str:
    return create_secret(settings.password_file)


def api_token(settings: Settings) -> str:
    """The HTTP API's bearer token: the file's, created on first use. Two servers starting
    at once agree: the one that loses the exclusive create reads the winner's."""
    path = settings.api_token_file
    if not path.exists():
        try:
            return create_secret(path)
        except FileExistsError:
            pass
    found = read_secret(path)
    if not found:  # an empty token would let every request in
        raise ConfigError(f"{path} holds no token", hint="delete it; the next start makes one")
    return found
