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
    assert "-fa on" not in reply
