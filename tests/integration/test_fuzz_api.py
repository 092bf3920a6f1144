"""Issue 15: property-based fuzz of ``Memory.add_messages``. Every call either stores a
whole session or raises InputError having written nothing; no other exception, and no
half-written session ever. CI runs 15 cases; ``-m long`` runs 250."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.errors import InputError
from graphmem.memory import Memory
from graphmem.store import GraphStore
from tests.fuzz_strategies import JSON, MESSAGES, TEXT

pytestmark = pytest.mark.integration
SHORT, LONG = 15, 250

_MESSAGE_DICTS = MESSAGES.map(
    lambda ms: [{k: v for k, v in m.items() if k not in ("conversation", "session")} for m in ms]
)
CALLS = st.tuples(
    st.one_of(st.sampled_from(["conv-a", "conv-b"]), TEXT, JSON),
    st.one_of(st.sampled_from(["s1", "s2", 3]), TEXT, JSON),
    st.one_of(_MESSAGE_DICTS, JSON),
)


def _fuzz(examples: int, memory: Memory, store: GraphStore, space: str) -> Callable[[], None]:
    @settings(
        max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), database=None
    )
    @given(call=CALLS)
    def run(call: tuple[Any, Any, Any]) -> None:
        conversation_id, session, messages = call
        before = store.read("core.space_counts", space=space)
        try:
            memory.add_messages(space, conversation_id, session, messages)
        except InputError:
            assert store.read("core.space_counts", space=space) == before
        assert store.read("core.partial_sessions", space=space) == []

    return run


@pytest.fixture
def memory(settings: Settings, store: GraphStore, embedder: Embedder) -> Memory:
    return Memory(settings, store=store, embedder=embedder)


def test_fuzz_add_messages(memory: Memory, store: GraphStore, space: str) -> None:
    _fuzz(SHORT, memory, store, space)()


@pytest.mark.long
def test_fuzz_add_messages_long(memory: Memory, store: GraphStore, space: str) -> None:
    _fuzz(LONG, memory, store, space)()
