"""Native thread pools of the process.

OpenBLAS (behind numpy) keeps its worker threads spinning for a while after every call.
On a 2-core machine that shares its cores with Neo4j, a retriever's small matrix products
left them spinning through the next database call: the PageRank statement took 49 ms at
the median instead of 31 (p95 85 vs 42), measured on LoCoMo questions. The vectors here
are small (hundreds of rows), so one BLAS thread loses nothing.
"""

from __future__ import annotations


def limit_blas_threads(threads: int) -> None:
    """Cap numpy's BLAS thread pool for the rest of the process (0: leave it alone)."""
    if threads <= 0:
        return
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=threads, user_api="blas")
