"""Issue 15 items 6, 9, 11 against a second local server on spare ports (the shared server
is never touched): concurrent starts, file modes, and the server lost or restarted during
ingest and queries."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.config import Settings
from graphmem.errors import ServerError
from graphmem.graph.digest import SpaceDigest, space_digest
from graphmem.graph.store import GraphStore, bolt_ready
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from graphmem.server import process
from graphmem.server.permissions import too_open
from graphmem.server.runtime import Runtime
from tests.faults.points import Point, after_commits, amory_window, crash_conversation, points_of
from tests.faults.points import run as fault_run
from tests.integration.helpers import tiny_conversation
from tests.paths import ROOT

pytestmark = pytest.mark.integration
BOLT, HTTP = 27787, 27574


@pytest.fixture(scope="module")
def second(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    base = Settings()
    if not Runtime(base.runtime_dir).is_complete() or process.port_open(BOLT):
        pytest.skip("no fetched runtime, or the spare port is taken")
    home = tmp_path_factory.mktemp("second-server")
    settings = base.model_copy(
        update={
            "home": home,
            "neo4j_uri": None,
            "bolt_port": BOLT,
            "http_port": HTTP,
            "heap_size": "512m",
            "pagecache_size": "128m",
        }
    )
    yield settings
    process.stop(settings)


def _env(settings: Settings) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}
    return {
        **env,
        "PYTHONPATH": str(ROOT),
        "HF_HUB_OFFLINE": "1",
        "GRAPHMEM_HOME": str(settings.home),
        "GRAPHMEM_BOLT_PORT": str(settings.bolt_port),
        "GRAPHMEM_HTTP_PORT": str(settings.http_port),
        "GRAPHMEM_HEAP_SIZE": settings.heap_size,
        "GRAPHMEM_PAGECACHE_SIZE": settings.pagecache_size,
    }


def test_concurrent_starts_return_only_when_bolt_answers(second: Settings) -> None:
    ready: list[bool] = []
    errors: list[BaseException] = []

    def start() -> None:
        try:
            process.start(second)
            ready.append(bolt_ready(second))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=400)
    assert not errors and ready == [True, True]


def test_home_is_private_after_start(second: Settings) -> None:
    process.start(second)
    assert (second.home / "neo4j" / "data" / "dbms" / "auth.ini").is_file()
    assert too_open(second.home) == []


def _ingest_cli(settings: Settings, space: str, path: Path) -> subprocess.Popen[str]:
    main = "from graphmem.cli.main import main; main()"
    cmd = [sys.executable, "-c", main, "ingest", str(path), "--space", space]
    return subprocess.Popen(
        [*cmd, "--builders", "seem", "--no-progress"],
        cwd=ROOT,
        env=_env(settings),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _jsonl(tmp_path: Path, sessions: int) -> Path:
    conv = tiny_conversation(sessions=sessions)
    lines = [
        f'{{"conversation": "c", "session": {s.index}, "speaker": "{t.speaker}", '
        f'"text": "{t.text}", "timestamp": "{t.timestamp:%Y-%m-%dT%H:%M:%S}"}}'
        for s in conv.sessions
        for t in s.turns
    ]
    path = tmp_path / "conv.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def _wait_for_sessions(settings: Settings, space: str, n: int, job: subprocess.Popen[str]) -> None:
    with GraphStore(settings) as store:
        while job.poll() is None:
            if (
                len(store.read("core.space_counts", space=space))
                and sum(
                    r["count"]
                    for r in store.read("core.space_counts", space=space)
                    if r["label"] == "Session"
                )
                >= n
            ):
                return
            time.sleep(0.2)
    raise AssertionError(f"ingest ended before {n} sessions were stored: {job.returncode}")


def test_server_lost_mid_ingest_is_one_clean_error_and_a_rerun_completes(
    second: Settings, tmp_path: Path
) -> None:
    process.start(second)
    with Memory(second) as memory:
        memory.init()
    path = _jsonl(tmp_path, sessions=30)
    space = f"test-lost-{uuid.uuid4().hex[:6]}"
    job = _ingest_cli(second, space, path)
    _wait_for_sessions(second, space, 2, job)  # models loaded, sessions being written
    pid = process.running_pid(second)
    assert pid is not None
    os.killpg(pid, 9)  # the server dies (kill -9), not the client
    _, err = job.communicate(timeout=300)
    assert job.returncode == 4, err
    # One clean error (its hint lines indented after it), last; a warning before it (the
    # user's vector cache) is not the error.
    lines = err.strip().splitlines()
    errors = [i for i, line in enumerate(lines) if line.startswith("error:")]
    assert "Traceback" not in err and len(errors) == 1, err
    assert all(line.startswith("  ") for line in lines[errors[0] + 1 :]), err
    process.stop(second)
    process.start(second)
    rerun = _ingest_cli(second, space, path)
    _, err = rerun.communicate(timeout=600)
    assert rerun.returncode == 0, err
    with GraphStore(second) as store:
        assert store.read("core.partial_sessions", space=space) == []
        counts = {r["label"]: r["count"] for r in store.read("core.space_counts", space=space)}
    assert counts["Passage"] == 180 and counts["Session"] == 30


def _wait_gone(pid: int) -> None:
    """Until a killed server has let go of its port and store lock (a zombie has no
    command line)."""
    cmdline = Path(f"/proc/{pid}/cmdline")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            alive = cmdline.read_bytes() != b""
        except OSError:  # reaped
            alive = False
        if not alive and not process.port_open(BOLT):
            return
        time.sleep(0.2)
    pytest.fail(f"the killed server {pid} still holds its port after 60 s")


def test_a_start_that_times_out_leaves_the_server_starting(second: Settings) -> None:
    """After a kill -9 the store needs recovery; a start that gives up waiting must not
    stop a server in the middle of it, and the next start finds it and waits."""
    process.start(second)
    pid = process.running_pid(second)
    assert pid is not None
    os.killpg(pid, 9)
    _wait_gone(pid)
    impatient = second.model_copy(update={"start_timeout_s": 0.5})
    with pytest.raises(ServerError, match="left running") as caught:
        process.start(impatient)
    assert "graphmem server start" in (caught.value.hint or "")
    relaunched = process.running_pid(second)
    assert relaunched is not None and relaunched != pid
    again = process.start(second)
    assert again["already_running"] is True and again["pid"] == relaunched
    assert bolt_ready(second)


@pytest.mark.long
def test_restart_during_queries_gives_clean_retryable_errors(second: Settings) -> None:
    process.start(second)
    space = f"test-restart-{uuid.uuid4().hex[:6]}"
    with Memory(second) as memory:
        memory.init()
        conv = tiny_conversation(sessions=2)
        memory.ingest_dataset(Dataset(conversations=[conv], qa={}), space, builders=[])
        outcomes: list[str] = []
        stop = threading.Event()

        def ask() -> None:
            while not stop.is_set():
                try:
                    memory.query("Who moved to Toronto?", space, "fulltext", 200)
                    outcomes.append("ok")
                except ServerError:
                    outcomes.append("server")
                    time.sleep(0.5)

        worker = threading.Thread(target=ask)
        worker.start()
        time.sleep(2)
        process.stop(second)
        process.start(second)
        time.sleep(3)
        stop.set()
        worker.join(timeout=60)
    assert set(outcomes) <= {"ok", "server"}  # anything else would have ended the thread
    assert outcomes[-1] == "ok" and "server" in outcomes


def _stop_in(second: Settings, path: Path, window: str, clean: SpaceDigest) -> str | None:
    """The server killed right before ``window`` of a CLI ingest (the CLI ends with exit 4),
    started again, the ingest rerun: None when the graph is the clean one, else why not."""
    process.start(second)
    space = f"test-stop-{uuid.uuid4().hex[:6]}"
    args = ["ingest", str(path), "--space", space, "--builders", "all", "--no-progress"]
    stopped = fault_run("stop-server", window, args, env=_env(second))
    assert stopped.returncode == 4, stopped.stderr[-3000:]
    assert "Traceback" not in stopped.stderr
    process.start(second)
    rerun = fault_run("kill", "-", args, env=_env(second))
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    with GraphStore(second) as store:
        found = space_digest(store, space)
        while store.write("core.delete_space_batch", space=space, batch=5000)[0]["deleted"]:
            pass
    if found.sha256 == clean.sha256:
        return None
    return f"{window}: {found.labels} {found.types}, clean {clean.labels} {clean.types}"


def _clean_build(second: Settings, path: Path, record: Path) -> tuple[list[Point], SpaceDigest]:
    process.start(second)
    with Memory(second) as memory:
        memory.init()
    space = f"test-clean-{uuid.uuid4().hex[:6]}"
    args = ["ingest", str(path), "--space", space, "--builders", "all", "--no-progress"]
    done = fault_run("kill", "-", args, record=record, env=_env(second))
    assert done.returncode == 0, done.stderr[-3000:]
    with GraphStore(second) as store:
        return points_of(record), space_digest(store, space)


@pytest.mark.long  # 9 minutes on the shared 2-core machine: two starts of a second server
def test_a_server_stop_in_amory_s_window_then_a_rerun_gives_the_clean_graph(
    second: Settings, tmp_path: Path
) -> None:
    """Issue 36: stopped after Amory's stories committed, before the built mark."""
    path = crash_conversation(tmp_path / "conv.jsonl")
    points, clean = _clean_build(second, path, tmp_path / "points.txt")
    assert _stop_in(second, path, amory_window(points).key, clean) is None


@pytest.mark.long
def test_a_server_stop_in_many_windows_then_a_rerun_gives_the_clean_graph(
    second: Settings, tmp_path: Path
) -> None:
    """Before the synonym pass and after every commit of an ingest with every builder."""
    path = crash_conversation(tmp_path / "conv.jsonl")
    points, clean = _clean_build(second, path, tmp_path / "points.txt")
    windows = {p.key for p in after_commits(points)} | {"semantic.link_synonyms#1"}
    print(f"\nserver stopped before: {sorted(windows)}")
    failed = [why for w in sorted(windows) if (why := _stop_in(second, path, w, clean))]
    assert not failed, "\n".join(failed)
