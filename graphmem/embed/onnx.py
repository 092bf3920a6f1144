"""Moved to ``graphmem.embed.minilm_onnx`` (issue 58: the name says what it is, MiniLM
exported to ONNX for a query's short calls). Imports of ``graphmem.embed.onnx`` keep
working, with a DeprecationWarning, for one release (a module ``__getattr__``: nothing is
imported until a name is read)."""

from graphmem.process.moved import forward

__getattr__ = forward(__name__, "graphmem.embed.minilm_onnx")
