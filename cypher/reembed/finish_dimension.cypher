// Every space was switched and the vector indexes rebuilt at the new dimension: pin the
// database to the new embedder and dimension and clear the marker (graphmem reembed --all).
// params: $key, $embedder, $dim
// returns: dim
MATCH (m:GraphmemMeta {key: $key})
SET m.embedder = $embedder, m.dim = $dim, m.updated_at = datetime()
REMOVE m.reembed_to, m.reembed_dim
RETURN m.dim AS dim
