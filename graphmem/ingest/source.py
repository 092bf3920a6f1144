"""Reading an input file within bounds, so no input can exhaust memory or hang the reader.

- Regular files, pipes and FIFOs are read (``<(cmd)``, ``/dev/stdin`` of a pipe); devices,
  sockets and directories are refused: ``/dev/zero`` never ends, and there is no
  conversation file among them.
- The file is opened non-blocking: opening a FIFO no process writes to returns at once
  (a plain open would wait for a writer forever), and reading it then ends at once.
- At most ``max_file_bytes`` are read (a regular file's size is checked before a byte is
  read); a JSONL line longer than ``max_record_bytes`` stops the read at that line, before
  it is parsed.

:class:`Source` reads any binary stream, so standard input can be handed to it as is.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from graphmem.config import Settings
from graphmem.errors import InputError

_BOM = b"\xef\xbb\xbf"  # files saved by Windows editors start with it; json rejects it
_BLANK = b" \t\r\n"
_CHUNK = 1 << 16
_FILE_LIMIT = "GRAPHMEM_MAX_FILE_BYTES"
_RECORD_LIMIT = "GRAPHMEM_MAX_RECORD_BYTES"


def _default(field: str) -> int:
    value = Settings.model_fields[field].default
    assert isinstance(value, int)
    return value


@dataclass(frozen=True)
class ReadLimits:
    """The bounds of one read (the defaults are the settings' defaults) and what it admits:
    ``strict`` refuses empty turns and repeated sessions or turn ids, which a load
    otherwise skips and counts (``graphmem.ingest.validate.Skips``)."""

    max_file_bytes: int = _default("max_file_bytes")
    max_record_bytes: int = _default("max_record_bytes")
    strict: bool = False

    @classmethod
    def of(cls, settings: Settings, strict: bool = False) -> ReadLimits:
        return cls(settings.max_file_bytes, settings.max_record_bytes, strict)


def _kind(mode: int) -> str | None:
    """What a file that cannot be read as a conversation file is; None when it can."""
    if stat.S_ISREG(mode) or stat.S_ISFIFO(mode):
        return None
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def _open_fd(path: Path) -> int:
    try:
        return os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise InputError("file not found", path=str(path)) from None
    except OSError as exc:
        raise InputError(f"cannot read file: {exc.strerror or exc}", path=str(path)) from None


# Told the bytes of each piece read: the progress bar of a large file.
OnRead = Callable[[int], None]


@contextmanager
def open_source(path: Path, limits: ReadLimits, on_read: OnRead | None = None) -> Iterator[Source]:
    """``path`` opened for a bounded read; InputError when it cannot be read as input."""
    fd = _open_fd(path)
    try:
        info = os.fstat(fd)
        kind = _kind(info.st_mode)
        if kind is not None:
            raise InputError(
                f"cannot read file: it is {kind}, not a file of conversations",
                path=str(path),
                hint="graphmem reads regular files and pipes",
            )
        if stat.S_ISREG(info.st_mode) and info.st_size > limits.max_file_bytes:
            raise _too_big(str(path), limits, info.st_size)
        os.set_blocking(fd, True)  # a writer, if any, is there now; wait for its data
        handle = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with handle:
        yield Source(handle, str(path), limits, on_read)


@contextmanager
def open_stdin(limits: ReadLimits, on_read: OnRead | None = None) -> Iterator[Source]:
    """Standard input (``graphmem ingest -``) within the same bounds as a file. A terminal
    is refused (a script would wait forever for input nobody types), and so is any other
    device; an empty pipe reads as an empty file."""
    fd = sys.stdin.fileno()
    mode = os.fstat(fd).st_mode
    if os.isatty(fd):
        raise InputError(
            "standard input is a terminal, not a file of conversations",
            path="-",
            hint="pipe one in: graphmem ingest - --space S < chat.jsonl",
        )
    kind = _kind(mode)
    if kind is not None:
        raise InputError(f"cannot read standard input: it is {kind}", path="-")
    if stat.S_ISREG(mode) and os.fstat(fd).st_size > limits.max_file_bytes:
        raise _too_big("-", limits, os.fstat(fd).st_size)
    yield Source(sys.stdin.buffer, "-", limits, on_read)


def _too_big(src: str, limits: ReadLimits, size: int | None = None) -> InputError:
    held = f"{size:,} bytes, more" if size is not None else "more"
    return InputError(
        f"holds {held} than the {limits.max_file_bytes:,} bytes {_FILE_LIMIT} allows",
        path=src,
        hint=f"split the file, or raise {_FILE_LIMIT}",
    )


class Source:
    """A binary stream read in bounded pieces: the first non-blank character (to tell the
    format), lines one at a time (JSONL) or the whole document (JSON)."""

    def __init__(
        self, handle: BinaryIO, name: str, limits: ReadLimits, on_read: OnRead | None = None
    ) -> None:
        self.name = name
        self._on_read = on_read
        self._handle = handle
        self._limits = limits
        self._consumed = 0  # bytes taken from the stream, the BOM included
        self._offset = 0  # file offset of self._pending's first byte
        self._lines_before = 0  # lines that ended before self._pending
        self._pending = b""  # read from the stream and not handed out yet
        self._started = False

    def _take(self, data: bytes) -> bytes:
        self._consumed += len(data)
        if self._consumed > self._limits.max_file_bytes:
            raise _too_big(self.name, self._limits)
        if self._on_read is not None and data:
            self._on_read(len(data))
        if not self._started and data:
            self._started = True
            if data.startswith(_BOM):
                self._offset = len(_BOM)
                return data[len(_BOM) :]
        return data

    def _read(self, size: int) -> bytes:
        return self._take(self._handle.read(size))

    def first_char(self) -> str:
        """The first character after blanks (the BOM skipped); "" for a blank stream."""
        while True:
            rest = self._pending.lstrip(_BLANK)
            if rest:
                return chr(rest[0])
            # Only blanks so far: dropped, not kept (a stream of spaces would fill memory),
            # their lines and bytes counted so line numbers and offsets stay the file's.
            # A JSON parser's own line numbers then start after them.
            self._lines_before += self._pending.count(b"\n")
            self._offset += len(self._pending)
            self._pending = self._read(_CHUNK)
            if not self._pending:
                return ""

    def head(self) -> str:
        """What was read so far (undecodable bytes replaced), for an error about it."""
        return self._pending.decode("utf-8", "replace")

    def document(self) -> str:
        """Everything left, as text."""
        # In chunks: read(n) may allocate n bytes up front, and n is the whole limit.
        data = bytearray(self._pending)
        self._pending = b""
        while chunk := self._read(_CHUNK * 16):
            data += chunk
        return self._decode(data, self._offset, None)

    def peek(self, size: int) -> bytes:
        """Up to ``size`` bytes from the first non-blank one (fewer at the end), left in
        place: enough of a document to tell its format without parsing it."""
        if not self.first_char():
            return b""
        while len(self._pending) < size and (more := self._read(_CHUNK)):
            self._pending += more
        return self._pending[:size]

    def read(self, size: int = -1) -> bytes:
        """The next bytes, as a binary file's ``read`` (an incremental JSON parser reads
        the document through this), within the file bound."""
        if size < 0:
            whole = bytearray()
            while chunk := self.read(_CHUNK * 16):
                whole += chunk
            return bytes(whole)
        if self._pending:
            taken, self._pending = self._pending[:size], self._pending[size:]
            self._offset += len(taken)
            return taken
        data = self._read(size)
        self._offset += len(data)
        return data

    def first_line(self) -> str:
        """The first line that is not blank ("" when there is none), left in place for
        :meth:`lines`."""
        taken: list[bytes] = []
        try:
            while raw := self._line():
                taken.append(raw)
                if raw.strip(_BLANK):
                    start = self._offset + sum(len(t) for t in taken[:-1])
                    number = self._lines_before + len(taken)
                    return self._decode(self._sized(raw, number), start, f"line {number}")
            return ""
        finally:
            self._pending = b"".join(taken) + self._pending

    def lines(self) -> Iterator[tuple[int, str]]:
        """``(line number from 1, text)``; only ``\\n`` ends a line (JSON strings may hold
        U+2028 and other Unicode line breaks unescaped)."""
        number = self._lines_before
        while raw := self._line():
            number += 1
            start = self._offset
            self._offset += len(raw)
            yield number, self._decode(self._sized(raw, number), start, f"line {number}")

    def _sized(self, raw: bytes, number: int) -> bytes:
        """``raw`` when the line, its end (``\\n`` or ``\\r\\n``) left out, fits the limit."""
        content = raw[:-1] if raw.endswith(b"\n") else raw
        content = content[:-1] if content.endswith(b"\r") else content
        if len(content) > self._limits.max_record_bytes:
            raise InputError(
                f"longer than the {self._limits.max_record_bytes:,} bytes {_RECORD_LIMIT} "
                "allows for one line",
                path=self.name,
                record=f"line {number}",
                hint=f"one message per line; raise {_RECORD_LIMIT} for longer ones",
            )
        return raw

    def _line(self) -> bytes:
        """The next line from the stream (or the pending bytes), at most a record and its
        ``\\r\\n`` long; consumes it from ``_pending`` only."""
        cap = self._limits.max_record_bytes + 2
        end = self._pending.find(b"\n", 0, cap)
        if end >= 0 or len(self._pending) >= cap:
            cut = end + 1 if end >= 0 else cap
            raw, self._pending = self._pending[:cut], self._pending[cut:]
            return raw
        raw = self._pending + self._take(self._handle.readline(cap - len(self._pending)))
        self._pending = b""
        return raw

    def _decode(self, raw: bytes | bytearray, offset: int, record: str | None) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(
                f"not UTF-8 text (byte offset {offset + exc.start})", path=self.name, record=record
            ) from None
