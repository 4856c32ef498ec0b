"""s37-billing: every cost bills the cards it is for, by one rule (estimator.shown_cost.billed_cost over
estimator.compute.billed_gpu_hours: whole GPU-hours rounded up, each card at least its first hour), and
the cost line says how it is billed.

Trial: '7B DPO，1万对偏好数据，单张4090能跑吗' answered 'at least 8 GPUs' while the cost line billed the
user's one card (⌈3.2⌉ = 4 card-hours); eight cards for 24 minutes bill 8 card-hours.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator.compute import billed_gpu_hours
from estimator.models import Band, Cost, Currency
from estimator.shown_cost import billed_cost, count_shown


def _ask(capsys: pytest.CaptureFixture[str], question: str, *flags: str) -> str:
    assert main(["ask", *flags, question]) == 0
    return capsys.readouterr().out


def _json(capsys: pytest.CaptureFixture[str], question: str) -> dict:
    return json.loads(_ask(capsys, question, "--format", "json"))


def _cost(price_low: float, price_high: float) -> Cost:
    return Cost(
        low=0.0, high=0.0, low_with_mfu=0.0, high_with_mfu=0.0, currency=Currency.CNY,
        price_low=price_low, price_high=price_high, billed_gpu_hours=0, price_source="test",
    )  # fmt: skip


def test_billed_cost_bills_each_card_its_first_hour() -> None:
    hours = Band(low=2.46, likely=3.21, high=5.16)
    on_8 = billed_cost(_cost(1.8, 3.5), hours, 8)
    # 8 cards: max(8, ⌈3.21⌉) = 8 card-hours × ¥1.80–3.50 = ¥14.40–28.00; the band's ends 8 too
    assert on_8.billed_gpu_hours == 8
    assert (on_8.low, on_8.high) == pytest.approx((14.4, 28.0))
    assert (on_8.low_with_mfu, on_8.high_with_mfu) == pytest.approx((14.4, 28.0))
    on_1 = billed_cost(_cost(1.8, 3.5), hours, 1)
    # 1 card: ⌈3.21⌉ = 4 → ¥7.20–14.00; band ⌈2.46⌉ = 3 × 1.8 = 5.40, ⌈5.16⌉ = 6 × 3.5 = 21.00
    assert on_1.billed_gpu_hours == 4
    assert (on_1.low, on_1.high, on_1.low_with_mfu, on_1.high_with_mfu) == pytest.approx(
        (7.2, 14.0, 5.4, 21.0)
    )
    # a long run bills its total rounded up, not per card: 100.2 GPU-hours on 8 → 101
    assert billed_cost(_cost(2.0, 2.0), Band(low=100.2, likely=100.2, high=100.2), 8).low == pytest.approx(
        202.0
    )
    assert billed_cost(None, hours, 8) is None


class _Mem:
    def __init__(self, fits: bool | None, min_gpus: int | None) -> None:
        self.fits_requested, self.min_gpus = fits, min_gpus


class _Days:
    gpus = 1


def test_the_count_shown_is_the_fewest_that_hold_an_unfit_stated_count() -> None:
    assert count_shown(_Days(), 8, _Mem(False, 8)) == 8  # one card cannot hold it: at least 8
    assert count_shown(_Days(), 8, _Mem(True, 1)) == 1  # the user's count holds it: theirs
    assert count_shown(_Days(), 8, _Mem(False, None)) == 1  # no count holds it: theirs, as the headline
    assert count_shown(None, 16, _Mem(False, 8)) == 16  # no stated count: the deadline's
    assert count_shown(_Days(), None) == 1


def test_the_trial_zh_bills_the_eight_cards_the_headline_gives(capsys: pytest.CaptureFixture[str]) -> None:
    text = _ask(capsys, "7B DPO，1万对偏好数据，单张4090能跑吗")
    assert "至少需要 8 张" in text.splitlines()[0]
    # 4.0 card-hours on 8 cards (30 minutes each): 8 card-hours × ¥1.80–3.50 = ¥14.40–28.00. s43 fixans #1:
    # 3.2 → 4.0, the 8 cards' own full recompute (× 10/8 at DPO's k = 8), as the deadline answer below says
    assert (
        "• 费用：¥14.40 – ¥28.00（8 张卡共用 4.0 卡·时，"
        "每张卡不足一小时按一小时计费：8 卡·时 × ¥1.80–3.50/卡·时）"
    ) in text
    assert "计费：4 卡·时" not in text and "¥7.20" not in text


def test_the_trial_en_bills_the_eight_cards(capsys: pytest.CaptureFixture[str]) -> None:
    text = _ask(capsys, "7B DPO, 10k preference pairs, can one 4090 run it?")
    assert "at least 8 GPUs needed" in text.splitlines()[0]
    # 8 card-hours × $0.30–0.80 = $2.40–6.40
    assert (
        "• Cost: $2.40 – $6.40 (4.0 GPU-hours used on 8 GPUs, each billed by the hour started: "
        "8 GPU-hours × $0.30–0.80 per GPU-hour)"
    ) in text


def test_the_json_cost_is_the_lines(capsys: pytest.CaptureFixture[str]) -> None:
    rep = _json(capsys, "7B DPO，1万对偏好数据，单张4090能跑吗")["report"]
    assert rep["shown"]["gpus"] == 8 and rep["memory"]["min_gpus"] == 8
    assert rep["shown"]["cost"]["billed_gpu_hours"] == 8
    assert (rep["shown"]["cost"]["low"], rep["shown"]["cost"]["high"]) == pytest.approx((14.4, 28.0))
    rows = {r["gpus"]: r for r in rep["days_table"]}
    # a row with its own GPU-hours bills its own cards: 16 cards ≥ ⌈3.49⌉ → 16 × ¥1.80–3.50 = ¥28.80–56.00
    assert rows[16]["cost"]["billed_gpu_hours"] == 16
    assert (rows[16]["cost"]["low"], rows[16]["cost"]["high"]) == pytest.approx((28.8, 56.0))
    assert rows[32]["cost"]["billed_gpu_hours"] == 32
    for r in rep["days_table"]:  # never fewer card-hours than cards (billed_gpu_hours' rule)
        if r.get("cost"):
            assert r["cost"]["billed_gpu_hours"] >= r["gpus"]


def test_a_stated_price_bills_the_fewest_that_hold(capsys: pytest.CaptureFixture[str]) -> None:
    text = _ask(capsys, "7B DPO，1万对偏好数据，H100 每小时 2 美元，单张H100能跑吗")
    assert "至少需要 2 张" in text.splitlines()[0]
    # 0.72 card-hours on 2 cards (s43 fixans #1: 0.57 × 10/8, their full recompute): 2 card-hours × $2 = $4.00
    assert (
        "• 费用：US$4.00（2 张卡共用 0.72 卡·时，每张卡不足一小时按一小时计费：2 卡·时 × US$2.00/卡·时）"
        in text
    )


def test_asking_the_cost_on_too_few_cards(capsys: pytest.CaptureFixture[str]) -> None:
    text = _ask(capsys, "How much does 7B DPO on 10k preference pairs cost on one 4090?")
    assert "Cost: $2.40 – $6.40 for these 4.0 GPU-hours, run on at least 8 GPUs that hold the job" in text
    text = _ask(capsys, "7B DPO，1万对偏好数据，用2张4090要花多少钱")
    assert (
        "费用：¥14.40 – ¥28.00，即这 4.0 卡·时在至少 8 张放得下这个任务的卡上跑的费用（你的 2 张放不下）"
        in text
    )


def test_a_deadline_bills_its_count(capsys: pytest.CaptureFixture[str]) -> None:
    text = _ask(capsys, "7B DPO，1万对偏好数据，3天内完成，用4090")
    assert "约 8 张" in text.splitlines()[0]
    # s40-fixh #3: the shown count's GPU-hours with the full recompute its 8 cards need (×1.25: 3.2 → 4.0),
    # the one figure of the answer; still under 8 card-hours, so the bill is the same
    assert "• 费用：¥14.40 – ¥28.00（8 张卡共用 4.0 卡·时" in text


def test_a_single_card_names_the_hour_started(capsys: pytest.CaptureFixture[str]) -> None:
    text = _ask(capsys, "7B LoRA, 10k samples, one H100, $2 per hour")
    # 0.14 GPU-hours on one card: its first hour, 1 × $2.00
    assert (
        "• Cost: $2.00 (0.14 GPU-hours used, billed by the hour started: 1 GPU-hour × $2.00 per GPU-hour)"
        in text
    )
    assert billed_gpu_hours(0.14, 1) == 1


def test_a_serving_month_bills_every_card(capsys: pytest.CaptureFixture[str]) -> None:
    text = _ask(capsys, "部署70B推理需要几张A100，100并发，32k上下文，每月多少钱")
    # 24 A100 × 730 h a month × ¥15–30 = ¥262,800 – ¥525,600
    assert "需要 24 张 A100 80G" in text and "每月 ¥262,800 – ¥525,600" in text.splitlines()[0]


# #3 A card memory the user has, with no card word: 'I only have 24GB' (after a needed figure or alone)
@pytest.mark.parametrize(
    "question",
    [
        "部署 Qwen2.5-14B 推理，要 40G 才能跑起来，我有 24G",
        "serve Qwen2.5-14B, it needs 40GB to run, I only have 24GB",
        "I have 24GB, can I run Qwen2.5-14B?",
        "我只有 24G，能跑 Qwen2.5-14B 吗",
        "We only have 24GB, can we serve Qwen2.5-14B?",
        "部署 Qwen2.5-14B，我只有 24G 显存",  # read before: stays read
    ],
)
def test_a_memory_the_user_has_is_the_cards(capsys: pytest.CaptureFixture[str], question: str) -> None:
    d = _json(capsys, question)
    assert d["request"]["gpu_memory_gib"] == 24.0
    assert all(i["text"] != "24" for i in d["interpretation"]["ignored"])


@pytest.mark.parametrize(
    ("question", "field"),
    [
        ("I have 24GB of text, fine-tune Qwen2.5-7B on A100", None),  # data, not a card
        ("我有 24G 的语料，用 A100 微调 Qwen2.5-7B", None),
        ("I have 64GB RAM, can I run Qwen2.5-14B?", "host_memory_gib"),  # the host's
        ("I have a MacBook, I only have 24GB, can I run Qwen2.5-14B?", None),  # the Mac's, not a card's
    ],
)
def test_a_memory_not_the_cards(capsys: pytest.CaptureFixture[str], question: str, field: str | None) -> None:
    d = _json(capsys, question)
    assert d["request"].get("gpu_memory_gib") is None
    if field:
        assert d["request"][field] == 64.0
