"""The advice after an answer follows the tool the user named (trial 2026-12-02: an axolotl question got
"use LLaMA-Factory", an lmdeploy one "serve it with vLLM or SGLang"), and `--recipe axolotl` says there
is no axolotl recipe instead of printing LLaMA-Factory files in silence."""

from __future__ import annotations

import pytest

from bot.cli import main
from bot.core.pipeline import answer
from bot.render.advice import framework_keys


@pytest.mark.parametrize(
    ("question", "keys"),
    [
        ("axolotl qlora llama 3 8b on one 4090, will it fit", []),
        ("用 Unsloth 给 qwen2.5 7b 做 lora，一张 4090 够吗", []),
        ("LLaMA-Factory lora qwen2.5 7b 一张4090", ["llamafactory"]),
        ("qwen2.5 7b lora 一张4090", ["llamafactory", "torchtune"]),
        ("用lmdeploy部署qwen2.5-72b awq，2张A100够吗", []),
        ("serve qwen2.5-72b awq with vllm on 2 A100", ["vllm_sglang"]),
    ],
)
def test_framework_advice_follows_the_named_tool(question: str, keys: list[str]) -> None:
    report = answer(question).report
    assert [k for k in framework_keys(report) if k != "deepspeed_fsdp"] == keys


def test_framework_advice_text_names_no_other_tool() -> None:
    from bot.cli import ask

    text, _ = ask("axolotl qlora llama 3 8b on one 4090, will it fit", None, "text")
    assert "LLaMA-Factory for LoRA" not in text
    text, _ = ask("用lmdeploy部署qwen2.5-72b awq，2张A100够吗", None, "text")
    assert "部署用 vLLM 或 SGLang" not in text


def test_recipe_for_a_tool_without_recipes_is_named(capsys) -> None:
    main(["ask", "axolotl qlora llama 3 8b on one 4090, will it fit", "--recipe", "axolotl"])
    out, err = capsys.readouterr()
    assert "no launch recipe for axolotl" in err and "llamafactory" in err
    assert "### llamafactory.yaml" in out
