"""The web page only translates the core's actions (design: adapters translate, never decide): its
action links are, one to one and in order, ``answer_actions(...)``'s GPU, method and stage switches
and ⚙️ recipes, with the GPUs of ``suggested_gpus`` (the same as Telegram's buttons)."""

from __future__ import annotations

import html
import re
import warnings
from urllib.parse import parse_qs, urlsplit

import pytest

from bot.core.actions import ActionKind, answer_actions, gpu_label
from bot.core.suggest import suggested_gpus
from bot.web.app import create_app
from bot.web.state import Asked, converse

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ASK_GPU = {"zh": "那{}呢", "en": "What about {}?"}
ASK = {
    "zh": {"full": "全参微调呢", "lora": "用LoRA呢", "qlora": "用QLoRA呢", "inference": "推理部署呢"},
    "en": {
        "full": "Full fine-tuning?",
        "lora": "With LoRA?",
        "qlora": "With QLoRA?",
        "inference": "For inference?",
    },
}
RECIPES = {"zh": "⚙️ 启动配方", "en": "⚙️ Launch recipes"}


def page_links(page: str) -> list[tuple[str, str, dict[str, list[str]]]]:
    """(label, path, query) for each link in the page's actions bar."""
    nav = re.search(r'<nav class="acts"[^>]*>(.*?)</nav>', page, re.S)
    assert nav is not None, "no actions bar"
    out = []
    for href, label in re.findall(r'<a href="([^"]*)">([^<]*)</a>', nav.group(1)):
        url = urlsplit(html.unescape(href))
        out.append((html.unescape(label), url.path, parse_qs(url.query)))
    return out


def expected(question: str) -> tuple[str, list[tuple[str, str, str | None]]]:
    """(language, [(label, path, follow-up question)]) from the core's actions for ``question``."""
    result = converse(Asked(q=question))
    lang = result.lang
    gpus = suggested_gpus(result.report, result.said)
    assert len(gpus) == 3
    out: list[tuple[str, str, str | None]] = []
    for row in answer_actions(result, gpus=gpus):
        for a in row:
            if a.kind is ActionKind.GPU:
                out.append((f"🖥 {gpu_label(a.arg)}", "/", ASK_GPU[lang].format(gpu_label(a.arg))))
            elif a.kind in (ActionKind.METHOD, ActionKind.STAGE):
                out.append((ASK[lang][a.arg], "/", ASK[lang][a.arg]))
            elif a.kind is ActionKind.RECIPE:
                out.append((RECIPES[lang], "/recipes", None))
    return lang, out


@pytest.mark.parametrize(
    ("question", "lang", "switches"),
    [
        ("7B模型1万亿token要多少A100", "zh", ["推理部署呢"]),
        ("QLoRA Llama-3.1-8B on one RTX 4090", "en", ["Full fine-tuning?", "With LoRA?", "For inference?"]),
    ],
)
def test_page_links_are_the_core_actions_one_to_one(question: str, lang: str, switches: list[str]) -> None:
    got_lang, want = expected(question)
    assert got_lang == lang
    assert [label for label, path, q in want if path == "/" and not label.startswith("🖥")] == switches
    page = TestClient(create_app(rate_per_minute=0)).get("/", params={"q": question}).text
    links = page_links(page)
    assert len(links) == len(want)
    for (label, path, query), (w_label, w_path, w_q) in zip(links, want, strict=True):
        assert (label, path) == (w_label, w_path)
        if w_q is not None:  # a follow-up of the question asked
            assert query["q"] == [w_q] and query["prev"] == [question]
        else:
            assert query["q"] == [question]
