"""A chat's /settings defaults fill only what a question leaves open and its answer needs (issue 22,
item 1), through the real python-telegram-bot ``Application`` against the fake Bot API."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from fake_bot_api import Call, FakeBotAPI
from htmlcheck import telegram_html_text
from tg_harness import api_fixture, polling, settings_for

import bot.telegram.app as tg
import bot.telegram.keyboards as kb

TOKEN = "123456:FAKE-TOKEN-defaults"
SCENARIO_TIMEOUT_S = 30


api = api_fixture(TOKEN)


def scenario(body: Callable[[FakeBotAPI], Awaitable[None]], api: FakeBotAPI, **settings: Any) -> None:
    async def main() -> None:
        async with polling(tg.build_application(settings_for(api, **settings))):
            await body(api)

    asyncio.run(asyncio.wait_for(main(), SCENARIO_TIMEOUT_S))


async def calls(api: FakeBotAPI, method: str, count: int) -> list[Call]:
    return await asyncio.to_thread(api.wait_for, method, count, 20.0)


def shown(call: Call) -> str:
    return telegram_html_text(call.params["text"])


def _with_deadline(api: FakeBotAPI, days: str, questions: list[str], lang: str = "zh-hans") -> list[str]:
    """/settings, tap the deadline button ``days``, then ask ``questions``: the replies' texts."""
    user = api.user("Li", lang)
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("/settings", chat=chat, user=user)
        await calls(api, "sendMessage", 1)
        menu = api.bot_messages(chat["id"])[-1]
        api.press(menu, kb.encode(kb.SETTINGS_SLOT, kb.SET_DEADLINE, days), user=user)
        await calls(api, "editMessageText", 1)
        for n, text in enumerate(questions, 2):
            api.send_text(text, chat=chat, user=user)
            await calls(api, "sendMessage", n)

    scenario(body, api)
    return [shown(c) for c in api.calls_to("sendMessage")[1:]]


@pytest.mark.parametrize("days", ["30", "60"])
def test_default_deadline_keeps_memory_questions_memory_questions(api: FakeBotAPI, days: str) -> None:
    lora, full = _with_deadline(
        api, days, ["LoRA微调Qwen2.5-14B，1张A100够吗", "全参微调Qwen2.5-7B，8张A100，显存够吗"]
    )
    # the memory figure and the fits verdict, as without the setting (bot.core.pipeline answer, no settings)
    assert lora.splitlines()[0] == "Qwen2.5 14B LoRA 微调：1 张 A100 80G 放得下，每卡约 59.2 GiB"
    assert full.splitlines()[0] == "Qwen2.5 7B 全参微调：8 张 A100 80G 放得下（ZeRO-1），每卡约 52.6 GiB"
    for reply in (lora, full):
        assert "亿 token" not in reply.splitlines()[0] and "A100·时" not in reply.splitlines()[0]
        assert "/settings 设置" not in reply  # the default was not needed, so it is not in the ledger


def test_default_deadline_applies_where_the_answer_needs_one(api: FakeBotAPI) -> None:
    [pretrain] = _with_deadline(api, "60", ["7B模型1万亿token要多少A100"])
    # 93,483 A100-hours (docs/design.md §3.2 seed) / (60 × 24) = 65 → 72 GPUs (whole 8-GPU nodes)
    # T22 item 3: the days table's days on 72 GPUs (93,483 / 72 / 24 = 54), the deadline after
    assert (
        pretrain.splitlines()[0]
        == "7B 预训练 1万亿 token ≈ 9.3万 A100·时：约 72 张（9 台 8 卡）训 54 天（60 天内）"
    )
    assert "工期（天）：60 — 本群/本会话的 /settings 设置" in pretrain


# -- issue 22 item 13: a price says its currency; /gpus says whose prices and where they come from
def _private_session(
    api: FakeBotAPI, steps: list[str | tuple[str, str]], lang: str = "zh-hans"
) -> list[Call]:
    """Messages (or ('press', callback_data) taps on the last bot message) in a private chat; every
    message gets one reply, every tap one edit. Returns the replies (sendMessage calls)."""
    user = api.user("Li", lang)
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        sent = edits = 0
        for step in steps:
            if isinstance(step, tuple):
                api.press(api.bot_messages(chat["id"])[-1], step[1], user=user)
                edits += 1
                await calls(api, "editMessageText", edits)
            else:
                api.send_text(step, chat=chat, user=user)
                sent += 1
                await calls(api, "sendMessage", sent)

    scenario(body, api, user_rate="off", chat_rate="off")  # a session of settings, not a flood
    return api.calls_to("sendMessage")


USD = ("press", kb.encode(kb.SETTINGS_SLOT, kb.SET_CURRENCY, "USD"))


def test_a_bare_price_after_choosing_usd_says_it_is_in_usd(api: FakeBotAPI) -> None:
    _, saved = _private_session(api, ["/settings", USD, "/settings price A100 18"])
    first = shown(saved).splitlines()[0]
    assert first.startswith("✓ 已保存：A100 每卡·时 US$18，按 USD 计（本聊天的货币）")
    assert "18元" in first and "$2.5" in first  # how to give another currency


def test_a_price_with_its_currency_is_stored_in_it(api: FakeBotAPI) -> None:
    replies = _private_session(
        api,
        [
            "/settings", USD,
            "/settings price A100 18元",  # the only price: the chat switches to CNY, and says so
            "7B模型1万亿token要多少A100",
            "/settings price H100 $2.5",  # another currency than A100's ¥18: refused, nothing changed
            "/settings price A100 ¥20",
            "/settings price A100 2.5美元",  # A100 is the only price again: back to USD
        ],
    )  # fmt: skip
    _, yuan, sized, mixed, again, dollars = (shown(c) for c in replies)
    assert yuan.splitlines()[0] == "✓ 已保存：A100 每卡·时 ¥18，按你写的 CNY 计；本聊天今后按 CNY 报价。"
    assert "¥1,682,694" in sized  # 93,483 A100-hours (docs/design.md §3.2 seed) × ¥18
    assert mixed.startswith("本聊天的其他价格以 CNY 计（A100 ¥18）") and "没有做任何修改" in mixed
    assert again.splitlines()[0] == "✓ 已保存：A100 每卡·时 ¥20，按你写的 CNY 计。"
    assert dollars.splitlines()[0].startswith("✓ 已保存：A100 每卡·时 US$2.50，按你写的 USD 计；")
    assert "自定义价格：A100 US$2.50" in dollars


def test_gpus_in_a_private_chat_says_this_chat_and_lists_priced_cards_first(api: FakeBotAPI) -> None:
    [gpus] = _private_session(api, ["/gpus"])
    text = shown(gpus)
    assert "本群" not in text and "设置本聊天自己的价格" in text
    rows = text.split("\n", 1)[1].split("价格为每卡·时")[0].strip().splitlines()
    # s31: with the cards added this session the list is cut, its last line "……另有 N 种…" (no card row)
    rows = [r for r in rows if not r.startswith("……")]
    priced = [r for r in rows if not r.rstrip().endswith("—")]
    assert rows[: len(priced)] == priced  # every priced row before the first "—"
    # estimator/data/prices.toml: 10 families with a CNY range, e.g. A100 ¥15–30 (the seed article)
    assert len(priced) == 10 and any(r.startswith("A100 ") and "¥15–30" in r for r in priced)
    cut = re.search(r"……另有 (\d+) 种", text)
    total = len(rows) + (int(cut.group(1)) if cut else 0)
    assert f"{total} 种卡中有 10 种有 CNY 价格，排在前面" in text
    # where and when the prices are from: the newest is the AWS G6 (L4) list transcribed 2026-08 (s17-trfix)
    assert "公开的租用报价" in text and "2025-06 – 2026-08" in text


def test_gpus_in_a_group_says_this_group(api: FakeBotAPI) -> None:
    user = api.user("Ann", "en")
    group = api.group_chat()

    async def body(api: FakeBotAPI) -> None:
        api.send_text("/gpus", chat=group, user=user)
        await calls(api, "sendMessage", 1)

    scenario(body, api)
    text = shown(api.calls_to("sendMessage")[0])
    assert "Set this group's own prices" in text and "this chat" not in text
    # 9 families with a USD range, and since s17-trfix L4 and A10G (AWS G6/G5 on-demand ÷ GPUs): 11; s43
    # fixans #5: the RTX 5090 (RunPod/Spheron/Vast.ai listings, 2026): 12
    assert "12 of" in text and "have a price in USD and are listed first" in text


@pytest.mark.parametrize(
    ("typed", "price", "currency"),
    [
        ("18", 18.0, None), ("18元", 18.0, "CNY"), ("18 元", 18.0, "CNY"), ("¥18", 18.0, "CNY"),
        ("18 RMB", 18.0, "CNY"), ("$2.5", 2.5, "USD"), ("US$2.50", 2.5, "USD"), ("2.5美元", 2.5, "USD"),
        ("2.5 USD", 2.5, "USD"),
    ],
)  # fmt: skip
def test_price_command_reads_the_currency_written_with_the_price(
    typed: str, price: float, currency: str | None
) -> None:
    from bot.chat.commands import PriceChange, parse_price_command

    change = parse_price_command(f"price A100 {typed}")
    assert isinstance(change, PriceChange) and change.family == "A100" and change.price == price
    assert (change.currency.value if change.currency else None) == currency
    assert parse_price_command("price A100 $18元") == "mixed_currency"
