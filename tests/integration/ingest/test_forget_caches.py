"""After a forget, the vector cache and the LLM answer cache hold exactly what a build
that never saw the forgotten turn uses: nothing of the turn (its vector, the vectors of
design texts that quoted it, the model's answers to prompts that held it, answers to
questions about the space), and everything a build of the kept turns asks for."""

from __future__ import annotations

import random
import sqlite3
import string
from pathlib import Path

import pytest

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.embed.cache import CachedEmbedder, VectorStore
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import ConversationIn, Dataset
from graphmem.llm.cache import CACHE_FILE_NAME
from graphmem.llm.openai_llm import OpenAIStructuredLLM
from graphmem.memory import Memory
from graphmem.plugin.registry import builder_names
from tests.fakes.openai_server import FakeOpenAIServer
from tests.fakes.weak_model import WeakModel
from tests.integration.helpers import fake_llm_settings, tiny_conversation

pytestmark = pytest.mark.integration


def _planted(secret: str) -> tuple[ConversationIn, ConversationIn, str]:
    """A conversation with ``secret`` said in one turn, the same without that turn, and
    the turn's id."""
    conv = tiny_conversation("conv-a", sessions=2)
    sessions = list(conv.sessions)
    turns = list(sessions[0].turns)
    said = turns[1].model_copy(update={"text": f"My new password is {secret}, keep it."})
    sessions[0] = sessions[0].model_copy(update={"turns": [turns[0], said, *turns[2:]]})
    kept = sessions[0].model_copy(update={"turns": [turns[0], *turns[2:]]})
    planted = conv.model_copy(update={"sessions": sessions})
    return planted, conv.model_copy(update={"sessions": [kept, *sessions[1:]]}), said.source_id


def _held(path: Path, table: str, space: str | None = None) -> set[bytes | str]:
    """Entries of a cache file some use holds (of ``space`` only, when given)."""
    where = "" if space is None else " AND u.space = ?"
    with sqlite3.connect(path) as db:
        rows = db.execute(
            f"SELECT DISTINCT t.key FROM {table} t JOIN uses u ON u.key = t.key WHERE 1=1{where}",
            () if space is None else (space,),
        ).fetchall()
    return {r[0] for r in rows}


def test_the_caches_after_a_forget_hold_what_a_build_without_the_turn_uses(
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    space: str,
    clean_space: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    # A name-like secret: the weak model copies names into its answers, as a model would.
    secret = "Zq" + "".join(random.choices(string.ascii_lowercase, k=14))
    planted, without, turn = _planted(secret)
    vectors = tmp_path / "vectors.sqlite3"
    cached = CachedEmbedder(embedder, VectorStore(vectors, 64 << 20))
    with FakeOpenAIServer(default=WeakModel(every=4)) as server:
        fake = fake_llm_settings(settings, server.base_url, tmp_path)
        llm_settings = fake.model_copy(update={"llm_model": "weak-model", "llm_cache": True})
        with OpenAIStructuredLLM(llm_settings) as llm:
            memory = Memory(llm_settings, store=store, embedder=cached, llm=llm)
            everything = list(builder_names())
            memory.ingest_dataset(Dataset(conversations=[planted], qa={}), space, everything)
            memory.ask(f"Is {secret} the new password?", space)
            answers = tmp_path / CACHE_FILE_NAME
            assert secret.encode() in answers.read_bytes(), "planted: the model's answers hold it"
            memory.forget(space, turns=[turn])
            held_answers = _held(answers, "responses")
            held_vectors = _held(vectors, "vectors")
            asked = server.request_count()
            cached.clear_memory()
            memory.ingest_dataset(Dataset(conversations=[without], qa={}), clean_space, everything)
            # Everything a build without the turn needs was kept (no request, nothing new)...
            assert server.request_count() == asked
            # ...and nothing else: what is held is what that build used.
            assert held_answers == _held(answers, "responses", clean_space)
            assert held_vectors == _held(vectors, "vectors", clean_space)
    assert cached.store is not None
    cached.store.close()
    for file in tmp_path.rglob("*"):
        if file.is_file():
            assert secret.encode() not in file.read_bytes(), file
