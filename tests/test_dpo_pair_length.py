"""DPO preference pairs sized from a pair count with no length (s11 review item 9, as for SFT in
tests/test_sft_sample_length.py): the TIME reads the average sample — pairs × 2 (chosen and rejected) ×
512 tokens (estimator.defaults.TOKENS_PER_SAMPLE) — and the MEMORY the longest sequence a micro-batch
holds, chosen and rejected each up to the typical SFT max length 2,048 (SEQ_LEN_FINETUNE; TRL
DPOConfig max_length / LLaMA-Factory cutoff_len cut each there). Sized at the average 512, LoRA DPO of
Qwen2.5-7B on one RTX 4090 said "fits" (17.9 GiB per GPU); at 2,048 it needs 24.1 GiB, over the card."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

ASK = {
    "zh": "用LLaMA-Factory做LoRA DPO训练Qwen2.5-7B，2万对偏好数据，1张4090",
    "en": "LLaMA-Factory LoRA DPO of Qwen2.5-7B on 20k preference pairs, 1 RTX 4090",
}
LINES = {
    "zh": (
        "1 张 RTX 4090 显存放不下，至少需要 2 张",  # s23: the verdict first, no time
        "2万 对 × 2 条序列（chosen 和 rejected）× 512 token = 2048万 token",
        "显存：chosen 和 rejected 每条序列最长 2,048 token",
        "时间：按平均样本 512 token 计",
    ),
    "en": (
        "does not fit in the memory of 1 × RTX 4090: at least 2 GPUs needed",  # s23: verdict first
        "20K pairs × 2 sequences (chosen and rejected) × 512 tokens = 20.5M tokens",
        "memory: chosen and rejected sequences each up to 2,048 tokens",
        "time: the average sample, 512 tokens",
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_cli_dpo_pairs_size_memory_at_the_longest(capsys, lang: str):
    """`sizing-bot ask --format json`: request seq_len 2,048 (memory), tokens_per_sample 512 and
    20,000 × 2 × 512 = 20.48M tokens (time); 24.12 GiB per GPU, over a 4090's 24 GB: not feasible
    (was 17.86 GiB and "yes" at 512-token sequences)."""
    assert main(["ask", "--format", "json", ASK[lang]]) == 0
    data = json.loads(capsys.readouterr().out)
    req = data["request"]
    assert (req["algorithm"], req["samples_are_pairs"], req["num_samples"]) == ("dpo", True, 20_000)
    assert (req["seq_len"], req["tokens_per_sample"], req["tokens"]) == (2048, 512, 20_000 * 2 * 512)
    lines = {a["field"]: a for a in data["assumptions"]}
    assert (lines["seq_len"]["value"], lines["seq_len"]["why"]) == (2048, "seq_max_for_pairs")
    assert (lines["tokens_per_sample"]["value"], lines["tokens_per_sample"]["why"]) == (
        512,
        "tokens_per_pair_time",
    )
    report = data["report"]
    assert report["memory"]["per_gpu_bytes"] / 2**30 == pytest.approx(24.12, abs=0.01)
    assert report["feasible"] == "no"
    for line in LINES[lang]:
        assert line in data["reply"], line
