"""What keeps a compaction safe before any server is touched: one at a time per home, and
no `server start` while one has the spaces set aside."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from click.testing import CliRunner

from graphmem.cli.main import cli


def _env(home: Path) -> dict[str, str | None]:
    return {"GRAPHMEM_HOME": str(home), "NEO4J_URI": None}


def test_server_start_refuses_while_a_compaction_has_the_spaces_set_aside(
    tmp_path: Path,
) -> None:
    (tmp_path / "compact" / "old").mkdir(parents=True)
    done = CliRunner().invoke(cli, ["server", "start"], env=_env(tmp_path))
    assert done.exit_code == 4
    assert "a compaction is under way" in done.output and "graphmem server compact" in done.output


def test_a_second_compaction_of_one_home_is_refused(tmp_path: Path) -> None:
    fd = os.open(tmp_path / "compact.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # the first one, running
        done = CliRunner().invoke(cli, ["server", "compact", "--yes"], env=_env(tmp_path))
    finally:
        os.close(fd)
    assert done.exit_code == 4 and "another graphmem server compact is running" in done.output
    assert not (tmp_path / "compact").exists()
