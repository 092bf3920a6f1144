"""Every design on a person talking to an AI assistant (speakers "user" and "assistant",
graphmem/nlp/roles.py), offline, on a real Neo4j: the memory is the user's. The same
conversation between two people (the assistant renamed "Ben") is the control: each rule
below holds only because one speaker is an assistant."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import ConversationIn, Dataset, SessionIn, Turn
from graphmem.memory import Memory
from tests.conftest import delete_space

pytestmark = pytest.mark.integration

BUILDERS = ["semantic", "cast", "premem", "amory", "seem", "anchormem"]
# A long answer: six content sentences, an example person, generic advice about "you".
ANSWER = (
    "Oat milk is a great choice for coffee because it foams well. "
    "Since you like oat milk, you could try a flat white next time. "
    "Gordon Ramsay recommends warming the milk slowly before pouring it. "
    "Barista editions of oat milk contain added oil for better texture. "
    "Many cafes now charge extra for plant milks in their drinks. "
    "Keep the carton in the fridge after opening it."
)
SESSIONS = [
    [
        ("user", "I prefer oat milk in my coffee, and my friend Maria got me into it."),
        ("assistant", ANSWER),
        ("user", "I bought a new espresso machine at the Lisbon market yesterday."),
        ("assistant", "An espresso machine opens up many drinks. Enjoy experimenting with it!"),
    ],
    [
        ("user", "I started a pottery class with Maria on Tuesday evenings."),
        ("assistant", "Pottery is a relaxing hobby. You will learn to centre clay first."),
        ("user", "I love the smell of the clay studio."),
        ("assistant", "Many people find the studio atmosphere calming and creative."),
    ],
    [  # the assistant opens a session alone: the story is still the user's
        ("assistant", "Welcome back! Here is your weekly digest of tomato growing tips."),
        ("assistant", "Tomato plants need six hours of direct sun and deep watering."),
    ],
]


def conversation(assistant: str) -> ConversationIn:
    start = datetime(2024, 3, 4, 9, 0)
    sessions = []
    for s, lines in enumerate(SESSIONS):
        at = start + timedelta(days=9 * s)
        turns = [
            Turn(
                source_id=f"s{s}:{i}",
                speaker=assistant if who == "assistant" else who,
                text=text,
                timestamp=at,
                index=i,
            )
            for i, (who, text) in enumerate(lines)
        ]
        sessions.append(SessionIn(index=s, source_id=f"s{s}", started_at=at, turns=turns))
    return ConversationIn(
        conversation_id="chat", speakers=["user", assistant], sessions=sessions, meta={}
    )


def _read(store: GraphStore, space: str, cypher: str) -> list[dict[str, Any]]:
    with store.driver.session(database=store.database) as session:
        return [dict(r) for r in session.run(cypher, space=space)]


def _build(settings: Settings, store: GraphStore, embedder: Embedder, space: str, who: str) -> None:
    memory = Memory(settings, store=store, embedder=embedder)
    memory.ingest_dataset(Dataset(conversations=[conversation(who)], qa={}), space, BUILDERS)


@pytest.fixture(scope="module")
def built(settings: Settings, store: GraphStore, embedder: Embedder) -> Iterator[dict[str, str]]:
    names = {"assistant": "test-ua-assistant", "Ben": "test-ua-people"}
    for who, space in names.items():
        delete_space(store, space)
        _build(settings, store, embedder, space, who)
    yield names
    for space in names.values():
        delete_space(store, space)


def test_cast_gives_the_assistant_no_scenes_and_no_participants(
    built: dict[str, str], store: GraphStore
) -> None:
    query = "MATCH (s:Scene {space: $space}) RETURN s.character AS c, s.participants AS p"
    scenes = _read(store, built["assistant"], query)
    owners = {row["c"] for row in scenes}
    assert "user" in owners and "assistant" not in owners
    named = {p for row in scenes for p in row["p"]}
    assert "Maria" in named  # the user's friend is a character
    assert "Gordon Ramsay" not in named  # the answer's example is not
    control = _read(store, built["Ben"], query)
    assert "Ben" in {row["c"] for row in control}
    assert "Gordon Ramsay" in {p for row in control for p in row["p"]}


def test_premem_fragments_are_the_users(built: dict[str, str], store: GraphStore) -> None:
    query = (
        "MATCH (f:Fragment {space: $space}) RETURN f.speaker AS s, f.category AS c, f.value AS v"
    )
    fragments = _read(store, built["assistant"], query)
    assert {row["s"] for row in fragments} == {"user"}
    preference = [row for row in fragments if "prefers oat milk" in row["v"]]
    assert preference and preference[0]["c"] == "subjective"
    assert preference[0]["v"].startswith("user prefers oat milk in user's coffee")
    control = _read(store, built["Ben"], query)
    assert "Ben" in {row["s"] for row in control}


def test_amory_stories_are_never_the_assistants(built: dict[str, str], store: GraphStore) -> None:
    query = "MATCH (n:Narrative {space: $space}) RETURN n.owner AS o"
    owners = {row["o"] for row in _read(store, built["assistant"], query)}
    assert owners and "assistant" not in owners


def test_seem_resolves_you_and_takes_no_participants_from_answers(
    built: dict[str, str], store: GraphStore
) -> None:
    query = (
        "MATCH (f:EventFrame {space: $space}) "
        "RETURN f.statements AS s, f.participants AS p, f.summary AS summary"
    )
    frames = _read(store, built["assistant"], query)
    statements = " ".join(s for row in frames for s in row["s"])
    assert "user could try a flat white" in statements  # the assistant's "you"
    assert "Gordon Ramsay" not in {p for row in frames for p in row["p"]}
    control = " ".join(s for row in _read(store, built["Ben"], query) for s in row["s"])
    assert "Since you like oat milk" in control  # between people SEEM leaves "you" alone


def test_anchormem_keeps_an_answers_first_facts(built: dict[str, str], store: GraphStore) -> None:
    query = (
        "MATCH (f:AtomicFact {space: $space})-[:FROM]->(p:Passage {source_id: 's0:1'}) "
        "RETURN f.text AS t"
    )
    facts = [row["t"] for row in _read(store, built["assistant"], query)]
    assert len(facts) == 3
    assert any("user could try a flat white" in t for t in facts)
    assert not any("fridge" in t for t in facts)
    assert len(_read(store, built["Ben"], query)) == 6
