"""Moved to ``graphmem.validity.claim_reader`` (issue 58: the name says what it does, read
each statement's claim). Imports of ``graphmem.validity.claim`` keep working, with a
DeprecationWarning, for one release (a module ``__getattr__``: nothing is imported until
a name is read)."""

from graphmem.process.moved import forward

__getattr__ = forward(__name__, "graphmem.validity.claim_reader")
