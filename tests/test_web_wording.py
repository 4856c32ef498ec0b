"""Part NC item 3: the web page's own words go through the Babel catalogs (locales/*/messages.po and
messages.pot) like every other user-visible text, and the numbers in them through the replies' CLDR
formatting (bot.render.fmt) -- checked on the catalogs and on the page the real app serves."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.web.app import create_app
from bot.web.wording import WORDS, word

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

LOCALES = Path(__file__).resolve().parent.parent / "locales"


def catalog(path: Path) -> dict[str, str]:
    with path.open("rb") as f:
        return {m.id: m.string for m in read_po(f) if m.id}


def test_every_page_word_is_in_the_template_and_both_catalogs() -> None:
    pot = catalog(LOCALES / "messages.pot")
    zh = catalog(LOCALES / "zh_CN" / "LC_MESSAGES" / "messages.po")
    en = catalog(LOCALES / "en" / "LC_MESSAGES" / "messages.po")
    for key, msgid in WORDS.items():
        assert msgid in pot, key
        assert zh[msgid] and zh[msgid] != msgid, key  # every page word has its Chinese text
        assert en[msgid] == msgid, key
        assert word("zh", key, seconds=1, message="m", gpu="H100") == zh[msgid] % {
            "seconds": "1", "message": "m", "gpu": "H100"
        }  # fmt: skip


def test_numbers_are_formatted_like_the_replies() -> None:
    assert word("en", "too_many", seconds=1234) == "Too many requests: please try again in 1,234 s."
    assert word("zh", "too_many", seconds=1234) == "请求太频繁，请 1,234 秒后再试。"
    assert (
        word("zh", "ask_gpu", gpu="H100") == "那H100呢"
        and word("en", "ask_gpu", gpu="H100") == "What about H100?"
    )


@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        ("zh", ("大模型算力估算", "训练、微调、推理要多少 GPU、多久、多少钱", "示例问题", "API 文档")),
        (
            "en",
            ("LLM compute sizing", "How many GPUs, how long and how much", "Example questions", "API docs"),
        ),
    ],
)
def test_the_page_shows_its_words_in_the_asked_language(lang: str, texts: tuple[str, ...]) -> None:
    page = TestClient(create_app(rate_per_minute=0)).get("/", params={"lang": lang})
    assert page.status_code == 200
    for text in texts:
        assert text in page.text, text


def test_the_rate_limit_page_gives_the_wait_in_the_pages_language() -> None:
    limited = TestClient(create_app(rate_per_minute=1))
    while (page := limited.get("/", headers={"accept-language": "en"})).status_code != 429:
        pass
    seconds = int(page.headers["retry-after"])
    assert f"Too many requests: please try again in {seconds:,} s." in page.text
    zh = limited.get("/", headers={"accept-language": "zh"})
    assert f"请求太频繁，请 {int(zh.headers['retry-after']):,} 秒后再试。" in zh.text
