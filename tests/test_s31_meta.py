"""s31 metamorphic sweep (tests/metamorphic.py): a question written another way means what it meant.

The families fixed here, in both languages, with sentences of our own (never a corpus record): full-width
digits, letters and spaces read as ASCII everywhere (not only after the text normalization); markdown
emphasis and code spans around a word unwrapped before '**' is read as a power ('Llama 2 **70B**' was
2⁷⁰); a long hyphenated name beside a pasted call is a word, not noise. Then a fixed sample of the sweep.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import ask
from bot.parse.plain_forms import plain_forms
from tests import metamorphic as mm
from tests import real_questions as rq


def _request(text: str) -> dict[str, Any]:
    out, _ = ask(text, None, "json")
    return json.loads(out)["request"]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # zh: full-width digits and letters as a Chinese input method types them
        ("８ 张 Ａ１００ 80G 全参微调 Qwen2.5-7B，要多久？", {"gpu_count": 8, "model": "Qwen2.5-7B"}),
        ("用 ４ 卡 4090 部署 Qwen２.５-１４B，上下文 32k，够吗？", {"gpu_count": 4, "model": "Qwen2.5-14B"}),
        # zh: the ideographic space between words
        (
            "两张\u3000H100\u3000LoRA\u3000微调\u3000Llama-3-8B\u3000要多久？",
            {"gpu_count": 2, "method": "lora"},
        ),
        # zh: markdown bold and code around a size and a card
        ("**4 张** `A800` 全参微调 Qwen2.5 **14B**，显存够吗？", {"gpu_count": 4, "params_total": 14.8e9}),
        # en: bold after a family and a version: no power 2**70
        ("Can I fine-tune Llama 2 **70B** on 8x A100 80GB?", {"model": "Llama-2-70B", "gpu_count": 8}),
        ("Serving DeepSeek-R1 **671B** on two H100*8 nodes at **32k** context", {"model": "DeepSeek-R1"}),
        # en: code spans around a card and a model
        ("Running `Qwen2.5-7B` on 2x `A100` 80GB with vLLM: how many users?", {"gpu_count": 2}),
        # en: full-width digits and the ideographic space
        ("LoRA on Llama-3-８B with ４ L40S, how long for 1B tokens?", {"gpu_count": 4, "method": "lora"}),
        ("QLoRA\u3000Qwen2.5-32B\u3000on\u3000one\u3000RTX 4090", {"method": "qlora", "gpu_count": 1}),
    ],
)
def test_a_question_written_another_way_is_read_the_same(text: str, want: dict[str, Any]) -> None:
    request = _request(text)
    for key, value in want.items():
        got = request.get(key)
        assert got == value or (isinstance(value, float) and rq._close(value, got, 0.1)), (key, got)


def test_a_long_model_name_beside_a_pasted_call_is_not_noise() -> None:
    """The name of 26 characters ('Meta-Llama-3-70B-Instruct:') was no word, the call's tokens none
    either: under half the message in words, and the prose without the name named no model."""
    text = (
        "TurboMind stops with 'out of tokens' for Meta-Llama-3-70B-Instruct: "
        "pipeline('meta-llama/Meta-Llama-3-70B', backend_config=TurbomindEngineConfig(session_len=9000, "
        "cache_max_entry_count=0.3, tp=4)) on prompts of about 6K tokens. What do I change?"
    )
    request = _request(text)
    assert request["model"] == "Llama-3-70B" and request["tp"] == 4 and request["stage"] == "inference"


@pytest.mark.parametrize(
    "text",
    [
        "2**30 bytes is 1 GiB",  # Python's power: two numbers around '**'
        "```yaml\nbf16: true\n```",  # a fenced block: a run of backticks
        "8卡，每张 80G（SXM）：训多久？",  # full-width punctuation stays as typed
        "a * b ** c",  # spaces inside: no emphasis
    ],
)
def test_what_is_no_emphasis_and_no_wide_character_is_left_as_typed(text: str) -> None:
    assert plain_forms(text) == text


def test_plain_forms_unwraps_and_folds() -> None:
    assert plain_forms("Llama 2 **70B** on `A100`") == "Llama 2 70B on A100"
    assert plain_forms("８ 张\u3000Ａ１００ｓ") == "8 张 A100s"
    assert plain_forms(plain_forms("**８B**")) == "8B"


def test_powers_are_still_read_as_powers() -> None:
    """Must not misread: '2**40 FLOPs'-style powers keep their reader (bot.parse.normalize._POWER_RE)."""
    from bot.parse.normalize import prepare

    # s43 fixread2: the power's value is written '%g' ('1.09951e+12'), then out in full by normalize's
    # scientific-notation rule (bot.parse.sci_numbers: 'Xe+N' is one plain number): the same value
    assert "1099510000000" in prepare(plain_forms("a budget of 2**40 tokens"))[0]


def test_each_family_rewrites_as_declared() -> None:
    """The sweep's rewrites: numbers, names and cards in other spellings; Chinese ↔ Arabic numerals."""
    forms = {t for _, t in mm.memory_units("8 张 A100 80G", "zh")}
    assert "8 张 A100 80GB" in forms and "8 张 A100 80 GB" in forms
    assert {t for _, t in mm.magnitudes("1万亿 token", "zh")} >= {"10000亿 token", "1T  token"}
    assert ("full", "128k 上下文".replace("128k", "131072")) in set(mm.k_lengths("128k 上下文", "zh"))
    assert ("arabic>cn", "八张 A100") in set(mm.numerals("8张 A100", "zh"))
    assert ("cn>arabic", "16张 A100") in set(mm.numerals("十六张 A100", "zh"))
    assert ("word", "eight A100s") in set(mm.counts("8x A100s", "en"))
    assert {t for _, t in mm.model_spellings("Qwen2.5-7B", "zh")} == {
        "qwen2.5 7b",
        "Qwen2.5 7B Instruct",
        "千问2.5 7B",
    }
    assert "Meta-Llama-3-8B-Instruct" in {t for _, t in mm.model_spellings("Llama-3-8B", "en")}
    assert "A100-80GB" in {t for _, t in mm.gpu_spellings("A100 80G", "en")}


def test_the_sweep_reads_working_splits_only() -> None:
    assert all(s.endswith("work") for s in mm.WORKING_SPLITS) and "r8" not in mm.WORKING_SPLITS


SAMPLE = ("zh-025", "zh-076", "zh-113", "en-001", "en-042", "en-050", "en-092", "en20-012")
"""Working-split records whose markdown and full-width rewrites broke before s31 (the census in
tests/data/metamorphic_census.md)."""


def test_a_sample_of_the_sweep_holds() -> None:
    recs = [r for r in rq.records("work") + rq.records("r20work") if r["id"] in SAMPLE]
    assert len(recs) == len(SAMPLE)
    families = {"markdown", "widths"}
    outcomes = mm.sweep(recs, jobs=1, families=families)
    broken = [(o.rid, o.family, o.variant, o.missed, o.drifted) for o in outcomes if o.broken]
    kinds = {"bold", "backticks", "full-digits", "ideographic-space"}
    assert [b for b in broken if b[2] in kinds] == []
    assert len(outcomes) >= 3 * len(SAMPLE)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (
            "服务器有四张显卡，每张 24GB，用 ollama 跑 qwen2.5 14b 够吗？",
            {"gpu_count": 4, "gpu_memory_gib": 24.0},
        ),
        (
            "我们有三台机器，每台十六张 32G 的卡，全参 SFT 一个 70B 要多久？",
            {"gpu_count": 48, "gpu_memory_gib": 32.0},
        ),
        ("两张 H20 做推理，六张 H20 训练，GRPO 微调 Qwen2.5-7B 要多久？", {"gpu_count": 8}),
        ("两台八卡 A100 预训练 7B，1万亿 token，三个月够吗？", {"gpu_count": 16, "deadline_days": 90.0}),
    ],
)
def test_a_count_in_chinese_numerals_is_the_count(text: str, want: dict[str, Any]) -> None:
    request = _request(text)
    assert {k: request.get(k) for k in want} == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("四张显卡", "4张显卡"),
        ("十六张卡", "16张卡"),
        ("每台 九十九 台", "每台 99 台"),
        ("一机八卡", "一机八卡"),  # N机M卡: read whole by its own reader, echoed as typed (s31 merge)
        ("一机多卡，每一张卡 24G", "一机多卡，每一张卡 24G"),  # phrases of 一: single node, each card
        ("千卡集群", "千卡集群"),  # a cluster's size word, its own reader
        ("单卡和双卡", "单卡和双卡"),
        ("一块钱两张", "一块钱2张"),  # money: 块钱 is no card
        ("第三张卡", "第三张卡"),  # an ordinal
        ("两三张卡", "两三张卡"),  # two or three: no one count
        ("三十二张", "32张"),
        ("一天只开8小时，三个月", "一天只开8小时，三个月"),  # time: a rate per day, its own reader
    ],
)
def test_chinese_numerals_before_a_classifier_only(text: str, want: str) -> None:
    from bot.parse.plain_forms import arabic_counts

    assert arabic_counts(text) == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Llama3-70B 8192 全参数微调至少需要多少张 A100 80G？", {"seq_len": 8192}),
        ("32 张 H800 跑 7B 的 16384 DPO 全参训练要多久？", {"seq_len": 16384, "gpu_count": 32}),
        ("Qwen2.5-7B 32768 inference on one H100: how many users?", {"seq_len": 32768}),
    ],
)
def test_a_length_written_in_full_before_the_job_is_the_length(text: str, want: dict[str, Any]) -> None:
    request = _request(text)
    assert {k: request.get(k) for k in want} == want


@pytest.mark.parametrize(
    "text",
    ["global batch 4096 训练 7B", "bs 8192 训练", "steps: 2048 训练", "a 2048x 训练", "v8192 训练"],
)
def test_a_batch_or_step_in_full_is_no_length(text: str) -> None:
    from bot.parse.plain_forms import in_thousands

    assert in_thousands(text) == text
