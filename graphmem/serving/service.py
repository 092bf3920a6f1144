"""The operations ``graphmem serve`` and ``graphmem mcp`` offer, over one ``Memory``: one
confinement (``--spaces``, ``--allow-writes``), one set of checks and errors, one order of
work (graphmem/serving/turns.py) and one write path for both servers.

The confinement, the limits and the builders are checked before a request takes its turn,
so such a mistake never waits in a line; a message's own fields are checked in its turn,
before anything is written. A write's result carries its ``sequence``: the position
in which this server accepted it, the order in which writes are applied.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from datetime import date, datetime
from functools import partial
from typing import Any, TypeVar

from graphmem.errors import ForbiddenError, TooManyMessagesError, UnknownSpaceError
from graphmem.graph.readiness import check_stored
from graphmem.graph.stats import space_list, space_stats
from graphmem.ingest.forget import REDACTED
from graphmem.ingest.jsonl import check_session_names
from graphmem.ingest.validate import check_space
from graphmem.memory import Memory
from graphmem.retrieval.registry import DEFAULT_STRATEGY
from graphmem.serving.limits import BuilderChoice, check_strategy, check_subject, parse_builders
from graphmem.serving.turns import Turns
from graphmem.validity.history import as_of_moment

T = TypeVar("T")


class MemoryService:
    """The servers' operations over ``memory`` (``lazily``: over the Memory a function
    makes on first use, so that the MCP server answers its handshake before Neo4j is
    needed)."""

    def __init__(self, memory: Memory | None, spaces: Sequence[str], allow_writes: bool) -> None:
        self._memory = memory
        self._factory: Callable[[], Memory] | None = None
        self._made = threading.Lock()
        self.spaces = list(spaces)
        self.allow_writes = allow_writes
        self._warm = threading.Lock()
        self._warmed = False
        self._turns: Turns | None = None

    @classmethod
    def lazily(
        cls, factory: Callable[[], Memory], spaces: Sequence[str], allow_writes: bool
    ) -> MemoryService:
        service = cls(None, spaces, allow_writes)
        service._factory = factory
        return service

    @property
    def memory(self) -> Memory:
        with self._made:
            if self._memory is None:
                assert self._factory is not None
                self._memory = self._factory()
            return self._memory

    @property
    def turns(self) -> Turns:
        memory = self.memory  # the bound is a setting of the Memory's
        with self._made:
            if self._turns is None:
                self._turns = Turns(memory.settings.api_max_waiting)
            return self._turns

    def close(self) -> None:
        if self._memory is not None:
            self._memory.close()

    # --- confinement and checks --------------------------------------------------------
    def _space(self, space: str) -> str:
        check_space(space)  # its length and characters before the refusal repeats it
        if self.spaces and space not in self.spaces:
            raise ForbiddenError(
                f"space {space!r} is not served here (allowed: {', '.join(self.spaces)})"
            )
        return space

    def _write(self) -> None:
        if not self.allow_writes:
            raise ForbiddenError(
                "this server is read-only",
                hint="start it with --allow-writes (graphmem serve or graphmem mcp)",
            )

    def _messages(self, messages: Sequence[Any]) -> None:
        most = self.memory.settings.api_max_write_messages
        if len(messages) > most:
            raise TooManyMessagesError(
                f"{len(messages):,} messages in one write; at most {most:,}",
                hint="send the session in parts (each write of a session sends it so far), "
                "or raise GRAPHMEM_API_MAX_WRITE_MESSAGES",
            )

    # --- order -------------------------------------------------------------------------
    def _in(self, space: str, call: Callable[[], T], write: bool = False) -> tuple[T, int]:
        """``call`` in its turn (graphmem/serving/turns.py) and the write's sequence."""
        try:
            with self.turns.turn(space, write) as sequence:
                return self._warmed_call(call), sequence
        except UnknownSpaceError as exc:  # a confined server names no space it does not serve
            raise (exc.among(self.spaces) if self.spaces else exc) from None

    def _warmed_call(self, call: Callable[[], T]) -> T:
        """Until a first call has warmed the Memory (spaCy, the embedder, the checks of
        the configuration), calls run one at a time."""
        if self._warmed:
            return call()
        with self._warm:
            result = call()
            self._warmed = True
            return result

    def prepare(self, report: Callable[[str], None]) -> None:
        """The default strategy prepared over the served spaces (every stored one when none
        are listed), so that their first queries cost what later ones do. A space that
        cannot be prepared stops the server (a misspelt --spaces entry)."""
        memory = self.memory
        spaces = self.spaces or [row["space"] for row in space_list(memory.store)]
        for space in spaces:
            check_stored(memory.store, space)
            seconds, _ = self._in(space, partial(memory.prepare, space, DEFAULT_STRATEGY))
            report(f"prepared {DEFAULT_STRATEGY} over {space} in {seconds:.1f} s")

    # --- reads -------------------------------------------------------------------------
    def query(
        self,
        question: str,
        space: str,
        strategy: str,
        budget: int,
        explain: bool = False,
        as_of: date | datetime | None = None,
    ) -> dict[str, Any]:
        """``graphmem query --json``: each item's strategy and path only with ``explain``."""
        space, strategy, moment = self._space(space), check_strategy(strategy), as_of_moment(as_of)
        memory = self.memory
        found, _ = self._in(
            space, lambda: memory.query(question, space, strategy, budget, as_of=moment)
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
        space, strategy, moment = self._space(space), check_strategy(strategy), as_of_moment(as_of)
        memory = self.memory
        asked, _ = self._in(
            space, lambda: memory.ask(question, space, strategy, budget, as_of=moment)
        )
        return {"answer": asked.answer, "llm": memory.settings.llm_model, **asked.as_dict()}

    def history(self, space: str, subject: str) -> list[dict[str, Any]]:
        space, subject = self._space(space), check_subject(subject)
        memory = self.memory
        found, _ = self._in(space, lambda: memory.history(space, subject))
        return [c.model_dump(mode="json") for c in found]

    def stats(self, space: str) -> dict[str, Any]:
        space = self._space(space)
        store = self.memory.store

        def read() -> dict[str, Any]:
            check_stored(store, space)  # a misspelt space is an error, not zeros
            return space_stats(store, space)

        return self._in(space, read)[0]

    def list_spaces(self) -> list[dict[str, Any]]:
        allowed = set(self.spaces)
        found = space_list(self.memory.store)
        return [row for row in found if not allowed or row["space"] in allowed]

    # --- writes ------------------------------------------------------------------------
    def add_messages(
        self,
        space: str,
        conversation: str,
        session: str,
        messages: Sequence[dict[str, Any]],
        started_at: datetime | None,
        builders: BuilderChoice,
    ) -> dict[str, Any]:
        """Store one session's turns and build memory from them: the result of
        ``Memory.add_messages`` and the write's ``sequence``."""
        self._write()
        space = self._space(space)
        self._messages(messages)
        check_session_names(conversation, session)  # named as the request names them
        chosen = parse_builders(builders)  # before the write waits for its turn
        memory = self.memory
        done, sequence = self._in(
            space,
            lambda: memory.add_messages(
                space, conversation, session, messages, started_at=started_at, builders=chosen
            ),
            write=True,
        )
        return {**done.as_dict(), "sequence": sequence}

    def redact(
        self,
        space: str,
        turns: Sequence[str],
        text: str = REDACTED,
        conversation: str | None = None,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        """Replace what ``turns`` say (``Memory.redact``); a dry run counts and writes
        nothing."""
        self._write()
        space = self._space(space)
        memory = self.memory
        done, sequence = self._in(
            space,
            lambda: memory.redact(
                space, turns, text=text, conversation=conversation, dry_run=dry_run
            ),
            write=not dry_run,
        )
        return {**done.model_dump(), "sequence": sequence}

    def forget(
        self,
        space: str,
        turns: Sequence[str] = (),
        session: str | None = None,
        conversation: str | None = None,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        """The whole space, or (with a selection) some turns, a session or a conversation
        of it (``Memory.forget``); a dry run counts and writes nothing."""
        self._write()
        space = self._space(space)
        memory = self.memory
        if not (turns or session is not None or conversation is not None):
            deleted, sequence = self._in(space, lambda: memory.forget(space), write=True)
            return {"space": space, "deleted_nodes": deleted, "sequence": sequence}
        done, sequence = self._in(
            space,
            lambda: memory.forget(
                space, turns=turns, session=session, conversation=conversation, dry_run=dry_run
            ),
            write=not dry_run,
        )
        return {**done.model_dump(), "sequence": sequence}
