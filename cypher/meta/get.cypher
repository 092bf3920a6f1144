// Read the graphmem meta record (schema version, embedder, dimension, and the embedder
// and dimension a `graphmem reembed --all` under way is moving to), if any.
// params: $key
// returns: key, schema_version, embedder, dim, updated_at, reembed_to, reembed_dim
MATCH (m:GraphmemMeta {key: $key})
RETURN m.key AS key, m.schema_version AS schema_version, m.embedder AS embedder,
       m.dim AS dim, m.updated_at AS updated_at, m.reembed_to AS reembed_to,
       m.reembed_dim AS reembed_dim
