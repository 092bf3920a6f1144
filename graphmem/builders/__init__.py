"""Memory builders: each design writes its layer into the one graph."""
