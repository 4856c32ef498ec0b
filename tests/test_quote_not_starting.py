"""A won't-start serving quote prices what the answer recommends, never the default load's size
(session 17, s17-fix item 4: bot.core.quote_gpus)."""

from __future__ import annotations

from pathlib import Path

from bot.core.offer import pricing
from bot.core.pipeline import Context, answer
from bot.settings.presales import load_presales

EXAMPLE = Path(__file__).resolve().parent.parent / "presales.example.toml"


def test_a_stated_count_that_does_not_start_prices_the_fewest_that_start() -> None:
    # bf16 stated: with no precision and no load, FP8 on the stated 2 cards is the answer (s28 trial H2)
    text = "vLLM 在 2 张 H800 上部署 Qwen2.5-72B（bf16），max-model-len 131072，启动报 KV cache 不够"
    a = answer(text, Context(), None, load_presales(EXAMPLE))
    inf = a.report.inference
    # the default load (16 sequences of 128K) wants 16 GPUs; 2 do not hold 145 GB of bf16 weights (72.7B ×
    # 2 B) plus a 128K sequence's 40 GiB KV cache (320 KiB a token); 4 start
    assert (inf.serving_gpus, inf.min_gpus) == (16, 4)
    priced = pricing(a.report, a.offer)
    assert priced.sized_gpus == 4 and priced.gpus == 8  # the fewest that start, in one whole 8-GPU node


def test_a_stated_load_keeps_its_recommended_size() -> None:
    a = answer("用 2 张 H800 部署 Llama-3.1-405B，100 并发", Context(), None, load_presales(EXAMPLE))
    assert a.report.inference.serving_gpus == 16  # 812 GB of weights + 100 × 4K of KV: two 8-GPU nodes
    assert pricing(a.report, a.offer).sized_gpus == 16
