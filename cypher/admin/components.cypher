// Server name, version and edition.
// params: none
// returns: name, versions, edition
CALL dbms.components() YIELD name, versions, edition
RETURN name, versions, edition
