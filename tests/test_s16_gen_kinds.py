"""The working splits' remaining failures, fixed by kind (issue 24, session 16): each kind is a way of
writing that defeated the reader, read by one rule for the whole axis, tested in both languages through
the CLI (``sizing-bot ask --format json``). The sentences are written for these tests (none is from the
real-question corpus)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_in_process


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_in_process(capsys, text)


def substitutions(data: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """typed → (used, reason) of the answer's substitutions."""
    subs = (data.get("interpretation") or {}).get("substitutions") or []
    return {s["typed"]: (s["used"], s["reason"]) for s in subs}


GLM_NO_VERSION = [
    ("glm-6b 全量微调要几张 A100？", "glm-6b"),
    ("用 4 张 3090 做 GLM 6B 的 LoRA 微调够吗", "GLM 6B"),
    ("glm 6b 推理要多少显存", "glm 6b"),
    ("How much memory does a LoRA of glm-6b need on one 4090?", "glm-6b"),
    ("Full fine-tuning GLM-6B on 8 V100: enough?", "GLM-6B"),
    ("serving glm 6b with vLLM on an L4", "glm 6b"),
]


@pytest.mark.parametrize(("text", "typed"), GLM_NO_VERSION)
def test_a_glm_size_without_a_version_is_the_latest_chatglm_named_as_typed(
    capsys: pytest.CaptureFixture[str], text: str, typed: str
) -> None:
    """Kind: Zhipu's family word 'glm' with a size and no version ('glm-6b') was read as an alias of
    ChatGLM3-6B and sized silently. It is the ChatGLM family (chatglm-6b, chatglm2-6b, chatglm3-6b):
    the latest release of that size, named as typed (a substitution), as 'llama 70b' is."""
    data = ask(capsys, text)
    assert data["request"]["model"] == "ChatGLM3-6B"
    assert substitutions(data)[typed] == ("ChatGLM3-6B", "latest_release")


@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("glm4 9b 推理要多少显存", "GLM-4-9B"),
        ("chatglm-6b lora on a 3090", "ChatGLM-6B"),
        ("glm3-6b 微调", "ChatGLM3-6B"),
    ],
)
def test_a_glm_name_with_its_version_is_that_release(
    capsys: pytest.CaptureFixture[str], text: str, model: str
) -> None:
    data = ask(capsys, text)
    assert data["request"]["model"] == model
    assert not any(r == "latest_release" for _, r in substitutions(data).values())
