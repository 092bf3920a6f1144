"""Performance benchmarks: ``python -m benchmarks all|growth|plans|scale`` (see README.md)."""
