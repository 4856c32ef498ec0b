"""Session 33 fix A: the trial's flash attention and step-count defects (each fails before its fix)."""

from __future__ import annotations

import pytest

from bot.parse import parse
from tests.cli_run import ask_quietly

_RIG_EN = "Qwen2-72B Q4_K_M, 32k context, 3 x 3090"
_RIG_ZH = "Qwen2-72B Q4_K_M，上下文 32000，3 张 4090"


@pytest.mark.parametrize(
    ("text", "flash"),
    [
        (f"llama.cpp with -fa, {_RIG_EN}: enough?", True),  # a bare -fa: the flag before b6327 took no value
        (f"llama-server --flash-attn -c 32768, {_RIG_EN}: enough?", True),
        (f"llama-cpp-python flash_attn=True, {_RIG_EN}: enough?", True),
        (f"ollama, OLLAMA_FLASH_ATTENTION=true, {_RIG_EN}: enough?", True),
        (f"llama.cpp, {_RIG_EN}, with flash attention enabled: enough?", True),
        (f"llama.cpp, {_RIG_EN}, flash attention is on. enough?", True),
        (f"llama.cpp, {_RIG_EN}, without flash attention: enough?", False),
        (f"ollama, OLLAMA_FLASH_ATTENTION=0, {_RIG_EN}: enough?", False),
        (f"llama.cpp 跑 {_RIG_ZH}，开了 -fa，够吗", True),
        (f"llama.cpp 跑 {_RIG_ZH}，启用 FA，够吗", True),
        (f"llama.cpp 跑 {_RIG_ZH}，开启了 flash attention，够吗", True),
        (f"ollama 跑 {_RIG_ZH}，flash attention 已开启，够吗", True),
        (f"ollama 跑 {_RIG_ZH}，OLLAMA_FLASH_ATTENTION=1，够吗", True),
        (f"llama.cpp 跑 {_RIG_ZH}，关掉 flash attention，够吗", False),
        (f"ollama 跑 {_RIG_ZH}，OLLAMA_FLASH_ATTENTION=0，够吗", False),
        (f"llama.cpp 跑 {_RIG_ZH}，不开启 flash attention，够吗", False),
        (f"llama.cpp 跑 {_RIG_ZH}，够吗", None),  # unstated stays unstated
    ],
)
def test_flash_attention_said_is_read(text: str, flash: bool | None) -> None:
    r = parse(text)
    assert r.request.flash_attention is flash
    assert r.request.gpu_count == 3
    assert [u for u in r.unused_numbers if u[1] == "unread"] == []  # OLLAMA_FLASH_ATTENTION's 1 / 0: read


@pytest.mark.parametrize(
    "text",
    [
        f"llama.cpp with -fa, {_RIG_EN}: enough?",
        f"llama.cpp 跑 {_RIG_ZH}，开了 -fa，够吗",
    ],
)
def test_flash_on_is_not_told_to_turn_it_on(text: str) -> None:
    reply = ask_quietly(text)
    head = reply.splitlines()[0]
    assert "fits" in head or "放得下" in head
    assert "tight" not in head and "很紧" not in head and "without it" not in head and "不开则" not in head
    # s34-stack: the flag the user set is echoed in the model's label as used ('(llama.cpp, -fa on)'), never
    # told as advice
    assert reply.count("-fa on") == reply.count("llama.cpp, -fa on)") + reply.count("llama.cpp，-fa on）")


def test_ollama_names_its_own_switch_not_llama_cpp_flag() -> None:
    """Item 2: Ollama has no -fa; its switch is OLLAMA_FLASH_ATTENTION, off by default for Qwen2
    (ollama/ollama fs/ggml/ggml.go FlashAttention() at 008a6cae)."""
    en = ask_quietly("ollama qwen2:72b Q4_K_M, 32k context, 3 x 3090: enough?")
    head = en.splitlines()[0]
    assert "set OLLAMA_FLASH_ATTENTION=1" in head and "tight" in head
    assert "-fa" not in head and "b6327" not in en
    zh = ask_quietly("ollama 跑 qwen2:72b Q4_K_M，上下文 32000，3 张 4090，够吗")
    assert "设置 OLLAMA_FLASH_ATTENTION=1" in zh.splitlines()[0]
    assert "-fa" not in zh.splitlines()[0] and "b6327" not in zh


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("llama.cpp Qwen3-32B Q4_K_M, 64k context, 2 x 3090: enough?", ("borderline", "flash_unstated")),
        ("ollama Qwen3-32B Q4_K_M, 64k context, 2 x 3090: enough?", ("yes", None)),  # on by default
        ("ollama 跑 Qwen3-32B Q4_K_M，上下文 64k，2 张 3090，够吗", ("yes", None)),
        ("ollama qwen2:72b Q4_K_M, 32k context, 3 x 3090: enough?", ("borderline", "flash_unstated_ollama")),
    ],
)
def test_ollama_flash_default_per_family(text: str, verdict: tuple[str, str | None]) -> None:
    import json

    report = json.loads(ask_quietly("--format", "json", text))["report"]
    assert (report["feasible"], report["feasible_reason"]) == verdict


def _used_step_item(text: str) -> dict[str, str]:
    import json

    data = json.loads(ask_quietly("--format", "json", text))
    return next(i for i in data["interpretation"]["ignored"] if i["reason"].startswith("steps_"))


@pytest.mark.parametrize(
    ("text", "said", "reason"),
    [  # item 3: only what was assumed is said to be
        # s34 #7: 64 = micro-batch 1 (assumed) × their accumulation 8 × 8 GPUs: the batch is half stated
        (
            "8 张 A100 全参微调 Qwen2.5-7B，梯度累积 8，跑一千步要多久",
            "1,000 × 64 × 2,048",
            "steps_accum_batch_length",
        ),
        (
            "8 x A100 full fine-tune Qwen2.5-7B, gradient accumulation 8: how long for 1000 steps?",
            "1,000 × 64 × 2,048",
            "steps_accum_batch_length",
        ),
        (
            "8 x A100 full fine-tune Qwen2.5-7B, seq len 4096: how long for 1000 steps?",
            "1,000 × 128 × 4,096",
            "steps_default_global",
        ),
        (
            "8 张 A100 全参微调 Qwen2.5-7B，序列长度 4096，跑一千步要多久",
            "1,000 × 128 × 4,096",
            "steps_default_global",
        ),
        ("8 张 A100 全参微调 Qwen2.5-7B，跑一千步要多久", "1,000 × 128 × 2,048", "steps_default_batch"),
        # GRPO: verl's 1,024 prompts × rollout.n only when verl is named; else the fine-tuning 128
        ("8 x A100 GRPO Qwen2.5-7B: how long for 500 steps?", "500 × 128 × 2,048", "steps_default_batch"),
        (
            "verl GRPO Qwen2.5-7B，8 张 A100，rollout.n 8，跑 500 步要多久",
            "500 × 8,192 × 1,024",  # verl's own 512 + 512 (s51 trial #4)
            "steps_default_batch",
        ),
    ],
)
def test_steps_say_only_what_was_assumed(text: str, said: str, reason: str) -> None:
    item = _used_step_item(text)
    assert said in item["text"] and item["reason"] == reason


def test_steps_wording_in_both_languages() -> None:
    en = ask_quietly("8 x A100 full fine-tune Qwen2.5-7B, gradient accumulation 8: how long for 1000 steps?")
    line = next(x for x in en.splitlines() if "1,000 × 64" in x)
    # s34 #7: the accumulation is theirs, the micro-batch assumed: never 'your global batch'
    assert "your gradient accumulation × the micro-batch per GPU" in line and "your global batch" not in line
    assert "both assumed" not in line
    zh = ask_quietly("8 张 A100 全参微调 Qwen2.5-7B，梯度累积 8，跑一千步要多久")
    line = next(x for x in zh.splitlines() if "1,000 × 64" in x)
    assert "全局批大小 = 你的梯度累积 × 每卡微批次" in line and "你的全局 batch" not in line
    assert "二者均为假设值" not in line
