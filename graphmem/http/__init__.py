"""``graphmem serve``: the HTTP API (FastAPI on uvicorn, 127.0.0.1 only; docs/http.md).

Needs the ``http`` extra (``pip install 'graphmem[http]'``); importing graphmem without it
still works.
"""
