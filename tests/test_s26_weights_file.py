"""s26-verd2: a weights-file size said beside a named model ('模型文件 21G', 'the gguf is 40 GB', 'the weights
take 21GB') is named as not used, with why (``weights_file``: the weights are sized from the model and its
format, estimator.weights), never 'no word said what it is'; with no model it is still the weights' size
(bot.parse.weight_size, session 18)."""

from __future__ import annotations

import pytest

from bot.parse import parse
from tests.real_questions import answer_json


def _reasons(text: str) -> dict[str, str]:
    return {i["text"]: i["reason"] for i in answer_json(text)["interpretation"]["ignored"]}


@pytest.mark.parametrize(
    "text, said",
    [
        ("serve Llama-3.1-70B Q4_K_M on 2 RTX 3090, the gguf is 40 GB", "40"),
        ("serve Qwen2.5-32B AWQ with vLLM on one 4090, the weights take 21GB", "21"),
        ("用 vLLM 跑 Qwen2.5-32B-Instruct-AWQ，一张 4090，模型文件 21G，能跑吗？", "21"),
    ],
)
def test_a_file_size_beside_a_named_model_is_named_with_why(text, said):
    assert _reasons(text).get(said) == "weights_file"


def test_zh_reply_says_why():
    from bot.cli import ask

    out = ask("用 vLLM 跑 Qwen2.5-32B-Instruct-AWQ，一张 4090，模型文件 21G，能跑吗？", None, "text")[0]
    assert "模型权重文件的大小" in out


def test_without_a_model_the_file_is_the_weights_size():
    # 40e9 bytes ÷ 2 bytes per bf16 parameter (no format said of the file) = 20e9 parameters
    assert parse("the gguf is 40 GB, how many 3090s to serve it?").request.params_total == pytest.approx(20e9)
