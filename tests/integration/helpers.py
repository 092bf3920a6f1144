"""Small conversations built in code for integration tests, and a statement recorder."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from graphmem.config import Settings
from graphmem.graph.digest import space_digest
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import ConversationIn, SessionIn, Turn
from tests.fakes.openai_server import FakeOpenAIServer, Responder

TOPICS = [
    ("Ana", "I adopted a grey kitten named Pixel from the shelter last week."),
    ("Ben", "Nice! I finally finished the marathon in Lisbon, it took me four hours."),
    ("Ana", "My sister is moving to Toronto for a job in robotics."),
    ("Ben", "I started learning the cello because my grandfather played it."),
    ("Ana", "We planted tomatoes and basil in the community garden."),
    ("Ben", "My startup ships a budgeting app for students next month."),
]


def tiny_conversation(
    conversation_id: str = "conv-test", sessions: int = 2, extra: str | None = None
) -> ConversationIn:
    """``sessions`` weekly sessions of the six TOPICS turns; ``extra`` adds one more turn
    (said by Ana) at the end of the last session."""
    start = datetime(2023, 5, 8, 13, 56)
    out = []
    for s in range(sessions):
        at = start + timedelta(days=7 * s)
        turns = [
            Turn(
                source_id=f"D{s + 1}:{i + 1}",
                speaker=speaker,
                text=f"{text} (session {s + 1})",
                timestamp=at,
                index=i,
            )
            for i, (speaker, text) in enumerate(TOPICS)
        ]
        if extra and s == sessions - 1:
            turns.append(
                Turn(source_id=f"D{s + 1}:7", speaker="Ana", text=extra, timestamp=at, index=6)
            )
        out.append(SessionIn(index=s, source_id=f"session_{s + 1}", started_at=at, turns=turns))
    return ConversationIn(
        conversation_id=conversation_id, speakers=["Ana", "Ben"], sessions=out, meta={}
    )


@contextmanager
def recorded_calls(store: GraphStore, method: str) -> Iterator[list[str]]:
    """The catalog statement names passed to ``store.<method>`` ("read"/"write") inside."""
    calls: list[str] = []
    original = getattr(store, method)

    def spy(name: str, **params: Any) -> list[dict[str, Any]]:
        calls.append(name)
        result: list[dict[str, Any]] = original(name, **params)
        return result

    setattr(store, method, spy)
    try:
        yield calls
    finally:
        setattr(store, method, original)


def fake_llm_settings(settings: Settings, base_url: str, cache_dir: Path) -> Settings:
    """``settings`` pointed at a fake OpenAI-compatible server: no cache, no retries, so
    every request the test expects is one the server sees."""
    return settings.model_copy(
        update={
            "llm_base_url": base_url,
            "llm_model": "fake-model",
            "llm_cache": False,
            "llm_max_retries": 0,
            "cache_dir": cache_dir,
            "llm_api_key": SecretStr("test-key"),
        }
    )


def derived_labels(store: GraphStore, space: str) -> set[tuple[str, bool]]:
    """(backend, fallback) of the space's derived nodes (core nodes have no backend)."""
    rows = store.read("core.digest_nodes", space=space, skip=["embedding"])
    props = [dict(row["props"]) for row in rows]
    return {
        (str(p["backend"]), bool(p.get("fallback")))
        for p in props
        if "backend" in p and p.get("builder") != "core"
    }


@contextmanager
def fake_server(monkeypatch: pytest.MonkeyPatch, answer: Responder) -> Iterator[FakeOpenAIServer]:
    """A fake OpenAI-compatible server on 127.0.0.1 answering with ``answer``, reached
    directly even when the machine sets an HTTP proxy."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    with FakeOpenAIServer(default=answer) as server:
        yield server


def assert_same_digest(store: GraphStore, space: str, clean: str) -> None:
    """``space`` is what the build of ``clean`` is: the label and relationship counts first
    (a readable difference), then the whole digest."""
    found, want = space_digest(store, space), space_digest(store, clean)
    assert found.labels == want.labels
    assert found.types == want.types
    assert found.sha256 == want.sha256


_SCAN = """
import json, sys
from pathlib import Path
secret, (folders, skip) = sys.argv[1].encode(), json.loads(sys.argv[2])
left = {Path(p) for p in skip}
for folder in folders:
    for file in Path(folder).rglob("*"):
        if file.is_file() and not left & set(file.parents) and secret in file.read_bytes():
            print(json.dumps(str(file)))
"""


def files_holding(secret: str, folders: list[Path], skip: list[Path]) -> list[str]:
    """The files under ``folders`` (not under ``skip``) holding ``secret``, read by another
    process: closing any descriptor of an SQLite file drops every POSIX lock this process
    holds on it, so reading a cache this process has open (the vector cache) lets another
    process that uses it too take itself for the last user and damage it."""
    where = json.dumps([[str(f) for f in folders], [str(f) for f in skip]])
    done = subprocess.run(
        [sys.executable, "-c", _SCAN, secret, where], capture_output=True, text=True, check=True
    )
    return [json.loads(line) for line in done.stdout.splitlines()]
