// New centroids of clusters of a space (graphmem reembed).
// params: $space, $rows
// returns: written
UNWIND $rows AS row
MATCH (c:Cluster {space: $space, id: row.id})
SET c.centroid = row.centroid
RETURN count(c) AS written
