"""Process tuning a long-lived graphmem process opts into: BLAS threads, and
spaCy imported without torch; and where moved names are still found (``moved``)."""
