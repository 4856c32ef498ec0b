"""A fresh user's trial of the s9 integration branch (parser, fxb): defects reproduced through
``sizing-bot ask`` in both languages and fixed."""

from __future__ import annotations

import pytest

from bot.cli import main
from tests.cli_run import ask_in_process, named

_ask = ask_in_process  # sizing-bot ask --format json ARGS, exit 0 required
_DS = "deepspeed --include localhost:0,1,2,3 train.py"


def _text(capsys, question: str) -> str:
    """The plain reply of ``sizing-bot ask`` (exit 0 required)."""
    assert main(["ask", question]) == 0
    return capsys.readouterr().out


# 1. A context length right after the concurrency number ("并发50 上下文64k", "30并发 8k") is the
# context, never a second concurrency value (was: "64k" named as repeated, sized at the 4K default).
@pytest.mark.parametrize(
    ("question", "concurrency", "seq_len", "gpus"),
    [
        ("Qwen3-32B 推理 4张H200，并发50 上下文64k", 50, 65536, 4),
        ("serve Qwen3-32B on 4 H200, concurrency 50 context 64k", 50, 65536, 4),
        ("3台8卡H20 部署 DeepSeek-R1 并发100 上下文16k，够吗", 100, 16384, 24),
        ("49GB*4 跑 Qwen3-32B 推理 vllm 30并发 8k", 30, 8192, 4),
        ("serve Qwen3-32B on 2 H100, 30 concurrent users 8k", 30, 8192, 2),
    ],
)
def test_context_after_the_concurrency_is_the_context(capsys, question, concurrency, seq_len, gpus):
    data = _ask(capsys, question)
    req = data["request"]
    assert (req["concurrency"], req["seq_len"], req["gpu_count"]) == (concurrency, seq_len, gpus)
    assert named(data) == {}


def test_context_after_the_concurrency_in_the_reply(capsys):
    zh = _text(capsys, "Qwen3-32B 推理 4张H200，并发50 上下文64k")
    assert "上下文 64K 时只能容纳 26 条并发（要求 50 条）" in zh
    assert "未使用" not in zh
    en = _text(capsys, "serve Qwen3-32B on 4 H200, concurrency 50 context 64k")
    assert "room for 26 of the 50 concurrent sequences at 64K" in en
    assert "Not used" not in en


# 2. 'N of them' / 'N 张' after a card just named is the GPU count, even with a price between
# (was: num_samples 24, no GPU count).
@pytest.mark.parametrize(
    ("question", "gpus"),
    [
        ("H100 at 2.1 usd/hr, 24 of them, pretrain 7B on 2T tokens", 24),
        ("pretrain 7B on 2T tokens, H100 at 2.1 usd/hr on 64 of them", 64),
        ("H100 每小时 2.1 美元，用 24 张，预训练 7B 2T token", 24),
    ],
)
def test_n_of_them_after_a_card_is_the_gpu_count(capsys, question, gpus):
    data = _ask(capsys, question)
    req = data["request"]
    assert (req["gpu_count"], req["num_samples"], req["gpu"]) == (gpus, None, "H100-SXM5-80GB")
    assert (req["price_per_gpu_hour"], req["currency"]) == (2.1, "USD")
    assert named(data) == {}


# 3. A price per GPU-hour with no currency sign ('2.1/hr per H100', '2.1 per GPU-hour', '15/h') is the
# price, in the reply's currency (was: "Not used: “2.1”" and the catalog price).
@pytest.mark.parametrize(
    ("question", "price", "currency"),
    [
        ("we pay 2.1/hr per H100, 3 nodes 8 gpus each, pretraining 7B on 2T tok, total $", 2.1, "USD"),
        ("H100 2.1 per GPU-hour, 24 GPUs, pretrain 7B on 2T tokens", 2.1, "USD"),
        ("H100 at 2.1/h, 24 of them, pretrain 7B on 2T tokens", 2.1, "USD"),
        ("H100 15/h，24 张，预训练 7B 2T token", 15.0, "CNY"),
    ],
)
def test_price_without_currency_sign(capsys, question, price, currency):
    data = _ask(capsys, question)
    req = data["request"]
    assert (req["price_per_gpu_hour"], req["currency"], req["gpu_count"]) == (price, currency, 24)
    assert named(data) == {}


def test_price_without_currency_sign_in_the_reply(capsys):
    en = _text(capsys, "H100 2.1 per GPU-hour, 24 GPUs, pretrain 7B on 2T tokens")
    assert "× $2.10 per GPU-hour" in en
    assert "Currency: USD — the conversation's language" in en
    zh = _text(capsys, "H100 15/h，24 张，预训练 7B 2T token")
    assert "× ¥15/卡·时" in zh and "货币：CNY — 按对话语言" in zh


# 4. A memory written as a setting that equals count × the stock card's memory is the total ("2张4090
# 显存: 48GB": two 24 GB cards; was: two modified 48 GB cards, "放得下"); a per-card key keeps 48 GB per
# card and the reply says the catalog card has 24 GiB.
@pytest.mark.parametrize(
    "question",
    [
        "vllm 部署 Qwen3-32B，2张4090 显存: 48GB，并发10",
        "serve Qwen3-32B with vllm on 2 4090s, VRAM: 48GB, concurrency 10",
    ],
)
def test_memory_setting_equal_to_the_cards_total_is_the_total(capsys, question):
    data = _ask(capsys, question)
    req = data["request"]
    assert (req["gpu"], req["gpu_count"], req["gpu_memory_gib"]) == ("RTX-4090", 2, None)
    # round 9 (s14-r9en): the total is said back as used ('cards_total', a used reason), no longer silent
    assert named(data) == {"48 GB": "cards_total"}


def test_memory_setting_in_the_reply(capsys):
    zh = _text(capsys, "vllm 部署 Qwen3-32B，2张4090 显存: 48GB，并发10")
    assert (
        zh.splitlines()[0]
        == "Qwen3 32B bf16（vLLM） 推理：2 张 RTX 4090 放不下，至少要 4 张，推荐 4 张（TP=4）"
    )
    en = _text(capsys, "serve Qwen3-32B with vllm on 2 4090s, VRAM: 48GB, concurrency 10")
    assert en.startswith(
        "Qwen3 32B bf16 (vLLM) inference does not fit on 2 × RTX 4090: at least 4 GPUs needed"
    )
    per_card = _text(capsys, "vllm 部署 Qwen3-32B，2张4090 单卡显存: 48GB，并发10")
    assert "RTX 4090 48G — 按你说的每卡 48 GiB 估算（目录里这张卡是 24 GiB）" in per_card


# 5. The engine deployed with / said to fail is sized; the one said to work is the comparison (was: vLLM
# sized in both).
@pytest.mark.parametrize(
    ("question", "sized", "others"),
    [
        ("用 TGI 部署 Qwen3-32B，vLLM 没问题但 TGI 老是 OOM，2张A100 80G", "TGI", ["vLLM"]),
        ("用 TGI 部署 Qwen3-32B，vLLM 可以跑但 TGI 老是 OOM，2张A100 80G", "TGI", ["vLLM"]),
        ("用 TGI 部署 Qwen3-32B，vLLM 正常，TGI 老是 OOM，2张A100 80G", "TGI", ["vLLM"]),
        (
            "GLM-4.5-Air serving with lmdeploy on 2x H20, vLLM works fine but TGI keeps OOMing",
            "lmdeploy",
            ["vLLM", "TGI"],
        ),
    ],
)
def test_the_engine_said_to_fail_is_sized(capsys, question, sized, others):
    data = _ask(capsys, question)
    assert data["request"]["runtime"] == sized
    assert named(data) == {f"runtime: {o}": "other_setup" for o in others}


def test_the_engine_said_to_fail_in_the_reply(capsys):
    zh = _text(capsys, "用 TGI 部署 Qwen3-32B，vLLM 没问题但 TGI 老是 OOM，2张A100 80G")
    # s18: vLLM runs on the same 2 cards, so the count is no lower bound: TGI's own settings are the cause
    assert zh.startswith("Qwen3 32B bf16（TGI） 推理，2 张 A100 80G：")
    assert "未使用：“推理框架：vLLM”（你消息里的另一套配置" in zh
    en = _text(capsys, "GLM-4.5-Air serving with lmdeploy on 2x H20, vLLM works fine but TGI keeps OOMing")
    # s28 trial H2: bf16 (212 GB) does not fit 2 × 96 GB; sized on their 2 cards in FP8, bf16 named
    assert en.startswith("GLM-4.5-Air (106B MoE) fp8 (lmdeploy) inference on 2 × H20: only with FP8 weights")
    assert "Not used: “runtime: vLLM” (another setup in your message" in en


# 6. LoRA's own keys make the job a LoRA fine-tuning (QLoRA on 4 bits); `--model X` in a training command
# names the model (was: a serving answer; full fine-tuning with the rank "for another method"; no
# model).
@pytest.mark.parametrize(
    ("question", "method", "model", "rank", "gpus"),
    [
        ("lora_rank: 64 and cutoff_len: 8192 for Qwen3-8B on 2 3090s, fits?", "lora", "Qwen3-8B", 64, 2),
        ("Qwen3-8B 在 2张3090 上，lora_rank: 64，cutoff_len: 8192，够吗", "lora", "Qwen3-8B", 64, 2),
        (
            f"{_DS} --model_name_or_path Qwen/Qwen3-8B --lora_rank 8 --bf16",
            "lora",
            "Qwen3-8B",
            8,
            4,
        ),
        (
            "deepspeed --include localhost:0,1,2,3 train.py --model Qwen/Qwen3-8B --lora_rank 8 --bf16",
            "lora",
            "Qwen3-8B",
            8,
            4,
        ),
        (
            f"{_DS} --model Qwen/Qwen3-8B --lora_rank 8 --load_in_4bit",
            "qlora",
            "Qwen3-8B",
            8,
            4,
        ),
    ],
)
def test_lora_keys_make_a_lora_fine_tuning(capsys, question, method, model, rank, gpus):
    data = _ask(capsys, question)
    req = data["request"]
    assert (req["stage"], req["method"], req["model"], req["lora_rank"], req["gpu_count"]) == (
        "finetune",
        method,
        model,
        rank,
        gpus,
    )
    assert "not_for_method" not in named(data).values()
    assert not any(k.startswith("model:") for k in named(data))


def test_lora_keys_in_the_reply(capsys):
    en = _text(capsys, "lora_rank: 64 and cutoff_len: 8192 for Qwen3-8B on 2 3090s, fits?")
    assert en.startswith("Qwen3 8B LoRA fine-tuning (LLaMA-Factory: data parallel only")
    assert "rank 64" in en.splitlines()[0]
    zh = _text(capsys, "Qwen3-8B 在 2张3090 上，lora_rank: 64，cutoff_len: 8192，够吗")
    assert zh.startswith("Qwen3 8B LoRA 微调（LLaMA-Factory") and "秩 64" in zh.splitlines()[0]
    cmd = _text(
        capsys, "deepspeed --include localhost:0,1,2,3 train.py --model Qwen/Qwen3-8B --lora_rank 8 --bf16"
    )
    assert cmd.startswith("Qwen3 8B LoRA fine-tuning") and "rank 8" in cmd.splitlines()[0]


# 7. An out-of-range gpu_memory_utilization (outside (0, 1]) is named with its bounds, both languages
# (was: sized silently at vLLM's default 0.9).
@pytest.mark.parametrize(
    ("question", "typed"),
    [
        ("serve Qwen3-8B on H100 with gpu_memory_utilization 1.5", "gpu_memory_utilization: 1.5"),
        ("vllm 部署 Qwen3-8B，H100，gpu_memory_utilization 1.5", "gpu_memory_utilization: 1.5"),
        ("serve Qwen3-8B on H100 with gpu_memory_utilization 150%", "gpu_memory_utilization: 150%"),
    ],
)
def test_out_of_range_utilization_is_named(capsys, question, typed):
    data = _ask(capsys, question)
    assert data["request"]["gpu_memory_utilization"] is None
    assert named(data) == {typed: "utilization_bounds"}


def test_out_of_range_utilization_in_the_reply(capsys):
    en = _text(capsys, "serve Qwen3-8B on H100 with gpu_memory_utilization 1.5")
    bounds = "the share of GPU memory an engine may use is above 0 and at most 1"
    assert f"Not used: “gpu_memory_utilization: 1.5” ({bounds})." in en
    zh = _text(capsys, "vllm 部署 Qwen3-8B，H100，gpu_memory_utilization 1.5")
    assert "未使用：“可用显存比例（gpu_memory_utilization）：150%”（显存占用比例要大于 0 且不超过 1）。" in zh
    within = _ask(capsys, "serve Qwen3-8B on H100 with gpu_memory_utilization 0.8")
    assert within["request"]["gpu_memory_utilization"] == 0.8 and named(within) == {}
