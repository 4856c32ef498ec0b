"""Session 37, verdicts that match real runs, part 2 (s37-verdict2).

#1 The recommended training count is chosen on the likely figure ≤ 90 % of the card
(estimator.plan.recommended); it now also carries its band's high end (``recommended_per_gpu_bytes_high``)
and, when that is above the card, the layout of the same count that holds it or the fewest of 2×, 4×, 8× the
count that does (``recommended_high_gpus``, estimator.rec_high), and the reply calls it borderline.

Hand computation for the brief's case, Meta-Llama-3-8B (``config.json``: vocab_size 128,256, 32 layers,
hidden 4,096) fully fine-tuned at 16,384 tokens on RTX 4090 (24 GiB): the fewest / recommended count is 8
cards at TP 8 (no NVLink, one node; full recompute). The loss's logits there are one micro-batch of 16,384
tokens × 128,256 entries, split over TP 8, 12 bytes a logit likely (bf16 logits + the fp32 copy, its
log-softmax output and gradients: estimator.transients FP32_LOSS_BYTES_PER_LOGIT; tests/test_s32_verdict.py)
= 16,384 × 128,256 × 12 / 8 = 3,152,019,456 bytes (2.94 GiB). The likely figure is 19.7 GiB a card, the
band's high end 32.5 GiB: above 24 GiB, so "8 cards" alone would be the borderline run that ran out of
memory. Two machines (16 cards, TP 8 × PP 2: half the layers and their optimizer states a card) hold the
high end at 21.5 GiB.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main

GIB = 2**30
LOGITS_TP8 = 16_384 * 128_256 * 12 / 8
assert LOGITS_TP8 == 3_152_019_456


def _ask(capsys, question: str, fmt: str = "json") -> dict | str:
    main(["ask", "--format", fmt, "--", question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


LLAMA3_16K = {
    "en": "How many RTX 4090 to full fine-tune Llama-3-8B at seq 16384?",
    "zh": "全参微调 Llama-3-8B，序列长度 16384，需要几张 RTX 4090？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_recommendation_above_the_card_at_its_high_end_is_borderline_and_names_the_count(capsys, lang):
    memory = _ask(capsys, LLAMA3_16K[lang])["report"]["memory"]
    assert memory["min_gpus"] == memory["recommended_gpus"] == 8
    assert (memory["recommended_plan"]["tp"], memory["recommended_plan"]["pp"]) == (8, 1)
    assert memory["breakdown"]["logits"] == LOGITS_TP8  # the plan shown is the 8-card TP 8 layout
    assert round(memory["recommended_per_gpu_bytes"] / GIB, 1) == 19.7
    assert round(memory["recommended_per_gpu_bytes_high"] / GIB, 1) == 32.5
    assert memory["recommended_per_gpu_bytes_high"] > memory["usable_bytes"] == 24 * GIB
    assert memory["recommended_high_gpus"] == 16
    head, below = _ask(capsys, LLAMA3_16K[lang], "text").splitlines()[:2]  # s40-fixh #1: count below
    if lang == "en":
        assert "borderline" in head and "32.5 GiB" in head and "16 GPUs hold the high end" in below
    else:
        assert "临界" in head and "32.5 GiB" in head and "16 张时显存区间上限也放得下" in below


def test_the_named_count_holds_the_high_end_by_the_answers_own_band(capsys, monkeypatch):
    """16 cards: the layout estimator.fit_change.high_edge_fit finds (TP 8 × PP 2) has its high end under
    the card (21.5 GiB of 24), while no layout of 8 cards' TP 8 does: the same layouts, order and band as
    the answer."""
    import estimator.training_plan as training_plan
    from estimator.fit_change import high_edge_fit

    seen = []
    kept = training_plan.with_high_edge_plan

    def spy(spec, params, gpu, setup, mem):
        seen.append((spec, params, gpu, setup))
        return kept(spec, params, gpu, setup, mem)

    monkeypatch.setattr(training_plan, "with_high_edge_plan", spy)
    _ask(capsys, LLAMA3_16K["en"])
    spec, params, gpu, setup = seen[0]
    assert high_edge_fit(spec, params, gpu, 8, setup, (8, 1)) is None
    plan, high = high_edge_fit(spec, params, gpu, 16, setup)
    assert (plan.tp, plan.pp, plan.dp) == (8, 2, 1)
    assert round(high / GIB, 1) == 21.5 and high <= gpu.addressable_bytes


def test_no_count_up_to_8x_names_none_and_says_so(capsys):
    """Llama-3.1-8B at 65,536 tokens: the recommended 32 cards' high end is 49.1 GiB of 24; doubling the
    data parallelism lowers it by under 1 % (the logits and one layer's activations a card are what is
    left), so no count is named and the reply says more GPUs do not bring it under."""
    q = "How many RTX 4090 to full fine-tune Llama-3.1-8B at seq 65536?"
    memory = _ask(capsys, q)["report"]["memory"]
    assert memory["recommended_gpus"] == 32
    assert round(memory["recommended_per_gpu_bytes_high"] / GIB, 1) == 49.1
    assert memory["recommended_high_gpus"] is None
    head, below = _ask(capsys, q, "text").splitlines()[:2]  # s40-fixh #1: the line below says it
    assert "49.1 GiB" in head and "up to 8 times as many GPUs do not bring the high end under" in below


def test_a_comfortable_recommendation_names_nothing(capsys):
    memory = _ask(capsys, "How many A100 80GB to LoRA fine-tune Llama-3-8B at seq 2048?")["report"]["memory"]
    assert memory["recommended_per_gpu_bytes_high"] <= memory["usable_bytes"]
    assert memory["recommended_high_gpus"] is None
    text = _ask(capsys, "How many A100 80GB to LoRA fine-tune Llama-3-8B at seq 2048?", "text")
    assert "borderline" not in text.splitlines()[0]
