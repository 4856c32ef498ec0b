"""Session 38, verdicts that match real runs: the recommended count's wording when its band's high end is
above the card (estimator.rec_high; bot/render/rec_high_text.py).

Why the count climbs: :func:`estimator.plan.recommended` leaves full recompute out on NVLink cards (its
second forward pass: 6ND -> 8ND, a third more for full training; 4ND -> 6ND, half again for adapters,
bot/render/plan_wording.py), so a 70B QLoRA that fits one H100 80GB with full recompute is recommended on
2 (ZeRO-3, selective recompute), whose band's high end (86.7 GiB) is above the card. More cards help there
only because ZeRO-3 shards the 4-bit base (FSDP-QLoRA): 4 hold it. The reply now says first what lowers
the high end on the recommended count itself (``Memory.recommended_fit_change``: micro-batch 1, full
recompute), then the count, and never a change or a count that cannot help.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main

GIB = 2**30


def _ask(capsys: pytest.CaptureFixture[str], question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


QLORA_70B = [
    ("how many H100s to QLoRA a 70B model?", "Borderline on 2 GPUs: full recompute", "without that, 4 GPUs"),
    ("用 H100 做 70B 模型的 QLoRA 需要几张卡？", "2 张时临界：开全量重计算", "不改这些设置时，4 张"),
]


@pytest.mark.parametrize(("question", "lever", "count"), QLORA_70B)
def test_qlora_70b_names_full_recompute_on_its_count_before_the_count(capsys, question, lever, count):
    """2 recommended (ZeRO-3, selective recompute), high end 86.7 GiB of 80: full recompute on the same 2
    cards keeps only one layer's activations and the checkpoints (31.6 GiB at the high end, under the
    card); without it 4 cards hold the high end (the NF4 base 0.516 B a weight sharded 4 ways, not 2)."""
    data = _ask(capsys, question)
    m = data["report"]["memory"]
    assert (m["min_gpus"], m["recommended_gpus"], m["recommended_high_gpus"]) == (1, 2, 4)
    assert m["recommended_plan"]["zero_stage"] == 3 and m["recommended_plan"]["recompute"] == "selective"
    assert round(m["recommended_per_gpu_bytes_high"] / GIB, 1) == 86.7
    (change,) = m["recommended_fit_change"]
    assert (change["setting"], change["value"]) == ("recompute", "full")
    assert change["per_gpu_bytes_high"] <= m["usable_bytes"] == 80 * GIB
    assert round(change["per_gpu_bytes_high"] / GIB, 1) == 31.6
    # s40-fixh #1: line 1 says the verdict and its figure; the levers and the count go on line 2
    first, head = data["reply"].splitlines()[:2]
    assert "86.7 GiB" in first and "31.6" not in first
    assert lever in head and count in head and head.index(lever) < head.index(count)  # the lever first
    assert "31.6 GiB" in head


def test_a_lever_that_lowers_nothing_is_never_named(capsys):
    """PPO on a 70B policy: the step's peak is the rollout's (the critic, the reference and reward copies,
    the policy gathered to generate), with no activations or logits in it: full recompute would leave the
    high end where it is (83.7 GiB either way), so no lever is named; the count that holds it is (96)."""
    data = _ask(
        capsys,
        "If I switch on every memory-saving trick, what's the fewest GPUs that can run PPO on a 70B policy?",
    )
    m = data["report"]["memory"]
    assert m["recommended_per_gpu_bytes_high"] > m["usable_bytes"]
    assert m["recommended_fit_change"] == []
    assert m["recommended_high_gpus"] == 96
    assert "full recompute (gradient checkpointing" not in data["reply"].splitlines()[0]


def test_qlora_on_one_4090_names_recompute_and_no_count(capsys):
    """QLoRA 7B on RTX 4090: 1 card recommended at selective recompute, its high end above the card's 24 GiB;
    more data-parallel cards each hold the whole 4-bit model (no ZeRO-3 preferred there), so no count is
    named; full recompute on that one card holds it (under 24 GiB)."""
    data = _ask(capsys, "how many RTX 4090 to QLoRA a 7B model?")
    m = data["report"]["memory"]
    assert m["recommended_gpus"] == 1 and m["recommended_high_gpus"] is None
    assert m["recommended_per_gpu_bytes_high"] > m["usable_bytes"] == 24 * GIB
    (change,) = m["recommended_fit_change"]
    assert (change["setting"], change["value"]) == ("recompute", "full")
    assert change["per_gpu_bytes_high"] <= 24 * GIB


def test_the_climb_compares_like_with_like(capsys):
    """32B full fine-tuning on H100 80GB: 8 recommended (ZeRO-3, full recompute), 83.3 GiB at the high end.
    At 16 cards ZeRO-3 halves the model states: 16 B a parameter × 32e9 / 16 = 32e9 B (29.8 GiB) a card
    instead of 64e9 (59.6 GiB), so the same layout's high end falls to about 83.3 − 29.8 = 53.5 GiB: 16
    hold it. Before, the climb measured 16 by its preferred layout, which recomputes selectively (82.9
    GiB, under 1 % lower) and stopped, naming no count."""
    m = _ask(capsys, "how many H100 to full fine-tune a 32B model?")["report"]["memory"]
    assert m["recommended_gpus"] == 8
    assert m["recommended_plan"]["zero_stage"] == 3 and m["recommended_plan"]["recompute"] == "full"
    high = m["recommended_per_gpu_bytes_high"]
    assert round(high / GIB, 1) == 83.3
    halved = 16 * 32e9 / 8 - 16 * 32e9 / 16
    assert halved == 32e9 and high - halved <= 80 * GIB
    assert m["recommended_high_gpus"] == 16
    assert m["recommended_fit_change"] == []  # full recompute already, micro-batch 1: no lever left


LONG_LORA = [
    ("LoRA Llama-3-8B at 32k sequence length on RTX 4090s, how many GPUs?", "chunked loss", "full recompute"),
    ("用 4090 做 Llama-3-8B 的 LoRA，序列长度 32k，需要几张卡", "分块计算损失", "全量重计算"),
]


@pytest.mark.parametrize(("question", "helps", "already"), LONG_LORA)
def test_a_fully_recomputing_recommendation_names_what_else_helps(capsys, question, helps, already):
    """32,768 tokens of Llama 3 8B on RTX 4090s: the recommended TP 4 layout recomputes fully already and
    up to 8× the cards do not bring its high end (45.6 GiB) under 24 GiB (the loss's logits and a layer's
    activations per card): the line names a chunked loss or shorter sequences, not the recompute it has."""
    data = _ask(capsys, question)
    m = data["report"]["memory"]
    assert m["recommended_plan"]["recompute"] == "full" and m["recommended_high_gpus"] is None
    assert m["recommended_fit_change"] == []
    head = "\n".join(data["reply"].splitlines()[:2])  # s40-fixh #1: the levers on line 2
    tail = head[head.index("45.6 GiB") :]
    assert helps in tail and already not in tail


def test_a_users_count_gets_no_levers(capsys):
    """The user's count carries the answer's one verdict (s37 fixf #2): the recommendation's levers are
    not computed for it (the field stays, empty)."""
    m = _ask(capsys, "QLoRA a 70B model on 2 H100s")["report"]["memory"]
    assert m["recommended_fit_change"] == []


MICRO_BATCH_4 = [
    (
        "how many H100 to LoRA Llama-3-8B at seq 16384, micro batch 4?",
        "Borderline on 16 GPUs: micro-batch 1 keeps the high end under the card",
    ),
    (
        "用 H100 对 Llama-3-8B 做 LoRA，序列长度 16384，micro batch 4，需要几张卡？",
        "16 张时临界：微批次设为 1，区间上限就能放下",
    ),
]


@pytest.mark.parametrize(("question", "lever"), MICRO_BATCH_4)
def test_the_levers_stop_at_the_first_that_holds_it(capsys, question, lever):
    """Micro-batch 4 of 16,384 tokens: 16 recommended without full recompute, 90.3 GiB at the high end. The
    loss's logits and the kept activations scale with the micro-batch (Llama 3's 128,256-entry vocabulary:
    12 B a logit × 4 × 16,384 × 128,256 / TP), so micro-batch 1 alone brings the high end under the card;
    full recompute is not asked on top of it."""
    data = _ask(capsys, question)
    m = data["report"]["memory"]
    assert data["request"]["batch_size"] == 4 and m["recommended_gpus"] == 16
    assert round(m["recommended_per_gpu_bytes_high"] / GIB, 1) == 90.3
    (change,) = m["recommended_fit_change"]
    assert (change["setting"], change["value"]) == ("micro_batch", 1)
    assert change["per_gpu_bytes_high"] <= 80 * GIB
    assert lever in data["reply"].splitlines()[1]  # s40-fixh #1: the levers on the line below


ONE_CARD = [
    (
        "how many RTX 4090 to QLoRA a 7B model?",
        "one RTX 4090 is enough",
        "Borderline on 1 GPU: full recompute",
    ),
    ("用 4090 做 7B 模型的 QLoRA 要几张卡", "1 张 RTX 4090 就够", "1 张时临界：开全量重计算"),
]


@pytest.mark.parametrize(("question", "enough", "lever"), ONE_CARD)
def test_one_card_enough_carries_its_borderline(capsys, question, enough, lever):
    """QLoRA 7B on one RTX 4090 with no count asked: 20.0 GiB likely (selective recompute), 25.2 GiB at the
    band's high end, above the card's 24 GiB. The headline said 'one RTX 4090 is enough' alone (the
    minimum-only branch with several cards said borderline); now it says borderline and that full
    recompute on that card holds it."""
    data = _ask(capsys, question)
    m = data["report"]["memory"]
    assert m["min_gpus"] == m["recommended_gpus"] == 1
    assert round(m["recommended_per_gpu_bytes_high"] / GIB, 1) == 25.2
    head = "\n".join(data["reply"].splitlines()[:2])  # s40-fixh #1: the lever on the line below
    assert enough in head and lever in head and head.index(enough) < head.index(lever)
