"""graphmem: graph-native episodic memory for conversational agents, on Neo4j + GDS."""

__version__ = "0.1.0"
