"""The semantic layer's entities are things (graphmem/nlp/things.py): a fact whose end names
no thing keeps its text but no edge to an entity of that end; the ``paper`` preset keeps
HippoRAG 2's phrase nodes; questions and requests state no fact (graphmem/nlp/speech_acts.py)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.graph.store import GraphStore
from graphmem.memory import Memory
from graphmem.plugin.configure import DesignConfigs

pytestmark = pytest.mark.integration

TURNS = [
    ("Caroline", "I am so creative these days, and I bought a new guitar."),
    ("Melanie", "Hey Caroline, that's great! Does the guitar have a name?"),
    ("Caroline", "Tell me more about your pottery class."),
]
FACTS = """
MATCH (f:Fact {space: $space})
RETURN f.text AS text, COUNT { (f)-[:SUBJECT]->() } AS subjects,
       COUNT { (f)-[:OBJECT]->() } AS objects
ORDER BY text
"""
ENTITIES = "MATCH (e:Entity {space: $space}) RETURN collect(toLower(e.name)) AS names"


def _read(store: GraphStore, query: str, space: str) -> list[dict[str, object]]:
    with store.driver.session(database=store.database) as session:
        return [r.data() for r in session.run(query, space=space)]


def _file(tmp_path: Path) -> Path:
    path = tmp_path / "chat.jsonl"
    rows = [
        {
            "conversation": "c",
            "session": "s1",
            "speaker": who,
            "text": text,
            "timestamp": "2024-03-02T18:10:00",
            "id": f"s1:{n}",
        }
        for n, (who, text) in enumerate(TURNS, start=1)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.mark.parametrize("entities", ["things", "phrases"])
def test_entities_are_things_and_facts_keep_their_text(
    settings: Settings, store: GraphStore, embedder: Embedder, tmp_path: Path, entities: str
) -> None:
    configs = DesignConfigs(overrides={"semantic": {"entities": entities}}, file_data={})
    memory = Memory(settings, store=store, embedder=embedder, configs=configs)
    space = f"things-{uuid.uuid4().hex[:10]}"
    try:
        memory.ingest(_file(tmp_path), space, builders=["semantic"])
        facts = {str(r["text"]): r for r in _read(store, FACTS, space)}
        names = list(_read(store, ENTITIES, space)[0]["names"])  # type: ignore[call-overload]
        creative = facts["Caroline is creative"]
        assert creative["subjects"] == 1
        assert "guitar" in " ".join(names) and "caroline" in names
        if entities == "things":
            assert creative["objects"] == 0 and "creative" not in names
        else:  # HippoRAG 2's phrase nodes: every fact end is one
            assert creative["objects"] == 1 and "creative" in names
        # Melanie's question and Caroline's request assert nothing.
        assert not any("name" in text or "pottery" in text for text in facts), facts
    finally:
        memory.forget(space, missing_ok=True)
