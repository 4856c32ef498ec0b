"""On cards without NVLink, copies of one card come before tensor parallelism when one card holds the
weights and a useful KV pool (s20 #5; estimator.serving_layout._pcie_replicas, USEFUL_POOL = 8 sequences):
vLLM's docs ("Parallelism and scaling": a model that fits one GPU needs no distributed inference) and
vllm-project/vllm#294 ("start multiple vLLM replicas"). Before, 20 req/s of Llama-3.1-8B on L4 was 32 L4
at TP 8, beside the answer's own warning that TP over PCIe is slow."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from estimator import catalog
from estimator.runtimes import VLLM
from estimator.serving_layout import USEFUL_POOL, sequences_per_replica, serving_layout
from estimator.weights import kv_bytes_per_token


@pytest.mark.parametrize(
    "question",
    [
        "20 req/s, 2000 in / 500 out, Llama-3.1-8B on L4",
        "Llama-3.1-8B 用 L4 部署，每秒 20 个请求，输入 2000 token，输出 500 token，要几张？",
    ],
)
def test_a_small_model_on_l4_is_served_by_copies_of_one_card(question: str) -> None:
    inf = answer(question).report.inference
    assert inf.tp == 1 and inf.pp == 1 and inf.replicas > 1
    assert not any(w.code == "tp_over_pcie" for w in answer(question).report.warnings)


def test_the_rule_on_the_layout() -> None:
    """Llama-3.1-8B bf16 (16.1 GB) on an L4 (24 GB, no NVLink) at 2,500 tokens a sequence: 128 KiB a token
    × 2,500 = 328 MB a sequence; one card's KV pool holds ≥ 8 of them, so 100 sequences are ⌈100 ÷ per⌉
    copies of one card; an H100 (NVLink) keeps the fewest-GPU choice."""
    spec, l4 = catalog.model("Llama-3.1-8B"), catalog.gpu("L4")
    weights, kv_seq = 2 * spec.params_total, kv_bytes_per_token(spec, 2.0) * 2500
    per = sequences_per_replica(weights, kv_seq, spec, l4, 1, 1, VLLM)
    assert per >= USEFUL_POOL
    layout = serving_layout(weights, kv_seq, 100, spec, l4, VLLM)
    assert (layout.tp, layout.pp, layout.replicas) == (1, 1, -(-100 // per))


def test_a_model_that_does_not_fit_one_card_keeps_tensor_parallelism() -> None:
    """Qwen2.5-32B bf16 (65 GB) on L40S (48 GB): no copy on one card, TP as before."""
    inf = answer("Qwen2.5-32B 用 L40S 部署，并发 50，要几张").report.inference
    assert inf.tp >= 2
