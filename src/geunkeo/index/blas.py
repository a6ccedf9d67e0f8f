"""BLAS thread cap for searching processes."""

from __future__ import annotations

import logging

logger = logging.getLogger(__name__)


def limit_blas_threads(n: int | None) -> None:
    """Cap BLAS threads in this process (a store's matrix-vector products are far too small to need them, and
    spinning BLAS threads slow the query embedding down; see IndexSettings.search_blas_threads). Applied at
    every index open, because a BLAS library loaded since the last one (scipy's own OpenBLAS) starts uncapped."""
    if n is None:
        return
    from threadpoolctl import threadpool_info, threadpool_limits

    if all(p["num_threads"] <= n for p in threadpool_info() if p["user_api"] == "blas"):
        return
    threadpool_limits(limits=n, user_api="blas")  # stays until changed: only a `with` block restores it
    logger.debug("BLAS threads limited to %d for searching", n)
