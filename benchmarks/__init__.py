"""Performance benchmarks (run with ``python -m benchmarks.run``)."""
