"""Secret files under GRAPHMEM_HOME: the local server's password (read by the store to
connect, written by the server launcher on first start) and the HTTP API's bearer token
(``graphmem serve``). A module of its own so neither side imports the other."""

from __future__ import annotations

import errno
import os
import secrets
import stat
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


MIN_TOKEN_CHARS = 16  # a made token has 32; fewer is guessable, or a hand-typed stand-in


def api_token(settings: Settings) -> str:
    """The HTTP API's bearer token: the file's, created on first use. Two servers starting
    at once agree: the one that loses the exclusive create reads the winner's.

    The token lets a client read (or, with --allow-writes, delete) every served memory, so
    it is trusted only as the file this module makes: a regular file, not a symlink (which
    could point at any file, or at one another user can change), owned by this user with no
    group or other bits, in a folder of the same kind. Anything else is a ConfigError that
    names the path and the fix, rather than a token another local user may know."""
    path = settings.api_token_file
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    _check_private(path.parent, os.lstat(path.parent), "folder", 0o700)
    try:
        return create_secret(path)  # O_EXCL: never through a symlink, never over a file
    except FileExistsError:
        pass
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ConfigError(
                f"{path} is a symlink; the API token must be a file of its own",
                hint=f"rm {path}; the next start makes a new token",
            ) from None
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    with os.fdopen(fd) as handle:
        _check_private(path, os.fstat(handle.fileno()), "file", 0o600)
        found = handle.read().strip()
    if not found:  # an empty token would let every request in
        raise ConfigError(f"{path} holds no token", hint="delete it; the next start makes one")
    if len(found) < MIN_TOKEN_CHARS:
        raise ConfigError(
            f"{path} holds a token of {len(found)} characters; at least "
            f"{MIN_TOKEN_CHARS} are needed",
            hint=f"rm {path}; the next start makes a new token",
        )
    return found


def _check_private(path: Path, found: os.stat_result, kind: str, mode: int) -> None:
    """Refuse ``path`` unless it is a ``kind`` of this user's with no group or other bits."""
    is_kind = stat.S_ISDIR if kind == "folder" else stat.S_ISREG
    if not is_kind(found.st_mode):
        raise ConfigError(f"{path} is not a {kind}", hint=f"remove it: rm -r {path}")
    if found.st_uid != os.getuid():
        raise ConfigError(
            f"{path} belongs to user id {found.st_uid}, not to this user ({os.getuid()})",
            hint=f"chown {os.getuid()} {path}, or remove it",
        )
    if found.st_mode & 0o077:
        raise ConfigError(
            f"{path} is open to other users (mode {stat.S_IMODE(found.st_mode):04o})",
            hint=f"chmod {mode:o} {path}",
        )
