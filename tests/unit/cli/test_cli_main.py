"""The command line's lazy command table matches the commands it loads."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from graphmem.cli.main import COMMANDS, LazyGroup, cli
from graphmem.plugin.commands import entry_point_targets
from graphmem.plugin.registry import commands


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_listed_help_line_is_the_commands_own(name: str) -> None:
    command = cli.get_command(click.Context(cli), name)
    assert command is not None
    assert command.name == name
    assert COMMANDS[name][2] == command.get_short_help_str(limit=1_000)


# Modules `graphmem --help` must not import: the models, the driver, the designs' code and
# their commands (it reads the designs' records, which import none of them).
_HEAVY = (
    "spacy",
    "torch",
    "neo4j",
    "numpy",
    "graphmem.memory",
    "graphmem.designs.cast.cli",
    "graphmem.designs.cast.builder",
    "graphmem.semantic.retriever",
)


def test_help_lists_every_command_without_importing_them() -> None:
    # A fresh interpreter: this test process has imported the commands already.
    script = (
        "import sys, json; from click.testing import CliRunner; from graphmem.cli.main import cli; "
        "out = CliRunner().invoke(cli, ['--help']).output; "
        f"print(sorted(m for m in {_HEAVY!r} if m in sys.modules)); "
        "from graphmem.plugin.registry import commands; "
        "print(json.dumps({n: c.help for n, c in commands().items()})); "
        "print(out)"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    loaded, declared_json, listing = run.stdout.split("\n", 2)
    assert run.returncode == 0, run.stderr
    assert loaded == "[]"
    for name in COMMANDS:
        assert f"  {name} " in listing
    # The designs' commands too, with the help line their record declares, as that process
    # reads the records (this one may hold designs a test registered).
    declared = json.loads(declared_json)
    assert declared.keys() <= commands().keys()
    for name, help_text in declared.items():
        assert f"  {name} " in listing and help_text.split()[0] in listing, name
    assert "  profile " in listing


def test_each_declared_command_loads_as_declared() -> None:
    """A record's ``Command`` names a click command of that name, whose help line is the
    one ``graphmem --help`` lists from the record."""
    from graphmem.plugin.registry import registry
    from tests.example_vector_design.design import DESIGN as VECTOR_EXAMPLE

    declared = {n: c for d in [*registry().values(), VECTOR_EXAMPLE] for n, c in d.commands.items()}
    assert {"profile", "gists"} <= set(declared)
    for name, command in declared.items():
        loaded = command.load()
        assert loaded.name == name
        assert command.help == loaded.get_short_help_str(limit=1_000), name
    for name in commands():  # the registered ones run as graphmem's
        assert cli.get_command(click.Context(cli), name) is not None, name


def test_a_plug_ins_commands_are_found_through_its_entry_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An installed plug-in (its ``entry_points.txt``) is listed from its record, without
    ``importlib.metadata`` and without importing its commands' module."""
    info = tmp_path / "gists_plugin-1.0.dist-info"
    info.mkdir()
    (info / "entry_points.txt").write_text(
        "[console_scripts]\nx = y:z\n\n[graphmem.designs]\n"
        "Gists = tests.example_vector_design.design:DESIGN\n"
    )
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    monkeypatch.delitem(sys.modules, "tests.example_vector_design.memory", raising=False)
    assert entry_point_targets()[0] == "tests.example_vector_design.design:DESIGN"
    assert commands()["gists"].help.startswith("How many gists")
    assert "tests.example_vector_design.memory" not in sys.modules


@pytest.mark.parametrize("args", [[], ["eval"], ["server"]])
def test_a_group_called_bare_prints_its_help_not_an_error(args: list[str]) -> None:
    result = CliRunner().invoke(cli, args, prog_name="graphmem")
    assert result.output.startswith(f"Usage: {' '.join(['graphmem', *args])} [OPTIONS] COMMAND")
    assert "error:" not in result.output


def test_commands_that_only_read_the_graph_load_no_model() -> None:
    # `spaces`, `forget` and the like build a Memory and read; spaCy and torch (3 s) load
    # at a Memory's first ingest or query, not with the module.
    script = (
        "import sys; import graphmem.cli.memory_cmds; "
        "from graphmem.cli.common import AppContext; AppContext().memory(); "
        "print(sorted(m for m in ('spacy', 'torch', 'sentence_transformers') if m in sys.modules))"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_an_unknown_command_is_a_usage_error_with_a_suggestion() -> None:
    result = CliRunner().invoke(cli, ["no-such-command"])
    assert result.exit_code == 2
    assert "No such command 'no-such-command'." in result.output
    assert "Did you mean" not in result.output
    typo = CliRunner().invoke(cli, ["qury"])
    assert typo.exit_code == 2
    assert "No such command 'qury'. Did you mean 'query'?" in typo.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bogus"], "error: No such option '--bogus'. (see 'graphmem --help')"),
        (
            ["query", "x", "--budget", "0"],
            "error: Invalid value for '--budget': must be from 50 to 32,000 tokens, got 0 "
            "(see 'graphmem query --help')",
        ),
        (["eval", "locomo"], "error: Missing argument 'PATH'. (see 'graphmem eval locomo --help')"),
    ],
)
def test_a_usage_error_is_one_line_with_exit_code_2(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, args, prog_name="graphmem")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [message]  # no usage block


def test_a_command_added_to_the_group_is_listed_and_runs() -> None:
    group = LazyGroup(name="g")

    @click.command(name="extra", help="An extra command.")
    def extra() -> None:
        click.echo("ran")

    group.add_command(extra)
    listing = CliRunner().invoke(group, ["--help"]).output
    assert "extra" in listing and "An extra command." in listing
    assert "query" in listing
    assert CliRunner().invoke(group, ["extra"]).output == "ran\n"


def test_ingest_text_names_each_builder_in_a_row_of_its_own() -> None:
    from graphmem.cli.memory_cmds import _render_ingest

    builder = {"sessions": 3, "llm_calls": 0, "llm_cache_hits": 0, "llm_fallbacks": 0}
    data = {
        "conversations": 1,
        "sessions_written": 3,
        "sessions_skipped": 0,
        "passages_written": 19,
        "seconds": 7.03,
        "turns_per_second": 2.7,
        "builders": [
            {**builder, "builder": "semantic", "seconds": 4.2},
            {**builder, "builder": "seem", "seconds": 0.31},
        ],
    }
    lines = _render_ingest(data).splitlines()
    assert (
        lines[0] == "1 conversation: 3 sessions written, 0 already stored; 19 turns in 11.5 s "
        "(passages 7.0 s, builders 4.5 s)"
    )
    assert lines[1].split() == [
        "builder",
        "sessions",
        "seconds",
        "LLM",
        "calls",
        "cache",
        "hits",
        "fallbacks",
    ]
    assert lines[2].split() == ["semantic", "3", "4.2", "0", "0", "0"]
    assert lines[3].split()[:3] == ["seem", "3", "0.31"]
    assert _render_ingest({**data, "builders": []}).endswith("\nbuilders: none")


def test_a_list_setting_that_is_not_json_is_a_settings_error() -> None:
    """pydantic-settings raises its own error for such a variable, outside the validation
    errors the CLI translates: it must still be one line and exit 2, not a crash."""
    env = {"GRAPHMEM_API_TRUSTED_PROXIES": "127.0.0.1"}
    result = CliRunner().invoke(cli, ["spaces"], prog_name="graphmem", env=env)
    assert result.exit_code == 2, result.output
    assert 'field "api_trusted_proxies"' in result.output
    assert "GRAPHMEM_API_TRUSTED_PROXIES='[\"127.0.0.1\"]'" in result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
