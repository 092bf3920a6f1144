"""What an export arrives as: one file (or standard input), a zip, or a folder; each read
as named members within the bounds of ``ReadLimits`` (``graphmem.ingest.source``).

A zip is checked before a byte is inflated: each member's and the members' total
uncompressed size must fit ``max_file_bytes``, so a zip bomb is refused, not unpacked.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path, PurePosixPath

from graphmem.errors import InputError
from graphmem.ingest.source import OnRead, ReadLimits, Source, open_source

HEAD_BYTES = 1 << 16  # what a format is told from: keys and first lines, never the whole


class Bundle:
    """Named members of one export; ``name`` is what errors call it."""

    name: str
    members: list[str]  # paths inside, ``/``-separated, in a stable (sorted) order

    def open(self, member: str) -> AbstractContextManager[Source]:
        raise NotImplementedError

    def head(self, member: str) -> bytes:
        with self.open(member) as source:
            return source.peek(HEAD_BYTES)

    def where(self, member: str) -> str:
        """A member as an error names it."""
        return self.name if member == self.members[0] and self.single else f"{self.name}:{member}"

    @property
    def single(self) -> bool:
        return False

    def named(self, *basenames: str) -> list[str]:
        """Members whose file name (any folder) is one of ``basenames``, case-insensitive."""
        wanted = {b.lower() for b in basenames}
        return [m for m in self.members if PurePosixPath(m).name.lower() in wanted]

    def ending(self, *suffixes: str) -> list[str]:
        return [m for m in self.members if m.lower().endswith(tuple(s.lower() for s in suffixes))]


class StreamBundle(Bundle):
    """One file already opened (or standard input): its single member is the stream."""

    def __init__(self, source: Source, filename: str) -> None:
        self.name = source.name
        self.members = [filename]
        self._source = source

    @property
    def single(self) -> bool:
        return True

    def open(self, member: str) -> AbstractContextManager[Source]:
        return nullcontext(self._source)

    def head(self, member: str) -> bytes:
        return self._source.peek(HEAD_BYTES)


class ZipBundle(Bundle):
    def __init__(self, path: Path, limits: ReadLimits, on_read: OnRead | None = None) -> None:
        self.name = str(path)
        self._limits = limits
        self._on_read = on_read
        try:
            self._zip = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError, EOFError) as exc:
            raise InputError(f"not a readable zip file ({exc})", path=self.name) from None
        infos = [i for i in self._zip.infolist() if not i.is_dir()]
        total = sum(i.file_size for i in infos)
        if total > limits.max_file_bytes:
            raise InputError(
                f"unpacks to {total:,} bytes, more than the {limits.max_file_bytes:,} bytes "
                "GRAPHMEM_MAX_FILE_BYTES allows",
                path=self.name,
                hint="unzip it and import the part you want, or raise GRAPHMEM_MAX_FILE_BYTES",
            )
        self.members = sorted(i.filename for i in infos if not _hidden(i.filename))

    def close(self) -> None:
        self._zip.close()

    @contextmanager
    def _opened(self, member: str) -> Iterator[Source]:
        try:
            handle = self._zip.open(member)
        except (zipfile.BadZipFile, OSError, NotImplementedError, RuntimeError) as exc:
            raise InputError(
                f"cannot unpack this member ({exc})", path=self.where(member)
            ) from None
        with handle:
            yield Source(handle, self.where(member), self._limits, self._on_read)  # type: ignore[arg-type]

    def open(self, member: str) -> AbstractContextManager[Source]:
        return self._opened(member)


class FolderBundle(Bundle):
    """An unpacked export: the regular files under ``path`` (symbolic links not followed)."""

    def __init__(self, path: Path, limits: ReadLimits, on_read: OnRead | None = None) -> None:
        self.name = str(path)
        self._root = path
        self._limits = limits
        self._on_read = on_read
        self.members = sorted(
            p.relative_to(path).as_posix()
            for p in path.rglob("*")
            if p.is_file() and not p.is_symlink() and not _hidden(p.relative_to(path).as_posix())
        )

    def open(self, member: str) -> AbstractContextManager[Source]:
        return open_source(self._root / member, self._limits, self._on_read)

    def where(self, member: str) -> str:
        return str(self._root / member)


def input_size(path: Path) -> int | None:
    """The bytes a read of ``path`` takes (a zip's unpacked; a folder's files), for a
    progress bar; None when unknown (standard input, a pipe) or unreadable."""
    try:
        if path.is_dir():
            return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
        if not path.is_file():
            return None  # a pipe or a device: reading it to find out would never end
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                return sum(i.file_size for i in archive.infolist())
        return path.stat().st_size
    except (OSError, zipfile.BadZipFile):
        return None


def _hidden(member: str) -> bool:
    """macOS's resource forks and dot files a zip or a copied folder carries."""
    parts = PurePosixPath(member).parts
    return any(p.startswith(".") or p == "__MACOSX" for p in parts)
