"""Trial s12 D4 and D5: figures that differ for a reason say the reason where they stand.

- D4: with full recomputation paid, the headline's MFU is the assumed MFU ÷ (k + 2) / k = ×1.333
  (k = 6 FLOPs per parameter per token; Korthikanti et al. 2022 §5); the MFU row says so right there.
- D5: a sequence length (the memory's) beside shorter samples (the time's): the batch line counts the
  samples' tokens and names both.

Through ``sizing-bot ask`` in both languages; the sentences are written for these tests."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import main

RECOMPUTE = 8 / 6  # (6 + 2) / 6: one more forward pass per token (Korthikanti et al. 2022 §5)


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    assert main(["ask", "--format", "json", text]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("text", "line", "gh_line"),
    [
        (
            "Full fine-tune Llama-3-8B on 8 A100 with gradient checkpointing on 200M tokens",
            "MFU (likely): 40%; 30% effective with full recompute (×1.333 compute)",
            "A100-hours at 30% MFU",
        ),
        (
            "全参微调 Qwen2.5-7B，8 张 A100，开启梯度检查点，2 亿 token",
            "MFU（典型值）：40%；全量重计算时有效 MFU 为 30%（计算量 ×1.333）",
            "MFU 30%",
        ),
    ],
)
def test_mfu_row_names_the_recompute_factor(
    capsys: pytest.CaptureFixture[str], text: str, line: str, gh_line: str
) -> None:
    data = ask(capsys, text)
    assumed = next(a["value"] for a in data["assumptions"] if a["field"] == "mfu")
    factor = next(a["value"] for a in data["assumptions"] if a["field"] == "recompute_time")
    assert assumed == 0.4 and factor == pytest.approx(RECOMPUTE, abs=5e-4)
    assert data["report"]["mfu"]["likely"] == pytest.approx(0.4 / RECOMPUTE, abs=1e-3)  # 30 %
    assert line in data["reply"] and gh_line in data["reply"]


@pytest.mark.parametrize(
    "text",
    ["Full fine-tune Llama-3-8B on 8 A100 with 200M tokens", "全参微调 Qwen2.5-7B，8 张 A100，2 亿 token"],
)
def test_mfu_row_plain_without_recompute(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """No full recomputation paid: the MFU row is the assumed MFU alone."""
    reply = ask(capsys, text)["reply"]
    assert "effective with full recompute" not in reply and "全量重计算时有效" not in reply


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (
            "SFT Llama-3-8B full fine-tune on 50k samples of 800 tokens each, max length 4096, 8 H100",
            "Batch: 128 sequences per step (102K tokens at 800 tokens per sample; memory laid out for "
            "4,096-token sequences)",
        ),
        (
            "全参微调 Qwen2.5-7B，5 万条样本，平均每条 800 token，cutoff_len 4096，8 张 H100",
            "批大小：每步 128 条序列（10.2万 token，按每条样本 800 token 计；显存按 4,096 token 的序列排布）",
        ),
    ],
)
def test_batch_line_names_sample_and_sequence(
    capsys: pytest.CaptureFixture[str], text: str, line: str
) -> None:
    data = ask(capsys, text)
    req = data["request"]
    assert (req["seq_len"], req["tokens_per_sample"], req["num_samples"]) == (4096, 800, 50_000)
    assert req["tokens"] == 50_000 * 800  # the time counts the samples' tokens
    assert 128 * 800 == 102_400  # the step's tokens: 128 sequences × 800, not × 4,096
    assert line in data["reply"]


@pytest.mark.parametrize(
    "text", ["Pretrain a 7B model on 100B tokens on 64 H100", "预训练 7B 模型 1000 亿 token，64 张 H100"]
)
def test_batch_line_plain_when_sequences_are_the_samples(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    reply = ask(capsys, text)["reply"]
    assert "per sample" not in reply and "每条样本" not in reply
