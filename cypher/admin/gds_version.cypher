// The installed Graph Data Science library version (fails when GDS is absent).
// params: none
// returns: version
RETURN gds.version() AS version
