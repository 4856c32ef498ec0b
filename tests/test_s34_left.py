"""Session 34, part left: answers that contradict themselves or miss what the user has (fresh-user trial).

1. A failed count of the user's own setting is said first (their cards, their micro-batch, the count that
   setting needs), then the change that fits on their cards and the time there (GPU-hours ÷ GPUs ÷ 24).
2. 'Cheapest' compares the priced cards (consumer ones included) for training too, and beside a card the
   user named; a row at the user's count that does not hold the job says so instead of days.
5. An fp32 frozen base (P-tuning v2, LoRA, freeze-tuning) offers loading it in bf16/fp16.
6. ¥ ranges for the RTX 3090 and the L20 (estimator/data/prices.toml, each with its source).
7. A step question's global batch made of the user's accumulation × an assumed micro-batch says so.
8. An fp32 run keeps fp32 activations: 4 bytes per element, not Korthikanti et al.'s 16-bit 2.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.parse import parse
from bot.parse.which_cards import CHEAPEST_ASKED, with_cards_compared


def _json(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _text(capsys, question: str) -> str:
    main(["ask", "--format", "text", "--", question])
    return capsys.readouterr().out


def _yaml(batch: int, cutoff: int) -> str:
    return (
        "model_name_or_path: Qwen/Qwen2.5-14B-Instruct\nstage: sft\ndo_train: true\nfinetuning_type: lora\n"
        "quantization_bit: 4\nlora_rank: 16\nlora_target: all\ndataset: my_data\ntemplate: qwen\n"
        f"cutoff_len: {cutoff}\nmax_samples: 20000\nper_device_train_batch_size: {batch}\n"
        "gradient_accumulation_steps: 4\nnum_train_epochs: 3.0\nbf16: true\n"
    )


# 1. their setting first, then what fits on their cards, with the time there


def test_failed_micro_batch_says_their_count_then_the_fix_and_the_days_on_their_cards(capsys) -> None:
    question = "Can I run this on 2x RTX 3090?\n```yaml\n" + _yaml(2, 4096) + "```"
    d = _json(capsys, question)
    line = d["reply"].splitlines()[0]
    report = d["report"]
    assert report["memory"]["fits_requested"] is False and report["memory"]["min_gpus"] == 8
    assert "does not fit in the memory of 2 × RTX 3090 as set (at least 8 GPUs at these settings)" in line
    assert "with micro-batch 1 (more gradient accumulation)" in line
    # the days on their 2 cards: GPU-hours ÷ 2 ÷ 24 (262 ÷ 48 = 5.46)
    gh = report["gpu_hours"]["likely"]
    assert round(gh) == 262 and f"so it fits on your 2: ≈ {gh / 2 / 24:.1f} days there" in line
    assert "(262 RTX 3090-hours)" in line
    # the body agrees: the count for their settings is 8, as line 1 says
    assert "Memory: fits on at least 8 GPUs" in d["reply"]


def test_no_count_fits_their_setting_still_gives_the_fix_on_their_cards_in_chinese(capsys) -> None:
    question = "两张3090能跑这个吗？要多久？\n```yaml\n" + _yaml(8, 2048) + "```"
    d = _json(capsys, question)
    line = d["reply"].splitlines()[0]
    assert d["report"]["memory"]["min_gpus"] is None
    assert "按现在的设置 2 张 RTX 3090 放不下（这样设置多少张这种卡都放不下）" in line
    gh = d["report"]["gpu_hours"]["likely"]  # 131 RTX 3090-hours ÷ 2 ÷ 24 = 2.7 days
    assert round(gh) == 131 and f"在这些卡上约 {gh / 2 / 24:.1f} 天" in line


def test_a_setting_that_fits_keeps_its_own_headline(capsys) -> None:
    line = _text(capsys, "Can I run this on 2x RTX 3090?\n```yaml\n" + _yaml(1, 2048) + "```").splitlines()[0]
    # s39 fixv #6: 'Can I run this …?' is a yes/no fit question: its verdict on their 2 cards, then the days
    assert (
        "as set" not in line and "with 2 × RTX 3090: borderline (see below)" in line and "≈ 4.1 days" in line
    )


# 2. the cheapest: every priced card, their own card among them


def test_cheapest_beside_a_named_consumer_card_keeps_it_first_and_compares_the_priced_cards(capsys) -> None:
    q = "What's the cheapest way to LoRA fine-tune Qwen2.5-7B on 100M tokens? I have an RTX 4090"
    text = _text(capsys, q)
    rows = [r for r in text.splitlines() if r.startswith("• ")]
    assert rows[0].startswith("• RTX 4090: 26 RTX 4090-hours")  # their card, first
    assert any(r.startswith("• L40S:") for r in rows) and any(r.startswith("• A100 80G:") for r in rows)
    assert text.splitlines()[0].startswith("Lowest cost of the whole job: L40S")
    assert "LoRA fine-tuning on 100M tokens with 1 × RTX 4090 ≈ 1.1 days" in text  # sized on their card


def test_cheapest_training_with_no_card_named_includes_the_consumer_card(capsys) -> None:
    rows = [r for r in _text(capsys, "cheapest way to LoRA fine-tune Qwen2.5-7B on 100M tokens").splitlines()]
    assert any(r.startswith("• RTX 4090: 26 RTX 4090-hours") for r in rows)


def test_no_cheapest_asked_no_comparison() -> None:
    parsed = parse("LoRA fine-tune Qwen2.5-7B on 100M tokens on my RTX 4090")
    assert CHEAPEST_ASKED not in parsed.notes and not parsed.gpu_alternatives
    assert with_cards_compared(parsed, "LoRA fine-tune Qwen2.5-7B on 100M tokens on my RTX 4090") is parsed


def test_their_count_that_does_not_hold_the_job_has_no_days_in_its_row(capsys) -> None:
    text = _text(capsys, "最便宜的方案：QLoRA微调Qwen2.5-32B，1亿token，我有一张3090")
    assert "• RTX 3090：1 张放不下这个任务（至少需要 2 张）" in text
    assert "• RTX 3090：236" not in text


# 5. an fp32 frozen base: loading it in 16 bits is offered first


def test_ptuning_fp32_offers_the_half_precision_base_that_fits(capsys) -> None:
    fp32 = _json(capsys, "P-Tuning v2 fine-tune ChatGLM3-6B in fp32 on one RTX 3090")
    bf16 = _json(capsys, "P-Tuning v2 fine-tune ChatGLM3-6B in bf16 on one RTX 3090")
    m = fp32["report"]["memory"]
    half = next(a for a in m["alternatives"] if a["change"] == "half_frozen")
    # the alternative is the same job loaded in bf16: exactly the bf16 question's memory per GPU
    assert half["min_gpus"] == 1 and half["per_gpu_bytes"] == bf16["report"]["memory"]["per_gpu_bytes"]
    assert m["breakdown"]["weights"] == 4 * 6.24e9  # ChatGLM3-6B: 6.24B parameters × 4 bytes
    assert bf16["report"]["memory"]["breakdown"]["weights"] == 2 * 6.24e9
    line = fp32["reply"].splitlines()[0]
    assert "does not fit on 1 × RTX 3090 as set" in line
    assert "with the frozen base loaded in bf16/fp16 instead of fp32 (torch_dtype): 1 GPU" in line
    assert not any(a["change"] == "half_frozen" for a in bf16["report"]["memory"]["alternatives"])


def test_the_half_precision_base_in_chinese(capsys) -> None:
    line = _text(capsys, "P-Tuning v2 微调 ChatGLM3-6B，fp32，一张 3090").splitlines()[0]
    assert "冻结的底座改用 bf16/fp16 加载、不用 fp32（torch_dtype）：1 张" in line


# 6. ¥ for the RTX 3090 and the L20


def test_steps_with_only_the_accumulation_stated_say_the_micro_batch_was_assumed(capsys) -> None:
    q = "full fine-tune Qwen2.5-7B on 8x A100, gradient accumulation 16, seq len 2048: 1000 steps, how long?"
    line = _text(capsys, q).splitlines()[1]
    # 128 = micro-batch 1 (assumed) × accumulation 16 × 8 GPUs; 1,000 × 128 × 2,048 = 262,144,000
    assert "1,000 × 128 × 2,048 = 262,144,000 token" in line
    assert "your global batch" not in line
    assert "the global batch is your gradient accumulation × the micro-batch per GPU, assumed" in line


def test_steps_with_the_per_device_batch_stated_are_not_said_assumed(capsys) -> None:
    q = (
        "full fine-tune Qwen2.5-7B on 8x A100, per-device batch 2, gradient accumulation 16, seq len 2048, "
        "how long for 1000 steps?"
    )
    text = _text(capsys, q)
    assert "micro-batch per GPU, assumed" not in text and "micro-batch 2" in text.splitlines()[0]


def test_steps_in_chinese_say_the_assumed_parts(capsys) -> None:
    line = _text(capsys, "8张A100全参微调Qwen2.5-7B，梯度累积16，跑1000步要多久").splitlines()[1]
    assert "全局批大小 = 你的梯度累积 × 每卡微批次 × 数据并行卡数，其中微批次和序列长度是假设的" in line


# 8. fp32 activations


def test_fp32_run_keeps_activations_at_four_bytes(capsys) -> None:
    fp32 = _json(capsys, "P-Tuning v2 fine-tune ChatGLM3-6B in fp32 on one RTX 3090")["report"]["memory"]
    bf16 = _json(capsys, "P-Tuning v2 fine-tune ChatGLM3-6B in bf16 on one RTX 3090")["report"]["memory"]
    assert fp32["plan"]["recompute"] == bf16["plan"]["recompute"] == "full"
    # full recompute keeps each layer's input: s·b·h elements × L layers (Korthikanti et al. 2022 §4.2)
    s, b, h, layers = 2048, 1, 4096, 28  # ChatGLM3-6B config.json: hidden_size 4096, num_layers 28
    assert bf16["breakdown"]["activations"] == 2 * s * b * h * layers  # 469,762,048 bytes in bf16
    assert fp32["breakdown"]["activations"] == 4 * s * b * h * layers  # 939,524,096 bytes in fp32


def test_fp32_full_training_without_recompute_doubles_the_kept_activations(capsys) -> None:
    q = "full fine-tune Qwen2.5-0.5B in {} on one A100 80G, seq 4096, micro batch 4, no gradient checkpoint"
    fp32 = _json(capsys, q.format("fp32"))["report"]["memory"]["breakdown"]["activations"]
    bf16 = _json(capsys, q.format("bf16"))["report"]["memory"]["breakdown"]["activations"]
    assert fp32 == pytest.approx(2 * bf16, rel=1e-12)
