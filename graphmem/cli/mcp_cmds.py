"""``graphmem mcp``: serve memory to an MCP client (Claude Desktop, IDEs, agent frameworks)."""

from __future__ import annotations

import click

from graphmem.cli.common import app, handle_errors, preset_option
from graphmem.cli.serve_cmds import served_spaces
from graphmem.errors import ConfigError


@click.command("mcp")
@click.option(
    "--allow-writes",
    is_flag=True,
    help="Also offer the write tools ingest_messages and forget_space (off: read-only).",
)
@click.option(
    "--spaces",
    default=None,
    help="Comma-separated spaces the tools may touch (default: every space; an empty list is "
    "refused).",
)
@click.option(
    "--prepare",
    is_flag=True,
    help="Before serving: load the embedder, spaCy and the date rules, prepare the "
    "default strategy over each served space (projections, snapshots, PageRank runs) and "
    "answer one throwaway question there, so that the first query is as fast as the rest "
    "(seconds per space at start). Other strategies still pay their own first query. "
    "Progress goes to stderr.",
)
@preset_option
@click.pass_context
@handle_errors
def mcp(ctx: click.Context, allow_writes: bool, spaces: str | None, prepare: bool) -> None:
    """Run an MCP server on stdin/stdout with the tools query, ask, stats and spaces
    (and ingest_messages, forget_space with --allow-writes)."""
    served = served_spaces(spaces)  # before the import: a bad option is a bad option
    try:
        from graphmem.mcp.server import build_server
        from graphmem.serving import MemoryService
    except ImportError as exc:  # the `mcp` extra is not installed
        raise ConfigError(
            f"the MCP server needs the `mcp` package ({exc.name} is missing)",
            hint="pip install 'graphmem[mcp]'",
        ) from exc
    context = app(ctx)
    context.configs().check()  # a misspelt --preset stops here, not at every query
    # The Memory is made on the first call: the handshake needs no Neo4j.
    service = MemoryService.lazily(context.memory, served, allow_writes)
    try:
        if prepare:  # stdout is the protocol's: progress goes to stderr
            service.prepare(lambda line: click.echo(line, err=True))
        build_server(service).run("stdio")
    finally:
        service.close()
