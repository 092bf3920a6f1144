"""AnchorMem (Shen et al.): atomic facts as retrieval anchors over immutable source turns,
plus an associative event graph that binds similar facts into event narratives."""
