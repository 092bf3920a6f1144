"""Moved to ``graphmem.process.hashing`` (issue 58: the package root shows its layers):
``file_sha256``. Code written against ``graphmem.hashing`` keeps working, with a
DeprecationWarning, for one release (a module ``__getattr__``: nothing is imported until a
name is read)."""

from graphmem.process.moved import forward

__getattr__ = forward(__name__, "graphmem.process.hashing")
