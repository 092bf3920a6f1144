"""Cache uses: a sweep drops exactly the entries only the swept scopes used before it
began, in the vector cache and the LLM answer cache alike, and leaves no byte of them."""

from __future__ import annotations

import math
import sqlite3
import time
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.embed.cache import VectorStore
from graphmem.llm.cache import ResponseCache
from graphmem.process import uses

SPACES = ("a", "b")
CONVERSATIONS = ("", "c1", "c2")


def _table(db: sqlite3.Connection) -> None:
    db.execute("CREATE TABLE entries (key TEXT PRIMARY KEY)")
    for statement in uses.USES_SCHEMA:
        db.execute(statement)


use = st.tuples(st.sampled_from(SPACES), st.sampled_from(CONVERSATIONS), st.integers(0, 5))


@settings(max_examples=150, deadline=None)
@given(
    used=st.lists(use, max_size=25),
    unscoped=st.sets(st.integers(0, 5), max_size=3),
    swept=st.sampled_from(["all", *CONVERSATIONS[1:]]),
)
def test_an_entry_goes_exactly_when_only_swept_uses_held_it(
    used: list[tuple[str, str, int]], unscoped: set[int], swept: str
) -> None:
    db = sqlite3.connect(":memory:", isolation_level=None)
    _table(db)
    keys = {f"k{k}" for *_, k in used} | {f"k{k}" for k in unscoped}
    db.executemany("INSERT INTO entries VALUES (?)", [(k,) for k in keys])
    for space, conversation, k in used:
        with uses.scope(space, conversation):
            uses.mark(db, [f"k{k}"])
    uses.mark(db, [f"k{k}" for k in unscoped])  # outside any scope: not recorded
    conversations = None if swept == "all" else [swept, ""]
    in_sweep = {"", swept} if conversations else set(CONVERSATIONS)

    def swept_use(space: str, conversation: str) -> bool:
        return space == "a" and conversation in in_sweep

    gone = uses.sweep(db, "entries", "a", conversations, math.inf)
    left = {row[0] for row in db.execute("SELECT key FROM entries")}
    holders: dict[str, list[bool]] = {}
    for space, conversation, k in used:
        holders.setdefault(f"k{k}", []).append(swept_use(space, conversation))
    expected_gone = {k for k, by in holders.items() if all(by)}
    assert left == keys - expected_gone and gone == len(expected_gone)
    # what stays is still held: another sweep of the same scopes takes nothing more
    assert uses.sweep(db, "entries", "a", conversations, math.inf) == 0


def test_a_use_after_the_sweeps_start_keeps_its_entry() -> None:
    db = sqlite3.connect(":memory:", isolation_level=None)
    _table(db)
    db.executemany("INSERT INTO entries VALUES (?)", [("old",), ("again",)])
    with uses.scope("a", "c1"):
        uses.mark(db, ["old", "again"])
        started = time.time()
        time.sleep(0.01)
        uses.mark(db, ["again"])  # the rebuild used it again
    assert uses.sweep(db, "entries", "a", ["c1", ""], started) == 1
    assert [r[0] for r in db.execute("SELECT key FROM entries")] == ["again"]


def test_the_vector_cache_sweeps_what_only_a_conversation_used(tmp_path: Path) -> None:
    store = VectorStore(tmp_path / "v.sqlite3", 64 << 20)
    secret, shared = np.full(384, 0.25, "<f4"), np.full(384, 0.5, "<f4")
    with uses.scope("a", "c1"):
        store.put([(b"secret", secret), (b"shared", shared)])
    with uses.scope("b", "c9"):
        assert set(store.get([b"shared"], 384)) == {b"shared"}  # a hit is a use
    store.put([(b"nobody", shared)])  # no scope: never swept
    assert store.sweep("a", ["c1", ""], math.inf) == 1
    assert set(store.get([b"secret", b"shared", b"nobody"], 384)) == {b"shared", b"nobody"}
    assert store.count() == 2
    store.close()
    stored = b"".join(f.read_bytes() for f in tmp_path.iterdir() if f.is_file())
    assert secret.tobytes()[:64] not in stored and shared.tobytes()[:64] in stored


def test_the_llm_cache_sweeps_a_spaces_answers_and_leaves_no_byte(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "llm.sqlite")
    with uses.scope("a"):
        cache.put("q1", '{"answer": "the PIN is 90210-SECRET"}')
    with uses.scope("a", "c1"):
        cache.put("build", '{"facts": ["kept"]}')
    with uses.scope("b"):
        cache.put("q2", '{"answer": "elsewhere"}')
    assert cache.sweep("a", ["c2", ""], math.inf) == 1  # the space-wide scope goes too
    assert cache.get("q1") is None and cache.get("build") is not None
    assert cache.get("q2") is not None
    assert cache.sweep("a", None, math.inf) == 1 and cache.get("build") is None
    cache.close()
    stored = b"".join(f.read_bytes() for f in tmp_path.iterdir() if f.is_file())
    assert b"90210-SECRET" not in stored and b"elsewhere" in stored


def test_a_cache_never_opened_is_not_created_by_a_sweep(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "llm.sqlite")
    assert cache.sweep("a", None, math.inf) == 0
    assert not (tmp_path / "llm.sqlite").exists()
