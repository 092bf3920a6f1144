"""Issue 15 item 3: re-ingesting a changed session replaces it and everything derived from
it, for every design: the graph equals a clean build of the new data (equal digests), and
nothing of the old text survives."""

from __future__ import annotations

from typing import Any

import pytest

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.graph.digest import space_digest
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import ConversationIn, Dataset
from graphmem.memory import Memory
from tests.integration.helpers import assert_same_digest, tiny_conversation

pytestmark = pytest.mark.integration

OLD = "I finally finished the marathon in Lisbon"
NEW = "I finally finished the triathlon in Porto"


def edited(conv: ConversationIn, drop_last: bool = False) -> ConversationIn:
    """The conversation with one turn of its last session reworded (and maybe one less)."""
    last = conv.sessions[-1]
    turns = [t.model_copy(update={"text": t.text.replace(OLD, NEW)}) for t in last.turns]
    if drop_last:
        turns = turns[:-1]
    sessions = [*conv.sessions[:-1], last.model_copy(update={"turns": turns})]
    return conv.model_copy(update={"sessions": sessions})


def _ingest(memory: Memory, space: str, conv: ConversationIn, builders: list[str]) -> None:
    memory.ingest_dataset(Dataset(conversations=[conv], qa={}), space, builders)


def _old_text_nodes(store: GraphStore, space: str) -> int:
    """Nodes with a property that still speaks of the marathon."""
    with store.driver.session(database=store.database) as session:
        record = session.run(
            # Vector properties are never read: reading them made this take 45 s on a
            # database of many spaces.
            "MATCH (n) WHERE n.space = $space "
            "WITH n, [k IN keys(n) WHERE k <> 'embedding'] AS texts "
            "WHERE any(k IN texts WHERE n[k] IS :: STRING AND toLower(n[k]) CONTAINS 'marathon') "
            "RETURN count(n) AS c",
            space=space,
        ).single()
    assert record is not None
    return int(record["c"])


@pytest.mark.parametrize(
    "builders",
    [
        [],
        ["anchormem"],
        ["seem"],
        ["seem", "anchormem"],
        ["semantic", "amory"],
        ["semantic", "cast"],
        ["semantic", "premem"],
    ],
)
@pytest.mark.parametrize("drop_last", [False, True])
def test_changed_session_replaces_everything_derived_from_it(
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    space: str,
    clean_space: str,
    builders: list[str],
    drop_last: bool,
) -> None:
    memory = Memory(settings, store=store, embedder=embedder)
    before = tiny_conversation(sessions=2)
    after = edited(before, drop_last)
    _ingest(memory, space, before, builders)
    _ingest(memory, clean_space, after, builders)
    assert _old_text_nodes(store, space) > _old_text_nodes(store, clean_space)
    _ingest(memory, space, after, builders)
    assert _old_text_nodes(store, space) == _old_text_nodes(store, clean_space)
    assert_same_digest(store, space, clean_space)


@pytest.mark.parametrize("builders", [["anchormem"], ["seem"]])
def test_streaming_a_session_again_rebuilds_what_earlier_sessions_shared(
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    space: str,
    clean_space: str,
    builders: list[str],
) -> None:
    """add_messages of a longer version of the last session: derived nodes that also came
    from earlier sessions (not in this call's input) are rebuilt from the stored turns, and
    the graph equals one batch ingest of the final conversation."""
    memory = Memory(settings, store=store, embedder=embedder)
    conv = tiny_conversation(sessions=2, extra="We also adopted a second kitten.")
    for session in conv.sessions:
        turns = session.turns[:-1] if session is conv.sessions[-1] else session.turns
        _stream(memory, space, conv.conversation_id, session.source_id, turns, builders)
    last = conv.sessions[-1]
    _stream(memory, space, conv.conversation_id, last.source_id, last.turns, builders)
    _ingest(memory, clean_space, conv, builders)
    assert space_digest(store, space).sha256 == space_digest(store, clean_space).sha256


def _stream(
    memory: Memory, space: str, cid: str, name: str, turns: list[Any], builders: list[str]
) -> None:
    messages = [
        {"id": t.source_id, "speaker": t.speaker, "text": t.text, "timestamp": t.timestamp}
        for t in turns
    ]
    memory.add_messages(space, cid, name, messages, turns[0].timestamp, builders)


@pytest.mark.xfail(
    strict=True,
    reason="known: a rewritten session clears the built marks of another conversation's "
    "sessions that shared a fact, and their rebuild is not a clean build's (Amory's "
    "narratives count them again; a SEEM AssocEvent keeps an extra FROM). graphmem forget "
    "avoids it by building the conversations again whole.",
)
@pytest.mark.parametrize("builders", [["semantic", "amory"], ["semantic", "anchormem", "seem"]])
def test_a_changed_session_rebuilds_what_another_conversation_shared(
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    space: str,
    clean_space: str,
    builders: list[str],
) -> None:
    """Two conversations saying the same things share semantic facts: rewriting a session
    of one rebuilds what the other's sessions fed, and the graph equals a clean build."""
    memory = Memory(settings, store=store, embedder=embedder)
    before, other = tiny_conversation("conv-a", sessions=2), tiny_conversation("conv-b", 2)
    memory.ingest_dataset(Dataset(conversations=[before, other], qa={}), space, builders)
    after = edited(before)
    memory.ingest_dataset(Dataset(conversations=[after], qa={}), space, builders)
    memory.ingest_dataset(Dataset(conversations=[after, other], qa={}), clean_space, builders)
    assert_same_digest(store, space, clean_space)
