"""graphmem as a Model Context Protocol server (``graphmem mcp``): the tools over the
service HTTP shares (graphmem/serving), on stdio. Needs the ``mcp`` extra."""
