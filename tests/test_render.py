"""Replies: real formatted values for the seed example, every stage in zh and en, Telegram HTML validity,
plain text without markup, escaping of echoed user text, help, and the 4,096-character cap."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # checkout layout without install

import pytest
from htmlcheck import assert_telegram_html, telegram_html_text

from bot.core.pipeline import Answer
from bot.parse import ParseResult
from bot.render import context, env, fmt, i18n, notes, plan_text, wording
from bot.render import html as html_limits
from bot.render import renderer as render
from estimator.models import (
    Alternative,
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
    return DaysRow(
        gpus=gpus,
        days=Band(low=hours.low / gpus / 24, likely=hours.likely / gpus / 24, high=hours.high / gpus / 24),
    )


def seed_report(**update) -> SizingReport:
    """Seed article: 7B × 1T tokens on A100 at 40 % MFU (30–50 % band), ¥15–30 per GPU-hour."""
    req = SizingRequest(
        params_total=7e9, tokens=1e12, gpu=A100, stage="pretrain", mfu=0.4, deadline_days=30, currency="CNY"
    )
    values = dict(
        request=req,
        assumptions=[
            Assumption(
                field="mfu", value=0.4, why="mfu_a100", citation="seed article rule of thumb (40 % MFU)"
            ),
            Assumption(
                field="mfu_band", value="0.3–0.5", why="mfu_band", citation="seed article band 30–50 % MFU"
            ),
            Assumption(field="deadline_days", value=30, why="deadline_default"),
            Assumption(field="some_new_field", value=3.5, why="no_such_reason", citation="a source"),
        ],
        gpu_name="NVIDIA A100 SXM4 80GB",
        flops=4.2e22,
        flops_formula="6ND",
        pf_days=4.2e22 / 1e15 / 86_400,
        gpu_hours=SEED_HOURS,
        days_table=[_row(n) for n in (64, 128, 256, 512)],
        gpus_for_deadline=136,
        cost=Cost(
            low=1_402_245,
            high=2_804_490,
            currency="CNY",
            price_low=15,
            price_high=30,
            billed_gpu_hours=93_483,
            price_source="seed article: A100 ¥15–30 per GPU-hour",
        ),
        chinchilla_tokens=1.4e11,
    )
    values.update(update)
    return SizingReport(**values)


def inference_report(**update) -> SizingReport:
    """70B bf16 serving: 140 GB of weights (docs/design.md §3.4) → at least 2 × 80 GB."""
    req = SizingRequest(
        params_total=70e9, gpu=A100, stage="inference", seq_len=32_768, concurrency=100, precision="bf16"
    )
    inf = Inference(
        weights_bytes=140e9,
        bytes_per_param=2.0,
        weight_format="bf16",
        kv_bytes_per_token=327_680,
        kv_bytes_per_sequence=327_680 * 32_768,
        kv_bytes_total=327_680 * 32_768 * 100,
        kv_precision="bf16",
        context_tokens=32_768,
        prompt_tokens=24_576,
        concurrency=100,
        usable_bytes_per_gpu=71 * 2**30,
        min_gpus=2,
        recommended_gpus=4,
        serving_gpus=4,
        tp=4,
        max_concurrency=16,
        concurrency_table=[(4096, 130), (32_768, 16)],
        decode_tokens_per_s=DecodeSpeed(per_sequence=20.2, aggregate=2015.2, batch=100, bound="memory"),
        prefill_seconds=2.76,
        cost_per_million_tokens=PriceBand(low=33.08, high=66.16, currency="CNY"),
        cost_per_month=PriceBand(low=43_800, high=87_600, currency="CNY"),
    )
    return SizingReport(
        request=req, assumptions=[], gpu_name="NVIDIA A100 SXM4 80GB", inference=inf, **update
    )


def memory_report(method: str = "full", **update) -> SizingReport:
    """Full fine-tune of a 14B model: bf16 weights 2N, grads 2N, AdamW 12N (ZeRO) sharded over DP."""
    req = SizingRequest(model="Qwen2.5-14B", params_total=14.7e9, gpu=A100, stage="finetune", method=method)
    mem = Memory(
        per_gpu_bytes=77.1 * 2**30,
        gpu_memory_bytes=80 * 2**30,
        usable_bytes=80 * 2**30,
        min_gpus=4,
        breakdown={
            "weights": 14.7e9,
            "gradients": 7.35e9,
            "optimizer": 44.1e9,
            "activations": 8.56e9,
            "logits": 0.93e9,
            "overhead": 7.12e9,
            "mystery_part": 1e9,
        },
        total_bytes=235.2e9,
        plan=Plan(tp=2, dp=2, zero_stage=2, recompute="selective"),
    )
    return SizingReport(
        request=req,
        assumptions=[],
        gpu_name="NVIDIA A100 SXM4 80GB",
        model_name="Qwen2.5 14B",
        memory=mem,
        **update,
    )


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
# Number formatting (bot.render.fmt)


@pytest.mark.parametrize(
    ("lang", "value", "expected"),
    [
        ("zh", 93_482.9, "9.3万"),
        ("en", 93_482.9, "93.5K"),
        ("zh", 1e12, "1万亿"),
        ("en", 1e12, "1T"),
        ("zh", 1_402_245, "140万"),
        ("en", 1_402_245, "1.4M"),
        ("en", 136, "136"),
    ],
)
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


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (4.2e22, "4.2×10²²"),
        (3.15e23, "3.15×10²³"),
        (4e22, "4×10²²"),
        (9.999e5, "1×10⁶"),
        (2.5e-3, "2.5×10⁻³"),
    ],
)
def test_flops_superscript(value, expected):
    assert fmt.sci(value) == expected


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (7e9, "7B"),
        (5e8, "0.5B"),
        (671e9, "671B"),
        (1.7e12, "1.7T"),
        (1e8, "100M"),
        (70.6e9, "70.6B"),
    ],
)
def test_model_sizes_never_localized(n, expected):
    assert fmt.params(n) == expected


def test_days_bytes_percent():
    f = fmt.fmt_for("en")
    assert f.days(7.63) == "7.6"
    assert f.days(60.86) == "61"
    assert f.gb(140e9) == "140 GB"
    assert f.gib(80 * 2**30) == "80 GiB"
    assert f.kib(131_072) == "128 KiB"  # Llama-3-8B KV per token (docs/design.md §3.4)
    assert f.percent(0.4) == "40%"


def test_storage_sizes_pick_their_unit():
    f = fmt.fmt_for("en")
    assert f.storage(419_364_864) == "419 MB"  # QLoRA 70B adapters, r = 16
    assert f.storage(112e9) == "112 GB"  # 7B full state, 16 B/param (ZeRO §3)
    assert f.storage(1.12e12) == "1.1 TB"  # 70B full state
    assert fmt.fmt_for("zh").sep == "，" and f.sep == ", "


def test_bar_is_at_most_ten_cells():
    assert fmt.bar(1.0) == "█" * 10
    assert fmt.bar(0.0) == ""
    assert 0 < len(fmt.bar(0.01)) <= 10


# ---------------------------------------------------------------------------------------------
# The seed example (docs/design.md §3.2)


def test_seed_zh_reply_numbers():
    html, text = both(seed_report(), "zh")
    for needle in (
        "9.3万",
        "93,483",
        "4.2×10²²",
        "¥1,402,245",
        "¥2,804,490",
        "136",
        "17 台 8 卡",
        "30 天",
        "MFU 50% 时 74,786",
        "30% 时 124,644",
    ):
        assert needle in html, needle
        assert needle in text, needle
    headline = telegram_html_text(html).splitlines()[0]
    assert (
        headline == "7B 预训练 1万亿 token ≈ 9.3万 A100·时：约 136 张（17 台 8 卡）训 29 天（30 天内）"
    )  # T22: the table's days


def test_seed_en_reply_numbers():
    html, text = both(seed_report(), "en")
    band = "(74,786 at 50% MFU to 124,644 at 30%)"  # GPU-hours low → high, each with its MFU
    for needle in ("93.5K", "93,483", "4.2×10²²", "CN¥1,402,245", band, "6ND"):
        assert needle in html, needle
        assert needle in text, needle
    headline = telegram_html_text(html).splitlines()[0]
    assert headline == (
        "7B pre-training on 1T tokens ≈ 93.5K A100-hours: about 136 GPUs (17 × 8-GPU nodes) for 29 days "
        "(within 30 days)"  # T22 item 3: the days table's days, the deadline in brackets
    )


def test_seed_usd_in_zh():
    cost = Cost(
        low=112_187,
        high=233_708,
        currency="USD",
        price_low=1.2,
        price_high=2.5,
        billed_gpu_hours=93_483,
        price_source="public listings",
    )
    html, _ = both(seed_report(cost=cost), "zh")
    assert "US$112,187" in html and "US$1.20–2.50" in html


@pytest.mark.parametrize("lang", LANGS)
def test_seed_details_ledger_and_formulas(lang):
    html, text = both(seed_report(), lang)
    assert "<blockquote expandable>" in html
    # sources are shown verbatim in English; a Chinese reply names the source without its English prose
    # (s25, issue 24: every note a zh reply shows is Chinese; the JSON keeps the citation)
    assert ("seed article rule of thumb" if lang == "en" else "出处说明为英文，见 JSON 输出") in html
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


@pytest.mark.parametrize(
    ("method", "zh_name", "en_name"),
    [
        ("lora", "LoRA 微调", "LoRA fine-tuning"),
        ("qlora", "QLoRA 微调", "QLoRA fine-tuning"),
        ("full", "全参微调", "full fine-tuning"),
    ],
)
def test_finetune_with_tokens_uses_stage_name_and_4nd(method, zh_name, en_name):
    req = SizingRequest(params_total=7e9, tokens=2e9, gpu=A100, stage="finetune", method=method, mfu=0.4)
    hours = Band(low=124.6, likely=155.8, high=207.7)
    rep = seed_report(
        request=req,
        flops=5.6e19 if method != "full" else 8.4e19,
        flops_formula="6ND" if method == "full" else "4ND",
        gpu_hours=hours,
        days_table=[_row(8, hours)],
        gpus_for_deadline=1,
        cost=None,
        chinchilla_tokens=None,
    )
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
    # the user stated the load (no context/concurrency assumption): the headline sizes for it
    assert headline == "70B bf16 推理，100 并发 × 32K 上下文：需要 4 张 A100 80G（TP=4）；只放权重最少 2 张"
    for needle in ("140 GB", "320 KiB", "32K", "100", "16", "20 token/s", "2,015", "¥33.08–66.16"):
        assert needle in html, needle
    assert_plain_text(text)


def test_inference_en_headline_and_lines():
    html, _ = both(inference_report(), "en")
    headline = telegram_html_text(html).splitlines()[0]
    assert headline == (
        "70B bf16 inference for 100 concurrent × 32K context: 4 × A100 80G (TP=4); "
        "the weights alone need 2 GPUs"
    )
    assert "Weights: 140 GB (2 B per parameter)" in html
    assert "up to 16 concurrent sequences at 32K context" in html
    assert "≈ 2.8 s" in html


@pytest.mark.parametrize("lang", LANGS)
def test_memory_only_finetune_breakdown_chart(lang):
    html, text = both(memory_report(), lang)
    headline = telegram_html_text(html).splitlines()[0]
    if lang == "zh":
        assert headline == "Qwen2.5 14B 全参微调：至少 4 张 A100 80G（TP 2，ZeRO-2），每卡约 77.1 GiB"
        assert "优化器状态" in html and "梯度" in html
    else:
        assert headline == (
            "Qwen2.5 14B full fine-tuning: at least 4 × A100 80G (TP 2, ZeRO-2), ≈ 77.1 GiB per GPU"
        )
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
    text = notes.note_text(note, lang)
    assert note.code not in text  # a real sentence, not the fallback
    assert "%(" not in text
    if lang == "zh":
        assert re.search(r"[\u4e00-\u9fff]", text)


def test_note_values_formatted():
    assert "80%" in notes.note_text(Note(code="mfu_outside_band", params={"mfu": 0.8}), "en")
    assert "30–50%" in notes.note_text(Note(code="mfu_outside_band", params={"mfu": 0.8}), "en")
    moe = notes.note_text(KNOWN_NOTES[9], "zh")
    assert "37B" in moe and "671B" in moe
    assert "1400亿" in notes.note_text(KNOWN_NOTES[0], "zh")


@pytest.mark.parametrize("lang", LANGS)
def test_unknown_or_malformed_note_falls_back(lang):
    unknown = notes.note_text(Note(code="brand_new_code", params={"x": 1.5}), lang)
    assert "brand_new_code" in unknown and "x=1.5" in unknown
    malformed = notes.note_text(Note(code="tiny_job", params={}), lang)  # missing parameter
    assert "tiny_job" in malformed


@pytest.mark.parametrize("lang", LANGS)
def test_echoed_user_text_is_escaped(lang):
    extras = {
        "unknown_gpu": "<b>X&Y</b>",
        "gpu_suggestions": ["A100", "A800"],
        "unknown_model": "Llama<script>",
        "model_suggestions": ["Llama-3-70B"],
    }
    html, text = both(seed_report(), lang, **extras)
    assert "&lt;b&gt;X&amp;Y&lt;/b&gt;" in html
    assert "Llama&lt;script&gt;" in html
    assert "A100 / A800" in html
    assert_telegram_html(html)
    assert "<b>X&Y</b>" in text  # plain text shows what the user typed
    if lang == "zh":  # named as typed, with what was used instead and the closest cards
        assert "“&lt;b&gt;X&amp;Y&lt;/b&gt;”不在我的目录中：改用 A100 80G 估算" in html
        assert "目录里最接近的卡：A100 / A800。" in html


@pytest.mark.parametrize("lang", LANGS)
def test_truncated_message_note(lang):
    """The parser keeps the head and tail of a long paste (bot.parse._reduce_long): say so."""
    html, _ = both(seed_report(), lang, truncated=True)
    assert ("开头和结尾" if lang == "zh" else "beginning and end") in html


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
        for ex in (
            "7B模型1万亿token要多少A100",
            "全参微调Qwen2.5-14B要几张A100 80G",
            "QLoRA 70B 用 4090 要几张",
            "部署70B推理需要几张A100，100并发，32k上下文",
        ):
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
    return [
        seed_report(),
        inference_report(),
        memory_report("full"),
        memory_report("qlora"),
        seed_report(warnings=KNOWN_NOTES),
    ]


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
    assert html_limits.visible_length(html) <= html_limits.TELEGRAM_MAX_CHARS
    assert "<blockquote" not in html  # details dropped first
    assert_telegram_html(html)
    assert html.rstrip().endswith("…") or html.endswith("</b>") or "…" in html


def test_long_sources_are_shortened_before_dropping_details():
    long = [Assumption(field=f"f{i}", value=i, why="epochs_finetune", citation="x" * 400) for i in range(12)]
    html = render.render(make_answer(seed_report(assumptions=long), "en"))
    assert "<blockquote expandable>" in html
    assert html_limits.visible_length(html) <= html_limits.TELEGRAM_MAX_CHARS


def test_truncate_html_never_cuts_tags_or_entities():
    src = "<b>" + "a&amp;b " * 1000 + "</b>"
    out = html_limits.truncate_html(src, 101)
    assert html_limits.visible_length(out) <= 101
    assert out.startswith("<b>") and out.endswith("</b>")
    assert_telegram_html(out)
    assert not re.search(r"&[a-z]*$", out.removesuffix("…</b>"))


def test_environments_and_catalogs_are_cached():
    assert env.environment("zh", "html") is env.environment("zh", "html")
    assert i18n.translations("zh") is i18n.translations("zh")
    assert env.environment("zh", "html").autoescape is True
    assert env.environment("zh", "text").autoescape is False


# ---------------------------------------------------------------------------------------------
# Through the real estimator (docs/design.md §3.2 seed example)


def test_seed_through_estimator():
    estimator = pytest.importorskip("estimator.sizing")
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


@pytest.mark.parametrize(
    "request_kwargs",
    [
        dict(params_total=70e9, gpu=A100, stage="inference", concurrency=100, seq_len=32_768),
        dict(model="Qwen2.5-14B", gpu=A100, stage="finetune", method="full"),
        dict(params_total=70e9, gpu="RTX-4090", stage="finetune", method="qlora"),
        dict(budget=1e6, gpu=A100, stage="pretrain"),
        dict(params_total=7e9, tokens=1e12, gpu=A100, stage="pretrain", gpu_count=64),
    ],
    ids=["serve-70b", "ft-14b", "qlora-70b-4090", "budget", "64-gpus"],
)
@pytest.mark.parametrize("lang", LANGS)
def test_estimator_reports_render_in_both_languages(request_kwargs, lang):
    estimator = pytest.importorskip("estimator.sizing")
    rep = estimator.estimate(SizingRequest(**request_kwargs))
    html, text = both(rep, lang)
    assert_telegram_html(html)
    assert_plain_text(text)
    first = telegram_html_text(html).splitlines()[0]
    assert "%(" not in html and "Note:" not in first
    if lang == "zh":
        assert re.search(r"[\u4e00-\u9fff]", first)


# ---------------------------------------------------------------------------------------------
# The memory plan: minimum, recommended, why, what would change it, checkpoints (estimator values)


def _estimate(**kwargs) -> SizingReport:
    estimator = pytest.importorskip("estimator.sizing")
    return estimator.estimate(SizingRequest(**kwargs))


def _lines(html: str) -> list[str]:
    """The reply as a phone shows it, without the expandable details."""
    return telegram_html_text(html.split("<blockquote")[0]).splitlines()


def _all_lines(html: str) -> list[str]:
    """The whole reply, the expandable details too (issue #22: the plan, its reasons, checkpoints and
    the options moved behind the details toggle)."""
    return telegram_html_text(html).splitlines()


FT_7B = dict(params_total=7e9, gpu=A100, stage="finetune", method="full")
FT_70B = dict(params_total=70e9, gpu=A100, stage="finetune", method="full")
QLORA_70B_ONE_4090 = dict(params_total=70e9, gpu="RTX-4090", stage="finetune", method="qlora", gpu_count=1)


def test_7b_full_finetune_minimum_and_recommended_zh():
    """Estimator: 16 B/param model states = 112 GB → 2 × 80 GB with ZeRO-3 (as the seed says);
    a whole node recommended."""
    rep = _estimate(**FT_7B)
    assert (rep.memory.min_gpus, rep.memory.recommended_gpus) == (2, 8)
    html, text = both(rep, "zh")
    lines = _lines(html)
    assert lines[0] == "7B 全参微调：至少 2 张 A100 80G（ZeRO-3），推荐 8 张（1 台 8 卡）"
    assert "• 最少 2 张：TP 1 × PP 1 × DP 2，ZeRO-3，选择性重计算" in lines
    # s45: the recommended row carries its own memory per GPU (the chart is for the minimum's 2)
    rec = "• 推荐 8 张：TP 1 × PP 1 × DP 8，ZeRO-1，选择性重计算；每卡约 "
    assert any(line.startswith(rec) for line in lines)
    assert any(line.startswith("• 原因：") and "ZeRO-1" in line for line in _all_lines(html))
    assert "<pre>" in html  # the breakdown chart stays
    assert_telegram_html(html)
    assert_plain_text(text)


def test_7b_full_finetune_minimum_and_recommended_en():
    html, _ = both(_estimate(**FT_7B), "en")
    lines = _lines(html)
    assert lines[0] == "7B full fine-tuning: at least 2 × A100 80G (ZeRO-3), 8 recommended (one 8-GPU node)"
    assert "• Minimum 2 GPUs: TP 1 × PP 1 × DP 2, ZeRO-3, selective recompute" in lines
    # s45: the recommended row carries its own memory per GPU (the chart is for the minimum's 2)
    rec = "• Recommended 8 GPUs: TP 1 × PP 1 × DP 8, ZeRO-1, selective recompute; ≈ "
    assert any(line.startswith(rec) and line.endswith(" of 80 GiB per GPU") for line in lines)


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("zh", "• 检查点：仅权重 14 GB，完整训练状态（含优化器）112 GB"),
        ("en", "• Checkpoints: weights 14 GB, full training state (with optimizer) 112 GB"),
    ],
)
def test_7b_checkpoint_line_bf16_weights_and_16_bytes_per_param_state(lang, line):
    """7B: bf16 weights 2 × 7e9 = 14 GB; resumable AdamW state 16 × 7e9 = 112 GB."""
    assert line in _all_lines(render.render(make_answer(_estimate(**FT_7B), lang)))


@pytest.mark.parametrize(
    ("lang", "qlora_line"),
    [
        ("zh", "• 改用 QLoRA：1 张"),
        ("en", "• QLoRA instead: 1 GPU"),
    ],
)
def test_70b_full_finetune_alternatives_show_qlora_on_one_gpu(lang, qlora_line):
    rep = _estimate(**FT_70B)
    alts = {a.change: a.min_gpus for a in rep.memory.alternatives}
    assert alts["qlora"] == 1 and alts["adamw8bit"] == rep.memory.min_gpus == 16
    lines = _all_lines(render.render(make_answer(rep, lang)))
    assert qlora_line in lines
    assert not any("8-bit AdamW" in line for line in lines)  # same count as the minimum: not news
    assert lines[0].endswith("（3 台 8 卡）" if lang == "zh" else "(3 × 8-GPU nodes)")
    assert any("1.1 TB" in line for line in lines)  # 70B full state: 16 × 70e9 B


@pytest.mark.parametrize("lang", LANGS)
def test_qlora_70b_on_one_4090_does_not_fit(lang):
    """NF4 70B ≈ 36 GB of weights alone: more than one 24 GiB card (QLoRA paper: 65B needs 48 GB)."""
    rep = _estimate(**QLORA_70B_ONE_4090)
    # s24 trial #13: QLoRA keeps to data parallelism (ZeRO-3/FSDP-QLoRA shards the NF4 weights over 4;
    # TP 2, which
    # no QLoRA tool runs, fitted on 2)
    assert rep.memory.fits_requested is False and rep.memory.min_gpus == 4
    html, text = both(rep, lang)
    lines = _lines(html)
    if lang == "zh":
        assert lines[0].startswith("70B QLoRA 微调：1 张 RTX 4090 放不下，至少要 4 张")
        # data parallel: no count splits activations — an alternative that does not fit either is not shown
        assert "• 不用全量重计算：放不下" not in _all_lines(html)  # (s27 trial #5: it offered nothing)
    else:
        assert lines[0].startswith(
            "70B QLoRA fine-tuning does not fit on 1 × RTX 4090: at least 4 GPUs needed"
        )
        assert "• Without full recompute: does not fit" not in _all_lines(html)  # s27 trial #5
    said = notes.note_text(Note(code="does_not_fit_requested", params={"gpu_count": 1, "min_gpus": 4}), lang)
    assert said not in html  # the headline already says it
    assert any("NVLink" in line for line in _all_lines(html))  # why ZeRO before TP on a PCIe card
    assert_telegram_html(html)
    assert_plain_text(text)


@pytest.mark.parametrize(
    ("lang", "headline"),
    [
        # issue 25 item 1: ZeRO-1's band high end does not fit 4 × 80 GB; ZeRO-2's does (estimator.fit_change)
        ("zh", "7B 全参微调：4 张 A100 80G 放得下（ZeRO-2）；最少 2 张，推荐 8 张"),
        ("en", "7B full fine-tuning fits on 4 × A100 80G (ZeRO-2); at least 2, 8 recommended"),
    ],
)
def test_user_gpu_count_that_fits_is_answered_first(lang, headline):
    rep = _estimate(**FT_7B, gpu_count=4)
    lines = _lines(render.render(make_answer(rep, lang)))
    assert lines[0] == headline
    assert any(line.startswith("• 4 张时：" if lang == "zh" else "• On 4 GPUs:") for line in lines)


MEMORY_CASES = {
    "7b": FT_7B,
    "70b": FT_70B,
    "qlora-4090": QLORA_70B_ONE_4090,
    "7b-on-4": {**FT_7B, "gpu_count": 4},
    "7b-1b-tokens": {**FT_7B, "tokens": 1e9},
    "qwen-14b": dict(model="Qwen2.5-14B", gpu=A100, stage="finetune", method="full"),
}


@pytest.mark.parametrize("case", MEMORY_CASES)
@pytest.mark.parametrize("lang", LANGS)
def test_memory_replies_stay_short(case, lang):
    """Design §5: headline, at most 8 key lines, at most 4 alternatives, then advice and details."""
    html = render.render(make_answer(_estimate(**MEMORY_CASES[case]), lang))
    assert html_limits.visible_length(html) <= html_limits.TELEGRAM_MAX_CHARS
    assert_telegram_html(html)
    lines = _lines(html)
    headers = ("换个做法", "What would change", "Fewest GPUs")
    split = next((i for i, line in enumerate(lines) if line.startswith(headers)), len(lines))
    key = [line for line in lines[1:split] if line.startswith("• ")]
    alternatives = []
    for line in lines[split + 1 :]:
        if not line.startswith("• "):
            break
        alternatives.append(line)
    assert 2 <= len(key) <= 8, key
    assert len(alternatives) <= wording.MAX_ALTERNATIVES


@pytest.mark.parametrize(
    ("plan", "nvlink", "key"),
    [
        (Plan(dp=1), True, "single"),
        (Plan(dp=4, zero_stage=0), True, "ddp"),
        (Plan(dp=8, zero_stage=1), True, "zero"),
        (Plan(dp=8, zero_stage=3), True, "zero3"),
        (Plan(dp=8, zero_stage=3), False, "zero3_no_nvlink"),
        (Plan(tp=8, dp=1), True, "tp"),
        (Plan(tp=8, dp=3, zero_stage=2), True, "tp_dp"),
        (Plan(tp=4, dp=2, zero_stage=3), False, "tp_no_nvlink"),
        (Plan(tp=8, pp=4, dp=2, zero_stage=1), True, "tp_pp"),
        (Plan(pp=2, dp=4, zero_stage=1), False, "pp_no_nvlink"),
        (Plan(pp=2, dp=4, zero_stage=1), True, "pp_one_node"),  # s35 fixd #2: 8 GPUs, one node (was "pp")
        (Plan(pp=2, dp=8, zero_stage=1), True, "pp"),  # 16 GPUs: the stages sit on two nodes
        (Plan(tp=2, pp=2), True, "tp_pp_one_node"),  # 4 GPUs of one node (s35 fixd #2)
        (Plan(tp=4, pp=2), False, "tp_pp_no_nvlink"),
        (Plan(tp=8, pp=8), False, "tp_pp_nodes_no_nvlink"),  # 64 cards: the pipeline crosses machines
        (Plan(dp=2, zero_stage=2, offload=True), True, "offload"),
    ],
)
def test_plan_reason_follows_the_design_rules(plan, nvlink, key):
    """Design §3.5: DP + ZeRO while states fit; TP inside a node; PP across nodes; ZeRO-3/FSDP as the
    alternative; without NVLink ZeRO-3 before TP (estimator.memory.plan_preference)."""
    assert plan_text.plan_reason_key(plan, nvlink) == key
    for lang in LANGS:
        assert "%(" not in plan_text.plan_reason(plan, nvlink, lang)


def test_full_recompute_is_explained():
    plan = Plan(dp=2, zero_stage=3, recompute="full")
    assert plan_text.plan_reason(plan, True, "zh").endswith("；开全量重计算，因为不这样激活放不下")
    assert "full recompute" in plan_text.plan_reason(plan, True, "en")


def test_alternatives_equal_to_the_minimum_are_left_out():
    rep = memory_report()
    mem = rep.memory.model_copy(
        update={
            "alternatives": [
                Alternative(change="adamw8bit", min_gpus=4),
                Alternative(change="lora", min_gpus=1),
                Alternative(change="new_trick", min_gpus=2),
                Alternative(change="cpu_offload", min_gpus=None),
            ]
        }
    )
    ctx = context.build_context(rep.model_copy(update={"memory": mem}), "en")
    assert ctx["m"]["alternatives"] == [
        "LoRA instead: 1 GPU",
        "new_trick: 2 GPUs",
    ]  # 'With CPU offload: does not fit' offers nothing: left out too (s27 trial #5)


def test_training_reply_uses_the_reports_mfu_band():
    """The band comes from report.mfu, not from GPU-hour ratios."""
    rep = seed_report(mfu=Band(low=0.25, likely=0.4, high=0.55))
    html = render.render(make_answer(rep, "en"))
    assert "at 40% MFU" in html and "at 55% MFU to" in html and "at 25%)" in html


def test_days_table_singular_gpu_in_english():
    lora = {**FT_7B, "method": "lora"}  # fits on one card
    html = render.render(make_answer(_estimate(**lora, tokens=1e9), "en"))
    assert "1 GPU →" in html and "1 GPUs" not in html


def test_days_table_has_no_row_the_job_does_not_fit_on():
    """7B full fine-tuning needs at least 2 × 80 GB: no '1 GPU → …' row (fresh-user report)."""
    report = _estimate(**FT_7B, tokens=1e9)
    assert report.memory.min_gpus == 2
    assert min(r.gpus for r in report.days_table) >= 2


def test_budget_verdict_right_under_the_headline():
    from bot.core.pipeline import answer

    text = render.render(answer("13B模型训练2T token，预算50万人民币，用H20够吗？要多少张？"), "text")
    assert text.splitlines()[1].startswith("预算不够")


def test_comparison_answers_in_the_first_lines():
    """'A100 vs H100': the cheapest GPU is line 1, one line per GPU follows, then the details."""
    from bot.core.pipeline import answer

    lines = render.render(answer("A100 vs H100 for 7B 1T tokens"), "text").splitlines()
    assert lines[0].startswith("Lowest cost of the whole job: H100 80G")
    assert lines[1].startswith("• A100 80G: 93.5K A100-hours") and lines[2].startswith("• H100 80G:")


def test_cost_question_puts_the_cost_on_line_two():
    from bot.core.pipeline import answer

    en = render.render(answer("How much would it cost to pretrain a 7B model on 1T tokens on H100?"), "text")
    # 4.2e22 / (989.4e12 × 0.28 × 3600) = 42,113.1 → 42,114 billed H100-hours × $1.50–3.50 (prices.toml);
    # issue 25's refit moved the H100-class MFU 26 % → 28 % ($68,030 – $158,736 before)
    assert en.splitlines()[1] == "Cost: $63,171 – $147,399"
    zh = render.render(answer("7B模型1万亿token用H100训练要花多少钱"), "text")
    assert zh.splitlines()[1].startswith("费用：¥")
    plain = render.render(answer("7B模型1万亿token要多少A100"), "text")  # not asked: details only
    assert not plain.splitlines()[1].startswith("费用")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("with 3,900 × A100 80G ≈ 1 days", "with 3,900 × A100 80G ≈ 1 day"),
        ("(1 sequences) on 1 GPUs, 1 nodes", "(1 sequence) on 1 GPU, 1 node"),
        ("11 days, 21 GPUs, 0.1 days, 1,1 days", "11 days, 21 GPUs, 0.1 days, 1,1 days"),
    ],
)
def test_english_singulars(text, expected):
    assert env.english_singulars(text) == expected


def test_short_jobs_read_in_hours_and_cents():
    """A job under a day is given in hours, tiny GPU-hours with decimals, a cost in cents, and a
    started hour is billed (fresh-user report: '0 GPU-hours', '$0', '0.01 days')."""
    from bot.core.pipeline import answer

    text = render.render(answer("fine-tune 1B on 10M tokens on a 4090"), "text")
    first = text.splitlines()[0]  # a personal card named without a count: the one card the user has
    # the verdict on that card is borderline (1B full fine-tuning on 24 GB): line 1 says so after the time
    # s25: under an hour on the user's count, in minutes (0.34 h = 20.4 min), not "≈ 0.34 hours"
    assert (
        "with 1 × RTX 4090: about 20 minutes (15–32 minutes) (0.34 RTX 4090-hours)" in first
        and "days" not in first
    )
    assert "GPU-hours: 0.34 RTX 4090-hours" in text
    # s25 #17: the 0.34 GPU-hours shown above, named beside the one hour billed
    assert (
        "Cost: $0.30 – $0.80 (0.34 GPU-hours used, billed by the hour "
        "started: 1 GPU-hour × $0.30–0.80 per GPU-hour)"
    ) in text


def test_a_missed_deadline_is_said_under_the_headline():
    from bot.core.pipeline import answer

    lines = render.render(answer("Pretrain 7B on 1T tokens with 8 H100 in 1 day"), "text").splitlines()
    # 42,113 H100-hours (28 % MFU) / 8 / 24 ≈ 219 days; in one day, with the scale-out term beyond the
    # job's 80-GPU reference (issue 25): n ≥ (42,113 × 80^−0.12 / 24)^(1/0.88) → 2,680 GPUs
    # (236 days and 1,896 GPUs at 26 % without scale-out, before issue 25)
    assert lines[1].startswith("Not within 1 day: 8 GPUs take ≈ 219 days; the deadline needs ≈ 2,680 GPUs")


def test_tiny_jobs_never_print_zero():
    from bot.core.pipeline import answer

    text = render.render(answer("QLoRA Llama 3 8B on 1000 samples on one A100"), "text")
    assert "(0.05 A100-hours)" in text.splitlines()[0]  # 0.04 × 1.39 (QLoRA steps, s13 C3)
    assert " 0 days" not in text and "(0–0)" not in text and "PF-days = 0\\n" not in text
    small = render.render(answer("LoRA 7B on 5k samples on one 4090"), "text")
    # s43 fixtrial2: the note at the headline's 0.6 GPU-hours (full recompute ×1.5 on the 4090), was 0.4
    assert "A small job (≈ 0.6 GPU-hours)" in small and "(0.6 RTX 4090-hours)" in small.splitlines()[0]


def test_serving_comparison_rows_give_throughput_and_price_per_token():
    from bot.core.pipeline import answer

    lines = render.render(answer("A100、H100、H20部署70B对比"), "text").splitlines()
    # issue 22 item 7: the cheapest line names the load its price is at
    assert lines[0].startswith("每 token 最省钱：H20（30 条并发时每百万输出 token ¥")
    assert lines[1].startswith("• A100 80G：4 张，合计约 ") and "每百万输出 token ¥" in lines[1]
    assert lines[3].startswith("• H20：2 张，合计约 ")


def test_serving_cost_question_puts_the_monthly_cost_on_line_two():
    """Issue #22 item 10: the asked cost is in line 1 now (it was line 2)."""
    from bot.core.pipeline import answer

    lines = render.render(answer("部署Llama 3 70B用4张H100每月多少钱"), "text").splitlines()
    # 4 × 730 h × ¥15–40; issue 22 item 7: the price per token at the 111 sequences 4 × H100 hold
    # (¥18.07–48.17 at the assumed 16 before); issue 22 item 10: on line 1
    assert "每月 ¥43,800 – ¥116,800" in lines[0]
    # issue 25 item 3: the TP-4 all-reduce is charged (¥4.65–12.39 before); the fitted serving
    # efficiencies (MFU 0.675, bandwidth 0.50): ¥5.09–13.58 at the old 0.5 / 0.7
    assert "按这些卡最多能容纳的 111 条并发计，每百万输出 token ¥6.95–18.54" in lines[0]


def test_a_mac_is_a_machine_in_chinese():
    from bot.core.pipeline import answer

    text = render.render(answer("M2 Ultra 192GB能跑70B吗"), "text")
    assert "1 台 M2 Ultra" in text and "GPU 可用" in text and "张 M2" not in text and "每卡可用" not in text
