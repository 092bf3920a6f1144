"""Performance benchmarks: ``python -m benchmarks <command>`` (see README.md).

The benchmarks' own statements (``benchmarks/cypher/x.cypher`` is ``bench.x``) live here, not
under ``cypher/``: the wheel ships ``cypher/`` and a user never runs these."""

from pathlib import Path

from graphmem.graph.catalog import register_tree

register_tree("bench", Path(__file__).parent / "cypher")
