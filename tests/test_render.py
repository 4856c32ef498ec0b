"""Replies: real formatted values for the seed example, every stage in zh and en, Telegram HTML validity,
plain text without markup, escaping of echoed user text, help, and the 4,096-character cap."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # checkout layout without install

import pytest
from htmlcheck import assert_telegram_html, telegram_html_text

from bot import fmt, i18n, render
from bot.answer import Answer
from bot.parse import ParseResult
from estimator.models import (
    Assumption,
    Band,
    Cost,
    DaysRow,
    DecodeSpeed,
    Inference,
    Memory,
    Note,
    Plan,
    PriceBand,
    SizingReport,
    SizingRequest,
)

LANGS = ("zh", "en")
A100 = "A100-SXM4-80GB"

# ---------------------------------------------------------------------------------------------
# Hand-built reports (the estimator's SI outputs for known cases)

SEED_HOURS = Band(low=74_786.3, likely=93_482.9, high=124_643.9)  # seed: 4.2e22 / (312e12 × MFU × 3600)


def _row(gpus: int, hours: Band = SEED_HOURS) -> DaysRow:
    return DaysRow(gpus=gpus, days=Band(low=hours.low / gpus / 24, likely=hours.likely / gpus / 24,
                                        high=hours.high / gpus / 24))


def seed_report(**update) -> SizingReport:
    """Seed article: 7B × 1T tokens on A100 at 40 % MFU (30–50 % band), ¥15–30 per GPU-hour."""
    req = SizingRequest(params_total=7e9, tokens=1e12, gpu=A100, stage="pretrain", mfu=0.4,
                        deadline_days=30, currency="CNY")
    values = dict(
        request=req,
        assumptions=[
            Assumption(field="mfu", value=0.4, source="seed article rule of thumb (40 % MFU)"),
            Assumption(field="mfu_band", value="0.3–0.5", source="seed article band 30–50 % MFU"),
            Assumption(field="deadline_days", value=30, source="planning window"),
            Assumption(field="some_new_field", value=3.5, source="a source"),
        ],
        gpu_name="NVIDIA A100 SXM4 80GB",
        flops=4.2e22, flops_formula="6ND", pf_days=4.2e22 / 1e15 / 86_400,
        gpu_hours=SEED_HOURS,
        days_table=[_row(n) for n in (64, 128, 256, 512)],
        gpus_for_deadline=136,
        cost=Cost(low=1_402_245, high=2_804_490, currency="CNY", price_low=15, price_high=30,
                  billed_gpu_hours=93_483, price_source="seed article: A100 ¥15–30 per GPU-hour"),
        chinchilla_tokens=1.4e11,
    )
    values.update(update)
    return SizingReport(**values)


def inference_report(**update) -> SizingReport:
    """70B bf16 serving: 140 GB of weights (design §3.4) → at least 2 × 80 GB."""
    req = SizingRequest(params_total=70e9, gpu=A100, stage="inference", seq_len=32_768, concurrency=100,
                        precision="bf16")
    inf = Inference(
        weights_bytes=140e9, bytes_per_param=2.0, weight_format="bf16",
        kv_bytes_per_token=327_680, kv_bytes_per_sequence=327_680 * 32_768,
        kv_bytes_total=327_680 * 32_768 * 100, kv_precision="bf16",
        context_tokens=32_768, prompt_tokens=24_576, concurrency=100,
        usable_bytes_per_gpu=71 * 2**30, min_gpus=2, recommended_gpus=4, serving_gpus=4, tp=4,
        max_concurrency=16, concurrency_table=[(4096, 130), (32_768, 16)],
        decode_tokens_per_s=DecodeSpeed(per_sequence=20.2, aggregate=2015.2, batch=100, bound="memory"),
        prefill_seconds=2.76,
        cost_per_million_tokens=PriceBand(low=33.08, high=66.16, currency="CNY"),
        cost_per_month=PriceBand(low=43_800, high=87_600, currency="CNY"),
    )
    return SizingReport(request=req, assumptions=[], gpu_name="NVIDIA A100 SXM4 80GB", inference=inf,
                        **update)


def memory_report(method: str = "full", **update) -> SizingReport:
    """Full fine-tune of a 14B model: bf16 weights 2N, grads 2N, AdamW 12N (ZeRO) sharded over DP."""
    req = SizingRequest(model="Qwen2.5-14B", params_total=14.7e9, gpu=A100, stage="finetune", method=method)
    mem = Memory(
        per_gpu_bytes=77.1 * 2**30, gpu_memory_bytes=80 * 2**30, usable_bytes=80 * 2**30, min_gpus=4,
        breakdown={"weights": 14.7e9, "gradients": 7.35e9, "optimizer": 44.1e9, "activations": 8.56e9,
                   "logits": 0.93e9, "overhead": 7.12e9, "mystery_part": 1e9},
        total_bytes=235.2e9, plan=Plan(tp=2, dp=2, zero_stage=2, recompute="selective"),
    )
    return SizingReport(request=req, assumptions=[], gpu_name="NVIDIA A100 SXM4 80GB",
                        model_name="Qwen2.5 14B", memory=mem, **update)


def make_answer(report: SizingReport | None, lang: str, **parsed) -> Answer:
    request = report.request if report is not None else SizingRequest()
    return Answer(parsed=ParseResult(request=request, lang=lang, **parsed), report=report, lang=lang)


def both(report: SizingReport | None, lang: str, **parsed) -> tuple[str, str]:
    a = make_answer(report, lang, **parsed)
    return render.render(a, "html"), render.render(a, "text")


def assert_plain_text(text: str) -> None:
    assert not re.search(r"</?(b|i|u|s|code|pre|a|blockquote)\b[^>]*>", text), text[:300]
    assert not re.search(r"&(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);", text), text[:300]


# ---------------------------------------------------------------------------------------------
# Number formatting (bot.fmt)


@pytest.mark.parametrize(("lang", "value", "expected"), [
    ("zh", 93_482.9, "9.3万"), ("en", 93_482.9, "93.5K"),
    ("zh", 1e12, "1万亿"), ("en", 1e12, "1T"),
    ("zh", 1_402_245, "140万"), ("en", 1_402_245, "1.4M"),
    ("en", 136, "136"),
])
def test_compact_magnitudes_cldr(lang, value, expected):
    assert fmt.fmt_for(lang).compact(value) == expected


def test_exact_figures_and_currency():
    zh, en = fmt.fmt_for("zh"), fmt.fmt_for("en")
    assert zh.int(93_482.9) == en.int(93_482.9) == "93,483"
    assert zh.money(1_402_245, "CNY") == "¥1,402,245"
    assert zh.money(1_402_245, "USD") == "US$1,402,245"
    assert en.money(1_402_245, "USD") == "$1,402,245"
    assert zh.money_compact(1_402_245, "CNY") == "¥140万"
    assert en.money_compact(1_402_245, "USD") == "$1.4M"
    assert zh.price_range(15, 30, "CNY") == "¥15–30"
    assert en.price(1.2, "USD") == "$1.20"


@pytest.mark.parametrize(("value", "expected"), [
    (4.2e22, "4.2×10²²"), (3.15e23, "3.15×10²³"), (4e22, "4×10²²"), (9.999e5, "1×10⁶"), (2.5e-3, "2.5×10⁻³"),
])
def test_flops_superscript(value, expected):
    assert fmt.sci(value) == expected


@pytest.mark.parametrize(("n", "expected"), [
    (7e9, "7B"), (5e8, "0.5B"), (671e9, "671B"), (1.7e12, "1.7T"), (1e8, "100M"), (70.6e9, "70.6B"),
])
def test_model_sizes_never_localized(n, expected):
    assert fmt.params(n) == expected


def test_days_bytes_percent():
    f = fmt.fmt_for("en")
    assert f.days(7.63) == "7.6"
    assert f.days(60.86) == "61"
    assert f.gb(140e9) == "140 GB"
    assert f.gib(80 * 2**30) == "80 GiB"
    assert f.kib(131_072) == "128 KiB"  # Llama-3-8B KV per token (design §3.4)
    assert f.percent(0.4) == "40%"


def test_bar_is_at_most_ten_cells():
    assert fmt.bar(1.0) == "█" * 10
    assert fmt.bar(0.0) == ""
    assert 0 < len(fmt.bar(0.01)) <= 10


# ---------------------------------------------------------------------------------------------
# The seed example (design §3.2)


def test_seed_zh_reply_numbers():
    html, text = both(seed_report(), "zh")
    for needle in ("9.3万", "93,483", "4.2×10²²", "¥1,402,245", "¥2,804,490", "136", "17 台 8 卡", "30 天",
                   "74,786", "124,644", "50%–30%"):
        assert needle in html, needle
        assert needle in text, needle
    headline = telegram_html_text(html).splitlines()[0]
    assert headline == "7B 预训练 1万亿 token ≈ 9.3万 A100·时：约 136 张（17 台 8 卡）训 30 天"


def test_seed_en_reply_numbers():
    html, text = both(seed_report(), "en")
    for needle in ("93.5K", "93,483", "4.2×10²²", "CN¥1,402,245", "74,786–124,644", "6ND"):
        assert needle in html, needle
        assert needle in text, needle
    headline = telegram_html_text(html).splitlines()[0]
    assert headline == (
        "7B pre-training on 1T tokens ≈ 93.5K A100-hours: about 136 GPUs (17 × 8-GPU nodes) for 30 days"
    )


def test_seed_usd_in_zh():
    cost = Cost(low=112_187, high=233_708, currency="USD", price_low=1.2, price_high=2.5,
                billed_gpu_hours=93_483, price_source="public listings")
    html, _ = both(seed_report(cost=cost), "zh")
    assert "US$112,187" in html and "US$1.20–2.50" in html


@pytest.mark.parametrize("lang", LANGS)
def test_seed_details_ledger_and_formulas(lang):
    html, text = both(seed_report(), lang)
    assert "<blockquote expandable>" in html
    assert "seed article rule of thumb" in html  # sources are shown verbatim
    assert "some_new_field" in html  # unknown assumption fields fall back to the raw name
    assert "30%–50%" in html  # the MFU band as percentages
    assert "PF-days" in html and "486" in html  # 4.2e22 / (1e15 × 86,400) = 486.1
    assert ("MFU（典型值）" if lang == "zh" else "MFU (likely)") in html
    assert "blockquote" not in text


def test_user_gpu_count_headline_answers_how_long():
    rep = seed_report(request=seed_report().request.model_copy(update={"gpu_count": 64}), days=_row(64))
    zh = telegram_html_text(render.render(make_answer(rep, "zh"))).splitlines()[0]
    en = telegram_html_text(render.render(make_answer(rep, "en"))).splitlines()[0]
    assert zh == "7B 预训练 1万亿 token，用 64 张 A100 80G 约需 61 天（共 9.3万 A100·时）"
    assert en == "7B pre-training on 1T tokens with 64 × A100 80G ≈ 61 days (93.5K A100-hours)"


@pytest.mark.parametrize(("method", "zh_name", "en_name"), [
    ("lora", "LoRA 微调", "LoRA fine-tuning"), ("qlora", "QLoRA 微调", "QLoRA fine-tuning"),
    ("full", "全参微调", "full fine-tuning"),
])
def test_finetune_with_tokens_uses_stage_name_and_4nd(method, zh_name, en_name):
    req = SizingRequest(params_total=7e9, tokens=2e9, gpu=A100, stage="finetune", method=method, mfu=0.4)
    hours = Band(low=124.6, likely=155.8, high=207.7)
    rep = seed_report(request=req, flops=5.6e19 if method != "full" else 8.4e19,
                      flops_formula="6ND" if method == "full" else "4ND", gpu_hours=hours,
                      days_table=[_row(8, hours)], gpus_for_deadline=1, cost=None, chinchilla_tokens=None)
    for lang, name in (("zh", zh_name), ("en", en_name)):
        html, text = both(rep, lang)
        assert name in html
        assert ("4ND" if method != "full" else "6ND") in html
        assert_telegram_html(html)
        assert_plain_text(text)


def test_continued_pretrain_stage_name():
    req = seed_report().request.model_copy(update={"stage": "continued_pretrain"})
    zh, _ = both(seed_report(request=req, chinchilla_tokens=None), "zh")
    en, _ = both(seed_report(request=req, chinchilla_tokens=None), "en")
    assert "继续预训练" in zh and "continued pre-training" in en


# ---------------------------------------------------------------------------------------------
# Serving and memory-only replies


def test_inference_zh_headline_and_lines():
    html, text = both(inference_report(), "zh")
    headline = telegram_html_text(html).splitlines()[0]
    assert headline == "70B bf16 推理：至少 2 张 A100 80G，推荐 4 张（TP=4）"
    for needle in ("140 GB", "320 KiB", "32K", "100", "16", "20 token/s", "2,015", "¥33.08–66.16"):
        assert needle in html, needle
    assert_plain_text(text)


def test_inference_en_headline_and_lines():
    html, _ = both(inference_report(), "en")
    headline = telegram_html_text(html).splitlines()[0]
    assert headline == "70B bf16 inference: at least 2 × A100 80G, 4 recommended (TP=4)"
    assert "Weights: 140 GB (2 bytes per parameter)" in html
    assert "up to 16 concurrent sequences at 32K context" in html
    assert "≈ 2.8 s" in html


@pytest.mark.parametrize("lang", LANGS)
def test_memory_only_finetune_breakdown_chart(lang):
    html, text = both(memory_report(), lang)
    headline = telegram_html_text(html).splitlines()[0]
    if lang == "zh":
        assert headline == "Qwen2.5 14B 全参微调：至少 4 张 A100 80G，每卡约 77.1 GiB"
        assert "优化器状态" in html and "梯度" in html
    else:
        assert headline == "Qwen2.5 14B full fine-tuning: at least 4 × A100 80G, ≈ 77.1 GiB per GPU"
        assert "optimizer" in html and "gradients" in html
    assert "mystery_part" in html  # unknown breakdown parts keep their key
    chart = re.search(r"<pre>(.*?)</pre>", html, re.S).group(1)
    for line in chart.splitlines():
        blocks = "".join(c for c in line if c in "█▉▊▋▌▍▎▏")
        assert len(blocks) <= 10
    assert "TP 2 × PP 1 × DP 2" in html and "ZeRO-2" in html
    assert_telegram_html(html)
    assert_plain_text(text)


def test_memory_no_fit_headline():
    rep = memory_report()
    mem = rep.memory.model_copy(update={"min_gpus": None, "plan": None})
    no_fit = Note(code="no_fit", params={"gpus_searched": 100_000})
    rep = rep.model_copy(update={"memory": mem, "warnings": [no_fit]})
    html, _ = both(rep, "zh")
    assert "放不下" in html and "100,000" in html


# ---------------------------------------------------------------------------------------------
# Warnings and parser extras

KNOWN_NOTES = [
    Note(code="below_chinchilla", params={"tokens": 1e10, "chinchilla_tokens": 1.4e11}),
    Note(code="tiny_job", params={"gpu_hours": 0.4}),
    Note(code="huge_job", params={"gpus": 200_000, "days": 4000}),
    Note(code="mfu_outside_band", params={"mfu": 0.8}),
    Note(code="gpu_no_bf16", params={"gpu": "V100"}),
    Note(code="consumer_no_nvlink", params={"gpu": "RTX 4090"}),
    Note(code="memory_tight", params={"ratio": 0.964}),
    Note(code="does_not_fit_requested", params={"gpu_count": 2, "min_gpus": 4}),
    Note(code="no_fit", params={"gpus_searched": 100_000}),
    Note(code="moe_active_params", params={"params_active": 37e9, "params_total": 671e9}),
    Note(code="samples_to_tokens", params={"num_samples": 1e5, "tokens_per_sample": 512, "tokens": 5.12e7}),
    Note(code="tp_across_nodes", params={"tp": 16}),
    Note(code="unknown_gpu_assumed", params={"gpu": "X9000"}),
]


@pytest.mark.parametrize("note", KNOWN_NOTES, ids=lambda n: n.code)
@pytest.mark.parametrize("lang", LANGS)
def test_known_notes_are_localized(note, lang):
    text = render.note_text(note, lang)
    assert note.code not in text  # a real sentence, not the fallback
    assert "%(" not in text
    if lang == "zh":
        assert re.search(r"[\u4e00-\u9fff]", text)


def test_note_values_formatted():
    assert "80%" in render.note_text(Note(code="mfu_outside_band", params={"mfu": 0.8}), "en")
    assert "30–50%" in render.note_text(Note(code="mfu_outside_band", params={"mfu": 0.8}), "en")
    moe = render.note_text(KNOWN_NOTES[9], "zh")
    assert "37B" in moe and "671B" in moe
    assert "1400亿" in render.note_text(KNOWN_NOTES[0], "zh")


@pytest.mark.parametrize("lang", LANGS)
def test_unknown_or_malformed_note_falls_back(lang):
    unknown = render.note_text(Note(code="brand_new_code", params={"x": 1.5}), lang)
    assert "brand_new_code" in unknown and "x=1.5" in unknown
    malformed = render.note_text(Note(code="tiny_job", params={}), lang)  # missing parameter
    assert "tiny_job" in malformed


@pytest.mark.parametrize("lang", LANGS)
def test_echoed_user_text_is_escaped(lang):
    extras = {"unknown_gpu": "<b>X&Y</b>", "gpu_suggestions": ["A100", "A800"],
              "unknown_model": "Llama<script>", "model_suggestions": ["Llama-3-70B"]}
    html, text = both(seed_report(), lang, **extras)
    assert "&lt;b&gt;X&amp;Y&lt;/b&gt;" in html
    assert "Llama&lt;script&gt;" in html
    assert "A100 / A800" in html
    assert_telegram_html(html)
    assert "<b>X&Y</b>" in text  # plain text shows what the user typed
    if lang == "zh":
        assert "没找到 GPU “&lt;b&gt;X&amp;Y&lt;/b&gt;”，你是不是指 A100 / A800？" in html


@pytest.mark.parametrize("lang", LANGS)
def test_truncated_message_note(lang):
    html, _ = both(seed_report(), lang, truncated=True)
    assert "4,000" in html


# ---------------------------------------------------------------------------------------------
# Help


@pytest.mark.parametrize("lang", LANGS)
def test_help_has_examples_in_the_askers_language(lang):
    html = render.render_help(lang, "html")
    text = render.render_help(lang, "text")
    assert_telegram_html(html)
    assert_plain_text(text)
    assert html.count("<code>") >= 4
    if lang == "zh":
        for ex in ("7B模型1万亿token要多少A100", "全参微调Qwen2.5-14B要几张A100 80G",
                   "QLoRA 70B 用 4090 要几张", "部署70B推理需要几张A100，100并发，32k上下文"):
            assert f"<code>{ex}</code>" in html
    else:
        assert "How many A100s to pre-train a 7B model on 1T tokens?" in html


@pytest.mark.parametrize("lang", LANGS)
def test_not_understood_and_out_of_scope(lang):
    plain = render.render(make_answer(None, lang))
    oos = render.render(make_answer(None, lang, out_of_scope=True))
    sorry = "抱歉" if lang == "zh" else "Sorry"
    assert sorry not in plain
    assert telegram_html_text(oos).startswith(sorry)
    assert_telegram_html(oos)


def test_help_echoes_unknown_model_escaped():
    html = render.render(make_answer(None, "en", unknown_model="Foo&<i>", model_suggestions=["Qwen2.5-7B"]))
    assert "Foo&amp;&lt;i&gt;" in html and "Qwen2.5-7B" in html
    assert_telegram_html(html)


# ---------------------------------------------------------------------------------------------
# Validity, cap, performance


def _all_reports() -> list[SizingReport]:
    return [seed_report(), inference_report(), memory_report("full"), memory_report("qlora"),
            seed_report(warnings=KNOWN_NOTES)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("idx", range(5))
def test_every_reply_is_valid_telegram_html_and_clean_text(idx, lang):
    html, text = both(_all_reports()[idx], lang)
    assert_telegram_html(html)
    assert_plain_text(text)
    allowed = {"b", "i", "u", "s", "code", "pre", "a", "blockquote"}
    assert set(re.findall(r"</?([a-z-]+)", html)) <= allowed


@pytest.mark.parametrize("lang", LANGS)
def test_length_cap_drops_details_then_truncates(lang):
    many = [Note(code="huge_job", params={"gpus": 200_000 + i, "days": 4000}) for i in range(200)]
    html = render.render(make_answer(seed_report(warnings=many), lang))
    assert render.visible_length(html) <= render.TELEGRAM_MAX_CHARS
    assert "<blockquote" not in html  # details dropped first
    assert_telegram_html(html)
    assert html.rstrip().endswith("…") or html.endswith("</b>") or "…" in html


def test_long_sources_are_shortened_before_dropping_details():
    long = [Assumption(field=f"f{i}", value=i, source="x" * 400) for i in range(12)]
    html = render.render(make_answer(seed_report(assumptions=long), "en"))
    assert "<blockquote expandable>" in html
    assert render.visible_length(html) <= render.TELEGRAM_MAX_CHARS


def test_truncate_html_never_cuts_tags_or_entities():
    src = "<b>" + "a&amp;b " * 1000 + "</b>"
    out = render.truncate_html(src, 101)
    assert render.visible_length(out) <= 101
    assert out.startswith("<b>") and out.endswith("</b>")
    assert_telegram_html(out)
    assert not re.search(r"&[a-z]*$", out.removesuffix("…</b>"))


def test_render_is_fast():
    ans = [make_answer(r, lang) for r in _all_reports()[:4] for lang in LANGS]
    for a in ans:  # warm the environments and catalogs
        render.render(a)
    start = time.perf_counter()
    rounds = 20
    for _ in range(rounds):
        for a in ans:
            render.render(a)
    per_reply_ms = (time.perf_counter() - start) / (rounds * len(ans)) * 1000
    assert per_reply_ms < 10  # typical ≈ 1–2 ms; generous for slow CI machines


def test_environments_and_catalogs_are_cached():
    assert render.environment("zh", "html") is render.environment("zh", "html")
    assert i18n.translations("zh") is i18n.translations("zh")
    assert render.environment("zh", "html").autoescape is True
    assert render.environment("zh", "text").autoescape is False


# ---------------------------------------------------------------------------------------------
# Through the real estimator (design §3.2 seed example)


def test_seed_through_estimator():
    estimator = pytest.importorskip("estimator.estimate")
    rep = estimator.estimate(SizingRequest(params_total=7e9, tokens=1e12, gpu=A100, stage="pretrain"))
    zh, zh_text = both(rep, "zh")
    en, en_text = both(rep, "en")
    for needle in ("9.3万", "93,483", "4.2×10²²", "¥1,402,245"):
        assert needle in zh, needle
    for needle in ("93.5K", "93,483", "4.2×10²²"):
        assert needle in en, needle
    for h, t in ((zh, zh_text), (en, en_text)):
        assert_telegram_html(h)
        assert_plain_text(t)


@pytest.mark.parametrize("request_kwargs", [
    dict(params_total=70e9, gpu=A100, stage="inference", concurrency=100, seq_len=32_768),
    dict(model="Qwen2.5-14B", gpu=A100, stage="finetune", method="full"),
    dict(params_total=70e9, gpu="RTX-4090", stage="finetune", method="qlora"),
    dict(budget=1e6, gpu=A100, stage="pretrain"),
    dict(params_total=7e9, tokens=1e12, gpu=A100, stage="pretrain", gpu_count=64),
], ids=["serve-70b", "ft-14b", "qlora-70b-4090", "budget", "64-gpus"])
@pytest.mark.parametrize("lang", LANGS)
def test_estimator_reports_render_in_both_languages(request_kwargs, lang):
    estimator = pytest.importorskip("estimator.estimate")
    rep = estimator.estimate(SizingRequest(**request_kwargs))
    html, text = both(rep, lang)
    assert_telegram_html(html)
    assert_plain_text(text)
    first = telegram_html_text(html).splitlines()[0]
    assert "%(" not in html and "Note:" not in first
    if lang == "zh":
        assert re.search(r"[\u4e00-\u9fff]", first)
