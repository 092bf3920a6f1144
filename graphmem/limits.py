"""Moved to ``graphmem.serving.limits`` (issue 58: the package root shows its layers):
the defaults and limits of every way in. Code written against ``graphmem.limits`` keeps
working, with a DeprecationWarning, for one release (a module ``__getattr__``: nothing is
imported until a name is read)."""

from graphmem.process.moved import forward

__getattr__ = forward(__name__, "graphmem.serving.limits")
