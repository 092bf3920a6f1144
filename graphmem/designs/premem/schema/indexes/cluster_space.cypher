// Range index on Cluster.space: statements that match the Cluster nodes of one space
// (`MATCH (n:Cluster {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every Cluster of every space.
// params: none
// returns: none
CREATE INDEX cluster_space IF NOT EXISTS FOR (n:Cluster) ON (n.space)
