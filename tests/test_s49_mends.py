"""Session 49 (mends, issue 23 items 2, 3, 5): one declaration where two modules wrote the same thing, and a
field named for what it means. No behaviour changes: each test reads real values of ``ask(..., "json")``
(English and Chinese sentences of our own) as they were before the change.

1. The negated merge ('without merging', 'unmerged', '不要合并') is declared once
   (bot.parse.served_adapters.NOT_MERGED_RE), read by bot.parse.merge_asked and inside KEPT_APART_RE.
2. bot.core.interpretation keys the tool read through its script on the read's reason
   (bot.parse.script_reads.TOOL_READ), no longer on the script reader's item texts repeated as literals.
3. ``GpuMention.modded`` → ``memory_per_card_stated``: a modified card's memory ('2080ti 魔改 22G') and a
   memory glued to the name ('A800-128G') alike are one card's, never a total.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import ask
from bot.parse import merge_asked, served_adapters
from bot.parse.gpus import GpuMention, extract_gpus


def _json(question: str) -> dict:
    out, code = ask(question, None, "json")
    assert code == 0
    return json.loads(out)


def _ignored(d: dict) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in d["interpretation"]["ignored"]]


# 1. The negated merge, one declaration -------------------------------------------------------------------


def test_the_negated_merge_is_one_pattern_read_by_both_modules() -> None:
    assert merge_asked.NOT_MERGED_RE is served_adapters.NOT_MERGED_RE
    assert not hasattr(merge_asked, "_NOT_MERGED_RE")
    assert served_adapters.NOT_MERGED_RE.pattern in served_adapters.KEPT_APART_RE.pattern
    source = Path(merge_asked.__file__).read_text(encoding="utf-8")
    assert "不需要|未|没有?|别" not in source  # the alternation is written in served_adapters only


@pytest.mark.parametrize(
    "text",
    [
        "serve it without merging the adapter",
        "the lora stays unmerged",
        "we do not merge it",
        "lora 不要合并，挂着适配器",
        "适配器不用融合",
        "没有合并",
    ],
)
def test_the_shared_pattern_reads_a_merge_said_not_to_be_done(text: str) -> None:
    assert served_adapters.NOT_MERGED_RE.search(text)
    assert served_adapters.KEPT_APART_RE.search(text)


@pytest.mark.parametrize(
    "text",
    [
        "merge the lora then serve",
        "merging the qlora weights",
        "把 lora 合并回基座",
        "lora 合并后部署",
        "nonmerge",
    ],
)
def test_the_shared_pattern_does_not_read_a_merge_asked(text: str) -> None:
    assert served_adapters.NOT_MERGED_RE.search(text) is None


@pytest.mark.parametrize(
    ("question", "merge", "adapters"),
    [
        # served unmerged: the adapters named (no setting for them), no merge asked
        (
            "Serve Llama 3.1 8B on one A100 with vLLM and a LoRA adapter, without merging it: memory?",
            None,
            True,
        ),
        ("Qwen2.5-7B 用 vLLM 部署在一张 A100 上，LoRA 不要合并，挂着适配器，需要多少显存", None, True),
        # a merge asked is still the merge
        ("How much memory to merge a LoRA adapter into Llama 3.1 70B?", True, False),
        ("把 Qwen2.5-72B 的 LoRA 合并回基座需要多少内存？", True, False),
        # merged, then served: one model, no adapter
        (
            "Merge the LoRA into Llama 3.1 8B, then serve it on one A100 with vLLM: how much memory?",
            True,
            False,
        ),
        ("Qwen2.5-7B 的 LoRA 合并后用 vLLM 部署在一张 A100 上，需要多少显存", None, False),
    ],
)
def test_a_negated_merge_serves_adapters_and_a_merge_is_not_misread(
    question: str, merge: bool | None, adapters: bool
) -> None:
    d = _json(question)
    assert d["request"]["merge_asked"] is merge and d["request"]["stage"] == "inference"
    assert (("method: lora", "no_field") in _ignored(d)) is adapters


# 2. The tool read through its script, keyed on the read's reason ------------------------------------------


def test_the_script_reader_exports_the_tool_each_read_reads_through() -> None:
    from bot.core.ignored_reasons import USED_REASONS
    from bot.parse.script_reads import DSCHAT, TOOL_READ
    from bot.parse.stack_words import FINE_TUNING_TOOLS

    assert TOOL_READ == {"script_defaults": DSCHAT, "script_reference": DSCHAT}
    assert set(TOOL_READ) <= USED_REASONS and "script_tool" in USED_REASONS
    assert DSCHAT in FINE_TUNING_TOOLS  # the name bot.parse.stack_words gives the tool named in words
    source = (
        Path(__file__).resolve().parents[1].joinpath("bot/core/interpretation.py").read_text(encoding="utf-8")
    )
    assert '"training_tool: DeepSpeed-Chat"' not in source and '"script: DeepSpeed-Chat' not in source


@pytest.mark.parametrize(
    ("question", "read"),
    [
        ("Train OPT-1.3B with DeepSpeed-Chat step 1 on 8 A100: how much memory per GPU?", "script_defaults"),
        ("用 DeepSpeed-Chat 第一步 SFT 在 8 张 A100 上微调 OPT-1.3B，每张卡显存多少", "script_defaults"),
        (
            "DeepSpeed-Chat step 3 RLHF of opt-1.3b with LoRA on 4 A100 80G, how much memory?",
            "script_reference",
        ),
        ("用 DeepSpeed-Chat 第三步 PPO 训练 OPT-1.3B，LoRA actor，8 张 A100，显存够吗", "script_reference"),
    ],
)
def test_deepspeed_chat_named_beside_its_script_read_is_used_through_it(question: str, read: str) -> None:
    d = _json(question)
    named = _ignored(d)
    assert ("training_tool: DeepSpeed-Chat", "script_tool") in named
    assert ("training_tool: DeepSpeed-Chat", "no_field") not in named
    assert any(reason == read and text.startswith("script: DeepSpeed-Chat step ") for text, reason in named)
    assert d["request"]["stage"] == "finetune"


@pytest.mark.parametrize(
    "question",
    [
        "Fine-tune OPT-1.3B with DeepSpeed-Chat on 8 A100, batch size 4, seq len 1024: memory per GPU?",
        "用 DeepSpeed-Chat 微调 OPT-1.3B，8 张 A100，batch 4，长度 1024，每张卡显存多少",
    ],
)
def test_deepspeed_chat_with_no_script_read_keeps_its_own_reason(question: str) -> None:
    d = _json(question)
    assert not any(reason.startswith("script_") for _, reason in _ignored(d))
    assert d["request"]["batch_size"] == 4 and d["request"]["seq_len"] == 1024


# 3. memory_per_card_stated ---------------------------------------------------------------------------------


def test_gpu_mention_names_a_memory_stated_per_card() -> None:
    assert "modded" not in GpuMention.__dataclass_fields__
    assert GpuMention(0, "RTX-4090", 48.0, memory_per_card_stated=True).memory_per_card_stated


@pytest.mark.parametrize(
    ("text", "per_card"),
    [
        ("2 a800-128g 能跑", True),  # glued to the name: a variant's memory
        ("两张 2080ti 魔改 22g 能跑", True),  # a modified card's
        ("two rtx 4090 modded to 48gb", True),
        ("2x rtx 3090 48gb serving", False),  # written apart: may be the cards' total
        ("8 x a100 80g", False),
    ],
)
def test_memory_per_card_stated_is_what_the_reader_found(text: str, per_card: bool) -> None:
    assert [g.memory_per_card_stated for g in extract_gpus(text)[1]] == [per_card]


@pytest.mark.parametrize(
    ("question", "gpu", "gib"),
    [
        ("2 A800-128G 能跑 Qwen2.5-72B 推理吗", "A800-80GB", 128.0),
        ("Can 2 A800-128G serve Qwen2.5-72B?", "A800-80GB", 128.0),
        ("两张 2080ti 魔改 22G 能跑 Qwen2.5-14B 的 bf16 推理吗", "RTX-2080-Ti", 22.0),
        ("Two RTX 4090 modded to 48GB: can they serve Qwen2.5-32B in bf16?", "RTX-4090", 48.0),
    ],
)
def test_a_memory_stated_per_card_is_sized_per_card(question: str, gpu: str, gib: float) -> None:
    d = _json(question)
    assert (d["request"]["gpu"], d["request"]["gpu_count"], d["request"]["gpu_memory_gib"]) == (gpu, 2, gib)
    assert not any(reason in ("cards_total", "over_card") for _, reason in _ignored(d))


@pytest.mark.parametrize(
    "question",
    ["2x RTX 3090 48GB serving Qwen2.5-14B in bf16?", "两张 RTX 3090 一共 48GB 显存，部署 Qwen2.5-14B 够吗"],
)
def test_a_memory_written_apart_may_still_be_the_cards_total(question: str) -> None:
    d = _json(question)
    assert d["request"]["gpu"] == "RTX-3090" and d["request"]["gpu_count"] == 2
    assert d["request"]["gpu_memory_gib"] in (None, 24.0)  # the cards' 48 GB together, 24 GB each


# 5. Other tables written twice, now declared once ----------------------------------------------------------


def test_the_gguf_types_are_the_estimators_one_list() -> None:
    from bot.core import family_fits
    from bot.render.local_layout import GGUF_NAMES
    from estimator.runtimes import GGUF_FORMATS

    assert family_fits.GGUF_FORMATS is GGUF_FORMATS
    assert {str(f.value): str(f.value).upper() for f in GGUF_FORMATS} == GGUF_NAMES
    assert GGUF_NAMES["q4_k_m"] == "Q4_K_M" and GGUF_NAMES["q8_0"] == "Q8_0" and len(GGUF_NAMES) == 9
    assert all(type(k) is str for k in GGUF_NAMES)  # the request's JSON names, not enum members


@pytest.mark.parametrize(
    "question",
    [
        "Serve Llama 3.1 8B in Q4_K_M on one RTX 4090 with llama.cpp: how fast?",
        "一张 4090 用 llama.cpp 跑 Qwen2.5-14B Q4_K_M 够吗",
    ],
)
def test_a_gguf_type_is_still_named_as_llama_cpp_writes_it(question: str) -> None:
    d = _json(question)
    assert d["request"]["precision"] == "q4_k_m" and d["request"]["runtime"] == "llama.cpp"
    text, _ = ask(question, None, "text")
    assert "Q4_K_M" in text and "q4_k_m" not in text


def test_a_family_on_a_card_still_lists_gguf_sizes_by_their_names() -> None:
    d = _json("一张 3060 12G 能跑千问3 的哪个版本")
    assert d["answered"] == "family_fits" and d["family_fits"]["family"] == "Qwen3"
    formats = {row["weight_format"] for row in d["family_fits"]["sizes"]}
    assert "q4_k_m" in formats
    text, _ = ask("一张 3060 12G 能跑千问3 的哪个版本", None, "text")
    assert "Q4_K_M" in text.splitlines()[0]


def test_the_chinese_day_words_are_one_declaration() -> None:
    from bot.parse import daily_hours, schedule_words

    assert schedule_words.DAY_WORD in schedule_words.DAILY_RE.pattern
    assert schedule_words.RUN_VERB in schedule_words.DAILY_RE.pattern
    assert (
        daily_hours._DAY_WORD_RE.pattern
        == rf"^\s*{schedule_words.DAY_WORD}\s*(?:只)?{schedule_words.RUN_VERB}?"
    )
    assert (
        daily_hours.schedule_hours("每天只用 8 小时") == 8 and daily_hours.schedule_hours("一天十小时") == 10
    )


@pytest.mark.parametrize(
    ("question", "hours"),
    [
        ("Qwen2.5-7B 用 vLLM 部署在一张 A100 上，每天只跑 8 小时，一个月多少钱", 8.0),
        ("白天用 10 小时，Qwen2.5-14B 部署两张 4090，每月多少钱", 10.0),
        ("Serve Qwen2.5-7B on one A100 with vLLM, 8 hours a day: monthly cost?", 8.0),
        (
            "Qwen2.5-7B 部署在一张 A100 上，每天 1 万个请求，一个月多少钱",
            None,
        ),  # a day's requests, no schedule
        ("Serve Qwen2.5-7B on one A100, 10k requests a day: monthly cost?", None),
    ],
)
def test_a_daily_schedule_is_read_as_before(question: str, hours: float | None) -> None:
    assert _json(question)["request"]["hours_per_day"] == hours


def test_the_joined_name_cue_and_its_reader_share_their_words() -> None:
    from bot.parse import bare_size, coined_names

    for part in (bare_size.USING, bare_size.JOB_WORD):
        assert part in bare_size.JOINED_CUE.pattern and part in coined_names.SIZED_JOB_RE.pattern


@pytest.mark.parametrize(
    ("question", "unknown"),
    [
        ("用 Chinese-Vicuna 推理 13B 要多少显存", "Chinese-Vicuna"),
        ("Using Foo-Chat to serve 13B, how much GPU memory?", "Foo-Chat"),
        ("用 LLaMA-Factory 微调 7B 要几张 A100", None),  # a tool's name, not a model's
        ("Using Open-Sora to train 1B on 8 H100, how long?", None),
    ],
)
def test_a_joined_name_running_a_size_is_read_as_before(question: str, unknown: str | None) -> None:
    d = _json(question)
    assert d["interpretation"]["unknown_model"] == unknown
    assert d["request"]["params_total"] in (13e9, 7e9, 1e9)
