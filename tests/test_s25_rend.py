"""Session 25 (rend): the answer's figures come from the estimator, render formats (issue 23 item 2), and
the wording leftovers of the s24 trial 2 (issue 24).

- A days-table row past the scale-out reference carries its own MFU band (``DaysRow.mfu``,
  estimator.training_rate.priced_rows); ``estimator.shown_cost.shown_figures`` gives the GPU-hours line's
  figures and GPU-days; the JSON adds ``report.shown``, ``comparisons[].shown`` and ``days_table[].mfu``.
- Comparison rows print the billed whole GPU-hours, as the headline and the cost line do.
- Under an hour on the user's count: minutes; Ollama: the layout, not '(llama.cpp / MLX)'; 'which cloud
  GPUs' compares; Feishu cards without CommonMark escapes; Chinese replies without the catalog's English.
"""

from __future__ import annotations

import json
import re

import pytest
from english_prose import english_runs

from bot.feishu.lark_md import lark_markdown
from bot.render.source_texts import source_text
from estimator import catalog
from estimator.models import Band, Cost, DaysRow
from estimator.training_rate import priced_rows
from tests.cli_run import ask_quietly

DPO = "We have $50,000 and 2 weeks. Can we DPO a 70B model on 500M tokens? which GPUs?"
H800 = "13B模型2000亿token，两周内训完，用H800"


def _json(question: str) -> dict:
    return json.loads(ask_quietly(question, "--format", "json"))


def test_a_row_past_the_reference_carries_its_own_mfu_band() -> None:
    """GPU-hours = C ÷ (peak × MFU × 3,600): the same job in 125 GPU-hours instead of 100 ran at 100/125
    of the MFU. 16 GPUs × (125 / 384) days × 24 = 125 GPU-hours; MFU 30/40/50 % → 24/32/40 %. A row that
    runs the job in the answer's own 100 GPU-hours (4 GPUs × 100/96 days × 24) stays as it is."""
    hours = Band(low=80.0, likely=100.0, high=160.0)
    mfu = Band(low=0.3, likely=0.4, high=0.5)
    price = Cost(
        low=200.0,
        high=300.0,
        currency="USD",
        price_low=2.0,
        price_high=3.0,
        billed_gpu_hours=100,
        price_source="t",
    )
    rows = [
        DaysRow(gpus=4, days=Band(low=80 / 96, likely=100 / 96, high=160 / 96)),
        DaysRow(gpus=16, days=Band(low=100 / 384, likely=125 / 384, high=200 / 384)),
    ]
    same, past = priced_rows(rows, hours, price, mfu)
    assert same.mfu is None and same.gpu_hours is None
    assert past.gpu_hours is not None and past.gpu_hours.likely == pytest.approx(125.0)
    assert past.mfu is not None
    assert (past.mfu.low, past.mfu.likely, past.mfu.high) == pytest.approx((0.24, 0.32, 0.40))
    assert past.cost is not None and past.cost.billed_gpu_hours == 125  # 125 × $2–3
    assert (past.cost.low, past.cost.high) == pytest.approx((250.0, 375.0))


def test_the_scaled_out_count_quotes_its_own_mfu_zh() -> None:
    """13B on 200B tokens in two weeks on H800: 56 GPUs, past the reference count. The GPU-hours line's
    MFU is the row's own — 28 % × 15,642 ÷ 16,884 GPU-hours = 25.9 % — read from the estimator, and the
    JSON says it where ``report.mfu`` / ``report.gpu_hours`` are the count-free 28 % and 15,642."""
    data = _json(H800)
    report = data["report"]
    shown = report["shown"]
    assert shown["gpus"] == 56
    row = next(r for r in report["days_table"] if r["gpus"] == 56)
    assert row["mfu"] == shown["mfu"]
    assert report["mfu"]["likely"] == pytest.approx(0.28)
    ratio = report["gpu_hours"]["likely"] / shown["gpu_hours"]["likely"]
    assert shown["mfu"]["likely"] == pytest.approx(0.28 * ratio)
    assert round(shown["mfu"]["likely"] * 100, 1) == 25.9
    assert shown["gpu_days"]["likely"] == pytest.approx(shown["gpu_hours"]["likely"] / 24)
    assert shown["cost"]["billed_gpu_hours"] == 16885
    assert "• GPU 时长：16,885 H800·时（MFU 25.9%" in data["reply"]
    assert all("mfu" not in r for r in report["days_table"] if r["gpus"] <= 8)  # at or below the reference


def test_comparison_rows_print_the_billed_gpu_hours_en() -> None:
    """DPO 70B on 500M tokens: 24 H100s run it in 320.3 GPU-hours, billed 321 — the row said '320' beside
    a headline and cost line of 321; A100 711.04 → 712 (its cost: 712 × $1.20 = $854.40). The JSON's
    ``shown`` carries the figures the rows quote (``gpu_hours`` stays the count-free 280.8 / 623.2).
    s36 left #1: the 24 GPUs run ZeRO-3 over DP 24 with gradient checkpointing (the layout TRL / DeepSpeed
    run; it was a Megatron TP layout keeping the activations): one more policy forward, DPO's 6 + 2 (the
    reference's forward) = 8·N·D becomes 10·N·D, × 1.25: H100 320.3 → 400.4, billed 401; A100 711.04 →
    888.8, billed 889."""
    data = _json(DPO)
    lines = data["reply"].splitlines()
    assert lines[1].startswith("• H100 80G: 401 H100-hours, about 24 GPUs")
    assert lines[2].startswith("• A100 80G: 889 A100-hours, about 24 GPUs")
    report = data["report"]
    assert report["shown"]["cost"]["billed_gpu_hours"] == 401
    assert 280 < report["gpu_hours"]["likely"] < 281
    a100 = report["comparisons"][0]
    assert a100["gpu"] == "A100-SXM4-80GB" and a100["shown"]["gpus"] == 24
    assert a100["shown"]["cost"]["billed_gpu_hours"] == 889
    # s36 left: the A100 row's shown.gpu_hours.likely now reads 623.2 (the count-free figure) beside its
    # billed 889; was 711.04 beside 712 — left for the lead (reported), not asserted either way here
    assert 623 < a100["gpu_hours"]["likely"] < 624


def test_comparison_rows_print_the_billed_gpu_hours_zh() -> None:
    """'租什么卡': H100 on 6 GPUs 3,910.5 GPU-hours, billed 3,911 (the row said 3,910)."""
    data = _json("预算20万，13B模型预训练500亿token，租什么卡多少张")
    assert data["reply"].splitlines()[1].startswith("• H100 80G：3,911 H100·时，约 6 张训 27 天")
    assert data["report"]["shown"]["cost"]["billed_gpu_hours"] == 3911


@pytest.mark.parametrize(
    ("question", "headline"),
    [
        # 0.31 H100-hours ÷ 4 GPUs = 0.078 h = 4.7 min (was '≈ 0.078 hours')
        (
            "LoRA fine-tune Qwen2.5-7B on 4 H100s, 20k samples of 512 tokens, how long?",
            "with 4 × H100 80G: about 5 minutes (4–8 minutes) (0.31 H100-hours)",  # s37 fixf #4: not 'under'
        ),
        # 0.02 H100-hours ÷ 4 = 0.0039 h = 14 s (was '约 0.0039 小时')
        (
            "用4张H100 LoRA微调Qwen2.5-7B，1000条样本每条512 token，要多久",
            "用 4 张 H100 80G 约 14 秒（0.02 H100·时）",  # s33 #2: the seconds (was '不到 1 分钟')
        ),
    ],
)
def test_under_an_hour_on_the_users_count_is_minutes(question: str, headline: str) -> None:
    first = ask_quietly(question).splitlines()[0]
    assert headline in first
    assert not re.search(r"0\.0\d+ (?:hours|小时)", first)


@pytest.mark.parametrize(
    ("question", "end"),
    [
        (
            "How fast is qwen2.5:32b with Ollama on a MacBook Pro M3 Max 64GB?",
            "(Ollama) inference on 1 × M3 Max 64G: fits (all layers in unified memory)",
        ),
        (
            "用Ollama在MacBook Pro M3 Max 64G上跑qwen2.5:32b，速度大概多少",
            "（Ollama） 推理，1 台 M3 Max 64G：放得下（所有层放在统一内存中）",
        ),
        (
            "ollama run qwen3:32b on 3 RTX 3090 at q8",
            "inference on 3 × RTX 3090: fits (layers split over 3 GPUs)",
        ),
    ],
)
def test_ollama_named_gets_the_layout_not_llama_cpp_or_mlx(question: str, end: str) -> None:
    """Ollama runs GGUF through llama.cpp's layer offload, never MLX: after '(Ollama)' the layout, as for
    a named llama.cpp (s24 trial 2 #20: '（Ollama） … 放得下（llama.cpp / MLX）')."""
    first = ask_quietly(question).splitlines()[0]
    assert end in first
    assert "MLX" not in first and "(llama.cpp)" not in first and "（llama.cpp）" not in first


def test_an_assumed_runtime_still_names_llama_cpp_and_mlx() -> None:
    first = ask_quietly("How fast is qwen2.5:32b on a MacBook Pro M3 Max 64GB?").splitlines()[0]
    assert first.split(";")[0].endswith("fits (llama.cpp / MLX)")


@pytest.mark.parametrize(
    "question",
    [
        "We have $25k and must continue-pretrain a 13B model on 40B tokens within 10 days. "
        "Which cloud GPUs and how many?",
        "租哪种云GPU训练7B模型，1000亿token，两周内",
    ],
)
def test_which_cloud_gpus_compares_the_common_cards(question: str) -> None:
    """'Which cloud GPUs' / '租哪种云GPU' ask to choose the card as 'which GPUs' does (s24 trial 2 #12: A100
    only): the H100 and A100 rows, the cheapest whole job first."""
    lines = ask_quietly(question).splitlines()
    assert lines[0].startswith(("Lowest cost of the whole job: H100 80G", "整个任务总费用最低：H100 80G"))
    assert {line.split("：")[0].split(":")[0] for line in lines[1:3]} == {"• H100 80G", "• A100 80G"}


def test_feishu_markdown_has_no_commonmark_escapes() -> None:
    """Feishu's card Markdown breaks lines on the newline and shows a markup character by its HTML
    reference (open.feishu.cn card JSON 2.0 rich text); the trial's cards showed '\\', '\\_', '\\~'."""
    text = (
        "• Weights: 145 GB (2 B per parameter)\\\n• gpu\\_memory\\_utilization 0.9, \\~$1.2–2.5, "
        "\\*not bold\\*, 3 \\< 4, \\_lead\n`a\\_b` kept\n```\nx\\_y\\\n```\nlast\\_one"
    )
    assert lark_markdown(text) == (
        "• Weights: 145 GB (2 B per parameter)\n• gpu_memory_utilization 0.9, ~$1.2–2.5, "
        "&#42;not bold&#42;, 3 &#60; 4, &#95;lead\n`a\\_b` kept\n```\nx\\_y\\\n```\nlast_one"
    )


def test_a_feishu_card_carries_no_backslash() -> None:
    from bot.chat.adapter import Outbound
    from bot.core.pipeline import answer
    from bot.feishu.card import build_card
    from bot.render.parts import render_parts

    done = answer("serve Qwen2.5-72B on 4 A100 80GB with 50 concurrent users at 8k context")
    parts = render_parts(done, "markdown")
    raw = json.dumps({"h": parts.headline, "f": parts.figures, "d": parts.details}, ensure_ascii=False)
    assert "\\" in raw  # the Markdown dialect's hard breaks and escapes
    card = build_card(Outbound(text=raw, lang="en", actions=[], turn_id=""))
    body = json.dumps(card["body"], ensure_ascii=False)
    assert "\\\\" not in body  # no backslash left in the card's Markdown (JSON doubles one)
    assert "gpu_memory_utilization" in body


def test_chinese_replies_cite_the_catalog_without_its_english_notes() -> None:
    """Every catalog model's source in a Chinese reply: its first reference (a config.json, a URL, a
    paper), no English words in a row; the English reply and the JSON keep the whole text."""
    for name, model in catalog.models().items():
        if not model.source:
            continue
        zh = source_text("zh", model.source)
        if zh != model.source:  # prose cut to its first reference: a path, a URL or a paper
            assert re.fullmatch(r"(?:\S+(?: config\.json)?|[A-Z][\w-]+ et al\.,? \d{4}) 等", zh), (name, zh)
        assert english_runs(zh, min_words=2) in ([], ["huggingface transformers"]), (name, zh)  # a repo
        assert source_text("en", model.source) == model.source
    assert source_text("zh", catalog.models()["Qwen-72B"].source) == "Qwen/Qwen-72B config.json 等"
    assert source_text("zh", "trl/trainer/grpo_config.py") == "trl/trainer/grpo_config.py"  # a path as it is
    reply = ask_quietly("Qwen-72B 全参微调 1亿 token 要多少 A100")
    assert "（来源：Qwen/Qwen-72B config.json 等）" in reply
    assert english_runs(reply) == []


def test_every_note_reads_chinese_in_a_chinese_reply() -> None:
    """Every note code's sentence (bot.render.wording.NOTE_MESSAGES) in the zh catalog: no run of four
    English words once its placeholders and names are set aside (tests/english_prose.py)."""
    from bot.render.i18n import translations
    from bot.render.note_codes import NoteCode
    from bot.render.wording import NOTE_MESSAGES

    catalog_zh = translations("zh")

    def texts(value: object) -> list[str]:
        if isinstance(value, str):
            return [value]
        if isinstance(value, tuple | list):
            return [t for v in value for t in texts(v)]
        if isinstance(value, dict):
            return [t for v in value.values() for t in texts(v)]
        return []

    assert set(NOTE_MESSAGES) >= set(NoteCode)
    for code in NoteCode:
        for msgid in texts(NOTE_MESSAGES[code]):
            zh = re.sub(r"%\([^)]*\)[sd]", " 1 ", catalog_zh.gettext(msgid))
            assert zh != msgid or not re.search(r"[A-Za-z]{3,} [A-Za-z]{3,}", msgid), (code, "untranslated")
            assert english_runs(zh) == [], (code, zh)
