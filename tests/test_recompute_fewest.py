"""A fresh-user trial: "qwen2.5-72b LoRA … 用几张A100 80G够？多久" answered "约 2 张训 4 天" at the
calibrated rate although the layout on those 2 cards needs full recomputation; naming "2 张" gave
6.1 days. Without a stated count the fewest GPUs' row of the days table now pays (k + 2) / k
(Korthikanti et al. 2022 §5), and so do the GPU-hours and cost when the answer is quoted on them (a
second trial: "195 GPU-hours: 2 GPUs for 6.1 days"); larger clusters keep the calibrated rate."""

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
    assert (mem["min_gpus"], mem["plan"]["recompute"], free["gpus_for_deadline"]) == (2, "full", 2)
    rows = {row["gpus"]: row for row in free["days_table"]}
    factor = (4 + 2) / 4  # LoRA: k = 4 (forward 2 + backward through the frozen base 2)
    stated = ask(capsys, ASK[lang].format(ON_TWO[lang]))["report"]
    # quoted on the fewest GPUs: GPU-hours, cost and days of that run, as when "2" is named
    assert free["gpu_hours"]["likely"] == pytest.approx(stated["gpu_hours"]["likely"], rel=1e-9)
    assert free["cost"]["billed_gpu_hours"] == stated["cost"]["billed_gpu_hours"]
    assert stated["days"]["gpus"] == 2
    assert rows[2]["likely"] == pytest.approx(stated["days"]["likely"], rel=1e-9)
    hours = free["gpu_hours"]["likely"]
    assert rows[2]["likely"] == pytest.approx(hours / 2 / 24, rel=1e-9)
    assert rows[4]["likely"] == pytest.approx(hours / factor / 4 / 24, rel=1e-9)  # keeps the activations
