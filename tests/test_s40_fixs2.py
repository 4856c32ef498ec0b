"""Session 40 fixs2: serving answers from a fresh-user trial, second wave.

1. A card written in prose on the same line as a pasted serving command, after a flag that takes no value
   ('… --trust-remote-code on 8xH200, how many users?'): the flag took 'on' as its value (llama.cpp's
   '-fa on' keeps that reading), and the comma after '8xH200' ended the command *after* the card, so the
   card was read as a positional word of the command and the answer was sized on the default A100. A
   bare word closed by a comma after the command's flags is the sentence again
   (bot.parse.configs.command_end).
"""

from __future__ import annotations

import pytest

from bot.parse import parse
from bot.parse.configs import command_end

SGLANG = "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 --trust-remote-code"
VLLM = "vllm serve Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 4 --enforce-eager"


@pytest.mark.parametrize(
    ("question", "gpu", "count", "concurrency"),
    [
        (f"{SGLANG} on 8xH200, how many users?", "H200-SXM-141GB", 8, None),
        (f"{SGLANG} on 8xH200, 64 concurrent users, how many tokens/s?", "H200-SXM-141GB", 8, 64),
        (f"{VLLM} on 4xH100, how many users?", "H100-SXM5-80GB", 4, None),
        (f"{VLLM} on 4xH100; how many users?", "H100-SXM5-80GB", 4, None),
        (f"{VLLM} 在 4xH100 上，64 并发，吞吐多少？", "H100-SXM5-80GB", 4, 64),
        (f"{SGLANG} 跑在 8xH200，能支持多少用户？", "H200-SXM-141GB", 8, None),
    ],
)
def test_card_in_prose_beside_a_command(question: str, gpu: str, count: int, concurrency: int | None) -> None:
    req = parse(question).request
    assert (req.gpu, req.gpu_count) == (gpu, count)
    assert req.concurrency == concurrency


def test_command_end_before_a_bare_word_a_comma_closes() -> None:
    line = f"{VLLM} on 4xH100, how many users?"
    assert line[: command_end(line, 0)].rstrip() == f"{VLLM} on"
    # a flag's value closed by a comma stays in the command (round 7)
    line = "vllm serve m --max-model-len 8192, how much memory?"
    assert line[: command_end(line, 0)] == "vllm serve m --max-model-len 8192"
    # a positional word before any flag stays too ('vllm serve llama3, …')
    line = "vllm serve llama3, how much memory?"
    assert line[: command_end(line, 0)] == "vllm serve llama3"
    # a file or key=value word after the flags is the command's own
    line = "llama-server -fa on model.gguf, how fast?"
    assert line[: command_end(line, 0)] == "llama-server -fa on model.gguf"
