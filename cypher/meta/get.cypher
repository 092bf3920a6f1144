// Read the graphmem meta record (schema version, embedder, dimension), if any.
// params: $key
// returns: key, schema_version, embedder, dim, updated_at
MATCH (m:GraphmemMeta {key: $key})
RETURN m.key AS key, m.schema_version AS schema_version, m.embedder AS embedder,
       m.dim AS dim, m.updated_at AS updated_at
