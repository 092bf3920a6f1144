"""Issues 15 and 36: property-based fuzz of ``Memory.add_messages``. Every call either
stores a whole session or raises InputError having written nothing; no other exception, no
half-written session ever, and no turn id stored in two sessions of one conversation. CI
runs 15 cases; ``-m long`` runs 250."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.errors import InputError
from graphmem.graph.store import GraphStore
from graphmem.ingest.jsonl import api_session
from graphmem.memory import Memory
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
            memory.add_messages(space, conversation_id, session, messages, builders=[])
        except InputError:
            assert store.read("core.space_counts", space=space) == before
        else:
            _assert_ids_unique(store, space, conversation_id, session, messages)
        assert store.read("core.partial_sessions", space=space) == []

    return run


def _assert_ids_unique(
    store: GraphStore, space: str, conversation_id: Any, session: Any, messages: Any
) -> None:
    stored = api_session(conversation_id, session, messages, None, 0)  # as it was stored
    added = stored.sessions[0]
    clashes = store.read(
        "core.turn_ids_elsewhere",
        space=space,
        conversation_id=stored.conversation_id,
        source_id=added.source_id,
        ids=[t.source_id for t in added.turns],
    )
    assert clashes == []


def test_a_turn_id_of_another_stored_session_is_refused(
    memory: Memory, store: GraphStore, space: str
) -> None:
    memory.add_messages(
        space, "chat", "s1", [{"speaker": "Ana", "text": "hi", "id": "m1"}], builders=[]
    )
    before = store.read("core.space_counts", space=space)
    with pytest.raises(InputError) as caught:
        memory.add_messages(
            space, "chat", "s2", [{"speaker": "Ben", "text": "yo", "id": "m1"}], builders=[]
        )
    assert (caught.value.record, caught.value.field) == ("message 0", "id")
    assert "already used in session 's1'" in str(caught.value)
    assert store.read("core.space_counts", space=space) == before
    # the same session again is a rewrite, not a clash; another conversation is another turn
    memory.add_messages(
        space, "chat", "s1", [{"speaker": "Ana", "text": "hi!", "id": "m1"}], builders=[]
    )
    memory.add_messages(
        space, "other", "s2", [{"speaker": "Ben", "text": "yo", "id": "m1"}], builders=[]
    )


def test_fuzz_add_messages(memory: Memory, store: GraphStore, space: str) -> None:
    _fuzz(SHORT, memory, store, space)()


@pytest.mark.long
def test_fuzz_add_messages_long(memory: Memory, store: GraphStore, space: str) -> None:
    _fuzz(LONG, memory, store, space)()
