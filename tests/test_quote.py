"""The one-page PDF quote (issue 18): made by the CLI, /quote and the 🧾 button, opened with pypdf; its
text holds the provider, the GPU and the total exactly as the reply prints them, in Chinese and
English, with the fonts embedded as subsets."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from bot.cli import main
from bot.core.pipeline import Context, answer
from bot.quote import QuoteError, quote_pdf
from bot.quote.fonts import cjk_font
from bot.render.offer_text import figures
from bot.render.renderer import render
from bot.settings.presales import load_presales

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "presales.example.toml"
TOKEN = "123456:TEST-quote"

needs_cjk_font = pytest.mark.skipif(
    cjk_font() is None, reason="no CJK font installed (apt-get install fonts-wqy-microhei)"
)


def pdf_text(data: bytes) -> tuple[str, PdfReader]:
    reader = PdfReader(io.BytesIO(data))
    return "\n".join(page.extract_text() for page in reader.pages), reader


def flat(text: str) -> str:
    """Text with the line breaks and spaces a PDF extraction adds or drops taken out (and the NULs pypdf
    puts before each two-byte code of a CID-keyed CFF font, Noto Sans CJK: poppler reads them whole)."""
    return re.sub(r"[\s\u200b\x00]+", "", text)


def fonts(reader: PdfReader) -> list[str]:
    names = []
    for font in reader.pages[0]["/Resources"]["/Font"].values():
        font = font.get_object()
        names.append(str(font["/BaseFont"]))
    return names


@needs_cjk_font
def test_cli_writes_a_chinese_quote_with_the_replys_numbers(tmp_path, capsys) -> None:
    out = tmp_path / "quote.pdf"
    question = "7B模型1万亿token要多少卡"
    code = main(["ask", "--presales", str(EXAMPLE), "--quote", str(out), question])
    reply = capsys.readouterr().out
    assert code == 0 and out.read_bytes().startswith(b"%PDF-")
    text, reader = pdf_text(out.read_bytes())
    assert len(reader.pages) == 1
    page = flat(text)
    cost = re.search(r"费用：(¥[\d,]+)（([\d,]+) 卡·时 × ¥21/卡·时）", reply)
    assert cost, reply
    subtotal, hours = cost.groups()
    assert int(subtotal[1:].replace(",", "")) == int(hours.replace(",", "")) * 21  # GPU-hours × ¥21
    for needle in ("Example GPU Cloud", "报价单", "H800", question, hours, "¥21/卡·时", subtotal):
        assert flat(needle) in page, needle
    # the total is the best price the reply marks (64 × 1 month × ¥12,800 < the GPU-hours × ¥21; issue 22
    # item 5: it was the reply's on-demand range "计入卡·时区间后")
    best = re.search(r"• 最省——包月：.* = (¥[\d,]+)\n", reply)
    assert best and flat(f"合计{best.group(1)}") in page and best.group(1) == "¥819,200"
    names = fonts(reader)
    assert all(re.match(r"/[A-Z]{6}\+", n) for n in names), names  # every font a subset (XXXXXX+Name)
    assert any("WenQuanYi" in n or "Noto" in n or "Droid" in n for n in names)


def test_english_quote_of_a_service_with_an_exchange_rate(tmp_path) -> None:
    presales = load_presales(EXAMPLE)
    question = "How many GPUs to serve Llama 3 70B for 200 concurrent users, in USD?"
    a = answer(question, Context(), None, presales)
    data = quote_pdf(a, question, today=dt.date(2025, 6, 2))
    text, reader = pdf_text(data)
    page = flat(text)
    fig = figures(a.report, a.offer, "en")
    assert len(reader.pages) == 1
    for needle in ("Example GPU Cloud", "Quote", "H800", fig["subtotal"], "$2.92 per GPU-hour",
                   "7.2 CNY per USD (2025-06-01", "Valid until: 2025-06-16", "Q-20250602-"):  # fmt: skip
        assert flat(needle) in page, needle
    reply = render(a, "text")
    assert fig["subtotal"] in reply  # "Cost: … $17,033 per month", the quote's subtotal
    assert all(re.match(r"/[A-Z]{6}\+", n) for n in fonts(reader))


def test_same_question_same_day_same_pdf() -> None:
    presales = load_presales(EXAMPLE)
    a = answer("full fine-tune Qwen2.5-14B on 8 H800", Context(), None, presales)
    day = dt.date(2025, 6, 2)
    assert quote_pdf(a, "q", today=day) == quote_pdf(a, "q", today=day)


def test_quote_needs_an_offer_and_an_answer(tmp_path, capsys) -> None:
    out = tmp_path / "q.pdf"
    assert main(["ask", "--quote", str(out), "7B 1T tokens"]) == 2
    assert "needs the provider's offer" in capsys.readouterr().err and not out.exists()
    assert main(["ask", "--presales", str(EXAMPLE), "--quote", str(out), "今天天气怎么样"]) == 2
    assert "nothing to quote" in capsys.readouterr().err and not out.exists()
    with pytest.raises(QuoteError):
        quote_pdf(answer("7B 1T tokens", Context(), None, None))


def test_telegram_quote_command_and_button_send_the_pdf(monkeypatch, tmp_path) -> None:
    from tg_harness import checked_fake_api, polling, settings_for

    import bot.telegram.app as tg
    import bot.telegram.keyboards as kb

    monkeypatch.setenv("SIZING_BOT_DB", str(tmp_path / "s.sqlite3"))
    presales = load_presales(EXAMPLE)

    async def body(api) -> None:
        user = api.user("Ada", "en")
        chat = api.private_chat(user)
        api.send_text("How many GPUs to pretrain a 7B model on 1T tokens?", chat=chat, user=user)
        [sent] = await asyncio.to_thread(api.wait_for, "sendMessage", 1, 8.0)
        assert "Example GPU Cloud: H800 at CN¥21 per GPU-hour" in sent.params["text"]  # the offer's currency
        data = {
            b["text"]: b["callback_data"]
            for row in sent.params["reply_markup"]["inline_keyboard"]
            for b in row
        }
        assert kb.decode(data["🧾 Quote (PDF)"]).action == kb.QUOTE
        api.press(api.bot_messages(chat["id"])[-1], data["🧾 Quote (PDF)"], user=user)
        [doc] = await asyncio.to_thread(api.wait_for, "sendDocument", 1, 15.0)
        assert doc.params["caption"] == "🧾 Quote from Example GPU Cloud — valid for 14 days"
        text, _ = pdf_text(doc.params["document"])
        assert "ExampleGPUCloud" in flat(text) and "H800" in text
        api.send_text("/quote", chat=chat, user=user)
        docs = await asyncio.to_thread(api.wait_for, "sendDocument", 2, 15.0)
        assert flat(pdf_text(docs[-1].params["document"])[0]) == flat(text)
        commands = [c["command"] for c in api.commands() or []]
        assert "quote" in commands

    with checked_fake_api(TOKEN) as api:

        async def run() -> None:
            async with polling(tg.build_application(settings_for(api), presales=presales)):
                await body(api)

        asyncio.run(asyncio.wait_for(run(), 40))


def test_telegram_without_an_offer_has_no_quote_button(monkeypatch, tmp_path) -> None:
    from tg_harness import checked_fake_api, polling, settings_for

    import bot.telegram.app as tg

    monkeypatch.setenv("SIZING_BOT_DB", str(tmp_path / "s.sqlite3"))

    async def body(api) -> None:
        user = api.user("Ada", "en")
        chat = api.private_chat(user)
        api.send_text("How many GPUs to pretrain a 7B model on 1T tokens?", chat=chat, user=user)
        [sent] = await asyncio.to_thread(api.wait_for, "sendMessage", 1, 8.0)
        labels = [b["text"] for row in sent.params["reply_markup"]["inline_keyboard"] for b in row]
        assert not any("Quote" in label for label in labels)
        api.send_text("/quote", chat=chat, user=user)
        calls = await asyncio.to_thread(api.wait_for, "sendMessage", 2, 8.0)
        assert "Quotes need the provider's offer" in calls[-1].params["text"]

    with checked_fake_api(TOKEN) as api:

        async def run() -> None:
            async with polling(tg.build_application(settings_for(api), presales=None)):
                await body(api)

        asyncio.run(asyncio.wait_for(run(), 30))
