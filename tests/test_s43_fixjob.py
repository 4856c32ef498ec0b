"""Session 43, fixjob: job kinds the answer sized wrong (issue 24; trial s43, /work/notes/s43/t43o).

Packing (q10_zh, q02_en): samples packed into full sequences (LLaMA-Factory ``packing`` / ``neat_packing``,
axolotl ``sample_packing``, TRL ``SFTConfig.packing``) make every trained sequence the packed length
(``cutoff_len`` / ``max_seq_len``; LLaMA-Factory ``cutoff_len`` default 2,048,
src/llamafactory/hparams/data_args.py): the batch line counts packed sequences, 128 × 8,192 = 1,048,576
tokens a step, not 128 samples × 1,500 = 192,000.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _text(capsys, question: str) -> str:
    main(["ask", "--", question])
    return capsys.readouterr().out


PACK_ZH = (
    "Qwen2.5-32B SFT，开packing，cutoff_len 8192，数据量30万条平均1500 token，2机16卡H100，跑3个epoch要多久"
)
PACK_EN = (
    "SFT Mistral-7B with sample packing, 2M samples averaging 800 tokens, 3 epochs, on 8x A100 40GB using "
    "FSDP. How many hours?"
)


def test_packed_batch_counts_packed_sequences_zh(capsys):
    out = _text(capsys, PACK_ZH)
    assert "每步 128 条序列（105万 token）" in out  # 128 × 8,192 = 1,048,576
    assert "按每条样本 1,500 token 计" not in out
    assert "13.5亿 token" in out  # the time still counts the data's own tokens: 300k × 1,500 × 3


def test_unpacked_batch_keeps_sample_length_zh(capsys):
    out = _text(capsys, PACK_ZH.replace("开packing，", ""))
    assert "每步 128 条序列（19.2万 token，按每条样本 1,500 token 计" in out  # 128 × 1,500, padded per batch


def test_packed_short_samples_fill_default_sequence_en(capsys):
    data = _ask(capsys, PACK_EN)
    assert data["request"]["seq_len"] == 2048  # packed to the default cutoff, not one 800-token sample
    assert data["request"]["tokens_per_sample"] == 800
    reply = data["reply"]
    assert "Batch: 128 sequences per step (262K tokens)" in reply  # 128 × 2,048 = 262,144
    assert "samples of 800 tokens packed into full sequences" in reply
    assert "4.8B tokens" in reply  # 2M × 800 × 3: the time is the data's, unchanged


def test_unpacked_short_samples_are_one_sequence_each_en(capsys):
    data = _ask(capsys, PACK_EN.replace("with sample packing, ", ""))
    assert data["request"]["seq_len"] == 800  # one sample per sequence without packing
    assert "Batch: 128 sequences per step (102K tokens)" in data["reply"]  # 128 × 800


# A budget's epochs (q11_zh): A800 at ¥12–28 a GPU-hour (the catalog's range), 15 billed GPU-hours for one
# epoch of 100k DPO pairs → ¥180 – ¥420 an epoch; ¥30,000 ÷ ¥420 = 71.4 → 71, ÷ ¥180 = 166.7 → 166.
EPOCHS_ZH = "预算3万块，用OpenRLHF做Llama-3-8B的DPO，10万对数据，租A800够吗？能跑几轮"
EPOCHS_EN = (
    "Budget $3,000: DPO of Llama-3-8B with OpenRLHF on 100k pairs, renting A100s. Is it enough, and how many "
    "epochs can I run?"
)


def test_budget_epochs_zh(capsys):
    out = _text(capsys, EPOCHS_ZH)
    assert "预算够：需要 ¥180 – ¥420，预算 ¥30,000。" in out
    assert "预算能跑的轮数（epoch）：71 – 166 轮（¥30,000 ÷ 每轮 ¥180 – ¥420" in out


def test_budget_epochs_en(capsys):
    data = _ask(capsys, EPOCHS_EN)
    note = next(n for n in data["report"]["warnings"] if n["code"] == "budget_epochs")
    per_low, per_high = note["params"]["epoch_cost_low"], note["params"]["epoch_cost_high"]
    assert note["params"]["epochs_low"] == int(3000 // per_high)
    assert note["params"]["epochs_high"] == int(3000 // per_low)
    assert "Epochs your budget pays for: 80 – 166" in data["reply"]  # $18.00 – $37.50 an epoch


def test_stated_epochs_are_not_asked(capsys):
    zh = _ask(capsys, EPOCHS_ZH.replace("能跑几轮", "跑3轮要多少钱"))
    en = _ask(capsys, EPOCHS_EN.replace("how many epochs can I run?", "what do 3 epochs cost?"))
    for data in (zh, en):
        assert not any(n["code"] == "budget_epochs" for n in data["report"]["warnings"])
    assert "能跑的轮数" not in zh["reply"] and "Epochs your budget pays for" not in en["reply"]


def test_epoch_words_without_budget_give_no_epoch_note(capsys):
    data = _ask(capsys, "用 A800 做 Llama-3-8B 的 DPO，10万对数据，每轮多久？")
    assert not any(n["code"] == "budget_epochs" for n in data["report"]["warnings"])


# Monthly vs hourly (q11_en, q32_zh). A100 80G at $1.20–2.50 a GPU-hour (catalog): 2 GPUs × 730 h =
# $1,752 – $3,650 around the clock; 10 h a day is 10/24 of it, $730 – $1,521. ¥15–30 (zh): 2 × 243.3 h =
# 487 GPU-hours billed, ¥7,305 – ¥14,610; the month rented whole 1,460 → ¥21,915 – ¥43,830 (× 24/8).
BOTH_EN = (
    "We have $5k a month. Can we serve Qwen2.5-32B-Instruct 24/7 on A100s for about 30 concurrent users? "
    "What's the monthly bill vs renting hourly only 10 hours a day?"
)
BOTH_ZH = "部署 Qwen2.5-32B，2 张 A100，每天只用 8 小时，按小时租一个月多少钱？包月又是多少？"


def test_both_schedules_priced_en(capsys):
    data = _ask(capsys, BOTH_EN)
    assert data["request"]["hours_per_day"] == 24 and data["request"]["hours_per_day_compared"] == 10
    reply = data["reply"]
    assert "$1,752 – $3,650 around the clock; rented 10 hours a day: $730 – $1,521" in reply
    assert (
        "“24 hours a day”" not in reply and "“10 hours a day”" not in reply
    )  # both used, neither "not used"


def test_both_schedules_priced_zh(capsys):
    data = _ask(capsys, BOTH_ZH)
    assert data["request"]["hours_per_day"] == 8 and data["request"]["hours_per_day_compared"] == 24
    reply = data["reply"]
    assert "487 卡·时 ≈ ¥7,305 – ¥14,610" in reply
    assert "全天候（包月：每张卡每月 730 小时" in reply and "¥21,915 – ¥43,830" in reply


def test_one_schedule_alone_is_not_compared(capsys):
    zh = _ask(capsys, "部署 Qwen2.5-32B，2 张 A100，每天只用 8 小时，租一个月多少钱？")
    en = _ask(capsys, "Serve Qwen2.5-32B on 2 A100s, 8 hours a day. What does a month cost?")
    for data in (zh, en):
        assert data["request"]["hours_per_day"] == 8 and data["request"]["hours_per_day_compared"] is None
    assert "全天候（包月" not in zh["reply"] and "around the clock;" not in en["reply"]
    assert "around the clock (730 h" not in en["reply"]


def test_two_partial_days_stay_named(capsys):
    data = _ask(
        capsys, "Serve Qwen2.5-32B on 2 A100s: 8 hours a day or 12 hours a day, what does a month cost?"
    )
    assert data["request"]["hours_per_day"] is None and data["request"]["hours_per_day_compared"] is None


# Distillation (q09_zh, q28_en): the student is trained on the teacher's tokens. Qwen2.5-7B (7.62B,
# config.json) full SFT on 100M tokens: C = 6ND = 6 × 7.62e9 × 1e8 = 4.57e18 FLOPs; the teacher is named
# with why (its generation is an inference job), never sized as the training job.
DISTILL_ZH = (
    "做知识蒸馏：用Qwen2.5-72B当teacher生成1亿token数据，再蒸馏到Qwen2.5-7B全参SFT，总共要多少卡时？用H100"
)
DISTILL_EN = (
    "Knowledge distillation: generate 100M tokens with Qwen2.5-72B-Instruct as teacher on H100, then full "
    "SFT of the student Qwen2.5-7B on them. Total H100-hours?"
)


def test_distillation_sizes_the_student_zh(capsys):
    data = _ask(capsys, DISTILL_ZH)
    req = data["request"]
    assert req["model"] == "Qwen2.5-7B" and req["tokens"] == 1e8
    assert req["num_generations"] is None  # '生成1亿token' is the data, not 1 completion per prompt
    assert data["report"]["flops"] == pytest.approx(4.57e18, rel=0.01)
    assert "“Qwen2.5-72B”（蒸馏的教师模型：用它生成学生的训练数据是一个推理任务" in data["reply"]


def test_distillation_keeps_the_generated_tokens_en(capsys):
    data = _ask(capsys, DISTILL_EN)
    assert data["request"]["model"] == "Qwen2.5-7B" and data["request"]["tokens"] == 1e8
    assert data["report"]["gpu_hours"]["likely"] > 0  # a time, not the memory alone
    assert "“Qwen2.5-72B-Instruct” (the teacher of the distillation" in data["reply"]


def test_distillation_other_phrasings(capsys):
    zh = _ask(capsys, "用 Qwen2.5-72B 作为教师，蒸馏到 Qwen2.5-1.5B，5000万 token，A100 全参要多久")
    en = _ask(
        capsys,
        "Distill Llama-3.1-70B into Llama-3.2-3B: the teacher generates 50M tokens, then full SFT of the "
        "student on 8 A100s. How long?",
    )
    assert zh["request"]["model"] == "Qwen2.5-1.5B" and zh["request"]["tokens"] == 5e7
    assert en["request"]["params_total"] < 4e9 and en["request"]["tokens"] == 5e7


def test_generation_counts_are_not_data(capsys):
    zh = _ask(capsys, "Qwen2.5-7B 做 GRPO，每个 prompt 生成 8 个回复，1万条数据，8 张 H100 要多久")
    assert zh["request"]["num_generations"] == 8
    en = _ask(
        capsys, "Serve Qwen2.5-7B on one H100: prompts of 1,000 tokens and replies that generate 512 tokens"
    )
    assert en["request"]["tokens"] is None  # a reply's length stays a reply, below the longest reply


# Multimodal image tokens (q05_en, q04_zh). LLaVA-1.5 at 336 px: (336 / 14)² = 576 visual tokens an image
# (Liu et al. 2023 §3; llava-hf/llava-1.5-13b-hf config.json vision_config image_size 336, patch_size 14):
# 600k samples × (512 assumed text + 576) = 652.8M tokens, where 600k × 512 = 307.2M was sized before.
LLAVA_EN = (
    "Fine-tune LLaVA-1.5-13B (full, vision tower frozen) on 600k image-text samples "
    "on 8 A100 80GB — how long?"
)
LLAVA_ZH = "LLaVA-1.5-7B 全参微调，20万条图文对，每条 2 张图、300 文本 token，8 张 A100 要多久"


def test_llava_image_tokens_en(capsys):
    data = _ask(capsys, LLAVA_EN)
    assert data["request"]["images_per_sample"] == 1
    assert data["request"]["tokens"] == pytest.approx(600_000 * (512 + 576))
    assert "1 × 576 visual tokens" in data["reply"]


def test_llava_image_tokens_zh(capsys):
    data = _ask(capsys, LLAVA_ZH)
    assert data["request"]["images_per_sample"] == 2  # the stated count, not the pair's one
    assert data["request"]["tokens"] == pytest.approx(200_000 * (300 + 2 * 576))  # 1,452 a sample
    assert "2 × 每张 576 个视觉 token" in data["reply"]


def test_dynamic_tower_without_resolution_is_named_zh(capsys):
    data = _ask(capsys, "Qwen2.5-VL-7B做LoRA微调，10万张图文对，单卡A100 40G能跑吗，要多久")
    assert "“images_per_sample: 1”（没给图片分辨率" in data["reply"]  # named, never silently 0


def test_text_model_with_image_pairs_is_named_en(capsys):
    data = _ask(capsys, "Full fine-tune Llama-3-8B on 100k image-text pairs on 8 A100s, how long?")
    assert data["request"]["tokens"] == pytest.approx(100_000 * 512)  # no vision tower: its text only
    assert "“images_per_sample: 1” (visual tokens are counted" in data["reply"]


def test_text_only_llava_question_adds_no_images(capsys):
    data = _ask(capsys, "Full fine-tune LLaVA-1.5-7B on 100k samples of 512 tokens on 8 A100s, how long?")
    assert data["request"]["images_per_sample"] is None
    assert data["request"]["tokens"] == pytest.approx(100_000 * 512)
