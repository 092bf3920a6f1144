// Record the schema version and the embedder the whole database is indexed with.
// params: $key, $schema_version, $embedder, $dim
// returns: key
MERGE (m:GraphmemMeta {key: $key})
SET m.schema_version = $schema_version, m.embedder = $embedder, m.dim = $dim,
    m.updated_at = datetime()
RETURN m.key AS key
