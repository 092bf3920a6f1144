"""A plug-in with its own schema (a vector index), an indexed label and a CLI command (see
``design.py``), as docs/adding-a-design.md describes."""
