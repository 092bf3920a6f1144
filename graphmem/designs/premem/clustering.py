"""Step 2, section 3.2.1: per-session clusters chosen by silhouette score, and the
connected pairs between the persistent pool and a new session's clusters.

Deterministic: KMeans with a fixed seed, inputs in a fixed (turn) order, so the same session
gives the same clusters whether it is built alone or in a batch.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from graphmem.plugin import GraphmemError

Matrix = npt.NDArray[np.float32]


def cluster_labels(vectors: Matrix, max_clusters: int, random_state: int, n_init: int) -> list[int]:
    """A cluster label per row: KMeans with the k in 2..min(n-1, max_clusters) that has the
    best silhouette score; one cluster when n < 3 (silhouette needs 2 <= k <= n-1)."""
    n = len(vectors)
    if n < 3:
        return [0] * n
    if np.allclose(vectors, vectors[0]):
        return [0] * n  # identical points: every k > 1 is arbitrary
    # Imported here: scikit-learn takes about a second to import, and every command that
    # lists the designs (``query`` included) imports this module; only a build clusters.
    from sklearn.cluster import KMeans
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.metrics import silhouette_score
    from threadpoolctl import threadpool_limits

    best: tuple[float, list[int]] | None = None
    # One OpenMP thread while clustering: a session's few dozen fragments are one chunk of
    # KMeans' work (256 rows), so more threads only spin, and on busy cores the spinning
    # made PREMem's clustering 40 times slower. Same labels: one chunk sums in one order.
    # Repeated fragments make fewer distinct points than k: KMeans then warns that it found
    # fewer clusters, which is expected here (such a k scores as the smaller one and ties
    # keep the smaller k), so the warning would only reach the user's terminal as noise.
    # With finite input the seeding's distances are finite too, yet OpenBLAS kernels can
    # leave a floating-point flag set that numpy then reports as "invalid value
    # encountered in matmul" (numpy issues 13173, 24067): noise, once the input is checked.
    if not np.isfinite(vectors).all():
        raise GraphmemError("the embedder gave fragment vectors with NaN or infinite values")
    with threadpool_limits(limits=1, user_api="openmp"), warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.filterwarnings("ignore", "invalid value encountered in matmul", RuntimeWarning)
        for k in range(2, min(n - 1, max_clusters) + 1):
            model = KMeans(n_clusters=k, random_state=random_state, n_init=n_init)
            labels = model.fit_predict(vectors)
            if len(set(labels.tolist())) < 2:
                continue
            score = float(silhouette_score(vectors, labels))
            if best is None or score > best[0]:  # ties keep the smaller k
                best = (score, [int(x) for x in labels])
    return best[1] if best is not None else [0] * n


def groups(labels: Sequence[int]) -> list[list[int]]:
    """Row indices per cluster, clusters ordered by their first row (stable ids)."""
    by_label: dict[int, list[int]] = {}
    for row, label in enumerate(labels):
        by_label.setdefault(label, []).append(row)
    return sorted(by_label.values(), key=lambda rows: rows[0])


def centroid(vectors: Matrix) -> tuple[float, ...]:
    """The mean of the cluster's embeddings (section 3.2.1), rounded so that a centroid read
    back from the graph compares exactly like the one just computed."""
    mean = np.asarray(vectors, dtype=np.float64).mean(axis=0)
    return tuple(round(float(x), 6) for x in mean)


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    va, vb = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    norm = float(np.linalg.norm(va) * np.linalg.norm(vb))
    return float(va @ vb / norm) if norm else 0.0


def connected_pairs(
    pool: Sequence[tuple[str, Sequence[float]]],
    new: Sequence[tuple[str, Sequence[float]]],
    theta: float,
) -> list[tuple[str, str, float]]:
    """CP_i = {(p, c) : sim(p, c) > theta}: (pooled id, new id, cosine) in pool x new order."""
    return [
        (pid, cid, sim)
        for pid, pvec in pool
        for cid, cvec in new
        if (sim := round(cosine(pvec, cvec), 6)) > theta
    ]
