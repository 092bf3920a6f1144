"""Issue 57, "A user's first day": a stateful property test of ``Memory`` on the real Neo4j.

A hypothesis ``RuleBasedStateMachine`` drives one space through random sequences of what a
new user does: ingest files (JSONL, a JSON array, LoCoMo, LongMemEval; broken ones too),
``add_messages`` (new sessions, a growing session sent again, bad messages), ``query`` with
every strategy at several budgets and ``as_of`` dates, ``history``, stats, the digest and
``forget``, over conversations of 0-4 sessions, one to many speakers (user and assistant
too), timestamps present, absent, mixed, out of order, in year 1 or 9999, conversations
that share session ids, and short, long and messy turns (``first_day.py``).

Invariants, after every step:

- nothing is raised but graphmem's own errors, each with its documented exit code, and
  each where the step expects it (a space that does not exist: ``ConfigError``, exit 2,
  naming it; bad input or a layer the space lacks: ``InputError``, exit 3);
- the space holds exactly the turns sent (conversation, session, id, speaker, text), and
  stats and the space list count them;
- every citation of a query names one stored turn of the space (qualified by its
  conversation where the space holds several), said by ``as_of`` when one is given, and
  the context fits its budget;
- the digest depends only on what was stored: a file ingested again, or a session sent
  again, leaves it unchanged, and at the end of every run the same writes replayed into a
  fresh space in another order (writes to different conversations swapped) give the same.

The default run is a few short runs of small conversations (about a minute: builders parse
every turn), without shrinking a failure (hypothesis would spend up to five minutes on it);
``-m long`` runs many more, longer ones, with conversations of up to 40 turns a session and
turns of 30,000 characters, and shrinks. A failure prints its steps and a
``@reproduce_failure`` blob; ``--hypothesis-seed=N`` fixes the draw.
"""

from __future__ import annotations

import tempfile
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import pytest
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.errors import ConfigError, GraphmemError, InputError
from graphmem.graph.digest import space_digest
from graphmem.graph.stats import space_list, space_stats
from graphmem.graph.store import GraphStore
from graphmem.memory import Memory
from graphmem.plugin.registry import builder_names, builders_for
from graphmem.retrieval.registry import strategy_names
from tests.conftest import delete_space
from tests.integration.first_day import (
    BAD_FILES,
    CONVERSATIONS,
    DEEP,
    SESSIONS,
    SMALL,
    Sizes,
    StoredRow,
    StoredTurn,
    Written,
    conversations,
    difference,
    documented_exit_code,
    file_contents,
    messages_of,
    resolve,
    snapshot,
    stored_turns,
    write_file,
)

pytestmark = pytest.mark.integration

T = TypeVar("T")

# Builders of a run: every one (what a user gets by default), none, or a few; passed
# explicitly to every write, as the issue asks (the default changed to "all").
BUILDER_CHOICES: list[str | list[str]] = [
    "all",
    "all",
    "none",
    ["semantic", "seem"],
    ["anchormem", "premem"],
]
BUDGETS = [50, 120, 400, 1000, 4000]
QUESTIONS = [
    "Where does Ana live now?",
    "What did we talk about last week?",
    "What is the kitten called?",
    "Who ran the marathon, and where?",
    "¿Dónde vive Ana ahora?",
    "東京で何をしましたか？",
    "🐱?",
    "What happened in 1066?",
    "<b>what</b> recipe\nfor tonight?",
    "Tell me everything. " * 120,
]
SUBJECTS = ["Ana", "Ben", "user", "Pixel", "Porto", "nobody in particular", "李雷"]
AS_OF = [
    datetime(1, 1, 1, 0, 0),
    datetime(1066, 10, 14, 9, 1),
    datetime(2023, 5, 15, 23, 59, 59),
    datetime(2024, 6, 1, 12, 0),
    datetime(9999, 12, 31, 23, 59, 59),
]
BAD_MESSAGES: list[list[Any]] = [
    [{"speaker": "Ana", "text": "   "}],
    [{"speaker": "🙂", "text": "hi"}],
    [{"speaker": "Ana", "text": "hi", "timestamp": "soonish"}],
    [{"speaker": "Ana", "text": "hi", "id": "m"}, {"speaker": "Ben", "text": "yo", "id": "m"}],
    [{"speaker": "Ana", "text": "nul \x00 inside"}],
    [{"text": "who said this?"}],
    [],
]


@dataclass(frozen=True)
class Write:
    """One successful write, as the replay repeats it."""

    conversations: frozenset[str]
    file: Written | None = None
    call: tuple[str, str, list[dict[str, Any]], datetime | None] | None = None

    def apply(self, memory: Memory, space: str, builders: str | list[str]) -> None:
        if self.file is not None:
            memory.ingest(self.file.path, space, builders=builders)
        else:
            assert self.call is not None
            cid, session, messages, started_at = self.call
            memory.add_messages(space, cid, session, messages, started_at, builders=builders)


@dataclass
class Model:
    """What the space must hold: every (conversation, session)'s turns, and whether the
    space exists (a successful write made it; forget ends it)."""

    sessions: dict[tuple[str, str], tuple[StoredTurn, ...]] = field(default_factory=dict)
    exists: bool = False

    def turns(self) -> list[StoredTurn]:
        return [t for turns in self.sessions.values() for t in turns]

    def conversations(self) -> set[str]:
        return {cid for cid, _ in self.sessions}

    def store(self, turns: Sequence[StoredTurn]) -> None:
        grouped: dict[tuple[str, str], list[StoredTurn]] = {}
        for turn in turns:
            grouped.setdefault((turn.conversation, turn.session), []).append(turn)
        self.sessions.update({key: tuple(found) for key, found in grouped.items()})
        self.exists = True


@dataclass(frozen=True)
class Run:
    """What every machine of one test shares: a Memory kept for the whole run (as a
    long-lived process keeps one), the sizes to draw, a folder for the files."""

    memory: Memory
    store: GraphStore
    sizes: Sizes
    folder: Path


class FirstDay(RuleBasedStateMachine):
    run: ClassVar[Run]

    def __init__(self) -> None:
        super().__init__()
        self.space = f"t57-state-{uuid.uuid4().hex[:8]}"
        self.builders: str | list[str] = "all"
        self.model = Model()
        self.log: list[Write] = []
        self.files = 0
        # True from a step's start until the invariants after it passed: the replay at the
        # end runs only after a clean run (it would hide the failure it follows).
        self.pending = False

    # --- helpers ------------------------------------------------------------------------

    @property
    def memory(self) -> Memory:
        return self.run.memory

    @property
    def store(self) -> GraphStore:
        return self.run.store

    def _built(self) -> set[str]:
        if self.builders == "all":
            return set(builder_names())
        if self.builders == "none":
            return set()
        return set(self.builders)

    def _outcome(self, call: Callable[[], T]) -> tuple[T | None, GraphmemError | None]:
        """``call()``'s result, or the graphmem error it raised, checked against the exit
        code the README documents for its class. Any other exception fails the run."""
        self.pending = True
        try:
            return call(), None
        except GraphmemError as exc:
            event(f"refused: {type(exc).__name__}")
            documented = documented_exit_code(exc)
            assert documented is not None, f"{type(exc).__name__} has no documented code: {exc}"
            assert exc.exit_code == documented, (
                f"{type(exc).__name__} exits {exc.exit_code}, documented {documented}: {exc}"
            )
            return None, exc

    def _ok(self, call: Callable[[], T]) -> T:
        result, error = self._outcome(call)
        assert error is None, f"unexpected {type(error).__name__}: {error}"
        return result  # type: ignore[return-value]

    def _refused(self, kind: type[GraphmemError], call: Callable[[], object]) -> GraphmemError:
        _, error = self._outcome(call)
        assert error is not None, f"expected {kind.__name__}, the call succeeded"
        assert isinstance(error, kind), f"expected {kind.__name__}, got {type(error)}: {error}"
        return error

    def _missing_space(self, call: Callable[[], object]) -> None:
        """A space that does not exist: ConfigError (exit 2) naming it."""
        error = self._refused(ConfigError, call)
        assert error.exit_code == 2 and self.space in str(error), str(error)

    def _digest(self) -> str:
        return space_digest(self.store, self.space).sha256

    def _file(self) -> Path:
        self.files += 1
        return self.run.folder / f"{self.space}-{self.files}"

    # --- writes -------------------------------------------------------------------------

    @initialize(builders=st.sampled_from(BUILDER_CHOICES), data=st.data())
    def first_file(self, builders: str | list[str], data: st.DataObject) -> None:
        """Every run starts with a file (the builders drawn for the whole run): the first
        example hypothesis draws is its simplest, and an empty space alone tests little."""
        self.builders = builders
        self._ingest(data, interleave=False, min_sessions=1)

    @rule(data=st.data(), interleave=st.booleans())
    def ingest_file(self, data: st.DataObject, interleave: bool) -> None:
        self._ingest(data, interleave, min_sessions=0)

    def _ingest(self, data: st.DataObject, interleave: bool, min_sessions: int) -> None:
        fmt, convs = data.draw(file_contents(self.run.sizes, min_sessions), label="file")
        written = write_file(self._file(), fmt, convs, interleave)
        before = self._digest() if self.model.exists else None
        if written.refused:
            self._refused(
                InputError,
                lambda: self.memory.ingest(written.path, self.space, builders=self.builders),
            )
            assert (self._digest() if self.model.exists else None) == before
            return
        done = self._ok(
            lambda: self.memory.ingest(written.path, self.space, builders=self.builders)
        )
        event(f"write: a {fmt} file")
        assert done.report.conversations == len(written.conversation_ids)
        self.model.store(written.turns)
        self.log.append(Write(written.conversation_ids, file=written))

    @rule(
        data=st.data(),
        cid=st.sampled_from(CONVERSATIONS),
        session=st.sampled_from([*SESSIONS, "live"]),
        grow=st.booleans(),
        started_at=st.sampled_from([None, datetime(2024, 6, 1, 9, 30), datetime(1, 1, 1)]),
    )
    def add_messages(
        self,
        data: st.DataObject,
        cid: str,
        session: str,
        grow: bool,
        started_at: datetime | None,
    ) -> None:
        drawn = data.draw(conversations(self.run.sizes, cid, min_sessions=1), label="messages")
        new = messages_of(drawn.sessions[0])
        stored = self.model.sessions.get((cid, session), ())
        # streaming: the session so far and more turns, as an agent resends a chat
        old = [{"speaker": t.speaker, "text": t.text} for t in stored] if grow else []
        messages = [*old, *new]
        self._ok(
            lambda: self.memory.add_messages(
                self.space, cid, session, messages, started_at, builders=self.builders
            )
        )
        self.model.sessions[(cid, session)] = tuple(
            StoredTurn(cid, session, f"{session}:{j}", m["speaker"], m["text"])
            for j, m in enumerate(messages)
        )
        self.model.exists = True
        self.log.append(Write(frozenset({cid}), call=(cid, session, messages, started_at)))

    @rule(
        bad_file=st.one_of(st.none(), st.sampled_from(sorted(BAD_FILES))),
        messages=st.sampled_from(BAD_MESSAGES),
        cid=st.sampled_from(CONVERSATIONS),
    )
    def send_something_bad(self, bad_file: str | None, messages: list[Any], cid: str) -> None:
        """A broken file, or bad messages: refused (exit 3) before anything is written."""
        before = self._digest() if self.model.exists else None
        if bad_file is not None:
            path = self._file().with_suffix(".jsonl")
            path.write_text(BAD_FILES[bad_file], encoding="utf-8")
            self._refused(
                InputError, lambda: self.memory.ingest(path, self.space, builders=self.builders)
            )
        else:
            self._refused(
                InputError,
                lambda: self.memory.add_messages(
                    self.space, cid, "bad", messages, builders=self.builders
                ),
            )
        assert (self._digest() if self.model.exists else None) == before, "a refused write wrote"
        assert self.model.exists or not stored_turns(self.store, self.space)

    @precondition(lambda self: bool(self.log))
    @rule()
    def write_the_last_again(self) -> None:
        """Idempotent: the same file again, or the same session sent again, writes nothing
        and changes nothing."""
        last = self.log[-1]
        before = snapshot(self.store, self.space), self._digest()
        if last.file is not None:
            written = last.file
            done = self._ok(
                lambda: self.memory.ingest(written.path, self.space, builders=self.builders)
            )
            assert done.report.sessions_written == 0 and done.report.passages_written == 0
        else:
            self._ok(lambda: last.apply(self.memory, self.space, self.builders))
        what = "ingesting the same file" if last.file else "sending the same session"
        assert self._digest() == before[1], f"{what} again changed the graph:\n" + difference(
            before[0], snapshot(self.store, self.space)
        )

    @precondition(lambda self: len(self.log) >= 2)
    @rule()
    def forget(self) -> None:
        """The whole space goes; afterwards it does not exist for any call (the reads of a
        missing space are checked here: drawn as rules they would fill the runs)."""
        deleted = self._ok(lambda: self.memory.forget(self.space))
        assert deleted > 0
        self.model = Model()
        self.log = []
        assert stored_turns(self.store, self.space) == []
        self._missing_space(lambda: self.memory.query("Where?", self.space, "graphmem", 200))
        self._missing_space(lambda: self.memory.history(self.space, "Ana"))
        self._missing_space(lambda: self.memory.forget(self.space))

    # --- reads --------------------------------------------------------------------------

    # Three rules read (query, query as of a date, ask): reads are most of a day's calls,
    # and hypothesis draws each rule alike.
    @rule(
        question=st.sampled_from(QUESTIONS),
        strategy=st.sampled_from(strategy_names()),
        budget=st.sampled_from(BUDGETS),
    )
    def query(self, question: str, strategy: str, budget: int) -> None:
        self._read(question, strategy, budget, None, ask=False)

    @rule(
        question=st.sampled_from(QUESTIONS),
        strategy=st.sampled_from(strategy_names()),
        budget=st.sampled_from(BUDGETS),
        as_of=st.sampled_from(AS_OF),
    )
    def query_as_of(self, question: str, strategy: str, budget: int, as_of: datetime) -> None:
        self._read(question, strategy, budget, as_of, ask=False)

    @rule(
        question=st.sampled_from(QUESTIONS),
        strategy=st.sampled_from(strategy_names()),
        as_of=st.one_of(st.none(), st.sampled_from(AS_OF)),
    )
    def ask(self, question: str, strategy: str, as_of: datetime | None) -> None:
        self._read(question, strategy, 1000, as_of, ask=True)

    def _read(
        self, question: str, strategy: str, budget: int, as_of: datetime | None, ask: bool
    ) -> None:
        def call() -> dict[str, Any]:
            if ask:
                asked = self.memory.ask(question, self.space, strategy, budget, as_of=as_of)
                assert asked.answer is None  # no LLM in the tests: the context alone
                return asked.as_dict()
            found = self.memory.query(question, self.space, strategy, budget, as_of=as_of)
            return found.as_dict()

        if not self.model.exists:
            self._missing_space(call)
            return
        lacking = set(builders_for([strategy])) - self._built()
        if lacking:
            error = self._refused(InputError, call)
            assert strategy in str(error), str(error)
            return
        data = self._ok(call)
        assert data["tokens"] <= budget, f"{data['tokens']} tokens in a budget of {budget}"
        citations = data["citations"]
        assert len(set(citations)) == len(citations), f"a turn cited twice: {citations}"
        rows = stored_turns(self.store, self.space)
        several = len({r.turn.conversation for r in rows}) > 1
        cites = "some" if citations else "no"
        event(f"query cites {cites} turns of {'several' if several else 'one'} conversation(s)")
        for citation in citations:
            cited = resolve(citation, rows)
            if as_of is not None and cited.ts is not None:
                assert cited.ts <= as_of, f"{citation} said {cited.ts}, after as_of {as_of}"

    @rule(subject=st.sampled_from(SUBJECTS))
    def history(self, subject: str) -> None:
        if not self.model.exists:
            self._missing_space(lambda: self.memory.history(self.space, subject))
            return
        changes = self._ok(lambda: self.memory.history(self.space, subject))
        event(f"history: {'changes' if changes else 'no change'}")
        rows = stored_turns(self.store, self.space)
        for change in changes:
            for turn in [*change.earlier_turns, *change.later_turns]:
                resolve(turn, rows)

    @rule()
    def stats_and_digest(self) -> None:
        self.pending = True
        digest = space_digest(self.store, self.space)
        assert digest.sha256 == self._digest(), "the digest of an unchanged space changed"
        if self.model.exists:
            counts = space_stats(self.store, self.space)["nodes"]
            assert counts.get("Passage", 0) == len(self.model.turns()), counts
            assert counts.get("Session", 0) == len(self.model.sessions), counts
            assert counts.get("Conversation", 0) == len(self.model.conversations()), counts
            assert digest.labels.get("Passage", 0) == len(self.model.turns())

    # --- after every step ---------------------------------------------------------------

    @invariant()
    def holds_what_was_sent(self) -> None:
        rows = stored_turns(self.store, self.space)
        stored = Counter(r.turn for r in rows)
        expected = Counter(self.model.turns())
        assert stored == expected, _turn_diff(stored, expected)
        listed = [r for r in space_list(self.store) if r["space"] == self.space]
        if self.model.exists:
            assert listed, f"{self.space} is not listed"
            assert listed[0]["turns"] == len(rows)
            assert listed[0]["conversations"] == len(self.model.conversations())
        else:
            assert not listed, f"{self.space} is listed but was never written or was forgotten"
        self.pending = False

    def teardown(self) -> None:
        replay = f"{self.space}-replay"
        try:
            if self.log and not self.pending:
                # The same writes in the same order: a space's graph is a function of its
                # writes in order (docs/reliability.md, "Order of writes"); another order
                # may differ where conversations share a memory.
                for write in self.log:
                    write.apply(self.memory, replay, self.builders)
                ours, theirs = (
                    space_digest(self.store, self.space),
                    space_digest(self.store, replay),
                )
                assert ours.sha256 == theirs.sha256, (
                    "the same writes in the same order gave another graph:\n"
                    + difference(snapshot(self.store, self.space), snapshot(self.store, replay))
                )
        finally:
            delete_space(self.store, self.space)
            delete_space(self.store, replay)


def _turn_diff(stored: Counter[StoredTurn], expected: Counter[StoredTurn]) -> str:
    extra = list((stored - expected).elements())[:3]
    missing = list((expected - stored).elements())[:3]
    return f"stored but not sent: {extra}; sent but not stored: {missing}"


@pytest.fixture(scope="module")
def memory_run(
    settings: Settings, store: GraphStore, embedder: Embedder
) -> Iterator[tuple[Memory, Path]]:
    with tempfile.TemporaryDirectory(prefix="t57-state-") as folder:
        yield Memory(settings, store=store, embedder=embedder), Path(folder)


def _run(
    memory_run: tuple[Memory, Path],
    store: GraphStore,
    sizes: Sizes,
    examples: int,
    steps: int,
    shrink: bool,
) -> None:
    memory, folder = memory_run
    FirstDay.run = Run(memory, store, sizes, folder)
    phases = [Phase.explicit, Phase.generate, *([Phase.shrink] if shrink else []), Phase.explain]
    run_state_machine_as_test(
        FirstDay,
        settings=settings(
            max_examples=examples,
            stateful_step_count=steps,
            deadline=None,
            database=None,  # nothing kept between runs: a failure prints its blob instead
            print_blob=True,
            suppress_health_check=list(HealthCheck),
            phases=phases,
        ),
    )


def test_a_first_day(memory_run: tuple[Memory, Path], store: GraphStore) -> None:
    # No shrinking by default: a step costs seconds, and hypothesis shrinks a failure for
    # up to five minutes. The failing steps and the @reproduce_failure blob are printed
    # either way; -m long shrinks.
    _run(memory_run, store, SMALL, examples=25, steps=12, shrink=False)


@pytest.mark.long
def test_a_first_day_long(memory_run: tuple[Memory, Path], store: GraphStore) -> None:
    _run(memory_run, store, DEEP, examples=40, steps=25, shrink=True)


def test_a_bare_citation_is_refused_where_it_may_name_two_turns() -> None:
    """The resolver the invariants rely on: "1:0" in a space of two conversations that each
    hold a turn "1:0" (issue 57's bug) fails; qualified, or in one conversation, it names
    one turn."""
    a, b = (StoredRow(StoredTurn(c, "1", "1:0", "Ana", "hi"), None) for c in ("a", "b"))
    with pytest.raises(AssertionError, match="must say its conversation"):
        resolve("1:0", [a, b])
    assert resolve("b/1:0", [a, b]) == b
    assert resolve("1:0", [a]) == resolve("a/1:0", [a]) == a
    with pytest.raises(AssertionError, match="names no stored turn"):
        resolve("c/1:0", [a, b])
