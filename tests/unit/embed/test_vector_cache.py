"""The content-hash vector cache (graphmem/embed/cache.py) in front of the real e5-small-v2
int8 and MiniLM embedders: what it returns is what the model gives, bit for bit; a text is
embedded once per (embedder, side); the file is private, capped, shared by processes, and a
broken one never fails an embedding."""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from graphmem.config import Settings
from graphmem.embed import build_embedder
from graphmem.embed.base import Embedder
from graphmem.embed.cache import CachedEmbedder, VectorStore, cache_path
from graphmem.embed.factory import build_model
from graphmem.embed.vector_store import _wal
from tests.counting_embedder import Counting
from tests.paths import ROOT

pytestmark = pytest.mark.slow

TEXTS = [
    "Caroline went to the LGBTQ support group on 7 May 2023.",
    "Melanie painted a sunrise over the lake.",
    "ok",
    "Caroline went to the LGBTQ support group on 7 May 2023.",  # again, in the same call
]


@pytest.fixture(scope="module")
def e5() -> Embedder:
    return build_model(Settings(embedder="e5-small-v2", embedding_precision="int8"))


def cached(inner: Embedder, path: Path, mb: int = 64) -> tuple[CachedEmbedder, Counting]:
    counting = Counting(inner)
    return CachedEmbedder(counting, VectorStore(path, mb << 20)), counting


def test_build_embedder_puts_every_embedder_behind_the_cache(tmp_path: Path) -> None:
    settings = Settings(embedder="e5-small-v2", embedding_precision="int8", cache_dir=tmp_path)
    embedder = build_embedder(settings)
    assert isinstance(embedder, CachedEmbedder) and embedder.store is not None
    assert embedder.name == "intfloat/e5-small-v2:int8"
    assert CachedEmbedder.wrap(embedder) is embedder  # the strategy's wrap shares it
    off = build_embedder(settings.model_copy(update={"vector_cache_mb": 0}))
    assert isinstance(off, CachedEmbedder) and off.store is None
    assert embedder.store.path == cache_path(settings) and cache_path(settings).is_file()


def test_vectors_are_the_models_bit_for_bit_and_each_text_is_embedded_once(
    e5: Embedder, tmp_path: Path
) -> None:
    path = tmp_path / "v.sqlite3"
    first, counting = cached(e5, path)
    got = first.embed(TEXTS)
    assert np.array_equal(got, e5.embed(TEXTS))
    assert sorted(counting.seen) == sorted(set(TEXTS))  # deduplicated within the call
    assert np.array_equal(first.embed(TEXTS[:2]), got[:2]) and len(counting.seen) == 3
    # Another process (a new connection, an empty memory tier) embeds nothing again.
    second, again = cached(e5, path)
    assert np.array_equal(second.embed(list(reversed(TEXTS))), got[::-1])
    assert again.seen == []


def test_a_forgotten_text_is_gone_from_both_tiers_and_from_the_file(
    e5: Embedder, tmp_path: Path
) -> None:
    path = tmp_path / "v.sqlite3"
    first, counting = cached(e5, path)
    vectors = first.embed(TEXTS[:3])
    assert first.forget([TEXTS[1]]) == 1 and first.store is not None
    assert first.store.count() == 2
    first.embed(TEXTS[:3])
    assert counting.seen.count(TEXTS[1]) == 2, "embedded again: no tier kept it"
    assert first.forget([TEXTS[1]]) == 1
    first.store.close()
    stored = b"".join(f.read_bytes() for f in tmp_path.iterdir() if f.is_file())
    # A row longer than a page's share spills over: look for its first bytes.
    assert vectors[1].astype("<f4").tobytes()[:64] not in stored  # overwritten, not left
    assert vectors[0].astype("<f4").tobytes()[:64] in stored


def test_sides_and_identities_are_part_of_the_key(e5: Embedder, tmp_path: Path) -> None:
    embedder, counting = cached(e5, tmp_path / "v.sqlite3")
    text = [TEXTS[1]]
    query, passage = embedder.embed(text, "query"), embedder.embed(text, "passage")
    assert not np.array_equal(query, passage) and len(counting.seen) == 2
    # e5's symmetric side is its query side ("query: " on both sides): the same entry
    assert np.array_equal(embedder.embed(text, "symmetric"), query) and len(counting.seen) == 2
    assert np.array_equal(query, e5.embed(text, "query"))
    fp32 = build_model(Settings(embedder="e5-small-v2", embedding_precision="float32"))
    other, seen = cached(fp32, tmp_path / "v.sqlite3")
    assert np.array_equal(other.embed(text, "query"), fp32.embed(text, "query"))
    assert seen.seen == text  # the float32 graph does not reuse the int8 vector
    minilm = build_model(Settings(embedder="minilm"))
    assert minilm.side("query") == minilm.side("passage") == minilm.side("symmetric")


def test_the_file_is_private(e5: Embedder, tmp_path: Path) -> None:
    settings = Settings(embedder="e5-small-v2", embedding_precision="int8", cache_dir=tmp_path)
    store = VectorStore.open(settings)
    assert store is not None
    CachedEmbedder(e5, store).embed(TEXTS)
    path = cache_path(settings)
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    for file in path.parent.iterdir():
        assert stat.S_IMODE(file.stat().st_mode) == 0o600, file


def test_least_recently_used_entries_go_past_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import graphmem.embed.vector_store as cache

    clock = [1_000_000]
    monkeypatch.setattr(cache, "_now", lambda: clock[0])
    # 1536 + 120 bytes an entry: a cap of 100 KiB holds 61 entries, eviction keeps 54.
    store = VectorStore(tmp_path / "v.sqlite3", 100 << 10)
    rng = np.random.default_rng(0)
    keys = [bytes([i]) * 32 for i in range(61)]
    vectors = rng.standard_normal((61, 384)).astype(np.float32)
    for key, vector in zip(keys, vectors, strict=True):
        clock[0] += 10
        store.put([(key, vector)])
    assert store.count() == 61
    clock[0] += 2 * cache._TOUCH_S
    assert set(store.get(keys[:3], 384)) == set(keys[:3])  # used again: now the newest
    clock[0] += 10
    store.put([(b"\xff" * 32, vectors[0])])
    assert store.count() == 54
    left = store.get([*keys, b"\xff" * 32], 384)
    assert set(keys[:3]) <= set(left) and b"\xff" * 32 in left
    assert not set(keys[3:11]) & set(left)  # the oldest went
    assert np.array_equal(left[keys[20]], vectors[20])


def test_a_corrupt_file_costs_a_warning_never_an_embedding(
    e5: Embedder, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(embedder="e5-small-v2", embedding_precision="int8", cache_dir=tmp_path)
    path = cache_path(settings)
    path.parent.mkdir(mode=0o700)
    path.write_bytes(b"this is not a database" * 100)
    with caplog.at_level(logging.WARNING):
        store = VectorStore.open(settings)
    assert store is not None and "starting a new one" in caplog.text  # rebuilt
    embedder = CachedEmbedder(e5, store)
    assert np.array_equal(embedder.embed(TEXTS), e5.embed(TEXTS))
    # Broken under an open connection: one warning, then the model alone.
    store.close()
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        assert np.array_equal(
            embedder.embed(["fresh text", "another"]), e5.embed(["fresh text", "another"])
        )
        assert np.array_equal(embedder.embed(["third"]), e5.embed(["third"]))
    assert embedder.store is None
    assert caplog.text.count("unused from now on") == 1


def _corrupt_pages(path: Path) -> None:
    """Garbage over the pages past the schema, the tables' roots and the meta table: the
    file opens, a lookup fails."""
    data = bytearray(path.read_bytes())
    data[5 * 4096 :] = b"\xa5" * (len(data) - 5 * 4096)
    path.write_bytes(bytes(data))


def _filled(path: Path) -> None:
    store = VectorStore(path, 64 << 20)
    rng = np.random.default_rng(7)
    store.put([(bytes([i % 256, i // 256]) * 16, rng.random(384)) for i in range(400)])
    store.close()
    assert not Path(f"{path}-wal").exists()  # the last connection checkpointed it


def test_a_file_corrupt_under_use_is_deleted_only_by_its_last_user(
    e5: Embedder, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "v.sqlite3"
    _filled(path)
    _corrupt_pages(path)
    other = VectorStore(path, 64 << 20)  # another process's open cache (its own lock)
    embedder = CachedEmbedder(e5, VectorStore(path, 64 << 20))
    with caplog.at_level(logging.WARNING):
        assert np.array_equal(embedder.embed(TEXTS), e5.embed(TEXTS))
    assert embedder.store is None and "malformed" in caplog.text
    assert path.exists() and "deleted" not in caplog.text  # another user: left alone
    other.close()
    caplog.clear()
    alone = CachedEmbedder(e5, VectorStore(path, 64 << 20))
    with caplog.at_level(logging.WARNING):
        alone.embed(["a text never cached"])
    assert alone.store is None and "deleted" in caplog.text and not path.exists()
    fresh, counting = cached(e5, path)
    fresh.embed(TEXTS)
    assert fresh.store is not None and fresh.store.count() == 3 and len(counting.seen) == 3


def test_a_corrupt_file_another_process_holds_is_not_replaced(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(cache_dir=tmp_path)
    path = cache_path(settings)
    path.parent.mkdir(mode=0o700)
    path.write_bytes(b"this is not a database" * 300)
    holder = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(holder, fcntl.LOCK_SH)  # what another process's open cache holds
    with caplog.at_level(logging.WARNING):
        assert VectorStore.open(settings) is None
    assert "in use by another process" in caplog.text and path.read_bytes()[:4] == b"this"
    os.close(holder)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        replaced = VectorStore.open(settings)
    assert replaced is not None and "starting a new one" in caplog.text
    assert replaced.count() == 0
    replaced.close()


def test_a_second_store_in_one_process_keeps_the_first_ones_locks(tmp_path: Path) -> None:
    """Opening the file a second time in a process must not drop the POSIX locks its first
    connection holds: another process closing its connection would take itself for the
    last user, checkpoint and delete the WAL under the first (how a shared cache was
    damaged while tests and an evaluation ran at once)."""
    path = tmp_path / "v.sqlite3"
    first = VectorStore(path, 64 << 20)
    rng = np.random.default_rng(3)
    first.put([(bytes([i]) * 32, rng.random(384)) for i in range(50)])
    second = VectorStore(path, 64 << 20)
    wal = Path(f"{path}-wal")
    assert wal.stat().st_size > 0
    read = "db.execute('SELECT count(*) FROM vectors').fetchone(); db.close()"
    other = f"import sqlite3; db = sqlite3.connect({str(path)!r}); {read}"
    subprocess.run([sys.executable, "-c", other], check=True)
    assert wal.exists()  # the other process saw this one's connections
    first.put([(bytes([i]) * 32, rng.random(384)) for i in range(50, 100)])
    first.close()
    second.close()
    again = VectorStore(path, 64 << 20)
    assert again.count() == 100
    assert again._db.execute("PRAGMA quick_check").fetchone() == ("ok",)
    again.close()


def test_an_unusable_folder_means_no_disk_tier(
    e5: Embedder, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder would be")
    settings = Settings(cache_dir=blocked)
    with caplog.at_level(logging.WARNING):
        assert VectorStore.open(settings) is None
    assert "vector cache" in caplog.text
    assert VectorStore.open(Settings(cache_dir=tmp_path, vector_cache_mb=0)) is None


_WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    import numpy as np
    from graphmem.config import Settings
    from graphmem.embed.factory import build_model
    from graphmem.embed.cache import CachedEmbedder, VectorStore

    path, out, offset = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    inner = build_model(Settings(embedder="e5-small-v2", embedding_precision="int8"))
    embedder = CachedEmbedder(inner, VectorStore(path, 64 << 20))
    texts = [f"turn {i}: we talked about the trip to Paris" for i in range(offset, offset + 120)]
    rows = [embedder.embed(texts[i : i + 8]) for i in range(0, len(texts), 8)]
    assert embedder.store is not None, "the cache was given up"
    np.save(out, np.concatenate(rows))
    """
)


def test_two_processes_write_one_cache_at_once(e5: Embedder, tmp_path: Path) -> None:
    """Two ingests, overlapping texts, small calls (many write transactions each)."""
    path = tmp_path / "vectors" / "v.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(path), str(tmp_path / f"{n}.npy"), str(n * 60)],
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in (0, 1)
    ]
    errors = [p.communicate(timeout=300)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errors
    assert not any("vector cache" in e for e in errors), errors
    texts = [f"turn {i}: we talked about the trip to Paris" for i in range(180)]
    expected = e5.embed(texts)
    assert np.array_equal(np.load(tmp_path / "0.npy"), expected[:120])
    assert np.array_equal(np.load(tmp_path / "1.npy"), expected[60:])
    reader, counting = cached(e5, path)
    assert np.array_equal(reader.embed(texts), expected) and counting.seen == []
    assert reader.store is not None and reader.store.count() == 180


class _LockedAtFirst:
    """A real connection whose first ``times`` statements meet another process's lock."""

    def __init__(self, path: Path, times: int) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)
        self.times = times

    def execute(self, sql: str) -> sqlite3.Cursor:
        if self.times > 0:
            self.times -= 1
            raise sqlite3.OperationalError("database is locked")
        return self.db.execute(sql)


def test_wal_switch_waits_out_a_lock_and_gives_up_at_its_deadline(tmp_path: Path) -> None:
    """SQLite can refuse the WAL switch at once while another process opens the same new
    cache; the open waits for it instead of failing (seen once in CI)."""
    waited = _LockedAtFirst(tmp_path / "a.sqlite3", times=3)
    _wal(waited, deadline=time.monotonic() + 5)  # type: ignore[arg-type]
    assert waited.times == 0
    assert waited.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    stuck = _LockedAtFirst(tmp_path / "b.sqlite3", times=10**6)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        _wal(stuck, deadline=time.monotonic() + 0.2)  # type: ignore[arg-type]
