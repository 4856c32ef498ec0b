"""Issue 23 item 7: ``estimator.estimate`` against llm-analysis (github.com/cli99/llm-analysis, 0.2.2)
on the same five cases, timed in one process: training and inference analysis of models and GPUs
that both tools know.

Usage: python bench/vs_llm_analysis.py [--repeat 200]
Skips (exit 0, one line) when llm-analysis is not importable: install it in a throwaway virtualenv
(``pip install fire`` and the checkout, outside this repository) and put that site-packages on
PYTHONPATH, e.g. ``PYTHONPATH=/tmp/lla/venv/lib/python3.11/site-packages python bench/...``.
Prints, per case, the median microseconds of one call of each (warm: both tools' catalogs already
loaded), and the ratio ours / theirs (≤ 1: we are no slower).
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# (label, llm-analysis call: function name and kwargs, our SizingRequest fields)
CASES: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = [
    (
        "train Llama-2-7B, 1T tokens, 64 × A100 80G",
        "train",
        dict(
            model_name="NousResearch_Llama-2-7b-hf",
            gpu_name="a100-sxm-80gb",
            total_num_tokens=10**12,
            seq_len=4096,
            batch_size_per_gpu=1,
            global_batch_size=1024,
            total_num_gpus=64,
            ds_zero=1,
        ),
        dict(stage="pretrain", model="Llama-2-7B", tokens=1e12, gpu="A100-SXM4-80GB", gpu_count=64),
    ),
    (
        "train Llama-2-70B, 2T tokens, 1024 × H100",
        "train",
        dict(
            model_name="upstage_Llama-2-70b-instruct-v2",
            gpu_name="h100-sxm-80gb",
            total_num_tokens=2 * 10**12,
            seq_len=4096,
            batch_size_per_gpu=1,
            global_batch_size=1024,
            total_num_gpus=1024,
            tp_size=8,
            ds_zero=1,
        ),
        dict(stage="pretrain", model="Llama-2-70B", tokens=2e12, gpu="H100-SXM5-80GB", gpu_count=1024),
    ),
    (
        "train OPT-13B, 300B tokens, 128 × A100 40G",
        "train",
        dict(
            model_name="facebook_opt-13b",
            gpu_name="a100-sxm-40gb",
            total_num_tokens=3 * 10**11,
            seq_len=2048,
            batch_size_per_gpu=1,
            global_batch_size=512,
            total_num_gpus=128,
            tp_size=2,
            ds_zero=1,
        ),
        dict(
            stage="pretrain",
            params_total=13e9,
            tokens=3e11,
            gpu="A100-SXM4-40GB",
            gpu_count=128,
            seq_len=2048,
        ),
    ),
    (
        "serve Llama-2-7B on 1 × A100 80G, 4K prompt",
        "infer",
        dict(
            model_name="NousResearch_Llama-2-7b-hf",
            gpu_name="a100-sxm-80gb",
            seq_len=4096,
            num_tokens_to_generate=256,
            batch_size_per_gpu=16,
        ),
        dict(
            stage="inference",
            model="Llama-2-7B",
            gpu="A100-SXM4-80GB",
            gpu_count=1,
            concurrency=16,
            seq_len=4096,
        ),
    ),
    (
        "serve Llama-2-70B on 4 × H100, TP 4",
        "infer",
        dict(
            model_name="upstage_Llama-2-70b-instruct-v2",
            gpu_name="h100-sxm-80gb",
            seq_len=4096,
            num_tokens_to_generate=256,
            batch_size_per_gpu=16,
            tp_size=4,
        ),
        dict(
            stage="inference",
            model="Llama-2-70B",
            gpu="H100-SXM5-80GB",
            gpu_count=4,
            concurrency=16,
            seq_len=4096,
        ),
    ),
]


def median_us(call: Callable[[], object], repeat: int) -> float:
    """Median wall time of one ``call()`` in microseconds over ``repeat`` calls, after one warm-up."""
    call()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    try:
        import llm_analysis.analysis as lla
    except ImportError:
        print("skipped: llm-analysis is not installed (see this file's docstring)")
        return 0
    logging.getLogger("llm_analysis").setLevel(logging.ERROR)
    lla.logger.setLevel(logging.ERROR)
    from estimator import estimate
    from estimator.request import SizingRequest

    print(f"{'case':48} {'ours µs':>9} {'llm-analysis µs':>16} {'ratio':>6}")
    ratios = []
    for label, fn, theirs, ours in CASES:
        request = SizingRequest(**ours)
        us = median_us(lambda request=request: estimate(request), args.repeat)
        call = getattr(lla, fn)
        them = median_us(lambda call=call, kw=theirs: call(log_level="ERROR", **kw), args.repeat)
        ratios.append(us / them)
        print(f"{label:48} {us:9.0f} {them:16.0f} {us / them:6.2f}")
    print(f"worst ratio ours / llm-analysis: {max(ratios):.2f} (≤ 1: no slower)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
