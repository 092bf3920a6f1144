"""The API's operations over one ``Memory``: the same calls the MCP tools make, with the
server's confinement (``--spaces``, ``--allow-writes``) and its ordering.

Ordering: every call that touches a space holds that space's lock, so the requests of one
space run one at a time, in the order they took the lock, and different spaces run side by
side. A space's kept retrievers (snapshots, PageRank runs) and the next free session index
of a conversation (``Memory.add_messages``) are per-space state that two concurrent calls
would race on; on two cores a query is CPU-bound anyway, so parallel queries of one space
would gain little. Until the first call has warmed the Memory (spaCy, the embedder), calls
run one at a time across spaces too.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from typing import Any, TypeVar

from graphmem.builders.registry import builder_names
from graphmem.errors import InputError
from graphmem.http.errors import Forbidden
from graphmem.memory import Memory
from graphmem.readiness import check_stored
from graphmem.retrieval.registry import DEFAULT_STRATEGY, strategy_names
from graphmem.stats import space_list, space_stats

T = TypeVar("T")


class MemoryService:
    def __init__(self, memory: Memory, spaces: Sequence[str], allow_writes: bool) -> None:
        self.memory = memory
        self.spaces = list(spaces)
        self.allow_writes = allow_writes
        self._locks: dict[str, threading.Lock] = {}
        self._locks_lock = threading.Lock()
        self._warm = threading.Lock()
        self._warmed = False

    # --- confinement and ordering ------------------------------------------------------
    def _space(self, space: str) -> str:
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

    def _in(self, space: str, call: Callable[[], T]) -> T:
        with self._locks_lock:
            lock = self._locks.setdefault(space, threading.Lock())
        with lock:
            if self._warmed:
                return call()
            with self._warm:
                result = call()
                self._warmed = True
                return result

    @staticmethod
    def _strategy(strategy: str) -> str:
        known = strategy_names()
        if strategy not in known:
            raise InputError(
                f"unknown strategy {strategy!r}; one of {', '.join(known)}", field="strategy"
            )
        return strategy

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
        self, question: str, space: str, strategy: str, budget: int, explain: bool
    ) -> dict[str, Any]:
        space, strategy = self._space(space), self._strategy(strategy)
        found = self._in(space, lambda: self.memory.query(question, space, strategy, budget))
        return found.as_dict(explain=explain)

    def ask(self, question: str, space: str, strategy: str, budget: int) -> dict[str, Any]:
        space, strategy = self._space(space), self._strategy(strategy)
        answer, found = self._in(space, lambda: self.memory.ask(question, space, strategy, budget))
        return {"answer": answer, "llm": self.memory.settings.llm_model, **found.as_dict()}

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
        builders: list[str] | None,
    ) -> dict[str, Any]:
        self._write()
        space = self._space(space)
        chosen = builder_names() if builders is None else builders
        report, built = self._in(
            space,
            lambda: self.memory.add_messages(
                space, conversation, session, messages, started_at=started_at, builders=chosen
            ),
        )
        return {**report.as_dict(), "builders": [b.as_dict() for b in built]}

    def forget(self, space: str) -> dict[str, Any]:
        self._write()
        space = self._space(space)
        deleted = self._in(space, lambda: self.memory.forget(space))
        return {"space": space, "deleted_nodes": deleted}
