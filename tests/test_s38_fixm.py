"""Session 38 fixm: smaller things a fresh-user trial found.

1. A memory question with a stated context and no load ('how much vram for llama3.1 8b at 128k context with
   fp8 kv cache') leads with one sequence's memory at that context (the figure asked), then what the assumed
   16 concurrent need, named as assumed; 'single user' states its memory figure too.
2. A follow-up that is only a cue word and a card, count or model name ('what about H20?', 'H20呢？') keeps
   the conversation's language (and so its currency); a sentence in the other language switches it.
"""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json

# 1. one sequence's memory first ---------------------------------------------------------------------------

# Llama 3.1 8B: 8.03B × 2 B = 16.1 GB of bf16 weights; fp8 KV: 2 × 32 layers × 8 KV heads × 128 × 1 B =
# 64 KiB per token × 131,072 = 8.6 GB for one 128K sequence; one A100's runtime (vLLM workspace + CUDA
# context) 2.2 GB: 26.8 GB on 1 GPU. The assumed 16 concurrent: 64 KiB × 131,072 × 16 = 137 GB of KV on
# 3 GPUs (18 sequences fit), 160 GB in all, 53.3 GB each. In GiB, the card's unit (s38 fixs #5): 16.1 GB =
# 15.0 GiB, 8.6 GB = 8 GiB, 2.2 GB = 2.0 GiB, 26.8 GB = 25.0 GiB, 160 GB = 149 GiB, 53.3 GB = 49.7 GiB.
_EN = "how much vram for llama3.1 8b at 128k context with fp8 kv cache"
_ZH = "llama3.1 8b 128k上下文 fp8 kv cache 要多少显存"


@pytest.mark.parametrize(
    ("text", "lead"),
    [
        (
            _EN,
            "≈ 25.0 GiB of GPU memory per GPU on 1 GPU, 25.0 GiB in all, for one sequence at 128K context "
            "(weights 15.0 GiB + KV cache 8 GiB + runtime 2.0 GiB); an assumed 16 concurrent (none stated): "
            "≈ 49.7 GiB per GPU on 3 GPUs, 149 GiB in all — ",
        ),
        (
            _ZH,
            "每卡显存约 25.0 GiB（1 张卡），共 25.0 GiB（单条序列 × 上下文 128K：权重 15.0 GiB + KV 缓存"
            " 8 GiB + 运行时开销 2.0 GiB）；按假设的并发 16（未说明并发）："
            "每卡约 49.7 GiB（3 张卡），共 149 GiB —— ",
        ),
    ],
)
def test_one_sequence_first_then_the_assumed_load(text: str, lead: str) -> None:
    out = answer_json(text)
    assert out["request"]["memory_asked"] is True
    head = out["reply"].splitlines()[0]
    assert head.startswith(lead), head
    inf = out["report"]["inference"]
    assert inf["min_gpus"] == 1 and inf["recommended_gpus"] == 3 and inf["concurrency"] == 16
    assert inf["kv_bytes_per_sequence"] == 65536 * 131072


@pytest.mark.parametrize(
    ("text", "lead"),
    [
        (
            _EN + ", single user",
            "≈ 25.0 GiB of GPU memory per GPU on 1 GPU, 25.0 GiB in all (weights 15.0 GiB + KV cache 8 GiB "
            "for 1 × 128K + runtime 2.0 GiB) — ",
        ),
        (
            "llama3.1 8b 128k上下文 fp8 kv cache 单用户 要多少显存",
            "每卡显存约 25.0 GiB（1 张卡），共 25.0 GiB（权重 15.0 GiB",
        ),
    ],
)
def test_a_single_user_states_its_memory(text: str, lead: str) -> None:
    head = answer_json(text)["reply"].splitlines()[0]
    assert head.startswith(lead), head
    assert "assumed" not in head and "假设" not in head  # the load was stated


def test_a_stated_load_keeps_the_load_first() -> None:
    # 16.1 GB + 128 KiB (bf16 KV) × 131,072 × 8 = 137 GB + 3 GPUs' runtime 6.5 GB = 160 GB, 53.3 GB each
    # (149 GiB, 49.7 GiB each; weights 15.0 GiB)
    head = answer_json("how much vram for llama3.1 8b at 128k context for 8 users")["reply"].splitlines()[0]
    assert head.startswith("≈ 49.7 GiB of GPU memory per GPU on 3 GPUs, 149 GiB in all (weights 15.0 GiB"), (
        head
    )
    assert "one sequence" not in head


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("how much vram for llama3.1 8b at 128k context", True),
        ("how much gpu memory for qwen2.5 7b", True),
        ("how much memory does llama 3 70b need at 32k", True),
        ("how much memory bandwidth does the h100 have", None),  # bandwidth, not a need
        ("how much vram does the 4090 have", None),  # the card's memory, not the model's need
        ("how much does llama 3 70b cost to serve", None),
    ],
)
def test_how_much_vram_for_is_a_memory_question(text: str, asked: bool | None) -> None:
    from bot.parse import parse

    assert parse(text).request.memory_asked is asked


# 2. a cue-only follow-up keeps the conversation's language ------------------------------------------------


@pytest.mark.parametrize(
    ("first", "follow", "lang"),
    [
        ("70B模型推理用A100要几张", "what about H20?", "zh"),
        ("70B模型推理用A100要几张", "how about 8 H100", "zh"),
        ("70B模型推理用A100要几张", "Qwen2.5-72B instead?", "zh"),
        ("how many A100 to serve a 70B model", "H20呢？", "en"),
        ("how many A100 to serve a 70B model", "那换成 4 张 H100 呢", "en"),
        # a sentence in the other language switches it
        ("70B模型推理用A100要几张", "what about H20, is it any cheaper?", "en"),
        ("how many A100 to serve a 70B model", "那用H20的话每月要花多少钱", "zh"),
    ],
)
def test_a_cue_only_followup_keeps_the_language(first: str, follow: str, lang: str) -> None:
    from bot.core.conversation import Conversation

    conv = Conversation(ttl_seconds=600, max_entries=10)
    conv.ask(1, 1, first)
    turn = conv.ask(1, 1, follow)
    assert turn.followup
    assert turn.answer.lang == lang
    # the language's currency: CNY in Chinese (H20: the CNY list on file), USD in English
    cost = turn.answer.report.cost
    assert cost is None or cost.currency == ("CNY" if lang == "zh" else "USD")


def test_the_rule_is_the_replys_in_every_front_end() -> None:
    from bot.parse import parse

    parsed = parse("what about H20?")
    assert parsed.lang_cue_only and parsed.message_lang == "en"
    assert parsed.reply_lang(previous="zh") == "zh"  # a conversation in Chinese
    assert parsed.reply_lang() == "en"  # a first message: its own words
    assert parsed.reply_lang(previous="zh", chosen="en") == "en"  # /settings beat it
    assert not parse("what about H20, is it any cheaper?").lang_cue_only


# 4. the bot's own words in Traditional where the chat's script is known ------------------------------------


def test_settings_in_traditional_for_a_chat_set_so() -> None:
    from bot.chat.commands import settings_text
    from bot.settings.chat import ChatSettings

    text = settings_text(ChatSettings(lang="zh", script="Hant"), "zh")
    assert text.splitlines()[:2] == ["⚙️ <b>本聊天的設置</b>", "• 語言：繁體中文"]
    assert "<code>/settings 价格 A100 18</code>" in text  # a command as the parser reads it, kept
    plain = settings_text(ChatSettings(lang="zh"), "zh")
    assert plain.splitlines()[0] == "⚙️ <b>本聊天的设置</b>"  # Simplified unchanged
    assert settings_text(ChatSettings(lang="en", script="Hant"), "en").startswith("⚙️ <b>")


def test_help_in_the_chats_script() -> None:
    from bot.render.renderer import render_help

    hant = render_help("zh", "html", script="Hant")
    assert "告訴我模型大小或名稱、資料量（token）和 GPU 型號" in hant
    assert "<code>7B模型1万亿token要多少A100</code>" in hant  # an example to tap, as the parser reads it
    assert "告诉我模型大小或名称" in render_help("zh", "html")
    assert render_help("en", "html", script="Hant") == render_help("en", "html")


def test_the_conversations_script_for_help() -> None:
    from bot.core.conversation import Conversation

    conv = Conversation(ttl_seconds=600, max_entries=10)
    assert conv.script_of(1, 1) == "Hans"
    conv.ask(1, 1, "7B模型1萬億token要多少張A100")  # written in Traditional
    assert conv.script_of(1, 1) == "Hant"
    assert conv.script_of(1, 2) == "Hans"  # another user


@pytest.mark.parametrize(
    ("url", "html_lang", "words"),
    [
        ("/?lang=zh-Hant", "zh-Hant", "訓練、微調、推理要多少 GPU、多久、多少錢"),
        ("/?q=7B模型1萬億token要多少張A100", "zh-Hant", "訓練、微調、推理要多少 GPU、多久、多少錢"),
        ("/?lang=zh", "zh-CN", "训练、微调、推理要多少 GPU、多久、多少钱"),
    ],
)
def test_the_pages_own_words_in_its_script(url: str, html_lang: str, words: str) -> None:
    from starlette.testclient import TestClient

    from bot.web.app import create_app

    page = TestClient(create_app()).get(url).text
    assert f'<html lang="{html_lang}">' in page
    assert words in page
