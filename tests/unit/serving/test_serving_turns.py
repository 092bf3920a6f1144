"""The servers' order of work (graphmem/serving/turns.py): lines served first come, first
served; writes one at a time in the order of acceptance; reads of other spaces beside a
write; a bound on the requests waiting. Real threads, no sleeps in the assertions."""

from __future__ import annotations

import itertools
import random
import threading
import time
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.errors import BusyError
from graphmem.serving import Turns


class Harness:
    """Requests started one at a time, each accepted before the next starts (so the order
    of acceptance is the order of starting); each holds its turn until released."""

    def __init__(self, limit: int = 100) -> None:
        self.turns = Turns(limit)
        self.log: list[tuple[str, int]] = []  # ("in" | "out", request)
        self.sequences: dict[int, int] = {}
        self.release: dict[int, threading.Event] = {}
        self.threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def start(self, number: int, space: str, write: bool, hold: bool = False) -> None:
        gate = self.release[number] = threading.Event()
        if not hold:
            gate.set()
        accepted_before = self._accepted()
        thread = threading.Thread(target=self._run, args=(number, space, write), daemon=True)
        thread.start()
        self.threads.append(thread)
        _until(lambda: self._accepted() > accepted_before)

    def _accepted(self) -> int:
        with self._lock:
            entered = sum(1 for kind, _ in self.log if kind == "in")
        return self.turns.waiting + entered

    def _run(self, number: int, space: str, write: bool) -> None:
        with self.turns.turn(space, write) as sequence:
            with self._lock:
                self.log.append(("in", number))
                self.sequences[number] = sequence
            self.release[number].wait(10)
            with self._lock:
                self.log.append(("out", number))

    def running(self) -> set[int]:
        with self._lock:
            entered = {n for kind, n in self.log if kind == "in"}
            left = {n for kind, n in self.log if kind == "out"}
        return entered - left

    def join(self) -> None:
        for gate in self.release.values():
            gate.set()
        for thread in self.threads:
            thread.join(10)
            assert not thread.is_alive(), "a request never got its turn"


def _until(condition: Callable[[], bool], seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.001)


def test_a_read_of_another_space_runs_beside_a_write() -> None:
    run = Harness()
    run.start(1, "a", write=True, hold=True)
    run.start(2, "b", write=False, hold=True)
    _until(lambda: run.running() == {1, 2})
    run.join()


def test_a_space_serves_its_requests_in_the_order_they_came() -> None:
    run = Harness()
    run.start(1, "a", write=False, hold=True)  # a read holds the space
    run.start(2, "a", write=True)  # the write waits for it
    run.start(3, "a", write=False)  # a later read waits for the write
    run.start(4, "b", write=True)  # a write elsewhere waits for the earlier write
    assert run.running() == {1}
    run.join()
    entries = [n for kind, n in run.log if kind == "in"]
    assert entries.index(2) < entries.index(3) and entries.index(2) < entries.index(4)
    assert run.sequences[2] == 1 and run.sequences[4] == 2 and run.sequences[1] == 0


def test_past_the_bound_a_request_is_told_to_come_back() -> None:
    run = Harness(limit=1)
    run.start(1, "a", write=True, hold=True)
    run.start(2, "a", write=False)  # waits: the one place is taken
    with pytest.raises(BusyError) as refused, run.turns.turn("a", write=False):
        pass
    assert refused.value.status == 503 and refused.value.retry_after == 1
    assert "1 requests wait for their turn already" in refused.value.message
    with run.turns.turn("b", write=False) as sequence:  # a free line: no wait, no refusal
        assert sequence == 0
    run.join()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.booleans()), min_size=1, max_size=12),
    st.randoms(use_true_random=False),
)
def test_every_line_keeps_the_order_of_acceptance(
    requests: list[tuple[str, bool]], chance: random.Random
) -> None:
    """Whatever the mix, and whichever running request finishes first: something always
    runs until all are done (no deadlock); a space's requests and all writes run one at a
    time in the order they were accepted; writes are numbered in that order."""
    run = Harness()
    for number, (space, write) in enumerate(requests):
        run.start(number, space, write, hold=True)
    finished: set[int] = set()
    while len(finished) < len(requests):
        _until(lambda: bool(run.running()))  # someone always has the turn
        chosen = chance.choice(sorted(run.running()))
        run.release[chosen].set()
        _until(lambda done=chosen: done not in run.running())
        finished.add(chosen)
    run.join()
    spans: dict[int, tuple[int, int]] = {}
    for position, (kind, number) in enumerate(run.log):
        start, end = spans.get(number, (position, position))
        spans[number] = (start, position) if kind == "out" else (position, end)
    writes = [n for n, (_, write) in enumerate(requests) if write]
    for members in [writes] + [
        [n for n, (s, _) in enumerate(requests) if s == space] for space in "abc"
    ]:
        for earlier, later in itertools.pairwise(members):
            assert spans[earlier][1] < spans[later][0]  # done before the next began
    assert [run.sequences[n] for n in writes] == list(range(1, len(writes) + 1))
    assert run.turns.waiting == 0
