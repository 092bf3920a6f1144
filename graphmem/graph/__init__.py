"""The graph: the Neo4j store, the Cypher catalog, the schema, typed rows, GDS
projections and the canonical digest."""
