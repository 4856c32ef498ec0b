"""Session 27 second fresh-user trial (merged tree 5c096a00), its top findings as a user would expect, in both
languages.

#1 '4k prompt and 1k output' was sized at 4K with "Not used: '1k'": the word 'prompt' (提示词) before or after
the number is each request's input, as 'input' is, and the output is added to it (the sequence a request holds
in the KV cache: '4k input and 1k output tokens' was already 5,000, the sum of 4,000 and 1,000).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def ask(capsys: pytest.CaptureFixture[str], question: str, fmt: str = "json") -> object:
    assert main(["ask", "--format", fmt, question]) == 0
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


_EN = "serve Llama-3.3-70B on H200 with SGLang, 100 concurrent users, "
_ZH = "用 SGLang 在 H200 上部署 Llama-3.3-70B，100 并发，"


@pytest.mark.parametrize(
    "question",
    [
        _EN + "4k prompt and 1k output",
        _EN + "4k prompt + 1k output",
        _EN + "4k prompts and 1k output tokens",
        _EN + "prompt 4k, output 1k",
        _ZH + "输入 4k 输出 1k",
        _ZH + "提示词 4k，输出 1k",
        _ZH + "4k 提示词、1k 输出",
        _ZH + "prompt 长度 4k，输出 1k",
    ],
)
def test_prompt_is_the_input_plus_output(capsys: pytest.CaptureFixture[str], question: str) -> None:
    data = ask(capsys, question)
    assert data["request"]["seq_len"] == 5000
    assert data["request"]["concurrency"] == 100
    text = ask(capsys, question, "text")
    assert "1k" not in text.splitlines()[1]  # no "Not used: '1k'"
    assert "5,000" in text.splitlines()[0]


def test_prompt_alone_is_still_the_context(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, _EN + "4k prompts")
    assert data["request"]["seq_len"] == 4096  # a context alone: 4K
