"""Review findings left from session 14 (issue 23 items 2 and 5, issue 24), asserted through
``sizing-bot ask``: each with sentences of this file's own, in both languages.

MEDIUM 5. The fewest GPUs that fit pay full recomputation ((k + 2) / k of the compute): the estimator gives
          that count's GPU-hours and cost (its days-table row), so the headline's GPU-hours and the cost
          line bill the same hours (it read "66 A100-hours: one GPU" above "44 GPU-hours × price").
"""

from __future__ import annotations

import json
import math
import re

import pytest

from bot.cli import main


def ask(capsys, *args: str) -> dict:
    capsys.readouterr()
    assert main(["ask", "--format", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def text(capsys, *args: str) -> str:
    capsys.readouterr()
    assert main(["ask", *args]) == 0
    return capsys.readouterr().out


# s24 trial #13: QLoRA keeps to data parallelism now, where no count keeps 8k activations (every count
# pays, tests/test_trial12_fixr.py); bf16 LoRA keeps TP, so it shows the fewest-count case (keep from 8)
FEWEST_PAY = [
    "How long and how much to LoRA Qwen2.5-72B on 30M tokens with 8k sequences?",
    "用 LoRA 微调 Qwen2.5-72B，3000 万 token，序列长度 8k，要多久、多少钱？",
]


@pytest.mark.parametrize("question", FEWEST_PAY)
def test_the_headline_count_pays_its_own_gpu_hours_and_cost(capsys, question) -> None:
    out = ask(capsys, question)
    report = out["report"]
    (assumed,) = [a for a in out["assumptions"] if a["field"] == "recompute_time_fewest"]
    assert assumed["value"] == pytest.approx(1.5)  # QLoRA: k = 4, (4 + 2) / 4
    keep = assumed["params"]["keep_from"]
    n = report["gpus_for_deadline"]
    row = next(r for r in report["days_table"] if r["gpus"] == n)
    base = report["gpu_hours"]["likely"]
    assert row["gpu_hours"]["likely"] == pytest.approx(base * 1.5)
    assert row["likely"] == pytest.approx(row["gpu_hours"]["likely"] / n / 24)
    billed = row["cost"]["billed_gpu_hours"]
    assert billed == int(-(-base * 1.5 // 1))  # whole hours, never rounded down
    assert row["cost"]["low"] == pytest.approx(billed * report["cost"]["price_low"])
    assert report["cost"]["billed_gpu_hours"] < billed  # the count-free figure stays the calibrated rate
    kept = [r for r in report["days_table"] if r["gpus"] >= keep]
    # these keep the activations: no ×1.5 (a row priced for another reason, 16 GPUs' scale-out, stays below)
    assert kept and all(r.get("gpu_hours", {"likely": base})["likely"] < base * 1.5 for r in kept)
    assert all("gpu_hours" in r for r in report["days_table"] if r["gpus"] < keep)
    reply = text(capsys, question)
    lines = reply.splitlines()
    cost = next(x for x in lines if ("Cost" in x or "费用" in x) and "×" in x)
    assert f"（{billed} 卡·时 ×" in cost or f"({billed} GPU-hours ×" in cost
    assert f"≈ {billed} A100" in lines[0]


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("and with 8B, how many do we need?", True),
        ("那换成 H100 要几张卡？", True),
        ("what about 8 H100?", False),
        ("那 8 张 H100 呢", False),
    ],
)
def test_the_count_cue_rides_on_the_parse(question: str, asks: bool) -> None:
    """MEDIUM 6: 'how many do I need' without the noun is read by the parser (``count_cue``), not by
    core's follow-up from the text."""
    from bot.parse import parse

    assert parse(question).count_cue is asks


SCHEDULED = [
    "What does it cost a month to serve Llama-3-70B on H100 for 30 users, only 8 hours a day?",
    "Llama-3-70B 用 H100 部署，30 个并发，每天只用 8 小时，每月成本多少？",
]


@pytest.mark.parametrize("question", SCHEDULED)
def test_a_daily_schedule_bills_its_hours_of_the_serving_month(capsys, question: str) -> None:
    """MEDIUM 7: a deployment rented 8 hours a day costs 8/24 of the around-the-clock month (730 h);
    GPUs, speed and the price per million tokens stay; the reply says so in its own words."""
    out = ask(capsys, question)
    assert out["request"]["hours_per_day"] == 8
    assert not [u for u in out["reply"].splitlines() if "daily_schedule" in u]
    inf = out["report"]["inference"]
    always, month = inf["cost_per_month_always_on"], inf["cost_per_month"]
    assert month["low"] == pytest.approx(always["low"] * 8 / 24)
    assert month["high"] == pytest.approx(always["high"] * 8 / 24)
    assert inf["gpu_hours_per_month"] == pytest.approx(730 * 8 / 24)
    price = always["low"] / (inf["serving_gpus"] * 730)  # the price per GPU-hour the month was billed at
    assert month["low"] == pytest.approx(inf["serving_gpus"] * 730 / 3 * price)
    (assumed,) = [a for a in out["assumptions"] if a["field"] == "hours_per_day"]
    assert assumed["value"] == 8 and assumed["why"] == "hours_per_day_stated"
    reply = text(capsys, question)
    first = reply.splitlines()[0]
    assert "(rented 8 hours a day) per month" in first or "（每天只租用 8 小时）" in first
    assert "calendar days" not in reply and "日历天数" not in reply  # no training wording


def test_the_same_question_around_the_clock_costs_three_times_as_much(capsys) -> None:
    base = ask(capsys, "What does it cost a month to serve Llama-3-70B on H100 for 30 users?")
    day = ask(capsys, SCHEDULED[0])
    assert day["report"]["inference"]["cost_per_month"]["high"] == pytest.approx(
        base["report"]["inference"]["cost_per_month"]["high"] / 3
    )
    assert "cost_per_month_always_on" not in base["report"]["inference"] or (
        base["report"]["inference"]["cost_per_month_always_on"] is None
    )


@pytest.mark.parametrize(
    "question",
    [
        "LoRA fine-tune Qwen2.5-7B on 100M tokens with 8 H100, we run it 8 hours a day",
        "LoRA 微调 Qwen2.5-7B，1 亿 token，8 张 H100，每天只跑 8 小时",
    ],
)
def test_a_daily_schedule_on_a_training_run_stays_named_not_used(capsys, question: str) -> None:
    out = ask(capsys, question)
    assert out["request"].get("hours_per_day") is None
    assert out["request"]["hours"] is None
    # s21 (fixb #4): on a timed training run the schedule turns the run's days into calendar days, named
    # as such ('daily_schedule_calendar'); the request still has no hours a day
    named = [a for a in out["interpretation"]["ignored"] if a.get("reason") == "daily_schedule_calendar"]
    assert len(named) == 1


def test_a_month_rented_on_a_daily_schedule_bills_its_running_hours(capsys) -> None:
    """'一个月' on a serving question is the estimator's month of 730 h (trial s17-2 #1: one figure with the
    monthly cost's); at 8 hours a day the GPUs run 730 × 8 ÷ 24 ≈ 243.3 of them."""
    out = ask(capsys, "Llama-3-70B 用 H100 部署，30 个并发，每天只用 8 小时，一个月要花多少钱？")
    assert out["request"]["hours"] == pytest.approx(730 * 8 / 24) and out["request"]["hours_per_day"] == 8
    gpus = out["report"]["inference"]["serving_gpus"]
    assert out["report"]["gpu_hours"]["likely"] == pytest.approx(gpus * 730 * 8 / 24)


@pytest.mark.parametrize(
    "question",
    [
        "LoRA Qwen2.5-72B on 30M tokens with 8k sequences: A100 or H100?",
        "LoRA 微调 Qwen2.5-72B，3000 万 token，序列长度 8k，用 A100 还是 H100 更便宜？",
    ],
)
def test_a_comparison_row_and_cheapest_bill_the_count_they_state(capsys, question: str) -> None:
    """Each card's row states 1 GPU, which recomputes: its GPU-hours and cost are that count's (×1.5),
    and 'cheapest' quotes the same money as the row it picks."""
    out = ask(capsys, question)
    r = out["report"]
    row = next(x for x in r["days_table"] if x["gpus"] == r["gpus_for_deadline"])
    assert row["gpu_hours"]["likely"] == pytest.approx(r["gpu_hours"]["likely"] * 1.5)
    lines = text(capsys, question).splitlines()
    # the row bills the count it states, in the whole GPU-hours its cost bills (s25: 13.1 → 14, one figure
    # a row; 14 × $1.50–3.50 = $21–49)
    shown = f"{row['cost']['billed_gpu_hours']:,} "
    assert row["cost"]["billed_gpu_hours"] == math.ceil(row["gpu_hours"]["likely"])
    assert any(shown in x for x in lines[1:3])
    money = re.search(r"[$¥][\d,.]+ – [$¥][\d,.]+", lines[0])  # the lowest-cost line's total
    assert money is not None and any(money.group(0) in x for x in lines[1:3])  # its row's money


@pytest.mark.parametrize(
    "question",
    [
        "run Qwen2.5-0.5B with llama.cpp -ngl 10 on an RTX 4060, 16GB RAM",
        "用 llama.cpp 跑 Qwen2.5-0.5B，-ngl 10，RTX 4060，内存 16G",
    ],
)
def test_a_few_megabytes_on_the_gpu_are_not_zero(capsys, question: str) -> None:
    """LOW: llama.cpp's compute buffer of a 0.5B model (tens of MB) read '0.0 GiB'."""
    out = ask(capsys, question)
    split = out["report"]["inference"]["layer_split"]
    assert 0 < split["gpu_workspace_bytes"] < 0.05 * 2**30 and 0 < split["gpu_kv_bytes"] < 0.05 * 2**30
    lines = text(capsys, question).splitlines()
    line = next(x for x in lines if "GiB" in x and ("buffer" in x or "缓冲区" in x))
    assert "0.0 GiB" not in line and line.count("< 0.1 GiB") == 2


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "GRPO Qwen2.5-7B with verl on 8 H100, 10k prompts",
            "verl with its default FSDP workers: data parallel only",
        ),
        ("用 verl 做 GRPO，Qwen2.5-7B，8 张 H100，1 万条 prompt", "verl 默认 FSDP 后端：只做数据并行"),
        ("LoRA Qwen2.5-7B with LLaMA-Factory on 4 A100, 50M tokens", "LLaMA-Factory: data parallel only"),
    ],
)
def test_a_tool_with_two_backends_says_which_has_no_tp(capsys, question: str, said: str) -> None:
    """LOW: 'verl: data parallel only, no tensor parallelism' was too strong: its default FSDP backend
    has none, its Megatron backend does (estimator.training_tools ToolLimits.backends). s24 review #10:
    the headline names the backend alone ('verl, FSDP workers'), the limit is said on the Why line."""
    lines = text(capsys, question).splitlines()
    head, body = lines[0], "\n".join(lines[1:])
    assert said in (body if "verl" in question else head)
    assert "Megatron" not in head
    if "verl" in question:
        assert "(verl, FSDP workers" in head or "（verl，FSDP 后端" in head
        assert "Megatron" in body


@pytest.mark.parametrize(
    ("question", "basis"),
    [
        (
            "serve Qwen2.5-32B Q4_K_M with llama.cpp -ngl 40 on an RTX 4090, 64GB RAM, how much a month?",
            "desktop",
        ),
        ("用 llama.cpp 跑 Qwen2.5-32B Q4_K_M，-ngl 40，RTX 4090，内存 512G，每月多少钱？", "server"),
        ("用 llama.cpp 跑 Qwen2.5-32B Q4_K_M，-ngl 40，RTX 4090，内存 64G DDR5-6000，每月多少钱？", "stated"),
    ],
)
def test_a_layer_split_prices_its_own_speed_and_names_its_host_bandwidth(capsys, question, basis) -> None:
    """LOW: the JSON of a split kept only the all-on-GPU price per million tokens (at ~24 tokens/s); the
    split adds its own at its one sequence's speed. The host bandwidth's class is the estimator's."""
    inf = ask(capsys, question)["report"]["inference"]
    s = inf["layer_split"]
    assert s["host_bandwidth_basis"] == basis
    per_hour = inf["cost_per_month"]["low"] / (inf["serving_gpus"] * 730)
    assert s["cost_per_million_tokens_low"] == pytest.approx(per_hour / s["tokens_per_s_high"] / 3600 * 1e6)
    assert s["cost_per_million_tokens_high"] > inf["cost_per_million_tokens"]["high"]  # slower: dearer
    assert inf["priced_tokens_per_s"] > s["tokens_per_s_high"]  # the all-on-GPU field stays as it was


@pytest.mark.parametrize(
    ("question", "beyond", "said"),
    [
        (
            "My box has 4 PCIe slots. Full fine-tune Qwen2.5-72B on 100M tokens with A100s: how many?",
            16,
            "at most 4 cards — the 16 sized are more than one such machine takes",
        ),
        (
            "机器有 4 个卡槽，想全量微调 Qwen2.5-72B，1 亿 token，用 A100 要几张？",
            16,
            "一台最多插 4 张卡——估算需要的 16 张",
        ),
        (
            "机器有 8 个卡槽，LoRA 微调 Qwen2.5-7B，1 亿 token，用 A100 要几张？",
            None,
            "请拿下面估算的卡数和它比较",
        ),
    ],
)
def test_card_slots_are_compared_with_the_count_sized(capsys, question: str, beyond, said: str) -> None:
    """LOW: the slots were named ('at most that many cards') but never compared with the count sized."""
    out = ask(capsys, question)
    assert out["interpretation"]["beyond_slots"] == beyond
    assert beyond is None or out["report"]["gpus_for_deadline"] == beyond
    assert said in text(capsys, question).splitlines()[1]
