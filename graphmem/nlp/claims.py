"""Moved to ``graphmem.nlp.speech_acts`` (issue 58: the name says what it does, classify
what a sentence does). Imports of ``graphmem.nlp.claims`` keep working, with a
DeprecationWarning, for one release (a module ``__getattr__``: nothing is imported until
a name is read)."""

from graphmem.process.moved import forward

__getattr__ = forward(__name__, "graphmem.nlp.speech_acts")
