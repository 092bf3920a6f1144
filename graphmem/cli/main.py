"""Entry point of the ``graphmem`` console script."""

from __future__ import annotations

from pathlib import Path

import click

from graphmem import __version__
from graphmem.cli.admin_cmds import doctor, init
from graphmem.cli.browser_cmds import browser
from graphmem.cli.designs_cmds import designs
from graphmem.cli.eval_cmds import eval_group
from graphmem.cli.llm_cmds import llm_group
from graphmem.cli.mcp_cmds import mcp
from graphmem.cli.memory_cmds import ask, forget, ingest, query, stats
from graphmem.cli.profile_cmds import profile
from graphmem.cli.server_cmds import server


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
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
    """
    if config_file is not None:
        ctx.ensure_object(dict)["config_file"] = config_file


cli.add_command(server)
cli.add_command(init)
cli.add_command(doctor)
cli.add_command(eval_group)
cli.add_command(designs)
cli.add_command(mcp)
cli.add_command(browser)
for command in (ingest, query, ask, forget, stats, llm_group, profile):
    cli.add_command(command)


def main() -> None:
    cli(prog_name="graphmem")
