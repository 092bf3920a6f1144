// Mark the whole database as moving to another embedder of another dimension (graphmem
// reembed --all): until finish_dimension, every read and write of a space is refused.
// params: $key, $embedder, $dim
// returns: key
MATCH (m:GraphmemMeta {key: $key})
SET m.reembed_to = $embedder, m.reembed_dim = $dim
RETURN m.key AS key
