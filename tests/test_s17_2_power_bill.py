"""Trial s17-2 #3: '我就一张 RTX 3090，想在家 …，电费大概多少钱？' (and 'power bill' in English) is a run on
the user's own card: no rental price to miss; the power is given as energy at the card's board power
(NVIDIA GeForce RTX 3090 specifications: 350 W) × the run's GPU-hours, the tariff left to the user."""

from __future__ import annotations

import pytest

from bot.core.home_card import OWN_CARD_ENERGY
from bot.core.pipeline import Context, answer
from bot.render.renderer import render

ZH = "我就一张 RTX 3090，想在家 LoRA 微调 Qwen2.5-7B，数据大概 2000 万 token，要跑多久，电费大概多少钱？"
EN = "I only have one RTX 3090. LoRA fine-tune Qwen2.5-7B on 20M tokens: how long, and what's the power bill?"


@pytest.mark.parametrize(("text", "said"), [(ZH, "度电"), (EN, "kWh")])
def test_power_bill_on_own_card_gives_energy(text: str, said: str) -> None:
    a = answer(text, Context())
    notes = {n.code: n for n in a.report.warnings}
    assert "no_price" not in notes
    note = notes[OWN_CARD_ENERGY]
    band = a.report.gpu_hours
    assert note.params["watts"] == 350.0
    assert note.params["kwh_low"] == pytest.approx(0.35 * band.low, abs=0.06)
    assert note.params["kwh_high"] == pytest.approx(0.35 * band.high, abs=0.06)
    reply = render(a, "text")
    assert said in reply and "350 W" in reply and "租用价格" not in reply and "No rental price" not in reply


def test_zh_power_bill_wording() -> None:
    reply = render(answer(ZH, Context()), "text")
    said = (
        "RTX 3090 是你自己的卡：没有租金可算。耗电：按 NVIDIA 规格的整卡功耗 350 W 计，"
        "这次运行最多约 3.2–6.7 度电"
    )
    assert said in reply
