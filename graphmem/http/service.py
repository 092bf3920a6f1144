"""The API's operations over one ``Memory``: the same calls the MCP tools make, with the
server's confinement (``--spaces``, ``--allow-writes``) and its ordering.

Ordering: a write (messages, forget) runs alone: it waits for the requests in progress
and holds back new ones until it is done. ``Memory`` keeps its retrievers of every space in
one table that a write walks (to refresh or drop a space's) while a query elsewhere may add
to it, and the next free session index of a conversation is read, then written. Reads of
different spaces run side by side; reads of one space run one at a time, because a space's
kept retrievers (snapshots, PageRank runs) were not written for concurrent callers. On two
cores a query is CPU-bound anyway, so parallel queries of one space would gain little.
Until the first call has warmed the Memory (spaCy, the embedder), calls run one at a time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date, datetime
from functools import partial
from typing import Any, TypeVar

from graphmem.errors import UnknownSpaceError
from graphmem.http.errors import Forbidden
from graphmem.ingest.validate import check_space
from graphmem.limits import BuilderChoice, check_strategy, check_subject, parse_builders
from graphmem.memory import Memory
from graphmem.readiness import check_stored
from graphmem.retrieval.registry import DEFAULT_STRATEGY
from graphmem.stats import space_list, space_stats
from graphmem.validity.history import as_of_moment

T = TypeVar("T")


class ReadWriteLock:
    """Many readers or one writer; a waiting writer holds back new readers (a steady
    stream of queries cannot starve a write)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._readers = 0
        self._writing = False
        self._writers_waiting = 0

    @contextmanager
    def reading(self) -> Iterator[None]:
        with self._cond:
            self._cond.wait_for(lambda: not self._writing and not self._writers_waiting)
            self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                self._readers -= 1
                self._cond.notify_all()

    @contextmanager
    def writing(self) -> Iterator[None]:
        with self._cond:
            self._writers_waiting += 1
            self._cond.wait_for(lambda: not self._writing and not self._readers)
            self._writers_waiting -= 1
            self._writing = True
        try:
            yield
        finally:
            with self._cond:
                self._writing = False
                self._cond.notify_all()


class MemoryService:
    def __init__(self, memory: Memory, spaces: Sequence[str], allow_writes: bool) -> None:
        self.memory = memory
        self.spaces = list(spaces)
        self.allow_writes = allow_writes
        self._rw = ReadWriteLock()
        self._locks: dict[str, threading.Lock] = {}
        self._locks_lock = threading.Lock()
        self._warm = threading.Lock()
        self._warmed = False

    # --- confinement and ordering ------------------------------------------------------
    def _space(self, space: str) -> str:
        check_space(space)  # its length and characters before the 403 repeats it
        if self.spaces and space not in self.spaces:
            raise Forbidden(
                f"space {space!r} is not served here (allowed: {', '.join(self.spaces)})"
            )
        return space

    def _write(self) -> None:
        if not self.allow_writes:
            raise Forbidden(
                "this server is read-only", hint="start it with `graphmem serve --allow-writes`"
            )

    def _in(self, space: str, call: Callable[[], T], write: bool = False) -> T:
        """``call`` in its turn: alone when ``write``, else after the space's other reads."""
        try:
            if write:
                with self._rw.writing():
                    return self._warmed_call(call)
            with self._locks_lock:
                lock = self._locks.setdefault(space, threading.Lock())
            with self._rw.reading(), lock:
                return self._warmed_call(call)
        except UnknownSpaceError as exc:  # a confined server names no space it does not serve
            raise (exc.among(self.spaces) if self.spaces else exc) from None

    def _warmed_call(self, call: Callable[[], T]) -> T:
        if self._warmed:
            return call()
        with self._warm:
            result = call()
            self._warmed = True
            return result

    @staticmethod
    def _strategy(strategy: str) -> str:
        return check_strategy(strategy)  # before the space's turn: graphmem.limits

    def prepare(self, report: Callable[[str], None]) -> None:
        """The default strategy prepared over the served spaces (every stored one when none
        are listed), so that their first queries cost what later ones do."""
        spaces = self.spaces or [row["space"] for row in space_list(self.memory.store)]
        for space in spaces:
            check_stored(self.memory.store, space)
            seconds = self._in(space, partial(self.memory.prepare, space, DEFAULT_STRATEGY))
            report(f"prepared {DEFAULT_STRATEGY} over {space} in {seconds:.1f} s")

    # --- the operations ----------------------------------------------------------------
    def query(
        self,
        question: str,
        space: str,
        strategy: str,
        budget: int,
        explain: bool,
        as_of: date | datetime | None = None,
    ) -> dict[str, Any]:
        space, strategy, moment = self._space(space), self._strategy(strategy), as_of_moment(as_of)
        found = self._in(
            space, lambda: self.memory.query(question, space, strategy, budget, as_of=moment)
        )
        return found.as_dict(explain=explain)

    def ask(
        self,
        question: str,
        space: str,
        strategy: str,
        budget: int,
        as_of: date | datetime | None = None,
    ) -> dict[str, Any]:
        space, strategy, moment = self._space(space), self._strategy(strategy), as_of_moment(as_of)
        asked = self._in(
            space, lambda: self.memory.ask(question, space, strategy, budget, as_of=moment)
        )
        return {"answer": asked.answer, "llm": self.memory.settings.llm_model, **asked.as_dict()}

    def history(self, space: str, subject: str) -> list[dict[str, Any]]:
        space, subject = self._space(space), check_subject(subject)  # before the space's turn
        found = self._in(space, lambda: self.memory.history(space, subject))
        return [c.model_dump(mode="json") for c in found]

    def stats(self, space: str) -> dict[str, Any]:
        space = self._space(space)

        def read() -> dict[str, Any]:
            check_stored(self.memory.store, space)  # a misspelt space is an error, not zeros
            return space_stats(self.memory.store, space)

        return self._in(space, read)

    def list_spaces(self) -> list[dict[str, Any]]:
        allowed = set(self.spaces)
        found = space_list(self.memory.store)
        return [row for row in found if not allowed or row["space"] in allowed]

    def add_messages(
        self,
        space: str,
        conversation: str,
        session: str,
        messages: list[dict[str, Any]],
        started_at: datetime | None,
        builders: BuilderChoice,
    ) -> dict[str, Any]:
        self._write()
        space = self._space(space)
        chosen = parse_builders(builders)  # before the write waits for its turn
        done = self._in(
            space,
            lambda: self.memory.add_messages(
                space, conversation, session, messages, started_at=started_at, builders=chosen
            ),
            write=True,
        )
        return done.as_dict()

    def forget(self, space: str) -> dict[str, Any]:
        self._write()
        space = self._space(space)
        deleted = self._in(space, lambda: self.memory.forget(space), write=True)
        return {"space": space, "deleted_nodes": deleted}
