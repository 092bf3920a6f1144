"""``python -m benchmarks``: one command; a module's command runs its own options."""

from __future__ import annotations

import importlib
import re

import pytest

from benchmarks.__main__ import MODULES, main
from tests.paths import ROOT


def test_every_module_command_is_a_module_with_a_main() -> None:
    for name in MODULES:
        assert callable(importlib.import_module(f"benchmarks.{name.replace('-', '_')}").main)


def test_a_module_command_parses_its_own_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["graph-stats", "--help"])
    assert stop.value.code == 0
    assert "usage: python -m benchmarks graph-stats" in capsys.readouterr().out


def test_the_help_lists_the_module_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert all(name in out for name in MODULES)


def test_the_readme_lists_exactly_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    listed = re.search(r"\{([a-z,-]+)\}", capsys.readouterr().out)
    assert listed is not None
    readme = (ROOT / "benchmarks" / "README.md").read_text()
    first_block = readme.split("```bash", 1)[1].split("```", 1)[0]
    documented = set(re.findall(r"^python -m benchmarks ([a-z-]+)", first_block, re.M))
    assert documented == set(listed.group(1).split(","))
