"""Issue 22 item 14, the smaller things: a chart's star and subtitle say what the headline and the bar
say, charts come with the headline as caption, inline cards are short, the LLaMA-Factory recipe says
what "selective recompute" is, and "≈ N GPUs use those GPU-hours in your D days" adds up."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable

import pytest
from fake_bot_api import Call, FakeBotAPI
from htmlcheck import telegram_html_text
from tg_harness import api_fixture, polling, settings_for

import bot.telegram.app as tg
import bot.telegram.keyboards as kb
from bot.cli import main
from bot.core.pipeline import answer
from bot.render.renderer import render

pytest.importorskip("matplotlib")

TOKEN = "123456:FAKE-TOKEN-small"
BAR = re.compile("[\u2580-\u259f]")  # block elements: a text bar chart


def chart_texts(question: str) -> tuple[str, list[str], list[str]]:
    """The chart of ``question`` drawn in its answer's language: title, legend and y tick labels."""
    from matplotlib.figure import Figure

    from bot.render import chart, chart_plots

    result = answer(question)
    ax = Figure().add_subplot()
    getattr(chart_plots, chart.chart_kind(result.report) or "")(
        ax, result.report, chart.ChartContext(result.lang)
    )
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    return ax.get_title(loc="left"), legend, [t.get_text() for t in ax.get_yticklabels()]


# -- charts --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("question", "headline", "star"),
    [
        (
            "7B模型1万亿token要多少A100",
            "约 136 张（17 台 8 卡）训 29 天（30 天内）",
            "136 张 → 30 天内（约 29 天）",
        ),
        (
            "How many A100s to train a 7B model on 1T tokens in 30 days?",
            "136",
            "136 GPUs → within 30 days (≈ 29)",
        ),
    ],
)
def test_the_charts_star_is_the_headlines_configuration(question: str, headline: str, star: str) -> None:
    """Was "136 GPUs → 29 days" under a "训 30 天" headline."""
    first_line = render(answer(question), "text").splitlines()[0]
    assert headline in first_line and "30" in first_line
    _, legend, _ = chart_texts(question)
    assert star in legend


@pytest.mark.parametrize(
    ("question", "subtitle", "bar"),
    [
        ("full fine-tune Qwen2.5-14B on 8 A100", "fits on 8 GPUs (at least 4 needed)", "One GPU\n(of 8)"),
        ("全参微调Qwen2.5-14B，8张A100，显存够吗", "8 张卡放得下（至少需要 4 张）", "每张卡\n（共 8 张）"),
        ("How many A100s to fully fine-tune a 7B model?", "at least 2 GPUs", "One GPU\n(of 2)"),
    ],
)
def test_the_fitting_charts_subtitle_is_about_the_gpus_its_bar_shows(
    question: str, subtitle: str, bar: str
) -> None:
    """Was "at least 4 GPUs" over "One GPU (of 8)"."""
    title, _, ticks = chart_texts(question)
    assert title.splitlines()[-1] == subtitle
    assert ticks == [bar]


def test_a_fitting_chart_on_too_few_gpus_says_so_for_them() -> None:
    title, _, ticks = chart_texts("full fine-tune Qwen2.5-14B on 2 A100 40GB")
    assert title.splitlines()[-1].startswith("does not fit on 2 GPUs (at least ")
    assert ticks == ["One GPU\n(of 2)"]


# -- through the real Application ----------------------------------------------------------------
api = api_fixture(TOKEN)


def scenario(body: Callable[[FakeBotAPI], Awaitable[None]], api: FakeBotAPI) -> None:
    async def main_() -> None:
        async with polling(tg.build_application(settings_for(api))):
            await body(api)

    asyncio.run(asyncio.wait_for(main_(), 60))


async def calls(api: FakeBotAPI, method: str, count: int) -> list[Call]:
    return await asyncio.to_thread(api.wait_for, method, count, 30.0)


def test_a_chart_is_sent_with_the_headline_as_its_caption(api: FakeBotAPI) -> None:
    user = api.user("Li", "zh-hans")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("7B模型1万亿token要多少A100", chat=chat, user=user)
        [sent] = await calls(api, "sendMessage", 1)
        rows = sent.params["reply_markup"]["inline_keyboard"]
        data = next(
            b["callback_data"]
            for row in rows
            for b in row
            if (kb.decode(b["callback_data"]) or kb.Callback("", "", "")).action == kb.CHART
        )
        api.press(api.bot_messages(chat["id"])[-1], data, user=user)
        await calls(api, "sendPhoto", 1)

    scenario(body, api)
    [photo] = api.calls_to("sendPhoto")
    [sent] = api.calls_to("sendMessage")
    caption = telegram_html_text(photo.params["caption"])
    assert caption == "7B 预训练 1万亿 token ≈ 9.3万 A100·时：约 136 张（17 台 8 卡）训 29 天（30 天内）"
    assert telegram_html_text(sent.params["text"]).splitlines()[0] == caption


@pytest.mark.parametrize(
    "query",
    [
        "LoRA fine-tune 13B with DeepSpeed ZeRO-2 on 2 A100 40GB without gradient checkpointing: "
        "memory per GPU?",
        "7B模型1万亿token要多少A100",
        "部署70B推理需要几张A100，100并发，32k上下文",
    ],
)
def test_inline_cards_are_the_headline_and_key_figures_without_a_bar_chart(
    api: FakeBotAPI, query: str
) -> None:
    """Was: a description with a text bar chart's bars and a 4,050-character message."""
    user = api.user("Ann", "en")

    async def body(api: FakeBotAPI) -> None:
        api.inline_query(query, user=user)
        await calls(api, "answerInlineQuery", 1)

    scenario(body, api)
    [call] = api.calls_to("answerInlineQuery")
    full = render(answer(query), "text")
    for result in call.params["results"]:
        assert not BAR.search(result.get("description") or "")
        text = telegram_html_text(result["input_message_content"]["message_text"])
        assert len(text) < 1_200, len(text)
        assert not BAR.search(text)
        assert text.splitlines()[0] == result["title"]  # the headline first
        assert len(text.splitlines()) >= 3  # and key figures under it
    first = telegram_html_text(call.params["results"][0]["input_message_content"]["message_text"])
    assert first.splitlines()[0] == full.splitlines()[0] and len(full) > 2 * len(first)


# -- recipe and budget, through the CLI ----------------------------------------------------------
def test_the_llamafactory_recipe_says_what_selective_recompute_is(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "--recipe", "llamafactory", "LoRA微调Qwen2.5-7B，8张A100"]) == 0
    out = capsys.readouterr().out
    recipe = out[out.index("### llamafactory.yaml") :]
    assert "选择性重计算" in recipe.splitlines()[0]  # the header
    lines = recipe.splitlines()
    at = lines.index("disable_gradient_checkpointing: true")
    assert lines[at - 1] == (
        "# 选择性重计算：SDPA/FlashAttention 在反向传播中重算注意力分数，不对任何层做检查点（关闭梯度检查点）"
    )
    assert "flash_attn: sdpa" in lines[at + 1]


def test_gpus_that_spend_a_budget_within_the_deadline_are_rounded_up(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Was "约 24 张卡能用完这些卡·时" in 30 days: 22,222 A100-hours on 24 GPUs take 38.6 days."""
    question = "预算50万，30天内用A100能训多大的模型"
    assert main(["ask", "--format", "json", question]) == 0
    report = json.loads(capsys.readouterr().out)["report"]
    hours = report["budget_gpu_hours"]["likely"]
    assert round(hours) == 22_222  # ¥500,000 ÷ ¥22.5 per A100-hour (the middle of ¥15–30)
    assert main(["ask", question]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "能用完这些卡·时" in x)
    gpus = int(re.search(r"约 (\d+) 张卡", line)[1])
    assert gpus == 32  # 22,222 ÷ 720 h = 30.9 → 31 → whole 8-GPU nodes
    assert hours / gpus / 24 <= 30  # 28.9 days: within the stated 30
    assert hours / (gpus - 8) / 24 > 30  # one node fewer would not make it
