"""What a script leans on, without a database: standard input refused when it is a
terminal or a device, and which session `graphmem add` joins."""

from __future__ import annotations

import io
import os
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem.cli.add_cmds import _current
from graphmem.cli.main import cli
from graphmem.errors import InputError
from graphmem.ingest.formats import load
from graphmem.ingest.models import SessionIn, Turn
from graphmem.ingest.source import ReadLimits, open_stdin


def _stdin_on(monkeypatch: pytest.MonkeyPatch, fd: int) -> None:
    """sys.stdin over a real file descriptor (a pty, a pipe)."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(os.fdopen(fd, "rb", closefd=False)))


def test_a_terminal_on_stdin_is_refused_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    leader, follower = os.openpty()
    try:
        _stdin_on(monkeypatch, follower)
        refused = pytest.raises(InputError, match="standard input is a terminal")
        with refused as caught, open_stdin(ReadLimits()):
            pass
        assert "graphmem ingest - --space S < chat.jsonl" in str(caught.value)
    finally:
        os.close(leader)
        os.close(follower)


def test_stdin_pipe_is_read_within_the_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    line = b'{"conversation": "c", "session": "s", "speaker": "A", "text": "hello there"}\n'
    read_end, write_end = os.pipe()
    os.write(write_end, line * 3)
    os.close(write_end)
    _stdin_on(monkeypatch, read_end)
    dataset = load(Path("-"), "auto", ReadLimits())
    assert [len(s.turns) for s in dataset.conversations[0].sessions] == [3]
    read_end, write_end = os.pipe()
    os.write(write_end, line * 3)
    os.close(write_end)
    _stdin_on(monkeypatch, read_end)
    with pytest.raises(InputError, match="GRAPHMEM_MAX_FILE_BYTES"):
        load(Path("-"), "auto", ReadLimits(max_file_bytes=len(line) * 2))
    empty_read, empty_write = os.pipe()
    os.close(empty_write)  # an empty pipe: an empty file, not a wait
    _stdin_on(monkeypatch, empty_read)
    with pytest.raises(InputError, match="empty"):
        load(Path("-"), "auto", ReadLimits())


def _session(*stamps: datetime | None) -> SessionIn:
    turns = [
        Turn(source_id=f"s:{i}", speaker="A", text="hi", timestamp=ts, index=i)
        for i, ts in enumerate(stamps)
    ]
    return SessionIn(index=0, source_id="s", started_at=stamps[0], turns=turns)


def test_add_joins_the_latest_session_until_an_idle_gap() -> None:
    now = datetime(2026, 11, 26, 12, 0)
    idle = timedelta(minutes=30)
    recent = _session(now - timedelta(hours=2), now - timedelta(minutes=29))
    assert _current(recent, None, now, idle) is recent
    stale = _session(now - timedelta(minutes=31))
    assert _current(stale, None, now, idle) is None  # a new session
    assert _current(stale, "s", now, idle) is stale  # named: joined whatever its age
    assert _current(None, None, now, idle) is None
    undated = _session(None)
    assert _current(undated, None, now, idle) is None  # no time to measure a gap from


def test_space_comes_from_graphmem_space_or_is_asked_for() -> None:
    runner = CliRunner()
    missing = runner.invoke(cli, ["stats"], env={"GRAPHMEM_SPACE": None})
    assert missing.exit_code == 2 and "--space" in missing.output
    shown = runner.invoke(cli, ["query", "--help"])
    assert "GRAPHMEM_SPACE" in shown.output
    bad = runner.invoke(cli, ["stats"], env={"GRAPHMEM_SPACE": "a\tb"})
    assert bad.exit_code == 2 and "control" in bad.output  # the same check as --space
