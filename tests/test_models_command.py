"""/models scales with the catalog: prefix search, paging, every page within Telegram's 4,096 characters
and every paging button within 64 bytes of callback data — for today's catalog and for one ten times
its size."""

from __future__ import annotations

import itertools
import string

import pytest
from htmlcheck import assert_telegram_html

from bot.chat.commands import MODELS_PER_PAGE, find_models, models_page
from bot.render.html import TELEGRAM_MAX_CHARS, visible_length
from bot.telegram import keyboards as kb
from estimator import catalog


def all_pages(lang: str, query: str) -> list[str]:
    first, pages = models_page(lang, query, 0)
    return [first] + [models_page(lang, query, p)[0] for p in range(1, pages)]


def check_page(text: str, query: str, page: int, pages: int) -> None:
    assert visible_length(text) <= TELEGRAM_MAX_CHARS
    assert_telegram_html(text)
    for data in kb.all_callback_data(kb.models_keyboard(query, page, pages)):
        assert len(data.encode()) <= 64


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_page_of_the_whole_catalog_fits_and_lists_each_model_once(lang: str) -> None:
    pages = all_pages(lang, "")
    assert len(pages) == -(-len(catalog.models()) // MODELS_PER_PAGE)
    listed = [
        line.split()[0] for text in pages for line in text.split("<pre>")[1].split("</pre>")[0].splitlines()
    ]
    assert sorted(listed) == sorted(catalog.models())
    for i, text in enumerate(pages):
        check_page(text, "", i, len(pages))


@pytest.mark.parametrize(
    "query",
    ["q", "qwen", "Qwen2.5", "deepseek", "llama 3", "gpt-oss", "glm", "千问", "qwen/qwen2.5-7b-instruct"],
)
def test_prefix_searches_page_and_fit(query: str) -> None:
    found = find_models(query)
    assert found, query
    pages = all_pages("en", query)
    assert len(pages) == -(-len(found) // MODELS_PER_PAGE)
    for i, text in enumerate(pages):
        check_page(text, query, i, len(pages))


def test_prefix_search_matches_ids_aliases_and_families() -> None:
    ids = {m.id for m in find_models("qwen/qwen2.5-72b")}
    assert ids == {"Qwen2.5-72B"}
    assert {m.id for m in find_models("gpt-oss")} == {"gpt-oss-20b", "gpt-oss-120b"}
    assert {"GLM-4.5", "GLM-4.5-Air"} <= {m.id for m in find_models("glm-4.5")}


def test_every_one_and_two_letter_prefix_fits() -> None:
    for a, b in itertools.product(string.ascii_lowercase + string.digits, ["", *string.ascii_lowercase]):
        query = a + b
        text, pages = models_page("en", query)
        check_page(text, query, 0, pages)


def test_a_catalog_ten_times_larger_still_pages_within_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    base = list(catalog.models().values())
    bigger = {
        f"{m.id}-variant-with-a-long-name-{i}": m.model_copy(
            update={"id": f"{m.id}-variant-with-a-long-name-{i}"}
        )
        for i in range(10)
        for m in base
    }
    monkeypatch.setattr(catalog, "models", lambda: bigger)
    for query in ("", "qwen", "q"):
        pages = all_pages("zh", query)
        assert len(pages) == -(-len(find_models(query)) // MODELS_PER_PAGE)
        for i in (0, len(pages) // 2, len(pages) - 1):
            check_page(pages[i], query, i, len(pages))
    last = models_page("en", "", 10**6)[0]  # a page past the end is clamped to the last one
    check_page(last, "", len(pages) - 1, len(pages))


def test_a_long_query_is_cut_and_never_breaks_the_buttons() -> None:
    query = "qwen" + "x" * 200 + "|" * 10
    text, pages = models_page("en", query)
    check_page(text, query, 0, max(pages, 2))
    assert "No model" in text
