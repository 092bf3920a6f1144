"""graphmem: graph-native episodic memory for conversational agents, on Neo4j + GDS."""

from graphmem import _lean_imports

__version__ = "0.1.0"

# Before anything imports spaCy: its import would otherwise import torch (see the module).
_lean_imports.install()
