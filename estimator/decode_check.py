"""Decode speed against logged runs (s36 fixd): the estimator's per-sequence decode tokens/s for each
row of ``estimator/data/measured/decode_speeds.json`` (single-stream or low-concurrency decode speeds
from GitHub threads, a URL per row), and the ratio predicted / measured. A third of the rows is held
out (the file's ``heldout``, frozen by sha256 of the ids before the decode model changed): fitting
reads :func:`working` only. Not imported at start-up (tests and ``bench/`` read it)."""

from __future__ import annotations

import json
import statistics
from functools import cache
from importlib import resources

from estimator import catalog
from estimator.models import Precision


@cache
def _doc() -> dict:
    text = resources.files("estimator").joinpath("data/measured/decode_speeds.json").read_text("utf-8")
    return json.loads(text)


def records() -> list[dict]:
    """Every logged row."""
    return list(_doc()["records"])


def heldout_ids() -> frozenset[str]:
    """The frozen held-out third."""
    return frozenset(_doc()["heldout"])


def working() -> list[dict]:
    """The rows a constant may be fitted on (the held-out third left out)."""
    held = heldout_ids()
    return [r for r in records() if r["id"] not in held]


def heldout() -> list[dict]:
    """The held-out rows (read only to report the final error)."""
    held = heldout_ids()
    return [r for r in records() if r["id"] in held]


def predicted(row: dict) -> float | None:
    """The estimator's per-sequence decode tokens/s for ``row``: :func:`estimator.inference.size_inference`
    on the row's card and count, its TP × PP as the group, its engine and concurrency."""
    from estimator.inference import size_inference

    spec = catalog.model(row["model"])
    inf = size_inference(
        spec,
        spec.params_total,
        spec.params_active,
        catalog.gpu(row["gpu"]),
        Precision(row["precision"]),
        row["context_tokens"],
        row["concurrency"],
        row["gpus"],
        runtime=row["runtime"],
        group=(row["tp"], row.get("pp", 1)),
    )
    speed = inf.decode_tokens_per_s
    return speed.per_sequence if speed else None


def ratios(rows: list[dict]) -> list[tuple[str, float]]:
    """(id, predicted / measured) for each row the estimator gives a speed for."""
    out = []
    for row in rows:
        p = predicted(row)
        if p:
            out.append((row["id"], p / row["tokens_per_s"]))
    return out


def summary(rows: list[dict]) -> tuple[float, float, float]:
    """(median ratio, geometric spread: the median of |log ratio| as a factor, largest factor off)."""
    import math

    rs = [r for _, r in ratios(rows)]
    logs = [abs(math.log(r)) for r in rs]
    return statistics.median(rs), math.exp(statistics.median(logs)), math.exp(max(logs))
