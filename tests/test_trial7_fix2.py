"""A fresh user's trial of the integration branch (s6 fix2): parser defects reproduced through
``sizing-bot ask`` in both languages and fixed."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def _ask(capsys, *args: str) -> tuple[int, dict]:
    """Run ``sizing-bot ask --format json`` and return (exit code, the JSON answer)."""
    code = main(["ask", "--format", "json", *args])
    return code, json.loads(capsys.readouterr().out)


def _ignored(answer: dict) -> list[dict]:
    return list(answer["interpretation"]["ignored"])


# 1. "ft" is fine-tuning; a card's name followed by a size and "tokens" is never a model's name
# (was: "H100 1B" sized as a 1B model on the default A100 80G, the 7B dropped, as inference).
@pytest.mark.parametrize(
    ("question", "params", "gpu", "count", "tokens"),
    [
        ("full ft 7b on 8 H100 1B tokens", 7e9, "H100-SXM5-80GB", 8, 1e9),
        ("full ft 7b on 8 H100, 1B tokens", 7e9, "H100-SXM5-80GB", 8, 1e9),
        ("ft llama3 8b on 2 4090", 8.03e9, "RTX-4090", 2, None),
        ("full sft'd 7b on 8 H100 1B tokens", 7e9, "H100-SXM5-80GB", 8, 1e9),
        ("we ft'd a 7b on 8 A100 with 2B tokens", 7e9, "A100-SXM4-80GB", 8, 2e9),
        ("微调ft 7b，8张H100，1B tokens", 7e9, "H100-SXM5-80GB", 8, 1e9),
        ("全参 ft 一个 7b 模型，8 张 H100 1B tokens 要多久", 7e9, "H100-SXM5-80GB", 8, 1e9),
    ],
)
def test_ft_is_fine_tuning(capsys, question: str, params: float, gpu: str, count: int, tokens) -> None:
    code, answer = _ask(capsys, question)
    request, interp = answer["request"], answer["interpretation"]
    assert code == 0
    assert request["stage"] == "finetune"
    assert request["params_total"] == pytest.approx(params)
    assert request["gpu"] == gpu and request["gpu_count"] == count
    assert request["tokens"] == tokens
    assert interp["unknown_model"] is None and interp["substitutions"] == []
    assert not [i for i in _ignored(answer) if i["reason"] in ("other_setup", "unread")]


def test_ft_full_is_full_method(capsys) -> None:
    _code, answer = _ask(capsys, "full ft 7b on 8 H100 1B tokens")
    assert answer["request"]["method"] == "full"


@pytest.mark.parametrize(
    "question",
    ["serve InternVL 76B on one H100", "部署 InternVL 76B，一张 H100"],
)
def test_spaced_name_still_a_model(capsys, question: str) -> None:
    """The 'Name 76B' pass still reads a real name (only cards and token amounts are excluded)."""
    _code, answer = _ask(capsys, question)
    assert answer["interpretation"]["unknown_model"] == "InternVL 76B"
    assert answer["request"]["params_total"] == 76e9


def test_model_named_with_ft_keeps_its_name(capsys) -> None:
    """'ft' inside a name ('llama-ft') is not the stage word: the question stays inference."""
    _code, answer = _ask(capsys, "serve llama-ft 7b on a 4090")
    assert answer["request"]["stage"] == "inference"


# 2. GRPO generations per prompt said alone are a sampling setting, named as not used with its reason
# (was: "8" dropped as "a second value for the same setting").
@pytest.mark.parametrize(
    "question",
    [
        "GRPO on qwen2.5-math-7b with trl, 16 A100 80G, 5k prompts 8 generations, time?",
        "grpo qwen2.5 7b, 8 H100, group size 8, 10k prompts",
        "GRPO on qwen2.5-7b, 8 completions, 8 H100",
        "GRPO 训练 qwen2.5-7b，8张H100，5000条prompt，采样 8 条",
        "GRPO 训练 qwen2.5-7b，8张H100，5000条prompt，每题 8 个回复",
        "GRPO 训练 qwen2.5-7b，8张H100，每个 prompt 采样 8 条，1万条prompt",
        "grpo qwen2.5-7b 8 samples per prompt 8 H100",
    ],
)
def test_rl_generations_named_not_repeated(capsys, question: str) -> None:
    code, answer = _ask(capsys, question)
    assert code == 0
    assert answer["request"]["algorithm"] == "grpo"
    ignored = _ignored(answer)
    # s8 fix item 1 (asked for): generations per prompt are the request field num_generations now
    assert answer["request"]["num_generations"] == 8
    assert not [i for i in ignored if i["text"].startswith("num_generations")]
    assert not [i for i in ignored if i["reason"] in ("repeated", "unread")]


def test_rl_generations_text_says_why(capsys) -> None:
    main(["ask", "GRPO on qwen2.5-math-7b with trl, 16 A100 80G, 5k prompts 8 generations, time?"])
    out = capsys.readouterr().out
    assert "8 completions per prompt" in out and "second value" not in out  # s8 fix item 1: used
    main(["ask", "GRPO 训练 qwen2.5-7b，8张H100，5000条prompt，采样 8 条"])
    out = capsys.readouterr().out
    assert "每个提示词 8 条补全" in out and "估算暂无这一项设置" not in out


# 3. Two setups compared: the one sized is said, the other named as another setup (was: dropped).
@pytest.mark.parametrize(
    ("question", "field", "sized", "other"),
    [
        ("DPO vs full SFT on 13B, 8 A100, memory per gpu each", "algorithm", "dpo", "algorithm: SFT"),
        # s7 fix item 3: the first algorithm named is sized (was: the first in the lexicon's order)
        ("13B 全参 SFT 和 DPO 对比，8张A100，每卡显存分别多少", "algorithm", "sft", "algorithm: DPO"),
        ("grpo or dpo for qwen2.5-7b on 8 H100?", "algorithm", "grpo", "algorithm: DPO"),
        ("vllm vs sglang for qwen2.5-32b", "runtime", "vLLM", "runtime: SGLang"),
        ("qwen2.5-32b 用 vllm 还是 sglang 部署，2张H100", "runtime", "vLLM", "runtime: SGLang"),
        ("ollama or llama.cpp for qwen2.5-7b on a 4090?", "runtime", "Ollama", "runtime: llama.cpp"),
    ],
)
def test_compared_setup_named(capsys, question: str, field: str, sized: str, other: str) -> None:
    code, answer = _ask(capsys, question)
    assert code == 0
    assert answer["request"][field] == sized
    assert {"text": other, "reason": "other_setup"} in _ignored(answer)


def test_compared_setup_text(capsys) -> None:
    main(["ask", "DPO vs full SFT on 13B, 8 A100, memory per gpu each"])
    out = capsys.readouterr().out
    assert out.startswith("13B DPO training") and "“algorithm: SFT” (another setup in your message" in out
    main(["ask", "qwen2.5-32b 用 vllm 还是 sglang 部署，2张H100"])
    out = capsys.readouterr().out
    assert "（vLLM）" in out.splitlines()[0] and "“推理框架：SGLang”（你消息里的另一套配置" in out


@pytest.mark.parametrize(
    "question",
    [
        "SFT then DPO on llama3 8b, 8 H100",
        "先 SFT 再 DPO，llama3 8b，8张H100",
        "serve qwen2.5-7b with ollama (gguf q4)",
    ],
)
def test_one_pipeline_is_not_a_comparison(capsys, question: str) -> None:
    _code, answer = _ask(capsys, question)
    assert not [i for i in _ignored(answer) if i["reason"] == "other_setup"]
