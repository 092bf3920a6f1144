"""Moved to ``graphmem.mcp.server``: this name keeps working, with a DeprecationWarning, for
one release (a module ``__getattr__``, so that importing it costs nothing until a name is
read)."""

from graphmem.process.moved import forward

__getattr__ = forward(__name__, "graphmem.mcp.server")
