"""Entry point of the ``graphmem`` console script."""

from __future__ import annotations

import click

from graphmem import __version__
from graphmem.cli.admin_cmds import doctor, init
from graphmem.cli.eval_cmds import eval_group
from graphmem.cli.memory_cmds import ask, forget, ingest, query, stats
from graphmem.cli.profile_cmds import profile
from graphmem.cli.server_cmds import server


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="graphmem")
def cli() -> None:
    """graphmem: graph-native episodic memory for conversational agents (Neo4j + GDS).

    \b
    Typical session:
      graphmem server start      # local Neo4j 5.26 + GDS (or set NEO4J_URI)
      graphmem init              # constraints, vector + full-text indexes
      graphmem doctor            # check everything is in place
    """


cli.add_command(server)
cli.add_command(init)
cli.add_command(doctor)
cli.add_command(eval_group)
for command in (ingest, query, ask, forget, stats, profile):
    cli.add_command(command)


def main() -> None:
    cli(prog_name="graphmem")
