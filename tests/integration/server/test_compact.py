"""``graphmem server compact`` against a second local server on spare ports (the shared
one is never restarted): a forgotten secret that Neo4j's transaction log still holds is in
no file of the home after it, every space keeps its digest, and a rebuild that would
change a space puts the old database back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.server import process
from graphmem.server.runtime import Runtime

pytestmark = [pytest.mark.integration, pytest.mark.slow]

BOLT, HTTP, API = 27797, 27584, 28594
SECRET = "7Q4-PINSECRET-93"
CHAT = [
    ("monday", "Dana", "I moved the spare key under the blue pot."),
    ("monday", "Dana", f"The alarm code is {SECRET}, don't tell anyone."),
    ("monday", "Lee", "Got it. I will water the tomatoes on Friday."),
    ("tuesday", "Lee", "The tomatoes look great after the rain."),
]


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str | None]]:
    base = Settings()
    if not Runtime(base.runtime_dir).is_complete() or process.port_open(BOLT):
        pytest.skip("no fetched runtime, or the spare port is taken")
    home = tmp_path_factory.mktemp("compact-home")
    values: dict[str, str | None] = {
        "NEO4J_URI": None,
        "GRAPHMEM_HOME": str(home),
        "GRAPHMEM_CACHE_DIR": str(tmp_path_factory.mktemp("compact-cache")),
        "GRAPHMEM_BOLT_PORT": str(BOLT),
        "GRAPHMEM_HTTP_PORT": str(HTTP),
        "GRAPHMEM_API_PORT": str(API),
        "GRAPHMEM_HEAP_SIZE": "512m",
        "GRAPHMEM_PAGECACHE_SIZE": "128m",
    }
    yield values
    process.stop(
        base.model_copy(
            update={"home": home, "neo4j_uri": None, "bolt_port": BOLT, "http_port": HTTP}
        )
    )


def _run(env: dict[str, str | None], *args: str) -> Result:
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def _holding(home: Path) -> list[Path]:
    return [f for f in home.rglob("*") if f.is_file() and SECRET.encode() in f.read_bytes()]


def _digest(env: dict[str, str | None], space: str) -> str:
    found = _run(env, "stats", "--space", space, "--digest", "--json")
    assert found.exit_code == 0, found.output
    return str(json.loads(found.output)["sha256"])


def test_a_compaction_leaves_no_byte_of_a_forgotten_turn_and_keeps_every_digest(
    env: dict[str, str | None], tmp_path: Path
) -> None:
    home = Path(str(env["GRAPHMEM_HOME"]))
    chat = tmp_path / "chat.jsonl"
    chat.write_text(
        "".join(
            json.dumps({"conversation": "home", "session": s, "speaker": who, "text": text}) + "\n"
            for s, who, text in CHAT
        )
    )
    assert _run(env, "server", "start").exit_code == 0
    assert _run(env, "init").exit_code == 0
    assert _run(env, "ingest", str(chat), "--space", "nu").exit_code == 0
    assert _run(env, "ingest", str(chat), "--space", "other", "--builders", "none").exit_code == 0
    assert _run(env, "forget", "--space", "nu", "--turn", "monday:1", "--yes").exit_code == 0
    assert _run(env, "forget", "--space", "other", "--yes").exit_code == 0
    assert _holding(home), "Neo4j's transaction log keeps the forgotten turn"
    before = _digest(env, "nu")
    done = _run(env, "server", "compact", "--yes", "--json")
    assert done.exit_code == 0, done.output
    report = json.loads(done.output)
    assert [(s["space"], s["same"]) for s in report["spaces"]] == [("nu", True)]
    assert _holding(home) == [] and not (home / "compact").exists()
    assert _digest(env, "nu") == before
    query = _run(env, "query", "where is the spare key", "--space", "nu")
    assert query.exit_code == 0 and "[monday:2] Lee" in query.output  # ids kept


@pytest.mark.long  # one more stop and two starts of the second server
def test_a_rebuild_that_would_change_a_space_puts_the_old_database_back(
    env: dict[str, str | None], tmp_path: Path
) -> None:
    home = Path(str(env["GRAPHMEM_HOME"]))
    assert _run(env, "server", "start").exit_code == 0
    before = _digest(env, "nu")
    work = home / "compact"
    work.mkdir(mode=0o700)
    export = _run(env, "export", "--space", "nu", "--out", str(work / "nu.jsonl"))
    assert export.exit_code == 0, export.output
    wrong = {"space": "nu", "file": "nu.jsonl", "conversations": [], "digest": "0" * 64}
    (work / "manifest.json").write_text(json.dumps({"spaces": [wrong]}))
    refused = _run(env, "server", "compact", "--yes")
    assert refused.exit_code == 4 and "is as it was" in refused.output
    assert _digest(env, "nu") == before and not work.exists()
