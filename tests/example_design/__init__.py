"""A tiny design used to prove that the plug-in walk of docs/adding-a-design.md works:
``keywords`` stores each passage's capitalised words as ``Keyword`` nodes with ``FROM``
provenance and retrieves passages through them. It ships outside graphmem (as a third
party's would), with its Cypher in its own folder."""
