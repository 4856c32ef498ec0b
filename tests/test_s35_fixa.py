"""Session 35 fixa: findings the session's parts reported and left (see the commit messages).

#1 Whole-hour billing is per card: each card's rental pays at least its first whole hour, so n cards never
bill fewer than n GPU-hours (estimator.compute.billed_gpu_hours). Prices: the catalog's market ranges,
H100 $1.50–3.50 and A100 $1.20–2.50 / ¥15–30 per GPU-hour.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from typing import Any

import pytest

from bot.cli import main
from bot.core.conversation import Conversation
from bot.render.renderer import render
from estimator.compute import billed_gpu_hours


def ask_text(question: str) -> str:
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["ask", "--format", "text", question]) == 0
    return buf.getvalue()


def ask_json(question: str) -> dict[str, Any]:
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["ask", "--format", "json", question]) == 0
    return json.loads(buf.getvalue())


def test_billing_never_bills_fewer_gpu_hours_than_cards() -> None:
    assert billed_gpu_hours(0.16, 8) == 8  # 8 cards × ⌈0.02 h⌉
    assert billed_gpu_hours(0.16) == 1  # one card: ⌈0.16⌉
    assert billed_gpu_hours(3.4, 2) == 4  # 2 × ⌈1.7⌉ = 4 = ⌈3.4⌉
    assert billed_gpu_hours(93_482.9, 136) == 93_483  # the seed: total rounded up (> 136)
    assert billed_gpu_hours(0.0, 8) == 0


def test_a_stated_count_bills_a_whole_hour_per_card_en() -> None:
    text = ask_text("LoRA fine-tune Llama-3-8B on 8 H100 for 10k samples of 512 tokens, what does it cost?")
    # 0.16 GPU-hours on 8 cards: 8 card-hours × $1.50–3.50 = $12–28
    assert (
        "Cost: $12.00 – $28.00 (0.16 GPU-hours used on 8 GPUs, each "
        "billed by the hour started: 8 GPU-hours × $1.50–3.50"
    ) in text
    assert "started: 1 GPU-hour" not in text


def test_a_stated_count_bills_a_whole_hour_per_card_zh() -> None:
    text = ask_text("用 8 张 A100 LoRA 微调 Qwen2.5-7B，1 万条样本，每条 512 token，要花多少钱？")
    # 0.35 卡·时 on 8 cards: 8 × ¥15–30 = ¥120–240
    assert (
        "费用：¥120 – ¥240（8 张卡共用 0.35 卡·时，每张卡不足一小时按一小时计费：8 卡·时 × ¥15–30/卡·时）"
        in text
    )
    assert "计费：1 卡·时" not in text


def test_the_json_cost_is_the_lines() -> None:
    out = ask_json("LoRA fine-tune Llama-3-8B on 8 H100 for 10k samples of 512 tokens, what does it cost?")
    cost = out["report"]["cost"]
    assert cost["billed_gpu_hours"] == 8
    assert (cost["low"], cost["high"]) == pytest.approx((12.0, 28.0))


def test_a_recommended_count_bills_a_whole_hour_per_card() -> None:
    text = ask_text("LoRA fine-tune Llama-3-8B on 20M tokens within 0.5 hours, what does it cost?")
    # 1.4 A100-hours in half an hour: 3 GPUs, 0.47 h each: 3 card-hours × $1.20–2.50 = $3.60–7.50
    assert "about 3 GPUs" in text.splitlines()[0]
    assert (
        "Cost: $3.60 – $7.50 (1.4 GPU-hours used on 3 GPUs, each billed by the hour started: 3 GPU-hours"
    ) in text


def test_a_followup_count_bills_a_whole_hour_per_card() -> None:
    conv = Conversation(ttl_seconds=600, max_entries=10)
    first = conv.ask(1, 10, "LoRA fine-tune Llama-3-8B on 20M tokens on one A100, what does it cost?").answer
    assert first.report.headline_cost.billed_gpu_hours == 2  # ⌈1.4⌉ on one card
    more = conv.ask(1, 10, "and on 8 A100?").answer
    assert more.followup and more.changed == ["gpu_count"]
    c = more.report.headline_cost
    assert c.billed_gpu_hours == 8 and (c.low, c.high) == pytest.approx((9.6, 20.0))  # 8 × $1.20–2.50
    assert "on 8 GPUs, each billed by the hour started: 8 GPU-hours" in render(more, "text")


# #2 A training question asking the memory, with no count, leads with it: per GPU on the plan's count, and
# the total the job holds by part (per GPU × GPUs), then the cards.


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("全参微调 70B 需要多少显存", True),
        ("how much VRAM to LoRA Qwen2.5-14B?", True),
        ("how much memory to fine-tune Llama-3-8B?", True),
        ("memory needed for training a 7B model", True),
        ("how much does it cost to LoRA Qwen2.5-14B?", None),  # cost, not memory
        # s50 trial: "take" is a memory verb (bot.parse.memory_asked); the reply with a count is as before
        ("LoRA Qwen2.5-14B on 8 A100, how much memory does the run take in total?", True),
    ],
)
def test_a_training_memory_question_is_read(text: str, asked: bool | None) -> None:
    from bot.parse import parse

    assert parse(text).request.memory_asked is asked


def test_how_much_vram_is_not_a_cost_question() -> None:
    from bot.parse import parse

    assert parse("how much VRAM to LoRA Qwen2.5-14B?").request.cost_asked is None
    assert parse("how much does it cost to LoRA Qwen2.5-14B?").request.cost_asked is True


def _parts(question: str, lang: str) -> str:
    """The memory-first figures' total by part (bot.render.memory_lines.memory_first), as the line had it."""
    from bot.core.pipeline import answer
    from bot.render.fmt import fmt_for
    from bot.render.memory_lines import memory_first

    first = memory_first(answer(question).report.memory, fmt_for(lang))
    return first["parts"] if first else ""


def test_full_fine_tuning_70b_leads_with_the_memory_zh() -> None:
    lines = ask_text("全参微调 70B 需要多少显存").splitlines()
    # 16 × A100 80G, ZeRO-3 (estimator): per GPU 8.75e9 B weights and gradients (70e9 × 2 B ÷ 16) and 52.5e9 B
    # optimizer (70e9 × 12 B ÷ 16): over 16 GPUs 140e9 B = 130 GiB each, 840e9 B = 782 GiB
    # s36-left #1: 16 GPUs run ZeRO-3 over DP 16 with full recompute (was TP 8 × DP 2 at ZeRO-3, which the HF
    # Trainer / DeepSpeed cannot run): activations 5.4 → 2.5 GiB, 75.0 → 73.2 GiB per GPU, × 16 = 1,171 GiB
    assert lines[0] == "每卡显存约 73.2 GiB（16 张时）；合计 1,171 GiB"  # the parts: the chart below
    assert "优化器状态 782 GiB" in _parts("全参微调 70B 需要多少显存", "zh")  # the total by part, kept
    assert lines[1].startswith("70B 全参微调：至少 16 张 A100 80G")  # then the cards


def test_lora_leads_with_the_memory_en() -> None:
    lines = ask_text("how much VRAM to LoRA Qwen2.5-14B?").splitlines()
    assert lines[0] == "≈ 59.2 GiB of GPU memory per GPU on 1 GPU; 59.2 GiB in all"  # parts: the chart
    assert "adapters 1.0 GiB" in _parts("how much VRAM to LoRA Qwen2.5-14B?", "en")
    assert lines[1] == "Qwen2.5 14B LoRA fine-tuning: one A100 80G is enough, ≈ 59.2 GiB per GPU"


def test_a_stated_count_keeps_its_headline() -> None:
    text = ask_text("how much VRAM to full fine-tune Llama-3-8B on 2 A100?")
    assert "of GPU memory per GPU on" not in text


# #3 A range is ordered; a choice of two counts is the range (from the fewer, up to the more).


@pytest.mark.parametrize(
    "text",
    [
        "LoRA Qwen2.5-7B on 1B tokens with 4 or 2 A100",
        "LoRA Qwen2.5-7B on 1B tokens with 2 or 4 A100s",
        "LoRA Qwen2.5-7B on 1B tokens with 4 A100 or 2",
        "serve Llama-3-70B on 4-2 H100",
        "用 4 或 2 张 A100 LoRA 微调 Qwen2.5-7B，10 亿 token",
        "用 2 张或 4 张 A100 LoRA 微调 Qwen2.5-7B，10 亿 token",
        "四张 A100 还是两张，LoRA 微调 Qwen2.5-7B，10 亿 token",
    ],
)
def test_two_counts_are_an_ordered_range(text: str) -> None:
    from bot.parse import parse

    r = parse(text).request
    assert (r.gpu_count, r.gpu_count_max) == (2, 4)


def test_the_range_sizes_the_fewer_and_shows_the_more() -> None:
    text = ask_text("LoRA Qwen2.5-7B on 1B tokens with 4 or 2 A100")
    assert text.splitlines()[0].startswith("Qwen2.5 7B LoRA fine-tuning on 1B tokens with 2 × A100 80G")
    assert "4 GPUs → " in text  # the more, in the days table


# #4 TGI's max input (launcher `--max-input-tokens`, env MAX_INPUT_TOKENS; `--max-input-length` /
# MAX_INPUT_LENGTH its legacy name) is the longest prompt; `--max-total-tokens` (MAX_TOTAL_TOKENS) the
# prompt + output, the context (huggingface/text-generation-inference
# docs/source/basic_tutorials/launcher.md). One reading in every form: prompt_tokens, never max_model_len.


@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("serve Llama-3-8B with TGI, MAX_INPUT_LENGTH=1024, 20 concurrent users on A10G", None),
        ("serve Llama-3-8B with TGI, MAX_INPUT_LENGTH 1024, 20 concurrent users on A10G", None),
        ("serve Llama-3-8B with TGI --max-input-tokens 1024 on A10G", None),
        ("TGI MAX_INPUT_TOKENS 1024 Llama-3-8B on L4", None),
        ("TGI: MAX_INPUT_TOKENS=1024 MAX_TOTAL_TOKENS=4096 Llama-3-8B on L4", 4096),
        ("TGI: MAX_INPUT_LENGTH=1024 MAX_TOTAL_TOKENS=2048 Llama-3-8B on L4", 2048),
        ("TGI: --max-input-tokens 1024 --max-total-tokens 4096 Llama-3-8B on L4", 4096),
        ("TGI 部署 Llama-3-8B，MAX_INPUT_LENGTH=1024 MAX_TOTAL_TOKENS=2048，A10G", 2048),
        ("TGI 部署 Llama-3-8B，max_input_length 设为 1024，max_total_tokens 2048，A10G", 2048),
    ],
)
def test_tgi_max_input_is_the_longest_prompt(text: str, total: int | None) -> None:
    from bot.parse import parse

    p = parse(text)
    assert (p.request.prompt_tokens, p.request.seq_len, p.request.max_model_len) == (1024, None, total)
    assert not any("1024" in n for n, _ in p.unused_numbers)  # never 'max_model_len: 1024, repeated'


def test_a_value_before_a_limit_key_is_still_read() -> None:
    from bot.parse import parse

    assert parse("serve Llama-3-8B, 16k max model len, on L4").request.max_model_len == 16384


def test_a_prompt_and_an_output_length_still_make_the_sequence() -> None:
    from bot.parse import parse

    r = parse("serve Llama-3-8B, input length 1024, output 256, on L4").request
    assert (r.seq_len, r.prompt_tokens) == (1280, 1024)
    q = "fine-tune Llama-3-8B with max_input_length 1024 and max_target_length 256 on 1B tokens"
    r = parse(q).request
    assert r.seq_len == 1280


# #5 'RTX 6000' is never sized on an A100: a bare name is the RTX 6000 Ada Generation (NVIDIA's product page
# /rtx-6000/), said; the Turing Quadro RTX 6000 (24 GB, its datasheet) and the RTX PRO 6000 Blackwell (96 GB)
# by their qualifiers or memory (estimator/data/gpus.toml, each with its datasheet source).


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("serve Llama-3-8B on one RTX 6000", "RTX-6000-Ada"),
        ("用一张 RTX 6000 部署 Llama-3-8B", "RTX-6000-Ada"),
        ("serve Llama-3-8B on one RTX 6000 48GB", "RTX-6000-Ada"),
        ("serve Llama-3-8B on one RTX 6000 Ada", "RTX-6000-Ada"),
        ("serve Llama-3-8B on one Quadro RTX 6000", "Quadro-RTX-6000"),
        ("serve Llama-3-8B on one RTX 6000 24GB", "Quadro-RTX-6000"),
        ("serve Llama-3-8B on one RTX 6000 Turing", "Quadro-RTX-6000"),
        ("serve Llama-3-8B on one RTX 6000 96GB", "RTX-PRO-6000-Blackwell"),
        ("serve Llama-3-8B on one RTX PRO 6000 Blackwell", "RTX-PRO-6000-Blackwell"),
    ],
)
def test_which_rtx_6000(text: str, gpu: str) -> None:
    from bot.parse import parse

    r = parse(text)
    assert (r.request.gpu, r.unknown_gpu) == (gpu, None)


def test_the_catalog_cards_of_that_name() -> None:
    from estimator import catalog

    g = catalog.gpus()
    assert (g["Quadro-RTX-6000"].memory_gib, g["Quadro-RTX-6000"].generation) == (24, "Turing")
    assert (g["RTX-6000-Ada"].memory_gib, g["RTX-PRO-6000-Blackwell"].memory_gib) == (48, 96)
    assert all(
        "datasheet" in g[k].source for k in ("Quadro-RTX-6000", "RTX-6000-Ada", "RTX-PRO-6000-Blackwell")
    )


def test_a_bare_rtx_6000_says_which_was_assumed() -> None:
    en = ask_text("serve Llama-3-8B on one RTX 6000")
    assert en.splitlines()[0] == "Meta Llama 3 8B bf16 inference on 1 × RTX 6000 Ada: fits (TP=1)"
    assert "Read “RTX 6000” as the RTX 6000 Ada Generation (48 GB)" in en and "A100 80G" not in en
    zh = ask_text("用一张 RTX 6000 部署 Llama-3-8B")
    assert "“RTX 6000”按 RTX 6000 Ada Generation（48 GB）计算" in zh
    subs = ask_json("serve Llama-3-8B on one RTX 6000")["interpretation"]["substitutions"]
    assert {"typed": "RTX 6000", "used": "RTX-6000-Ada", "reason": "rtx_6000_assumed"} in subs
    for qualified in ("serve Llama-3-8B on one RTX 6000 Ada", "serve Llama-3-8B on one Quadro RTX 6000"):
        assert "Read “" not in ask_text(qualified)


# #6 No number or forum word is a model: a token count after 'token 数' / 'token 量' (a space, '到' between)
# is tokens, never a 1 亿-parameter model; 'LocalLlama' (the r/LocalLLaMA forum) and '…-style' never name one.


@pytest.mark.parametrize(
    "text", ["每天 token 数到 1 亿/天", "token 数 1 亿", "日均 token 量 1 亿", "每天处理 1 亿 token"]
)
def test_a_token_count_is_no_model(text: str) -> None:
    from bot.parse import parse

    r = parse(text).request
    assert (r.params_total, r.model) == (None, None)
    # s44 trial #1: '每天处理 1 亿 token' (no training word) is a day's volume through a service, not data
    assert (r.tokens_per_day if text == "每天处理 1 亿 token" else r.tokens) == 1e8


def test_a_model_size_beside_a_token_count_still_reads() -> None:
    from bot.parse import parse

    r = parse("模型 70 亿，token 数 20 亿，全参微调要多久").request
    assert (r.params_total, r.tokens) == (7e9, 2e9)


def test_a_daily_token_count_is_not_a_model_of_another_setup() -> None:
    text = ask_text("部署 Qwen2.5-7B，每天 token 数到 1 亿/天，用 A100 要几张？")
    assert text.splitlines()[0].startswith("Qwen2.5 7B bf16 推理")
    assert "另一套配置" not in text  # before: 'model: 1 亿', another setup's model


@pytest.mark.parametrize(
    "text",
    [
        "localllama style 70b on two 3090",
        "LocalLlama-style 70B on two 3090s",
        "a LocalLlama 70B rig on 2 3090s",
        "用 LocalLlama 风格的 70B 配置，两张 3090",
        "Foo-style 70B on 2 A100",
    ],
)
def test_a_forum_or_a_kind_is_no_model(text: str) -> None:
    from bot.parse import parse

    r = parse(text)
    assert (r.unknown_model, r.request.model, r.request.params_total) == (None, None, 70e9)


@pytest.mark.parametrize(
    ("text", "name"),
    [("serve FooLM-13B on A100", "FooLM-13B"), ("serve InternVL 76B on A100", "InternVL 76B")],
)
def test_an_unknown_model_is_still_named(text: str, name: str) -> None:
    from bot.parse import parse

    assert parse(text).unknown_model == name
