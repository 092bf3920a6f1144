"""Issue 15 items 8, 10, 11, 12 without a second server: the stale pid check, status with
an unreachable NEO4J_URI, doctor's LLM call, file modes, and the initial password kept off
command lines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pydantic import SecretStr

from graphmem.cli.health import llm_check
from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.errors import LLMError
from graphmem.server import process
from graphmem.server.permissions import restrict_tree, too_open
from graphmem.server.runtime import Runtime
from tests.fakes.openai_server import FakeOpenAIServer, Reply


def _settings(home: Path, **extra: Any) -> Settings:
    return Settings().model_copy(update={"home": home, "neo4j_uri": None, **extra})


def test_stale_pid_of_another_homes_neo4j_is_never_signalled(tmp_path: Path) -> None:
    settings = _settings(tmp_path / "home")
    lay = process.layout(settings)
    lay.run.mkdir(parents=True)
    # A process that looks like Neo4j (the entry class on its command line) serving
    # another home: a recycled pid in our stale pid file.
    other = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import time; time.sleep(60)",
            process._ENTRY,
            f"--home-dir={tmp_path / 'other'}",
        ]
    )
    try:
        lay.pid_file.write_text(str(other.pid))
        assert process.running_pid(settings) is None
        assert not lay.pid_file.exists()  # the stale file is gone
        lay.pid_file.write_text(str(other.pid))
        assert process.stop(settings) is False
        time.sleep(0.2)
        assert other.poll() is None  # still alive
    finally:
        other.kill()
        other.wait()


def test_status_says_not_running_when_neo4j_uri_is_a_closed_port(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:1")
    monkeypatch.setenv("NEO4J_PASSWORD", "x")
    out = CliRunner().invoke(cli, ["server", "status", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["running"] is False and data["reachable"] is False
    assert "not reachable" in data["error"]


def test_doctor_llm_check_makes_one_real_call(tmp_path: Path) -> None:
    with FakeOpenAIServer() as server:
        settings = _settings(
            tmp_path, llm_model="fake", llm_base_url=server.base_url, llm_api_key=SecretStr("k")
        )
        server.enqueue(Reply.json({"ok": True}))
        assert "answered" in llm_check(settings)
        assert server.request_count() == 1
        server.enqueue(Reply.err(500), Reply.err(500))
        with pytest.raises(LLMError):
            llm_check(settings)


def test_home_is_made_private(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "neo4j" / "data" / "dbms").mkdir(parents=True)
    auth = home / "neo4j" / "data" / "dbms" / "auth.ini"
    auth.write_text("neo4j:hash")
    os.chmod(auth, 0o644)
    os.chmod(home / "neo4j", 0o755)
    assert auth in too_open(home)
    restrict_tree(home)
    assert too_open(home) == []
    assert auth.stat().st_mode & 0o777 == 0o600
    assert (home / "neo4j").stat().st_mode & 0o777 == 0o700


def _configured_home(tmp_path: Path) -> tuple[Settings, process.Layout, Runtime]:
    """A fresh home with its folders and neo4j.conf written, on the fetched runtime."""
    settings = _settings(tmp_path / "home")
    runtime = Runtime(settings.runtime_dir)
    if not runtime.is_complete():
        pytest.skip("the Neo4j runtime has not been fetched")
    lay = process.layout(settings)
    for folder in (lay.conf, lay.data, lay.run, lay.logs):
        folder.mkdir(parents=True)
    (lay.conf / "neo4j.conf").write_text(process.render_conf(settings, lay, runtime))
    return settings, lay, runtime


def test_initial_password_is_not_on_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings, lay, runtime = _configured_home(tmp_path)
    seen: list[list[str]] = []
    real_run = subprocess.run

    def spy(cmd: list[str], **kwargs: Any) -> Any:
        seen.append(list(cmd))
        return real_run(cmd, **kwargs)

    monkeypatch.setattr(process.subprocess, "run", spy)
    process._ensure_password(settings, lay, runtime)
    password = settings.password_file.read_text().strip()
    assert seen and not any(password in arg for cmd in seen for arg in cmd)
    assert (lay.data / "dbms" / "auth.ini").is_file()
    assert settings.password_file.stat().st_mode & 0o777 == 0o600
    assert list(lay.run.glob("initial-password-*")) == []  # the argument file is gone


def test_spawn_writes_its_log_and_pid_file_0600_under_a_lax_umask(tmp_path: Path) -> None:
    """The CLI creates console.log and the pid file itself (before Neo4j's umask applies):
    a fresh machine's umask 022 must not leave them readable by other users."""
    settings = _settings(tmp_path / "home", java="/bin/true")
    lay = process.layout(settings)
    for folder in (lay.logs, lay.run):
        folder.mkdir(parents=True)
    runtime = Runtime(root=tmp_path)
    old = os.umask(0o022)
    try:
        proc = process._spawn(settings, lay, runtime)
        proc.wait()
    finally:
        os.umask(old)
    assert lay.console_log.stat().st_mode & 0o077 == 0
    assert lay.pid_file.stat().st_mode & 0o077 == 0


def test_a_password_that_starts_with_a_dash_is_set(tmp_path: Path) -> None:
    """One generated password in 64 starts with "-" (token_urlsafe); neo4j-admin must not
    read it as an option (it did: a server start failed once in 64 homes)."""
    settings, lay, runtime = _configured_home(tmp_path)
    process._set_initial_password(settings, lay, runtime, "-dashed-secret-0123")
    assert (lay.data / "dbms" / "auth.ini").is_file()
