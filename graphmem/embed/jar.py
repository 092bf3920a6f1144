"""Moved to ``graphmem.embed.onnx_jar_embedder`` (issue 58: the name says what it is, the
embedder over the ONNX models that ship in Maven jars). Imports of ``graphmem.embed.jar``
keep working, with a DeprecationWarning, for one release (a module ``__getattr__``:
nothing is imported until a name is read)."""

from graphmem.process.moved import forward

__getattr__ = forward(__name__, "graphmem.embed.onnx_jar_embedder")
