"""PREMem (Kim et al.): typed memory fragments, per-session clusters joined across sessions
through a persistent cluster pool, and insights reasoned before storage."""
