"""The conversations of an evaluation, one after the other or ``jobs`` at once.

With ``jobs`` > 1 each conversation is evaluated in a worker process, not a thread: the
builders are pure Python and hold the GIL, so threads would share one core. A worker builds
one ``Memory`` (its own Neo4j driver, embedder and spaCy pipeline) and one ``Evaluator``
from the settings and design configs the parent resolved, on its first conversation, and
keeps them for the others. The parent keeps the run: it skips what a former run finished,
records each conversation as its worker returns it (``Evaluator.record``: the ``--out``
log, the failures), moves the progress bar, and ends the run on an error no conversation
could escape (``runlog.fatal``) as the serial loop does. What the workers share on disk
takes several writers: the vector cache (SQLite in WAL mode with a busy timeout,
``embed/cache.py``) and the LLM response cache (SQLite's file locking with a busy timeout,
``llm/cache.py``); parse caches are per process and change no result.

Results do not depend on finish order (``Evaluator.results`` reads the conversations in
plan order). Latency is measured while the other workers run: latency numbers come from
one job. Workers ignore Ctrl-C (they start with SIGINT ignored, which Python keeps): the
parent stops them, so no worker prints a traceback and nothing half done reaches the log.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import pickle
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from types import FrameType
from typing import TYPE_CHECKING, Any

from graphmem.config import Settings
from graphmem.errors import GraphmemError
from graphmem.eval.runlog import Attempt, described
from graphmem.ingest.models import ConversationIn, Dataset
from graphmem.plugin.configure import DesignConfigs

if TYPE_CHECKING:  # harness imports this module
    from tqdm import tqdm

    from graphmem.eval.harness import Evaluator

# One conversation's work on an evaluator: its space, then its questions (``bar``: None in
# a worker). A module-level function or a partial of one, so that it reaches a worker.
Job = Callable[["Evaluator", ConversationIn, Dataset, "tqdm[Any] | None"], None]


@dataclass(frozen=True)
class Item:
    """One planned conversation with only its own questions (what a worker is sent) and
    its steps on the progress bar."""

    conversation: ConversationIn
    dataset: Dataset
    weight: int

    @classmethod
    def of(cls, conversation: ConversationIn, dataset: Dataset, weight: int) -> Item:
        cid = conversation.conversation_id
        own = Dataset(conversations=[conversation], qa={cid: dataset.qa.get(cid, [])})
        return cls(conversation, own, weight)


def evaluate_all(
    run: Evaluator, items: Sequence[Item], job: Job, bar: tqdm[Any], jobs: int = 1
) -> None:
    """Evaluate the items a former run did not finish, ``jobs`` at once."""
    todo = []
    for item in items:
        if item.conversation.conversation_id in run.done:
            bar.update(item.weight)
        else:
            todo.append(item)
    if min(jobs, len(todo)) > 1:
        _in_workers(run, todo, job, bar, jobs)
        return
    for item in todo:
        start = bar.n
        work = partial(job, run, item.conversation, item.dataset, bar)
        run.record(run.attempt(item.conversation.conversation_id, work))
        bar.update(start + item.weight - bar.n)  # failed: the questions not asked


@dataclass(frozen=True)
class _Setup:
    """What a worker builds its ``Memory`` and ``Evaluator`` from."""

    settings: Settings
    configs: DesignConfigs
    tune_process: bool
    strategies: list[str]
    budgets: list[int]
    dataset: str


def _in_workers(run: Evaluator, todo: Sequence[Item], job: Job, bar: tqdm[Any], jobs: int) -> None:
    memory = run.memory
    setup = _Setup(
        memory.settings,
        memory.configs,
        memory.tune_process,
        run.strategies,
        run.budgets,
        str(run.meta.get("dataset", "")),
    )
    pool = ProcessPoolExecutor(
        max_workers=min(jobs, len(todo)),
        # spawn, not fork: the parent may hold a driver's sockets and library threads.
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(setup,),
    )
    try:
        with _sigint_ignored():  # the workers start (in submit) and keep ignoring it
            futures = {
                pool.submit(_evaluate, job, item.conversation, item.dataset): item for item in todo
            }
        with _sigterm_interrupts():
            _collect(run, futures, bar)
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown()


def _collect(run: Evaluator, futures: dict[Future[Attempt | _Fatal], Item], bar: tqdm[Any]) -> None:
    """Record each conversation as its worker returns it."""
    for future in as_completed(futures):
        item = futures[future]
        run.record(_outcome(future, item.conversation.conversation_id))
        bar.set_description(item.conversation.conversation_id)
        bar.update(item.weight)


@contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """SIGTERM to the command stops it as Ctrl-C does, workers included (by default it
    would end the command alone and leave its workers running)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread sets handlers (and gets Ctrl-C); _start_worker does
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _stop(pool: ProcessPoolExecutor) -> None:
    """End the workers now. They ignore Ctrl-C; SIGTERM stops the conversation a worker is
    in as Ctrl-C stops a serial run (its ``finally`` blocks run: the space's embedder is
    pinned), and a rerun evaluates it again (its ingest resumes, writing nothing twice)."""
    processes = list(pool._processes.values())  # no public way before Python 3.14
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(_STOP_S)
        if process.is_alive():
            process.kill()
            process.join()


def _outcome(future: Future[Attempt | _Fatal], conversation: str) -> Attempt:
    try:
        outcome = future.result()
    except BrokenProcessPool:
        raise GraphmemError(
            f"an evaluation worker process ended abruptly (killed, or out of memory) while "
            f"evaluating {conversation} or another conversation",
            hint="rerun the same command with --out DIR to evaluate only what is missing, "
            "or with fewer --jobs",
        ) from None
    if isinstance(outcome, _Fatal):
        raise outcome.error()
    return outcome


@dataclass(frozen=True)
class _Fatal:
    """An error that ends the run, carried from a worker as its class, args and fields:
    not every error's constructor takes back its own args (pickle would call it so)."""

    kind: type[BaseException]
    args: tuple[Any, ...]
    fields: dict[str, Any]

    @classmethod
    def of(cls, exc: Exception) -> _Fatal:
        carried = cls(type(exc), exc.args, dict(vars(exc)))
        try:
            pickle.dumps(carried)
        except Exception:  # a field pickle cannot carry: the error's description then
            plain = GraphmemError(described(exc))
            carried = cls(GraphmemError, plain.args, dict(vars(plain)))
        return carried

    def error(self) -> BaseException:
        exc = self.kind.__new__(self.kind)
        exc.args = self.args
        vars(exc).update(self.fields)
        return exc


# Per worker process: the setup, then what is built from it on the first conversation.
_worker: dict[str, Any] = {}
_STOP_S = 30.0  # what a stopped worker gets to leave its conversation before it is killed


def _start_worker(setup: _Setup) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # also when started by another parent
    signal.signal(signal.SIGTERM, _stopped)
    _worker["setup"] = setup


def _stopped(signum: int, frame: FrameType | None) -> None:
    """SIGTERM from the parent: unwind the conversation under way, or leave if idle."""
    if _worker.get("busy"):
        _worker["stopping"] = True
        raise KeyboardInterrupt
    os._exit(1)


def _evaluate(job: Job, conversation: ConversationIn, dataset: Dataset) -> Attempt | _Fatal:
    _worker["busy"] = True
    try:
        run = _evaluator()
        work = partial(job, run, conversation, dataset, None)
        return run.attempt(conversation.conversation_id, work)
    except Exception as exc:  # what ``attempt`` raises ends the run: the parent raises it
        return _Fatal.of(exc)
    except KeyboardInterrupt:
        os._exit(1)  # stopped: the parent records nothing more
    finally:
        _worker["busy"] = False
        if _worker.get("stopping"):
            os._exit(1)


def _evaluator() -> Evaluator:
    if "run" not in _worker:
        from graphmem.eval.harness import Evaluator
        from graphmem.memory import Memory

        setup: _Setup = _worker["setup"]
        memory = Memory(setup.settings, configs=setup.configs, tune_process=setup.tune_process)
        atexit.register(memory.close)
        meta = {"dataset": setup.dataset}
        _worker["run"] = Evaluator(memory, setup.strategies, setup.budgets, meta, {})
    run: Evaluator = _worker["run"]
    return run
