"""Issue #22 item 11: Chinese replies are Chinese. Price-list sources, the offer's contact line and
words such as "logits" and "micro-batch" were English prose in Chinese answers ("来源：Approximation:
China-only H800 rents…", "low confidence. No USD market."). Names, units and the titles of cited
English sources stay as written (tests/english_prose.py allow-lists them)."""

from __future__ import annotations

import asyncio
import tomllib
from pathlib import Path

import pytest
from english_prose import english_runs
from fake_bot_api import FakeBotAPI
from htmlcheck import telegram_html_text
from tg_harness import api_fixture, polling, settings_for

import bot.telegram.app as tg
from bot.cli import ask
from bot.render.i18n import translate
from bot.render.notes import citation_for
from bot.render.source_texts import PRICE_SOURCES
from bot.settings.presales import load_presales

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_OFFER = ROOT / "presales.example.toml"

QUESTIONS = [
    "7B模型1万亿token要多少H800",  # the H800 price source ("Approximation: China-only H800 rents…")
    "用H20部署Qwen2.5-32B，每百万token多少钱？",  # H20: "low confidence. No USD market."
    "全参微调Qwen2.5-14B要多少显存",  # the memory breakdown: logits, micro-batch
    "LoRA微调Qwen2.5-7B，8张A100，1万条数据",
    "7B模型1万亿token要多少H100",
    "Qwen2.5-7B在一张4090上每秒能生成多少token",
    "7B模型1万亿token要多少910B",
    "10万元预算能训多大的模型",
]
ENGLISH_PHRASES = ("low confidence", "No USD market", "Approximation", "logits", "micro-batch", "Sales:")


@pytest.mark.parametrize("question", QUESTIONS)
@pytest.mark.parametrize("fmt", ["html", "text"])
def test_chinese_answers_have_no_english_prose(question, fmt):
    reply, code = ask(question, "zh", fmt)
    assert code == 0
    assert english_runs(reply) == [], english_runs(reply)
    for phrase in ENGLISH_PHRASES:
        assert phrase not in reply, phrase


def test_the_h800_price_source_is_said_in_chinese():
    reply, _ = ask("7B模型1万亿token要多少H800", "zh", "text")
    assert "来源：估算：H800 为中国特供卡，国内租价与 H100 同一档" in reply
    assert "¥12–17/卡·时" in reply and "可信度低。无美元市场。" in reply


def test_the_example_offer_answers_in_chinese():
    offer = load_presales(EXAMPLE_OFFER)
    reply, code = ask("部署Qwen2.5-72B推理需要几张H800，100并发", "zh", "html", presales=offer)
    assert code == 0 and "Example GPU Cloud 报价：H800 ¥21/卡·时" in reply
    assert english_runs(reply) == [], english_runs(reply)


def test_every_catalog_price_source_has_a_chinese_text():
    """A price source added or edited in prices.toml without its entry here would reach Chinese
    replies in English: each one, whole and cut per currency, is in PRICE_SOURCES and translated."""
    prices = tomllib.loads((ROOT / "estimator/data/prices.toml").read_text(encoding="utf-8"))["price"]
    for entry in prices:
        for currency in ("CNY", "USD", None):
            source = citation_for(entry["source"], currency)
            assert source in PRICE_SOURCES, source
            zh = translate("zh", source)
            assert zh != source and english_runs(zh) == [], (source, zh)
            assert translate("en", source) == source


# -- the contact line, through the real Application against the fake Bot API -------------------
TOKEN = "123:chinese-prose"
OFFER = """
provider = "Example Cloud"
currency = "CNY"

[contact]
zh = "销售：sales@example.com · 微信 example-gpu"
en = "Sales: sales@example.com · WeChat example-gpu"

[[gpu]]
family = "A100"
price_cny_per_gpu_hour = 12
"""


api = api_fixture(TOKEN)


def test_the_contact_line_is_in_the_reply_language(api: FakeBotAPI, tmp_path: Path) -> None:
    path = tmp_path / "presales.toml"
    path.write_text(OFFER, encoding="utf-8")
    li, bob = api.user("Li", "zh-hans"), api.user("Bob", "en")

    async def body(api: FakeBotAPI) -> None:
        async with polling(tg.build_application(settings_for(api, presales_path=path))):
            api.send_text("7B模型1万亿token要多少A100", chat=api.private_chat(li), user=li)
            await asyncio.to_thread(api.wait_for, "sendMessage", 1, 20.0)
            api.send_text("How many A100 for a 7B model on 1T tokens?", chat=api.private_chat(bob), user=bob)
            await asyncio.to_thread(api.wait_for, "sendMessage", 2, 20.0)

    asyncio.run(asyncio.wait_for(body(api), 60))
    zh, en = (telegram_html_text(c.params["text"]) for c in api.calls_to("sendMessage"))
    assert zh.rstrip().endswith("销售：sales@example.com · 微信 example-gpu")
    assert en.rstrip().endswith("Sales: sales@example.com · WeChat example-gpu")
    assert english_runs(zh) == [], english_runs(zh)


def test_the_checker_finds_english_prose_and_spares_names():
    assert english_runs("（来源：Approximation: China-only H800 rents in the same band as H100）") == [
        "rents in the same band as"
    ]
    assert english_runs("部署用 vLLM 或 SGLang（Kwon et al. 2023，PagedAttention）；TensorRT-LLM") == []
    assert english_runs("Qwen/Qwen2.5-32B config.json; Qwen2.5 model card (32.5B, 31.0B non-embedding)") == []
