"""The largest model a set of GPUs serves (estimator/largest.py): "一张4090能跑多大的模型".

Bounds come from the cards' datasheets and 2 bytes per 16-bit weight, not from the estimator: a 24 GB
RTX 4090 (25.8 GB) cannot hold 13B × 2 B = 26 GB of weights, and holds Gemma 2 9B's 9.24B × 2 B =
18.5 GB with room for a 4K-token KV cache; eight 80 GB A100s (640 GiB) cannot hold 320B × 2 B, and hold
DeepSeek-V2's 236B × 2 B = 472 GB.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import catalog
from estimator.architecture import shape_for_size
from estimator.inference import size_inference
from estimator.models import Precision, SizingRequest, Stage
from estimator.sizing import estimate


def _largest(**kw) -> dict[str, object]:
    report = estimate(SizingRequest(stage=Stage.inference, **kw))
    assert report.largest_served is not None
    return {row.precision.value: row for row in report.largest_served}


def test_one_rtx_4090_in_16_bit_holds_a_9b_model_not_a_13b_one():
    rows = _largest(gpu="RTX-4090")
    assert 9.24e9 < rows["bf16"].params_max < 13e9
    assert rows["bf16"].params_max < rows["q8_0"].params_max < rows["q4_k_m"].params_max  # fewer bits, more


def test_eight_a100_80g_in_16_bit_hold_236b_not_320b():
    rows = _largest(gpu="A100-SXM4-80GB", gpu_count=8)
    assert 236e9 < rows["bf16"].params_max < 320e9
    assert "DeepSeek-V2" in rows["bf16"].examples or "DeepSeek-V2.5" in rows["bf16"].examples


@pytest.mark.parametrize("weights", [Precision.bf16, Precision.int4])
def test_the_size_found_is_the_edge_of_what_fits(weights):
    """At the size found the load fits on the GPUs; 3 % larger it does not (same memory model as every
    serving answer)."""
    gpu = catalog.gpu("H100-SXM5-80GB")
    n = _largest(gpu="H100-SXM5-80GB", gpu_count=2)[weights.value].params_max

    def need(p: float) -> int:
        return size_inference(shape_for_size(p), p, None, gpu, weights, 4096, 16, 2).recommended_gpus

    assert need(n) <= 2 < need(n * 1.03)


@pytest.mark.parametrize(
    ("question", "headline"),
    [
        ("一张4090能跑多大的模型", "1 张 RTX 4090 最大能跑约"),
        ("What's the biggest model I can run on a single RTX 4090?", "1 × RTX 4090 serves models up to ≈"),
    ],
)
def test_the_question_is_answered(capsys, question, headline):
    assert main(["ask", "--format", "json", question]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["reply"].startswith(headline)
    # the headline names the 4-bit size: the most parameters any format here fits
    sizes = [row["params_max"] for row in out["report"]["largest_served"]]
    assert sizes == sorted(sizes) and len(sizes) == 3


def test_a_stated_format_is_the_only_one_sized():
    """'一张4090 int4': the stated weight format alone (never silently the three default ones)."""
    rows = _largest(gpu="RTX-4090", precision="int4")
    assert list(rows) == ["int4"]
    # 24 GB of 4-bit weights (0.5 B/param) is at most 48B parameters, before any KV cache
    assert 9.24e9 < rows["int4"].params_max < 24e9 * 2.0
