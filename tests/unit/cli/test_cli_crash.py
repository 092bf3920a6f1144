"""A bug in a command is one line and a report file, never a traceback (issue 57)."""

from __future__ import annotations

import stat
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from graphmem.cli.common import handle_errors


@click.command()
@handle_errors
def broken() -> None:
    raise TypeError("combine() argument 1 must be datetime.date, not None")


@click.command()
@click.option("--n", type=int)
@handle_errors
def usage(n: int) -> None:
    raise click.BadParameter("not this one", param_hint="--n")


def test_an_unexpected_error_is_one_line_with_a_private_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRAPHMEM_HOME", str(tmp_path / "home"))
    result = CliRunner().invoke(broken, [])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "internal error, a bug in graphmem (TypeError: combine()" in result.output
    reports = list((tmp_path / "home" / "logs").glob("crash-*.log"))
    assert len(reports) == 1 and str(reports[0]) in result.output
    assert "Traceback" in reports[0].read_text(encoding="utf-8")
    assert stat.S_IMODE(reports[0].stat().st_mode) == 0o600


def test_clicks_own_errors_keep_their_exit_code() -> None:
    result = CliRunner().invoke(usage, ["--n", "1"])
    assert result.exit_code == 2 and "not this one" in result.output
