"""SEEM (Structured Episodic Event Memory) and the HippoRAG 2 semantic layer it builds on:
entities, quadruple facts, synonym edges, episodic event frames with associative
consolidation, and PageRank retrieval with Reverse Provenance Expansion."""
