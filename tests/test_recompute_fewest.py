"""A fresh-user trial: "qwen2.5-72b LoRA … 用几张A100 80G够？多久" answered "约 2 张训 4 天" at the
calibrated rate although the layout on those 2 cards needs full recomputation; naming "2 张" gave
6.1 days. Without a stated count the fewest GPUs' row of the days table now pays (k + 2) / k
(Korthikanti et al. 2022 §5), larger clusters keep the calibrated rate, and the two questions agree."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import main

ASK = {
    "zh": "qwen2.5-72b 做lora微调，数据5万条，每条平均2k token，3个epoch，用几张A100 80G够？大概跑多久{}",
    "en": "LoRA fine-tune qwen2.5-72b on 50k samples of 2k tokens, 3 epochs: how many A100 80G, how long{}?",
}
ON_TWO = {"zh": "，2张A100 80G", "en": " on 2 A100 80G"}


def ask(capsys: pytest.CaptureFixture[str], text: str) -> Any:
    assert main(["ask", "--format", "json", text]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_fewest_gpus_row_pays_full_recomputation_like_the_stated_count(capsys, lang: str) -> None:
    free = ask(capsys, ASK[lang].format(""))["report"]
    mem = free["memory"]
    assert (mem["min_gpus"], mem["plan"]["recompute"]) == (2, "full")
    rows = {row["gpus"]: row for row in free["days_table"]}
    hours = free["gpu_hours"]["likely"]
    factor = (4 + 2) / 4  # LoRA: k = 4 (forward 2 + backward through the frozen base 2)
    assert rows[2]["likely"] == pytest.approx(hours * factor / 2 / 24, rel=1e-9)
    assert rows[4]["likely"] == pytest.approx(hours / 4 / 24, rel=1e-9)  # keeps the activations
    stated = ask(capsys, ASK[lang].format(ON_TWO[lang]))["report"]
    assert stated["days"]["gpus"] == 2
    assert stated["days"]["likely"] == pytest.approx(rows[2]["likely"], rel=1e-9)


DEADLINE = {
    "en": "How much to fine-tune Llama-3.1-70B with LoRA on 2B tokens?",
    "zh": "用 LoRA 在 20 亿 token 上微调 Llama-3.1-70B 要多少钱？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_when_recomputing_misses_the_deadline_the_answer_moves_to_a_count_that_meets_it(capsys, lang) -> None:
    """2 A100s fit only with full recomputation: 1.3K A100-hours ÷ 2 ÷ 24 × 1.5 ≈ 39 days, over the
    assumed 30 — the reply had said "2 GPUs for 39 days (within 30 days)"; now 4 GPUs, 13 days."""
    report = ask(capsys, DEADLINE[lang])["report"]
    rows = {row["gpus"]: row["likely"] for row in report["days_table"]}
    assert rows[2] > 30 * 1.05  # the assumed deadline: 30 days (not a report field)
    assert report["gpus_for_deadline"] == 4 and rows[4] <= 30
