"""Session 30 fix C: defects a fresh-user trial found (notes s30 full_fixc)."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render


def _json(question: str) -> dict:
    from bot.contract import to_json

    result = answer(question)
    return to_json(result, render(result, "plain"))


# 1. A typed --max-model-len past max_position_embeddings: every headline leads with vLLM's refusal
@pytest.mark.parametrize(
    ("question", "lead"),
    [
        (
            "两张 A100 上部署 vllm serve meta-llama/Meta-Llama-3-8B-Instruct"
            " --max-model-len 65536，要多少显存",
            "按所写的设置不能：max_model_len 65,536 超过模型 config 的 max_position_embeddings（8,192）",
        ),
        (
            "Deploying vllm serve meta-llama/Meta-Llama-3-8B-Instruct --max-model-len 65536 on 2 A100s,"
            " memory?",
            "Not as typed: vLLM refuses max_model_len 65,536, past the model config's"
            " max_position_embeddings (8,192)",
        ),
    ],
)
def test_headline_leads_with_the_refusal(question, lead):
    d = _json(question)
    head = d["reply"].splitlines()[0]
    assert head.startswith(lead)
    assert "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1" in head
    assert "Meta Llama 3 8B" in head.split("VLLM_ALLOW_LONG_MAX_MODEL_LEN=1", 1)[1]  # then what fits
    r = d["report"]
    assert (r["feasible"], r["feasible_reason"]) == ("no", "max_model_len_past_config")
    assert r["feasible_with_override"] == "yes"  # 8B + 64K of KV fit 2 × A100 80G with the variable set


@pytest.mark.parametrize(
    "question",
    [
        "两张 A100 上部署 vllm serve meta-llama/Meta-Llama-3-8B-Instruct --max-model-len 8192，要多少显存",
        "Deploying vllm serve meta-llama/Meta-Llama-3-8B-Instruct --max-model-len 8192 on 2 A100s, memory?",
    ],
)
def test_headline_within_the_window_has_no_refusal(question):
    d = _json(question)
    assert "VLLM_ALLOW_LONG_MAX_MODEL_LEN" not in d["reply"].splitlines()[0]
    assert (d["report"]["feasible"], d["report"]["feasible_with_override"]) == ("yes", None)


# 3. A release named without a size: all its sizes, an example from them, no second 'I need the model'
@pytest.mark.parametrize(
    ("question", "line"),
    [
        (
            "用 QLoRA 在一张 3090 上训练 qwen3，要多久",
            "“qwen3”有好几种尺寸（0.6B / 1.7B / 4B / 8B / 14B / 30B-A3B / 32B / 235B-A22B）："
            "请在问题里写上尺寸，例如“qwen3 14B”。",
        ),
        (
            "LoRA fine-tune of Qwen2.5 on 2 A100s: enough?",
            "“Qwen2.5” comes in several sizes (0.5B / 1.5B / 3B / 7B / 14B / 32B / 72B): add the size"
            " to your question, e.g. “Qwen2.5 7B”.",
        ),
    ],
)
def test_release_lists_every_size_once(question, line):
    out = render(answer(question), "plain")
    assert out.splitlines()[0] == line
    assert "To size this I need the model" not in out and "我需要知道模型" not in out


def test_sizes_line_of_several_stems_keeps_the_ids():
    from bot.parse.family_version import sizes_line

    ids = ["StarCoder2-3B", "StarCoder2-7B", "StarCoder-15.5B"]
    assert sizes_line("StarCoder", ids) == (" / ".join(ids), "StarCoder2-7B")
    assert sizes_line("Llama 3", ["Llama-3-8B", "Llama-3-70B"]) == ("8B / 70B", "Llama 3 70B")


# 2. The global batch asked or assumed, rounded to whole micro-batch × DP steps: the rounding said
@pytest.mark.parametrize(
    ("question", "batch", "rounded"),
    [
        (
            "13B 模型 5000亿 token 预训练，用 96 张 H100 要多久",
            "• 批大小：每步 1,056 条序列（433万 token）= 微批次 1 × 梯度累积 11 × DP 96",
            "  每步 1,024 → 1,056 条序列：须为微批次 × DP（96）的整数倍，梯度累积 11 步",
        ),
        (
            "Pretrain a 3B model on 300B tokens with 48 A100s: how many days?",
            "• Batch: 1,008 sequences per step (4.1M tokens) = micro-batch 1 × 21 accumulation × DP 48",
            "  1,024 → 1,008 sequences per step: a whole number of micro-batch × DP (48), 21 accumulation"
            " steps",
        ),
    ],
)
def test_rounded_global_batch_is_said(question, batch, rounded):
    lines = render(answer(question), "plain").splitlines()
    assert lines[lines.index(batch) + 1] == rounded


def test_whole_global_batch_says_no_rounding():
    out = render(answer("Pretrain a 3B model on 300B tokens with 64 A100s: how many days?"), "plain")
    assert "• Batch: 1,024 sequences per step (4.2M tokens) = micro-batch 1 × 16 accumulation × DP 64" in out
    assert "1,024 → " not in out
