"""Entry point of the ``graphmem`` console script.

Commands load on first use (``LazyGroup``): most of them import spaCy, torch and the
designs, about 3 s that ``graphmem --help`` or ``graphmem server status`` should not pay.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click

from graphmem import __version__
from graphmem.errors import ConfigError

if TYPE_CHECKING:
    from graphmem.plugin.design import Command

# name -> (module, attribute, the command's one-line help as ``--help`` lists it; a unit
# test keeps each line equal to the command's own)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "server": (
        "server_cmds",
        "server",
        "Run a local Neo4j 5.26 with GDS (fetched with mvn; no Docker needed).",
    ),
    "init": (
        "admin_cmds",
        "init",
        "Create constraints and indexes (idempotent) and pin the embedder in a meta node.",
    ),
    "doctor": (
        "admin_cmds",
        "doctor",
        "Check server, versions, GDS + PageRank, vector indexes, embedder, spaCy and LLM.",
    ),
    "eval": (
        "eval_cmds",
        "eval_group",
        "Benchmark retrieval strategies (LoCoMo, LongMemEval): evidence recall@k, recall and "
        "answer-token recall within a token budget, latency; answer F1/BLEU-1/judge with an "
        "LLM.",
    ),
    "designs": (
        "designs_cmds",
        "designs",
        "List the memory designs, shared layers and baselines: their node labels, "
        "strategies, presets and settings.",
    ),
    "mcp": (
        "mcp_cmds",
        "mcp",
        "Run an MCP server on stdin/stdout with the tools query, ask, stats and spaces (and "
        "ingest_messages, forget_space with --allow-writes).",
    ),
    "serve": (
        "serve_cmds",
        "serve",
        "Serve memory over HTTP on 127.0.0.1: query, ask, spaces, stats (and messages, forget "
        "with --allow-writes), a bearer token from $GRAPHMEM_HOME/secrets/api-token.",
    ),
    "browser": (
        "browser_cmds",
        "browser",
        "Print the Neo4j Browser's address and login, and serve the graphmem guide and graph "
        "style so the Browser can load them (`:play`, `:style`).",
    ),
    "ingest": (
        "memory_cmds",
        "ingest",
        "Ingest conversations from PATH (- for standard input) into a space.",
    ),
    "add": (
        "add_cmds",
        "add",
        "Add one message to the current session of a conversation (a new session after an "
        "idle gap).",
    ),
    "query": (
        "memory_cmds",
        "query",
        "Retrieve a cited, chronological context for QUESTION within a token budget.",
    ),
    "ask": ("memory_cmds", "ask", "Answer QUESTION from memory with the configured LLM."),
    "forget": (
        "forget_cmds",
        "forget",
        "Forget a whole space, or some turns, a session or a conversation of it.",
    ),
    "export": (
        "export_cmds",
        "export",
        "Write a space's conversations as graphmem JSONL, every field kept (ids, speakers, "
        "texts, timestamps, captions, session dates, titles): `graphmem ingest FILE --space "
        "NEW` builds the same graph from it.",
    ),
    "redact": (
        "forget_cmds",
        "redact",
        "Replace what some turns say, keeping their ids, speakers and times: what they fed "
        "is built again from the new text.",
    ),
    "history": (
        "history_cmds",
        "history",
        "List a subject's changes: each statement a later one superseded, when it held (valid "
        "from .. until), what replaced it, and the turns both cite.",
    ),
    "reembed": (
        "reembed_cmds",
        "reembed",
        "Re-embed the passages of spaces with another embedder, in place: resumable (run it "
        "again after an interruption), and the space's digest is unchanged.",
    ),
    "spaces": (
        "memory_cmds",
        "spaces",
        "The spaces in the database, with their conversations, sessions and turns.",
    ),
    "stats": (
        "memory_cmds",
        "stats",
        "Counts of every kind of memory in a space, and each design's own ratios.",
    ),
    "llm": (
        "llm_cmds",
        "llm_group",
        "The LLM backend: serve a local model, check the configured one (docs/llm.md).",
    ),
}


# click >= 8.2 shows the help of a group called bare as a usage error of this kind: it is
# help, and stays as click prints it (click 8.1 has no such class).
_HELP_AS_ERROR: tuple[type[Exception], ...] = tuple(
    getattr(click.exceptions, name)
    for name in ("NoArgsIsHelpError",)
    if hasattr(click.exceptions, name)
)


class OneLineUsageError(click.UsageError):
    """click shows a usage error as the usage block, a hint and the message; graphmem's
    errors are one line (the exit code stays click's 2, as for an unknown strategy)."""

    def __init__(self, error: click.UsageError) -> None:
        super().__init__(error.format_message(), error.ctx)

    def show(self, file: IO[Any] | None = None) -> None:
        where = f" (see '{self.ctx.command_path} --help')" if self.ctx else ""
        click.secho(f"error: {self.format_message()}{where}", fg="red", err=True)


_AS_CLICK_SHOWS: tuple[type[Exception], ...] = (OneLineUsageError, *_HELP_AS_ERROR)


@contextmanager
def _one_line() -> Iterator[None]:
    try:
        yield
    except _AS_CLICK_SHOWS:
        raise
    except click.UsageError as exc:
        raise OneLineUsageError(exc) from exc


def _design_commands() -> dict[str, Command]:
    """The commands designs add, as their records declare them (``Design.commands``); a
    name a core command has is refused, so a design cannot shadow one."""
    from graphmem.plugin.registry import commands

    found = commands()
    shadowing = sorted(set(found) & set(COMMANDS))
    if shadowing:
        raise ConfigError(f"a design adds commands named as graphmem's own: {shadowing}")
    return found


class LazyGroup(click.Group):
    """A group whose commands are imported when they run, not when the group is listed
    (commands added with ``add_command`` still work as in any group). The designs' commands
    are listed as their records declare them (``Design.commands``), without importing the
    commands or the designs' code."""

    _declared: dict[str, Command] | None = None

    def declared(self) -> dict[str, Command]:
        """The designs' commands, as declared (read once per group)."""
        if self._declared is None:
            self._declared = _design_commands()
        return self._declared

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands, *self.declared()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            found = super().get_command(ctx, cmd_name)
            return found if found is not None else self._design_command(cmd_name)
        module, attribute, _ = COMMANDS[cmd_name]
        command = getattr(importlib.import_module(f"graphmem.cli.{module}"), attribute)
        assert isinstance(command, click.Command)
        return command

    def _design_command(self, name: str) -> click.Command | None:
        # Read again, not the listing's: a design registered since then adds its commands.
        declared = _design_commands().get(name)
        if declared is None:
            return None
        # The design's own Cypher and schema join the catalog when the registry is read,
        # which listing the commands does not do: a design's command runs with them.
        from graphmem.plugin.registry import registry

        registry()
        command = declared.load()
        if command.name != name:
            raise ConfigError(f"a design declares command {name!r}; it loads {command.name!r}")
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        # click suggests a close name from the commands it holds, which here are none.
        name = args[0]
        # A core command runs without reading the designs' records (pydantic and the records
        # cost 0.2 s that ``graphmem server status`` need not pay).
        if name in COMMANDS or name in self.commands or name.startswith("-"):
            return super().resolve_command(ctx, args)
        # Read again, not the listing's: a design registered since then adds its commands.
        known = sorted({*COMMANDS, *self.commands, *_design_commands()})
        if name in known or ctx.resilient_parsing:
            return super().resolve_command(ctx, args)
        close = difflib.get_close_matches(name, known)
        hint = f" Did you mean {close[0]!r}?" if len(close) == 1 else ""
        if len(close) > 1:
            hint = f" (Did you mean one of: {', '.join(repr(c) for c in sorted(close))}?)"
        raise click.UsageError(f"No such command {name!r}.{hint}", ctx)

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        with _one_line():  # the group's own options
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with _one_line():  # a command's arguments (parsed when it is invoked)
            return super().invoke(ctx)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # click's own listing calls get_command for every name (importing them all).
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = [(name, self._short_help(ctx, name, limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def _short_help(self, ctx: click.Context, name: str, limit: int) -> str:
        declared = self.declared()
        if name in COMMANDS:
            text = COMMANDS[name][2]
        elif name in declared and name not in self.commands:
            text = declared[name].help
        else:
            command = self.get_command(ctx, name)
            return command.get_short_help_str(limit) if command else ""
        # A bare command with the same help shortens it as the real one would.
        return click.Command(name, help=text).get_short_help_str(limit)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="graphmem")
@click.option(
    "--config",
    "config_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="TOML file with design presets and settings (default: GRAPHMEM_CONFIG, else "
    "$GRAPHMEM_HOME/graphmem.toml when present).",
)
@click.pass_context
def cli(ctx: click.Context, config_file: Path | None) -> None:
    """graphmem: graph-native episodic memory for conversational agents (Neo4j + GDS).

    \b
    Typical session:
      graphmem server start      # local Neo4j 5.26 + GDS (or set NEO4J_URI)
      graphmem init              # constraints, vector + full-text indexes
      graphmem doctor            # check everything is in place
      graphmem designs           # memory designs, their strategies and presets

    Designs add commands of their own (listed below, e.g. `profile`).
    """
    if config_file is not None:
        ctx.ensure_object(dict)["config_file"] = config_file


def main() -> None:
    # The CLI's process is its own: keep torch out of spaCy's import before any command
    # module loads (graphmem/process/lean_imports.py); its Memory tunes the rest (tune_process).
    from graphmem.process import lean_imports as _lean_imports

    _lean_imports.install()
    cli(prog_name="graphmem")
