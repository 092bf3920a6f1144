"""The cross-design ``graphmem`` strategy: one retrieval over every design present in a space.

It sits above the designs (``kind="strategy"``): it builds nothing, imports no design and
reaches the other strategies through the retriever registry. See ``docs/graphmem-strategy.md``.
"""
