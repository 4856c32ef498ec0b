"""A fresh-user trial of s8-int: "≈ 170 H100-hours: about 24 GPUs for 0.45 days" (= 259 GPU-hours);
the table gave 24 GPUs → 11 hours, the cost used 170. The 170 were the GPU-hours at the job's
reference count (8 GPUs, which do not even hold it), while the days were those of the 24 GPUs quoted:
their scale-out term (24 / 8)^−0.12 and full recomputation (k + 2) / k. Headline, GPU-hours, days,
table and cost are now those of the count quoted, and the formulas say so."""

from __future__ import annotations

import json
import re

import pytest

from bot.cli import main

AXOLOTL_70B = (
    "how many H100s to full finetune Llama-3.1-70B with axolotl, fsdp, 50k samples x 4k tokens, 2 epochs?"
)


def _ask(capsys, *args: str) -> str:
    capsys.readouterr()
    assert main(["ask", *args]) == 0
    return capsys.readouterr().out


def test_the_json_gpu_hours_are_the_quoted_rows(capsys) -> None:
    report = json.loads(_ask(capsys, "--format", "json", AXOLOTL_70B))["report"]
    n = report["gpus_for_deadline"]
    row = next(r for r in report["days_table"] if r["gpus"] == n)
    hours = report["gpu_hours"]
    assert n == 24
    for end in ("low", "likely", "high"):
        assert hours[end] == pytest.approx(row[end] * 24 * n, rel=1e-9)
    # 170 at the 8-GPU reference × (24 / 8)^0.12 (scale-out) × 8/6 (full recomputation)
    assert hours["likely"] == pytest.approx(169.896 * 3**0.12 * 8 / 6, rel=1e-3)
    assert report["cost"]["billed_gpu_hours"] == 259


@pytest.mark.parametrize(
    ("lang", "headline", "gh_line", "cost", "row", "formula"),
    [
        (
            "en",
            "≈ 259 H100-hours: about 24 GPUs (3 × 8-GPU nodes) for 0.45 days",
            "• GPU-hours: 259 H100-hours at 18.4% MFU",
            "• Cost: $388 – $906 (259 GPU-hours × $1.50–3.50 per GPU-hour)",
            "24 GPUs →  11 (8.2–17)",
            "These GPU-hours and this cost are those of the 24 GPUs quoted above",
        ),
        (
            "zh",
            "≈ 259 H100·时：约 24 张（3 台 8 卡）训 0.45 天",
            "• GPU 时长：259 H100·时（MFU 18.4%",
            "（259 卡·时 × ¥15–40/卡·时）",
            "24 张 →  11",
            "这里的卡·时和费用按上面给出的 24 张卡计",
        ),
    ],
)
def test_headline_days_table_and_cost_agree(capsys, lang, headline, gh_line, cost, row, formula) -> None:
    out = _ask(capsys, "--lang", lang, AXOLOTL_70B)
    assert out.splitlines()[0].endswith(headline)
    for said in (gh_line, cost, row, formula):
        assert said in out, (said, out)
    first = out.splitlines()[0]
    gh = float(re.search(r"≈ (\d+) H100", first).group(1))
    days = float(re.search(r"(?:for|训) ([\d.]+) (?:days|天)", first).group(1))
    table_hours = float(re.search(r"24 (?:GPUs|张) → +([\d.]+)", out).group(1))
    assert days == pytest.approx(gh / 24 / 24, abs=0.005)  # days = GPU-hours / GPUs / 24, as printed
    assert table_hours == pytest.approx(gh / 24, abs=0.5)


def test_a_stated_count_keeps_its_gpu_hours(capsys) -> None:
    """The user's count was already billed at its own rate: the same 24 GPUs stated give the same."""
    stated = json.loads(_ask(capsys, "--format", "json", AXOLOTL_70B.replace("how many H100s", "on 24 H100")))
    free = json.loads(_ask(capsys, "--format", "json", AXOLOTL_70B))
    assert stated["report"]["days"]["gpus"] == 24
    assert stated["report"]["gpu_hours"]["likely"] == pytest.approx(
        free["report"]["gpu_hours"]["likely"], rel=1e-6
    )
