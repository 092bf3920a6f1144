"""Process tuning a long-lived graphmem process opts into: BLAS threads, and
spaCy imported without torch."""
