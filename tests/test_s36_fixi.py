"""Session 36 fix i (issue 24: models compared, as a design review found them).

Item 1: 'which' must govern the two models (哪个模型 / 哪个更 / which one / which is … right before or after
the pair), never the card ('哪个卡', 'which GPU'): a message that merely used two models and asks which card
keeps the second named as not used, and the card question is answered for the model it asks about.
Item 2: each compared row's 'fits' is the serving verdict at the stated load (``report.feasible``), and a
row that does not hold the load says the GPUs that do (``gpus_needed``)."""

from __future__ import annotations

import pytest

from bot.contract import to_json
from bot.core.pipeline import answer
from bot.parse import parse
from bot.render.renderer import render

CARD_ZH = "我先用 Qwen2-7B 和 Llama-3-8B 做了测试，现在哪个卡适合部署 Qwen2-7B？"


@pytest.mark.parametrize(
    "text",
    [
        CARD_ZH,
        "我用 Qwen2-7B 和 Llama-3-8B 做过测试，哪种显卡部署 Qwen2-7B 最便宜？",
        "I tested Qwen2-7B and Llama-3-8B last week; which GPU should I use to serve Qwen2-7B?",
        "I tested Qwen2-7B and Llama-3-8B, which card is best to serve Qwen2-7B?",
        "I tested Qwen2-7B and Llama-3-8B last week. Which one should I serve on an A100?",  # next sentence
    ],
)
def test_which_card_after_two_models_is_not_a_comparison(text: str) -> None:
    p = parse(text)
    assert p.compared_models == ()
    assert p.request.model == "Qwen2-7B"
    assert ("model: Llama-3-8B", "other_setup") in p.unused_numbers  # named as not used (design §8)


@pytest.mark.parametrize(
    "text",
    [
        "Qwen2-7B 和 Llama-3-8B 哪个更适合部署在 A100 上？",
        "Qwen2-7B 和 Llama-3-8B 哪个模型在一张 A100 上部署更便宜？",
        "Qwen2-7B and Llama-3-8B: which one is cheaper to serve on an A100?",
        "Which is cheaper to serve on one A100, Qwen2-7B and Llama-3-8B?",  # which before the pair
        "Qwen2-7B 还是 Llama-3-8B，哪张卡都行吗",  # 还是 between the names sets them against each other
    ],
)
def test_which_model_near_the_pair_compares(text: str) -> None:
    p = parse(text)
    assert p.compared_models == ("Llama-3-8B",)
    assert p.request.model == "Qwen2-7B"


def test_the_card_question_is_not_answered_with_a_model_choice() -> None:
    a = answer(CARD_ZH)
    reply = render(a, "text")
    assert a.compared_models == []
    assert "更划算的是" not in reply
    assert reply.startswith("Qwen2 7B bf16 推理：需要 1 张 A100 80G")
    assert "Llama-3-8B" in reply  # named as not used


# Item 2: a compared row says 'fits' only when the stated load fits (the serving verdict the single answer
# gives). Llama 3 8B on one A10G: KV 32 layers × 8 KV heads × 128 × 2 (K, V) × 2 B = 131,072 B a token,
# 4K × 50 sequences = 26.8 GB beside 16.1 GB of weights on 20.2 GiB usable: room for 8 of the 50.
LOAD_EN = "Llama 3 8B or Mistral 7B, which is cheaper to serve for 50 users on an A10G?"
LOAD_ZH = "Llama-3-8B 还是 Mistral-7B，50 个并发，一张 A10G 部署哪个更便宜？"


@pytest.mark.parametrize("text", [LOAD_EN, LOAD_ZH])
def test_compared_rows_use_the_verdict_at_the_stated_load(text: str) -> None:
    a = answer(text)
    assert a.report.inference.kv_bytes_per_token == 32 * 8 * 128 * 2 * 2
    assert a.report.inference.max_concurrency == 8 and a.report.feasible == "no"
    rows = to_json(a, render(a, "text"))["report"]["compared_models"]
    assert [r["fits"] for r in rows] == [False, False]
    assert [r["feasible"] for r in rows] == ["no", "no"]
    assert rows[0]["min_gpus"] == 1 and rows[0]["gpus_needed"] == a.report.inference.recommended_gpus == 4
    assert not any(r["chosen"] for r in rows)


def test_compared_rows_do_not_say_fits_when_the_load_does_not() -> None:
    en = render(answer(LOAD_EN), "text")
    assert ": fits on 1 × A10G" not in en
    assert en.startswith("Neither model fits on 1 × A10G at this load")
    assert "• Meta Llama 3 8B: does not fit on 1 × A10G: needs 4" in en
    zh = render(answer(LOAD_ZH), "text")
    assert zh.startswith("两个模型在 1 张 A10G 上按这个负载都放不下")
    assert "Meta Llama 3 8B：1 张 A10G 放不下：需要 4 张" in zh


def test_a_load_that_fits_keeps_fits() -> None:
    rows = to_json(a := answer("Qwen3-32B or Llama-3.3-70B, which is cheaper to serve on 4 H20?"), "")[
        "report"
    ]
    assert [r["fits"] for r in rows["compared_models"]] == [True, True]
    assert [r["feasible"] for r in rows["compared_models"]] == [a.report.feasible, "yes"]
