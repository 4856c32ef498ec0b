"""Session 39 fixw (a fresh-user trial): the same question the same answer, in one language.

1. SGLang on two nodes (re-landed in s40 fixw2, tests/test_s40_fixw2.py: TP 16 across the nodes is a
   candidate beside TP 8 × PP 2, not instead of it); ``--nnodes`` is used, never "not used".
2. A zh reply words a catalog name's bracketed note in Chinese (the budget list, the GPU in a reason).
3. A card name joined by underscores ('4090_ti', 'a100_80g') is read as the hyphenated one.
4. A card with no price on file: the note says how to give one, and that form is read.
5. The web page's memory bars are a table (CJK labels line up); the chart's parts are Okabe–Ito colours.
"""

from __future__ import annotations

import pytest
from english_prose import english_runs

from bot.core.pipeline import answer
from bot.parse.normalize import normalize
from bot.render.renderer import render
from estimator import catalog


def _text(question: str, fmt: str = "text") -> str:
    return render(answer(question), fmt)


# 1 — SGLang's two-node layout: tests/test_s40_fixw2.py (both layouts are candidates)


# 2 — catalog name notes in a zh reply


@pytest.mark.parametrize(
    ("name", "zh"),
    [
        ("Kimi K2 (1T MoE, DeepSeek-V3 architecture)", "Kimi K2（1T MoE，DeepSeek-V3 架构）"),
        ("Huawei Ascend 910C (dual-die)", "Huawei Ascend 910C（双芯）"),
        ("NVIDIA L20 (China SKU)", "NVIDIA L20（中国特供版）"),
        ("Apple M4 Max (40-core GPU, 128 GB)", "Apple M4 Max（40 核 GPU，128 GB）"),
        ("NVIDIA GB200 (per Blackwell GPU in NVL72)", "NVIDIA GB200（NVL72 中每张 Blackwell GPU）"),
        ("Meta Llama 4 Scout (17B active, 16 experts)", "Meta Llama 4 Scout（激活 17B，16 个专家）"),
        # must not change: a note of names and sizes only, and any English reply
        ("DeepSeek-V3 (671B MoE)", "DeepSeek-V3 (671B MoE)"),
        ("NVIDIA H200 NVL 141GB (PCIe)", "NVIDIA H200 NVL 141GB (PCIe)"),
        ("NVIDIA A10G (AWS G5)", "NVIDIA A10G (AWS G5)"),
    ],
)
def test_name_notes_in_chinese(name: str, zh: str) -> None:
    from bot.render.model_name_zh import localized_model_name

    assert localized_model_name(name, "zh") == zh
    assert localized_model_name(name, "en") == name


def test_every_catalog_note_reads_in_chinese() -> None:
    """No catalog GPU or model name keeps a lower-case English word in its note in a zh reply."""
    import re

    from bot.render.model_name_zh import localized_model_name

    names = [g.name for g in catalog.gpus().values()] + [m.name for m in catalog.models().values()]
    for name in names:
        note = re.search(r"[（(]([^()（）]*)[)）]$", localized_model_name(name, "zh"))
        if note:
            assert not re.findall(r"(?<![\w.\-])[a-z][a-z\-]+(?![\w.])", note.group(1)), name


def test_zh_budget_list_and_ascend_reason_hold_no_english_note() -> None:
    # s40: ¥40,000 — an MoE fine-tuned on HF model code is timed no faster than its dense total (Kimi K2 LoRA
    # up to ¥33,930), so ¥30,000 no longer reaches Kimi K2, the catalog note this test reads
    budget = _text("预算 4 万元，最大能微调多大的模型")
    assert "Kimi K2（1T MoE，DeepSeek-V3 架构）" in budget and "architecture" not in budget
    ascend = _text("昇腾 910C 部署 Kimi-K2 要几台")
    assert "Huawei Ascend 910C（双芯） 不支持 FP8" in ascend and "dual-die" not in ascend
    for text in (budget, ascend):
        assert english_runs(text) == []


def test_english_budget_list_keeps_the_catalog_name() -> None:
    text = _text("$5,000 budget, what is the largest model I can fine-tune")
    assert "Kimi K2 (1T MoE, DeepSeek-V3 architecture)" in text


# 3 — card names joined by underscores


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("4090_ti 能跑吗", "4090-ti 能跑吗"),
        ("rtx_4090_ti", "rtx-4090-ti"),
        ("a100_80g x8", "a100-80g x 8"),
        ("h100_sxm", "h100-sxm"),
        ("l40s_48gb", "l40s-48gb"),
        ("mi300x_192g", "mi300x-192g"),
        # must not change: model and config names
        ("qwen2_5_7b", "qwen2_5_7b"),
        ("llama3_70b lora", "llama3_70b lora"),
        ("zero_stage: 3", "zero_stage: 3"),
        ("stage3_param_persistence_threshold", "stage3_param_persistence_threshold"),
    ],
)
def test_underscore_card_names(typed: str, read: str) -> None:
    assert normalize(typed) == read


def test_unknown_joined_card_is_named_as_typed() -> None:
    text = _text("4090_ti 能跑 qwen2.5 7b 推理吗")
    assert "“4090_ti”不在我的目录中" in text
    assert "未使用：“4090”" not in text


@pytest.mark.parametrize(
    ("question", "gpu"),
    [
        ("a100_80g 微调 qwen2.5 7b lora 要几张", "A100-SXM4-80GB"),
        ("rtx_4090 跑 qwen2.5 14b 推理行吗", "RTX-4090"),
    ],
)
def test_known_joined_card_is_the_card(question: str, gpu: str) -> None:
    assert answer(question).parsed.request.gpu == gpu


# 4 — no price on file


def test_no_price_note_says_how_to_give_one() -> None:
    zh = _text("3090 跑 qwen2.5 7b lora 微调 1亿 token 要多久多少钱")
    assert (
        "没有 RTX 3090 的 CNY 租用价格，暂不估算费用。告诉我每卡·时的价格（如“RTX 3090 每卡每小时 2 CNY”）"
        in zh
    )
    en = _text("qwen2.5 7b lora on L20, 100M tokens, cost in CNY?")
    assert "No rental price on file for L20 in CNY" in en and "“L20 at 2 CNY per GPU-hour”" in en


@pytest.mark.parametrize(
    ("question", "cost"),
    [
        ("3090 跑 qwen2.5 7b lora 微调 1亿 token，RTX 3090 每卡每小时 2 CNY，要多少钱", "¥2.00/卡·时"),
        ("qwen2.5 7b lora on L20, 100M tokens, L20 at 2 CNY per GPU-hour, cost?", "CN¥2.00 per GPU-hour"),
    ],
)
def test_the_suggested_price_form_is_read(question: str, cost: str) -> None:
    assert cost in _text(question)


# 5 — web page bars, chart colours


def test_web_memory_bars_are_a_table() -> None:
    from bot.web.page import browser_html

    reply = "<pre>权重       ███████▏   14.2 GiB\n运行时开销 ▋           1.3 GiB</pre>\n• 最少 1 张"
    out = browser_html(reply, "zh")
    assert "<pre>" not in out
    assert "<tr><td>权重</td><td class=bar>███████▏</td><td class=num>14.2 GiB</td></tr>" in out
    assert "<tr><td>运行时开销</td><td class=bar>▋</td><td class=num>1.3 GiB</td></tr>" in out
    other = "<pre>1 张 →  25 天（19–40）\n2 张 →  13 天（9.6–20）</pre>"  # not bars: as it was
    assert browser_html(other, "zh") == other


def test_web_answer_page_has_the_bars_table() -> None:
    a = answer("4090单卡lora微调qwen2.5-7b")
    from bot.web.page import browser_html

    out = browser_html(render(a, "html"), "zh")
    assert '<table class="bars"><tr><td>权重</td>' in out


def test_chart_parts_are_okabe_ito_and_apart() -> None:
    from bot.render.chart import COLORS, PART_COLORS, on_color

    okabe_ito = {"#0072B2", "#56B4E9", "#E69F00", "#CC79A7", "#009E73", "#D55E00", "#F0E442", "#000000"}
    main = ("weights", "gradients", "optimizer", "adapters", "activations", "logits")
    assert {PART_COLORS[k] for k in main} <= okabe_ito
    assert len(set(PART_COLORS.values())) == len(PART_COLORS)
    assert PART_COLORS["activations"] == "#009E73" and PART_COLORS["logits"] == "#D55E00"
    assert COLORS["total"] not in PART_COLORS.values()
    # a number on the yellow bar is dark; on every other part white (WCAG relative luminance > 0.5)
    assert on_color("#F0E442") == "#1a1a1a" and on_color("#009E73") == "white"
