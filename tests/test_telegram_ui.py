"""The chat assistant through the real python-telegram-bot ``Application`` and a fake Bot API.

Follow-ups (one ``Conversation`` per application, keyed by chat and user), buttons under answers
(edited in place; expired turns answered politely), inline mode, /gpus /models /settings (group
admins only, persisted in SQLite across restarts and group → supergroup migrations), the
pre-sales contact line, and the webhook's secret-token check. No network: loopback only.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fake_bot_api import Call, FakeBotAPI
from htmlcheck import assert_telegram_html, telegram_html_text
from telegram import InlineKeyboardMarkup
from tg_harness import checked_fake_api, polling, settings_for

import bot.telegram.app as tg
import bot.telegram.keyboards as kb
from bot.core.conversation import Conversation
from bot.render.renderer import render_help
from bot.telegram import enable_ptb_webhook_server

TOKEN = "123456:FAKE-TOKEN-abc"
WEBHOOK_SECRET = "s3cret_Webhook-token"
SCENARIO_TIMEOUT_S = 30  # only a hung scenario waits this long; a loaded CI machine is slow


# -- harness ---------------------------------------------------------------------------------
@pytest.fixture
def db_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "settings.sqlite3"
    monkeypatch.setenv("SIZING_BOT_DB", str(path))
    monkeypatch.delenv("SIZING_BOT_PRESALES", raising=False)
    return path


@pytest.fixture
def api(db_path: Path) -> Iterator[FakeBotAPI]:
    with checked_fake_api(TOKEN) as fake:
        yield fake


Body = Callable[[FakeBotAPI], Awaitable[None]]


def scenario(body: Body, api: FakeBotAPI, **settings: Any) -> None:
    async def main() -> None:
        async with polling(tg.build_application(settings_for(api, **settings))):
            await body(api)

    asyncio.run(asyncio.wait_for(main(), SCENARIO_TIMEOUT_S))


async def calls(api: FakeBotAPI, method: str, count: int) -> list[Call]:
    """Wait (without blocking the bot's event loop) for ``count`` calls to ``method``."""
    return await asyncio.to_thread(api.wait_for, method, count, 20.0)


def shown(call: Call) -> str:
    return telegram_html_text(call.params["text"])


def buttons(markup: dict[str, Any] | None) -> dict[str, str]:
    """Button text → callback_data."""
    rows = (markup or {}).get("inline_keyboard", [])
    return {b["text"]: b["callback_data"] for row in rows for b in row if "callback_data" in b}


def button(markup: dict[str, Any] | None, action: str, arg: str | None = None) -> str:
    for data in buttons(markup).values():
        cb = kb.decode(data)
        if cb and cb.action == action and (arg is None or cb.arg == arg):
            return data
    raise AssertionError(f"no {action}|{arg} button in {buttons(markup)}")


def last_bot_message(api: FakeBotAPI, chat_id: int) -> dict[str, Any]:
    return api.bot_messages(chat_id)[-1]


# -- follow-ups ------------------------------------------------------------------------------
def test_followup_sequence_in_chinese_switches_gpu_then_count_then_resets(api: FakeBotAPI) -> None:
    user = api.user("Li", "zh-hans")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        questions = ["7B模型1万亿token要多少A100", "那H100呢", "用256张", "部署70B推理需要几张A100"]
        for n, text in enumerate(questions, 1):
            api.send_text(text, chat=chat, user=user)
            await calls(api, "sendMessage", n)

    scenario(body, api)
    first, h100, count, fresh = (shown(c).splitlines()[0] for c in api.calls_to("sendMessage"))
    assert "9.3万 A100·时" in first  # docs/design.md §3.2 seed: 93,483 A100-hours
    assert "H100" in h100 and "A100" not in h100 and "9.3万" not in h100  # fewer GPU-hours on H100
    assert "4.2万 H100·时" in h100  # 4.2e22 / (989.4e12 × 0.28 × 3600) = 42,113 (0.26 before issue 25)
    assert "256 张 H100" in count and "7B" in count  # the count changed, the GPU and model stayed
    assert "70B" in fresh and "推理" in fresh and "H100" not in fresh  # a new question starts over


def test_followup_sequence_in_english_switches_gpu_then_count_then_resets(api: FakeBotAPI) -> None:
    user = api.user("Ann", "en")
    chat = api.private_chat(user)
    questions = [
        "How many A100s to pre-train a 7B model on 1T tokens?",
        "what about H100?",
        "with 256 GPUs",
        "Serve a 70B model with 100 concurrent users: how many A100s?",
    ]

    async def body(api: FakeBotAPI) -> None:
        for n, text in enumerate(questions, 1):
            api.send_text(text, chat=chat, user=user)
            await calls(api, "sendMessage", n)

    scenario(body, api)
    first, h100, count, fresh = (shown(c).splitlines()[0] for c in api.calls_to("sendMessage"))
    assert "93.5K A100-hours" in first
    assert "42.1K H100-hours" in h100 and "A100" not in h100  # 45.4K at 0.26, before issue 25
    assert "256 × H100" in count and "7B" in count
    assert "70B" in fresh and "inference" in fresh and "H100" not in fresh


def test_reply_to_an_earlier_answer_follows_up_on_that_answer(api: FakeBotAPI) -> None:
    user = api.user("Li", "zh-hans")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("7B模型1万亿token要多少A100", chat=chat, user=user)
        await calls(api, "sendMessage", 1)
        first_answer = last_bot_message(api, chat["id"])
        api.send_text("部署70B推理需要几张A100", chat=chat, user=user)
        await calls(api, "sendMessage", 2)
        api.send_text("那H100呢", chat=chat, user=user, reply_to=first_answer)  # about the 7B answer
        await calls(api, "sendMessage", 3)

    scenario(body, api)
    headline = shown(api.calls_to("sendMessage")[2]).splitlines()[0]
    assert "7B 预训练" in headline and "H100" in headline


# -- buttons ---------------------------------------------------------------------------------
def test_answer_has_buttons_and_gpu_button_edits_the_message_in_place(api: FakeBotAPI) -> None:
    user = api.user("Ann", "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("7B 1T tokens A100", chat=chat, user=user)
        [sent] = await calls(api, "sendMessage", 1)
        message = last_bot_message(api, chat["id"])
        gpu_button = button(sent.params["reply_markup"], kb.GPU, "H100-SXM5-80GB")
        api.press(message, gpu_button, user=user)
        [edit] = await calls(api, "editMessageText", 1)
        [answered] = await calls(api, "answerCallbackQuery", 1)
        assert not answered.params.get("text")
        assert edit.params["message_id"] == message["message_id"]
        assert_telegram_html(edit.params["text"])
        headline = shown(edit).splitlines()[0]
        assert "H100-hours" in headline and "A100" not in headline
        new_gpu_row = buttons(edit.params["reply_markup"])
        assert new_gpu_row and kb.decode(gpu_button).turn_id not in "".join(new_gpu_row.values())
        # a follow-up by reply continues the edited (H100) answer
        edited = api.message(chat["id"], message["message_id"])
        api.send_text("with 256 GPUs", chat=chat, user=user, reply_to=edited)
        [_, reply] = await calls(api, "sendMessage", 2)
        assert "256 × H100" in shown(reply).splitlines()[0]

    scenario(body, api)
    assert len(api.calls_to("sendMessage")) == 2  # the button edited; it did not send


def test_details_button_hides_and_shows_the_expandable_block(api: FakeBotAPI) -> None:
    user = api.user("Li", "zh-hans")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("7B模型1万亿token要多少A100", chat=chat, user=user)
        [sent] = await calls(api, "sendMessage", 1)
        assert "<blockquote expandable>" in sent.params["text"]
        message = last_bot_message(api, chat["id"])
        api.press(message, button(sent.params["reply_markup"], kb.DETAILS, "0"), user=user)
        [hidden] = await calls(api, "editMessageText", 1)
        assert "<blockquote" not in hidden.params["text"]
        assert shown(hidden).splitlines()[0] == shown(sent).splitlines()[0]
        api.press(message, button(hidden.params["reply_markup"], kb.DETAILS, "1"), user=user)
        [_, full] = await calls(api, "editMessageText", 2)
        assert "<blockquote expandable>" in full.params["text"]
        assert_telegram_html(hidden.params["text"])

    scenario(body, api)


def test_language_and_method_buttons_re_answer_the_same_question(api: FakeBotAPI) -> None:
    user = api.user("Li", "zh-hans")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("全参微调Qwen2.5-14B要几张A100 80G", chat=chat, user=user)
        [sent] = await calls(api, "sendMessage", 1)
        message = last_bot_message(api, chat["id"])
        api.press(message, button(sent.params["reply_markup"], kb.METHOD, "qlora"), user=user)
        [qlora] = await calls(api, "editMessageText", 1)
        assert "QLoRA" in shown(qlora).splitlines()[0]
        api.press(message, button(qlora.params["reply_markup"], kb.LANG, "en"), user=user)
        [_, english] = await calls(api, "editMessageText", 2)
        headline = shown(english).splitlines()[0]
        assert "QLoRA" in headline and "fine-tuning" in headline
        assert "🌐 中文" in buttons(english.params["reply_markup"])  # the keyboard speaks English now

    scenario(body, api)


def test_stale_button_gets_the_expired_text_and_no_edit(api: FakeBotAPI) -> None:
    zh, en = api.user("Li", "zh-hans"), api.user("Ann", "en")
    chat = api.private_chat(zh)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("7B模型1万亿token要多少A100", chat=chat, user=zh)
        await calls(api, "sendMessage", 1)
        message = last_bot_message(api, chat["id"])
        api.press(message, kb.encode("ZZZZZZZZ", kb.GPU, "H100-SXM5-80GB"), user=zh)  # a turn nobody has
        api.press(message, kb.encode("ZZZZZZZZ", kb.DETAILS, "0"), user=en)
        await calls(api, "answerCallbackQuery", 2)

    scenario(body, api)
    texts = [c.params.get("text") for c in api.calls_to("answerCallbackQuery")]
    assert texts == [tg.EXPIRED["zh"], tg.EXPIRED["en"]]
    assert tg.EXPIRED["zh"] == "这条结果已过期，请重新提问"
    assert api.calls_to("editMessageText") == []


def test_buttons_from_before_a_restart_are_expired(api: FakeBotAPI) -> None:
    user = api.user("Ann", "en")
    chat = api.private_chat(user)
    pressed: dict[str, Any] = {}

    async def ask(api: FakeBotAPI) -> None:
        api.send_text("7B 1T tokens A100", chat=chat, user=user)
        [sent] = await calls(api, "sendMessage", 1)
        pressed["data"] = button(sent.params["reply_markup"], kb.GPU, "H100-SXM5-80GB")
        pressed["message"] = last_bot_message(api, chat["id"])

    async def press(api: FakeBotAPI) -> None:
        api.press(pressed["message"], pressed["data"], user=user)
        await calls(api, "answerCallbackQuery", 1)

    scenario(ask, api)
    scenario(press, api)  # a new Application: the turn lived only in the old one's memory
    [answered] = api.calls_to("answerCallbackQuery")
    assert answered.params["text"] == tg.EXPIRED["en"]


def test_chart_button_sends_a_png(api: FakeBotAPI) -> None:
    pytest.importorskip("matplotlib")
    user = api.user("Ann", "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("7B 1T tokens A100", chat=chat, user=user)
        [sent] = await calls(api, "sendMessage", 1)
        api.press(last_bot_message(api, chat["id"]), button(sent.params["reply_markup"], kb.CHART), user=user)
        [photo] = await calls(api, "sendPhoto", 1)
        assert photo.params["photo"].startswith(b"\x89PNG")
        assert photo.content_type == "multipart/form-data"  # an upload
        assert photo.params["chat_id"] == chat["id"]
        await calls(api, "answerCallbackQuery", 1)

    scenario(body, api)


QUESTIONS = {
    "zh": [
        "7B模型1万亿token要多少A100",
        "全参微调Qwen2.5-14B要几张A100 80G？",
        "LoRA微调Llama-3-70B",
        "QLoRA 70B 4090要几张",
        "部署70B推理需要几张A100，100并发，32k上下文",
        "预算100万，能训多大的模型？",
        "DeepSeek-V3 推理 H20",
        "Mixtral 8x7B 继续预训练 2000亿token",
    ],
    "en": [
        "How many A100s to pre-train a 7B model on 1T tokens?",
        "Full fine-tune Qwen2.5-14B: how many A100 80G?",
        "LoRA Llama-3-70B on H100",
        "Can I QLoRA a 70B on two 4090s?",
        "Serve a 70B model with 100 concurrent users at 32k context",
        "Budget $1M: how large a model can I train?",
        "serve DeepSeek-V3 on MI300X",
        "continued pretraining Mixtral 8x7B on 200B tokens on Ascend 910B",
    ],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_callback_data_of_every_button_fits_64_bytes(lang: str) -> None:
    conversation = Conversation()
    kinds: set[str] = set()
    for question in QUESTIONS[lang]:
        turn = conversation.ask(1, 1, question, user_lang=lang)
        assert turn.answer.understood, question
        kinds.add(str(turn.answer.report.request.stage))
        variants = [turn] + [conversation.variant(turn.id, lang=other) for other in ("zh", "en")]
        for t in variants:
            assert t is not None
            for details in (True, False):
                for markup in (
                    kb.answer_keyboard(t, details=details),
                    kb.answer_keyboard(t, lang, details=details, gpus=conversation.alternative_gpus(t, 3)),
                ):
                    assert isinstance(markup, InlineKeyboardMarkup)
                    data = kb.all_callback_data(markup)
                    assert data and all(len(d.encode()) <= kb.MAX_CALLBACK_BYTES for d in data), data
                    assert all(kb.decode(d) is not None for d in data)
                    assert len(set(data)) == len(data)
    assert kinds >= {"pretrain", "finetune", "inference"}
    for data in kb.all_callback_data(kb.settings_keyboard(None, lang)):
        assert len(data.encode()) <= kb.MAX_CALLBACK_BYTES


def test_callback_encoding_round_trips_and_rejects_oversize() -> None:
    data = kb.encode("abcdefghijkl", kb.GPU, "Ascend-910B")
    assert kb.decode(data) == kb.Callback("abcdefghijkl", kb.GPU, "Ascend-910B")
    assert kb.decode("v0|x|g|y") is None and kb.decode("garbage") is None and kb.decode(None) is None
    with pytest.raises(ValueError):
        kb.encode("t" * 60, kb.GPU, "H100")
    with pytest.raises(ValueError):
        kb.encode("a|b", kb.GPU)


def test_help_answer_has_no_buttons(api: FakeBotAPI) -> None:
    user = api.user("Ann", "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("what's the weather like?", chat=chat, user=user)
        await calls(api, "sendMessage", 1)

    scenario(body, api)
    [call] = api.calls_to("sendMessage")
    assert "reply_markup" not in call.params


# -- inline mode -----------------------------------------------------------------------------
def _inline(api: FakeBotAPI, query: str, language_code: str) -> Call:
    user = api.user("Ann", language_code)

    async def body(api: FakeBotAPI) -> None:
        api.inline_query(query, user=user)
        await calls(api, "answerInlineQuery", 1)

    scenario(body, api)
    [call] = api.calls_to("answerInlineQuery")
    return call


def _check_results(call: Call) -> list[dict[str, Any]]:
    results = call.params["results"]
    assert 1 <= len(results) <= 3
    assert call.params["is_personal"] is True
    assert call.params["cache_time"] <= 30
    for result in results:
        content = result["input_message_content"]
        assert result["type"] == "article" and result["title"]
        assert content["parse_mode"] == "HTML"
        assert_telegram_html(content["message_text"])
    return results


def test_inline_query_without_gpu_offers_the_default_and_h100(api: FakeBotAPI) -> None:
    results = _check_results(_inline(api, "7B 1T tokens", "en"))
    titles = [r["title"] for r in results]
    assert len(results) == 2, titles  # default A100 and H100 (the A100 card is not repeated)
    assert "A100" in titles[0] and "H100" in titles[1]
    assert "93.5K A100-hours" in titles[0]


def test_inline_query_with_gpu_gives_one_card_in_the_users_language(api: FakeBotAPI) -> None:
    results = _check_results(_inline(api, "70B qlora 4090", "zh-hans"))
    assert len(results) == 1
    assert "QLoRA" in results[0]["title"] and "4090" in results[0]["title"]
    assert "微调" in results[0]["title"]  # language_code zh → Chinese card


@pytest.mark.parametrize("query", ["", "hello there"])
def test_inline_query_empty_or_unparseable_gives_one_examples_card(api: FakeBotAPI, query: str) -> None:
    [result] = _check_results(_inline(api, query, "zh"))
    assert result["input_message_content"]["message_text"] == render_help("zh", "html")


# -- commands --------------------------------------------------------------------------------
def test_gpus_and_models_list_the_catalog_compactly(api: FakeBotAPI) -> None:
    user = api.user("Li", "zh-hans")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("/gpus", chat=chat, user=user)
        api.send_text("/models deepseek", chat=chat, user=user)
        await calls(api, "sendMessage", 2)

    scenario(body, api)
    gpus, models = api.calls_to("sendMessage")
    for call in (gpus, models):
        assert_telegram_html(call.params["text"])
    a100 = next(line for line in shown(gpus).splitlines() if line.startswith("A100 "))
    assert "312" in a100 and "80G" in a100 and "¥15–30" in a100  # dense BF16, memory, seed price
    assert "DeepSeek-V3" in shown(models) and "671B / 37B" in shown(models)


def _settings_scenario(
    api: FakeBotAPI, group: dict[str, Any], steps: list[tuple[str, dict[str, Any]]], replies: int
) -> list[Call]:
    async def body(api: FakeBotAPI) -> None:
        for text, user in steps:
            api.send_text(text, chat=group, user=user)
        await calls(api, "sendMessage", replies)

    scenario(body, api)
    return api.calls_to("sendMessage")


def test_group_settings_refused_for_members_and_applied_for_admins(api: FakeBotAPI) -> None:
    group = api.group_chat()
    member, admin, owner = api.user("Bo", "zh-hans"), api.user("Li", "zh-hans"), api.user("Wu", "zh")
    api.set_member_status(group, admin, "administrator")
    api.set_member_status(group, owner, "creator")
    sent = _settings_scenario(
        api,
        group,
        [
            ("/settings 价格 A100 18", member),
            ("/settings 价格 A100 18", admin),
            ("/settings price H100 25", owner),
            ("/size 7B 1万亿token A100", member),
        ],
        4,
    )
    refused, applied, by_owner, sized = (shown(c) for c in sent)
    assert refused == tg.NOT_ADMIN["zh"]
    assert "A100 ¥18" in applied and "CNY" in applied
    assert "A100 ¥18" in by_owner and "H100 ¥25" in by_owner
    assert "¥1,682,694" in sized  # 93,483 A100-hours × ¥18 (docs/design.md §3.2 seed hours)
    checked = {(c.params["chat_id"], c.params["user_id"]) for c in api.calls_to("getChatMember")}
    assert checked == {(group["id"], member["id"]), (group["id"], admin["id"]), (group["id"], owner["id"])}


def test_settings_buttons_check_admin_and_edit_in_place(api: FakeBotAPI) -> None:
    group = api.group_chat()
    member, admin = api.user("Bo", "en"), api.user("Li", "en")
    api.set_member_status(group, admin, "administrator")

    async def body(api: FakeBotAPI) -> None:
        api.send_text("/settings", chat=group, user=member)  # anyone may look
        [sent] = await calls(api, "sendMessage", 1)
        message = last_bot_message(api, group["id"])
        mfu_50 = kb.encode(kb.SETTINGS_SLOT, kb.SET_MFU, "50")
        assert mfu_50 in buttons(sent.params["reply_markup"]).values()
        api.press(message, mfu_50, user=member)
        [refused] = await calls(api, "answerCallbackQuery", 1)
        assert refused.params["text"] == tg.NOT_ADMIN["en"] and refused.params["show_alert"] is True
        api.press(message, mfu_50, user=admin)
        [edit] = await calls(api, "editMessageText", 1)
        assert "Default MFU: 50%" in shown(edit)
        assert "✓ MFU 50%" in buttons(edit.params["reply_markup"])
        api.press(message, kb.encode(kb.SETTINGS_SLOT, kb.SET_LANG, "zh"), user=admin)
        [_, zh] = await calls(api, "editMessageText", 2)
        assert "默认 MFU：50%" in shown(zh)

    scenario(body, api)


def test_settings_survive_a_restart(api: FakeBotAPI) -> None:
    user = api.user("Ann", "en")
    chat = api.private_chat(user)

    async def configure(api: FakeBotAPI) -> None:
        api.send_text("/settings price A100 2", chat=chat, user=user)
        await calls(api, "sendMessage", 1)
        chinese = kb.encode(kb.SETTINGS_SLOT, kb.SET_LANG, "zh")
        api.press(last_bot_message(api, chat["id"]), chinese, user=user)
        await calls(api, "editMessageText", 1)

    async def use(api: FakeBotAPI) -> None:
        api.send_text("/settings", chat=chat, user=user)
        api.send_text("7B 1T tokens A100", chat=chat, user=user)
        await calls(api, "sendMessage", 3)

    scenario(configure, api)
    scenario(use, api)  # a new Application on the same SQLite file
    _, settings, sized = api.calls_to("sendMessage")
    assert "自定义价格：A100 US$2" in shown(settings)
    assert "设置" in shown(settings)  # the chat chose Chinese
    assert "US$186,966" in shown(sized)  # 93,483 A100-hours × $2, answered in Chinese


def test_group_migration_keeps_settings(api: FakeBotAPI) -> None:
    group = api.group_chat(kind="group")
    admin = api.user("Li", "zh-hans")
    api.set_member_status(group, admin, "creator")
    new_group: dict[str, Any] = {}

    async def body(api: FakeBotAPI) -> None:
        api.send_text("/settings 价格 A100 18", chat=group, user=admin)
        await calls(api, "sendMessage", 1)
        new_group.update(api.migrate(group, user=admin))
        api.send_text("/settings", chat=new_group, user=admin)
        await calls(api, "sendMessage", 2)

    scenario(body, api)
    moved = shown(api.calls_to("sendMessage")[1])
    assert "A100 ¥18" in moved


# -- pre-sales -------------------------------------------------------------------------------
PRESALES_TOML = """
provider = "Example Cloud"
currency = "CNY"
contact = "Example Cloud sales: sales@example.com"

[[gpu]]
family = "A100"
price_cny_per_gpu_hour = 12

[[gpu]]
family = "H100"
price_cny_per_gpu_hour = 20
"""


def test_presales_contact_line_and_prices(api: FakeBotAPI, tmp_path: Path) -> None:
    path = tmp_path / "presales.toml"
    path.write_text(PRESALES_TOML, encoding="utf-8")
    user = api.user("Li", "zh-hans")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("7B模型1万亿token要多少A100", chat=chat, user=user)
        api.send_text("/gpus", chat=chat, user=user)
        await calls(api, "sendMessage", 2)

    scenario(body, api, presales_path=path)
    answer, gpus = api.calls_to("sendMessage")
    assert shown(answer).rstrip().endswith("Example Cloud sales: sales@example.com")
    assert "¥1,121,796" in shown(answer)  # 93,483 h × ¥12 offered
    assert_telegram_html(answer.params["text"])
    assert "Example Cloud" in shown(gpus) and "¥12" in shown(gpus) and "RTX 4090" not in shown(gpus)


def test_run_with_a_bad_presales_file_prints_one_line_naming_the_field(
    api: FakeBotAPI, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "presales.toml"
    path.write_text(PRESALES_TOML.replace('family = "H100"', 'family = "H1OO"'), encoding="utf-8")
    assert tg.run(settings_for(api, presales_path=path)) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert err.startswith("SIZING_BOT_PRESALES: ") and "gpu" in err and "H1OO" in err
    assert api.calls_to("getMe") == []  # stopped before talking to Telegram


# -- webhook ---------------------------------------------------------------------------------
def test_run_refuses_a_webhook_without_secret(api: FakeBotAPI, capsys: pytest.CaptureFixture[str]) -> None:
    assert tg.run(settings_for(api, webhook_url="https://bot.example.com/hook")) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith("TELEGRAM_WEBHOOK_SECRET is required")


def test_webhook_checks_the_secret_token(
    api: FakeBotAPI, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    caplog.set_level(logging.DEBUG)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))  # the OS picks the port, and we keep the socket: no race for it
    port = server.getsockname()[1]
    server.listen(16)
    server.setblocking(False)
    settings = settings_for(
        api,
        webhook_url=f"http://127.0.0.1:{port}/hook",
        webhook_secret=WEBHOOK_SECRET,
        webhook_listen="127.0.0.1",
        webhook_port=port,
    )
    user = api.user("Ann", "en")
    chat = api.private_chat(user)

    def update(text: str) -> bytes:
        message = api.text_message(text, chat=chat, user=user)
        return json.dumps({"update_id": api.next_update_id(), "message": message}).encode()

    async def main() -> None:
        app = tg.build_application(settings)
        async with app:
            await app.start()
            assert app.updater is not None
            enable_ptb_webhook_server()  # PTB's own tornado server: bot.telegram leaves it out
            await app.updater.start_webhook(
                url_path=settings.webhook_local_path(),
                webhook_url=settings.webhook_url,
                secret_token=settings.webhook_secret_value(),
                unix=server,  # PTB serves on a listening socket it is given
            )
            try:
                url = f"http://127.0.0.1:{port}/hook"
                json_type = {"Content-Type": "application/json"}
                async with httpx.AsyncClient() as client:
                    missing = await client.post(url, content=update("7B 1T tokens A100"), headers=json_type)
                    wrong = await client.post(
                        url,
                        content=update("7B 1T tokens A100"),
                        headers=json_type | {"X-Telegram-Bot-Api-Secret-Token": "guess"},
                    )
                    right = await client.post(
                        url,
                        content=update("7B 1T tokens H100"),
                        headers=json_type | {"X-Telegram-Bot-Api-Secret-Token": WEBHOOK_SECRET},
                    )
                assert (missing.status_code, wrong.status_code, right.status_code) == (403, 403, 200)
                [reply] = await calls(api, "sendMessage", 1)
                assert "H100" in shown(reply).splitlines()[0]
            finally:
                await app.updater.stop()
                await app.stop()

    asyncio.run(asyncio.wait_for(main(), SCENARIO_TIMEOUT_S))
    [set_webhook] = api.calls_to("setWebhook")
    assert set_webhook.params["secret_token"] == WEBHOOK_SECRET
    assert len(api.calls_to("sendMessage")) == 1  # the rejected updates were never processed
    assert WEBHOOK_SECRET not in caplog.text


def test_currency_stays_while_prices_are_quoted_in_it_and_forged_buttons_are_ignored(api: FakeBotAPI) -> None:
    user = api.user("Ann", "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("/settings price A100 2", chat=chat, user=user)
        await calls(api, "sendMessage", 1)
        message = last_bot_message(api, chat["id"])
        api.press(message, kb.encode(kb.SETTINGS_SLOT, kb.SET_CURRENCY, "CNY"), user=user)
        api.press(message, kb.encode(kb.SETTINGS_SLOT, kb.SET_MFU, "abc"), user=user)
        api.send_text("7B 1T tokens A100", chat=chat, user=user)
        await calls(api, "sendMessage", 2)
        answer = last_bot_message(api, chat["id"])
        turn_id = kb.decode(button(answer["reply_markup"], kb.DETAILS)).turn_id
        api.press(answer, kb.encode(turn_id, kb.GPU, "no-such-gpu"), user=user)
        api.press(answer, "not ours", user=user)
        await calls(api, "answerCallbackQuery", 4)

    scenario(body, api)
    texts = [c.params.get("text") for c in api.calls_to("answerCallbackQuery")]
    assert texts == [tg.PRICES_NEED_CURRENCY["en"], None, None, None]
    assert api.calls_to("editMessageText") == []
    assert "$186,966" in shown(api.calls_to("sendMessage")[1])  # still $2 per A100-hour
