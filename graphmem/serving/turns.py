"""The order in which the servers run what they accepted.

Every request takes, at the moment it is accepted, a ticket of each line it must wait in:
its space's line (reads and writes of one space, one at a time) and, for a write, the
writers' line (one write at a time, whatever its space). Tickets of every line are handed
out under one lock, so the lines agree on one order of acceptance: the earliest accepted
request that is not done has nobody ahead of it in any of its lines, which is why waiting
in two lines cannot deadlock. A line serves its tickets in order (first come, first
served), so

- writes run one at a time in the order they were accepted, and the graph they leave is
  the one those writes leave replayed one by one in that order (``sequence``);
- a read of a space sees every write to it accepted before the read, and none after;
- a read of another space, and ``/health``, need no ticket of the write's lines and run
  while it does.

A bounded number of requests may wait at once (``limit``): past it a request that would
have to wait is refused with ``BusyError`` (HTTP 503), because each waiting request holds
a server thread, and threads held by the queue of one busy space would otherwise starve
every other request; one whose lines are free still runs.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from graphmem.errors import BusyError

WRITES = "\0writes"  # the writers' line: no space name can hold a NUL (check_space)


@dataclass
class _Line:
    issued: int = 0  # tickets handed out
    served: int = 0  # tickets done


class Turns:
    """Lines of tickets, first come first served, at most ``limit`` requests waiting."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._cond = threading.Condition()
        self._lines: dict[str, _Line] = {}
        self._waiting = 0
        self._writes = 0

    @contextmanager
    def turn(self, space: str, write: bool) -> Iterator[int]:
        """Wait for ``space``'s turn (and the writers' turn, for a write), run the block,
        then let the next one go. Yields the write's sequence number (1, 2, ...), 0 for a
        read."""
        keys = (WRITES, space) if write else (space,)
        with self._cond:
            # Only a request that would wait is refused: one whose lines are free runs
            # at once, however long another space's queue is.
            if self._waiting >= self.limit and not self._free(keys):
                raise BusyError(
                    f"the server is busy: {self.limit} requests wait for their turn already, "
                    "the most it queues; retry in a moment",
                    hint="raise GRAPHMEM_API_MAX_WAITING, or send fewer requests at once",
                    retry_after=1,
                )
            tickets = {key: self._take(key) for key in keys}
            sequence = 0
            if write:
                self._writes += 1
                sequence = self._writes
            self._waiting += 1
            try:
                self._cond.wait_for(
                    lambda: all(self._lines[k].served == t for k, t in tickets.items())
                )
            finally:
                self._waiting -= 1
        try:
            yield sequence
        finally:
            with self._cond:
                for key in keys:
                    self._done(key)
                self._cond.notify_all()

    def _free(self, keys: tuple[str, ...]) -> bool:
        """Whether nobody holds or waits in any of ``keys``' lines."""
        return all(key not in self._lines for key in keys)  # a line ends with its last

    def _ahead_of_none(self, tickets: dict[str, int]) -> bool:
        return all(self._lines[key].served == ticket for key, ticket in tickets.items())

    def _take(self, key: str) -> int:
        line = self._lines.setdefault(key, _Line())
        line.issued += 1
        return line.issued - 1

    def _done(self, key: str) -> None:
        line = self._lines[key]
        line.served += 1
        if line.served == line.issued:  # nobody in line: the space's entry goes
            del self._lines[key]

    @property
    def waiting(self) -> int:
        """Requests accepted and not yet running."""
        with self._cond:
            return self._waiting
