"""Session 29 fix b: a budget per period picks the compared serving option the headline leads with
(bot.core.budget_pick, bot.render.budget_pick_text); a follow-up that only changes the card keeps the load.

Before: '预算每月3万元，选什么卡？' led with 'Cheapest per token: H100 80G' (4 GPUs in bf16, over the budget)
and named the option within it (INT4 on one card) only in a sub-line. Now the first line is the best option
within the budget (card, GPUs, precision, month), then the others within it, then those over it; when none
fits, it says so first with the cheapest."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render


def _first(text: str) -> str:
    return render(answer(text), "plain").splitlines()[0]


def _second(text: str) -> str:
    """s42 fixleft (s41 trial #11): the other options follow on the second line, the first is one choice."""
    return render(answer(text), "plain").splitlines()[1]


@pytest.mark.parametrize(
    ("text", "first"),
    [
        (
            "预算每月4万块，想跑Llama-3-70B给团队用，A100和H100哪个合适？",
            "在预算（每月 ¥40,000）之内：1 张 A100 80G，INT4 (GPTQ/AWQ) 权重，每月 ¥10,950 – ¥21,900",
        ),
        (
            "We can spend $5,000 per month. Serving Llama-3-70B: A100 or H100?",
            "Within your budget of $5,000 a month: 2 × A100 80G with FP8 weight-only (W8A16 with vLLM's FP8 "
            "Marlin kernels: no FP8 tensor cores) or INT8 weights, $1,752 – $3,650 a month",  # s43 fixans #2
        ),
    ],
)
def test_budget_leads_with_the_best_option_within_it(text: str, first: str) -> None:
    line = _first(text)
    assert line.startswith(first), line
    assert "Cheapest per token" not in line and "每 token 最省钱" not in line
    other = (
        "。超出预算：4 张 A100 80G，bf16 权重" if "预算" in text else "Also within it: 1 × H100 80G with INT4"
    )
    assert other in _second(text) and other not in line  # s42: on the line after the one choice


@pytest.mark.parametrize(
    ("text", "first"),
    [
        (
            "每月预算只有1500元，部署Llama-3-70B，A100还是H100？",
            "没有方案在预算（每月 ¥1,500）之内；最便宜的是：1 张 A100 80G，INT4 (GPTQ/AWQ) 权重，"
            "每月 ¥10,950 – ¥21,900",
        ),
        (
            "Only $300 a month to serve Llama-3-70B: A100 or H100?",
            "Nothing fits your budget of $300 a month; the cheapest: 1 × A100 80G with INT4 (GPTQ/AWQ) "
            "weights, $876 – $1,825 a month",
        ),
    ],
)
def test_nothing_within_the_budget_says_so_first(text: str, first: str) -> None:
    assert _first(text).startswith(first), _first(text)


def _conversation_load(first: str, then: str) -> tuple[int, int, str]:
    """(the first answer's concurrency, the follow-up's, the follow-up's reason for its concurrency)."""
    from bot.core.conversation import Conversation

    chat = Conversation()
    one = chat.ask(1, 2, first).answer.report
    two = chat.ask(1, 2, then).answer.report
    why = next((a.why for a in two.assumptions if a.field == "concurrency"), "")
    return one.inference.concurrency, two.inference.concurrency, why


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("团队内部要部署Llama-3-70B对话服务，需要几张H100？", "换成4090呢"),
        ("How many A100s to serve Llama-3-70B for our team?", "what about RTX 4090 instead?"),
    ],
)
def test_a_card_only_followup_keeps_the_assumed_load(first: str, then: str) -> None:
    """Before: 16 concurrent (a team's default) on the first card, 1 (a GeForce card's personal default)
    after '换成4090呢'; now the follow-up keeps 16 and says why (bot.core.carried_load)."""
    assert _conversation_load(first, then) == (16, 16, "previous_answer_load")


def test_a_stated_load_in_the_followup_is_its_own() -> None:
    """A load said with the new card is the user's, not the carried one."""
    loads = _conversation_load("部署Llama-3-70B需要几张H100？", "换成4090，4个并发呢")
    assert loads[:2] == (16, 4)
