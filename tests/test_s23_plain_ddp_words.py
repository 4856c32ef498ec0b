"""ZeRO stage 0 is PyTorch DDP with no sharding (Rajbhandari et al. 2020 §5: stages 1–3 partition optimizer
states, gradients, parameters): the answer says "plain DDP (no ZeRO)", never "ZeRO-0" (s22 closing, left)."""

from __future__ import annotations

from tests.cli_run import ask_quietly

EN = "7B full fine-tune on 8 A100 80G, plain DDP (no DeepSpeed), 1B tokens"
ZH = "7B 全参微调，8张A100，纯 DDP，10亿 token"


def test_plain_ddp_headline_and_layout_en() -> None:
    text = ask_quietly(EN)
    # s34 #1: their setting first, then the change that fits on their 8 and the time (94 ÷ 8 = 11.75 h)
    assert text.splitlines()[0] == (
        "7B full fine-tuning (plain DDP without ZeRO) on 1B tokens does not fit on 8 × A100 80G as set (no "
        "number of these GPUs at these settings); with ZeRO-3: 2 GPUs, so it fits on your 8: ≈ 12 hours "
        "there (94 A100-hours)"
    )
    # full recompute since s24: with the fused AdamW step at ZeRO-0 (no foreach copy hiding the activations)
    # full recompute is the least-memory layout shown when none fits (≈ 107 GiB of 80)
    assert "TP 1 × PP 1 × DP 8, plain DDP (no ZeRO), full recompute" in text
    assert "ZeRO-0" not in text


def test_plain_ddp_headline_and_layout_zh() -> None:
    text = ask_quietly(ZH)
    assert text.splitlines()[0] == (
        "7B 全参微调（不用 ZeRO 的纯 DDP） 10亿 token：按现在的设置 8 张 A100 80G 放不下"
        "（这样设置多少张这种卡都放不下）；改用 ZeRO-3：2 张，所以你的 8 张放得下："
        "在这些卡上约 12 小时（94 A100·时）"
    )
    assert "TP 1 × PP 1 × DP 8，纯 DDP（不用 ZeRO），完全重计算" in text  # s24: as in English
    assert "ZeRO-0" not in text


def test_a_yes_no_fit_question_heads_with_the_verdict_en() -> None:
    """s22 trial #9: 'Can I … on a single RTX 4090' that does not fit: the verdict and the least count
    first, never '≈ 9.7 days' of a run that cannot start (QLoRA 72B: 4ND = 2.98e19 FLOPs, 232 GPU-hours)."""
    line = ask_quietly(
        "Can I QLoRA Qwen2.5-72B on a single RTX 4090 24GB? 50k samples, 2048 seq len"
    ).splitlines()[0]
    assert line == (
        "Qwen2.5 72B QLoRA fine-tuning (2,048-token sequences) on 102M tokens does not fit in the memory of "
        "1 × RTX 4090: at least 4 GPUs needed (348 RTX 4090-hours of compute in all)"
    )  # s43 fixans #1: 232 → 348 = 232 × 6/4, the fewest GPUs' full recompute (QLoRA: every count)


def test_a_yes_no_fit_question_heads_with_the_verdict_zh() -> None:
    line = ask_quietly("DPO训练 Qwen2-7B，2万条偏好数据，单卡A800能跑吗").splitlines()[0]
    # s43 fixans #1: 2.8 → 3.5 = 2.8 × 10/8 (DPO k = 8, full recompute on the 2 GPUs), as the answer with
    # no count says ('≈ 3.5 A800·时：约 2 张训 1.7 小时 … 全量重计算 … 已计入')
    assert line == (  # s43: a family of two memory sizes is named with its memory (A800 40G in the catalog)
        "Qwen2 7B DPO 训练 2048万 token：1 张 A800 80G 显存放不下，至少需要 2 张（算力共 3.5 A800·时）"
    )
