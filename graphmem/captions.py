"""Moved to ``graphmem.plugin.captions`` (the plug-in kit, issue 58): ``short_caption``.
Plug-ins written against ``graphmem.captions`` keep working, with a DeprecationWarning, for
one release (a module ``__getattr__``: nothing is imported until a name is read)."""

from graphmem.process.moved import forward

__getattr__ = forward(__name__, "graphmem.plugin.captions")
