"""Round 15 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r15.json): kinds of writing
the r15work half showed the parser missing, each read for its axis and tested through the CLI
(``sizing-bot ask --format json``):

- a per-GPU throughput written with the GPU between the tokens and the seconds ('6000 Tokens/GPU/Second',
  Megatron's TGS label; 'tokens per GPU per second'): the measured tokens/s per GPU, never a token count
  (bot.parse.tps_forms); a second run's rate and global batch named as another setup's;
- two training-only settings with no stage word ('GlobalBatchSize 128 … recompute'): a training run
  (bot.parse.stage_steps);
- a count in Chinese numerals before a memory with no card ('两张 40G', '两块 80G'): that many cards of that
  memory (bot.parse.memory_forms.COUNT_THEN_MEMORY_RE);
- TensorRT-LLM's engine by its short name ('转成 TRT', 'TRT 引擎'): the engine named (bot.parse.more_tools);
- a quantized format ending a catalog alias ('Qwen3-Coder-480B-A35B-Instruct-FP8'): the precision served
  (bot.parse.name_format); a memory joined to an unknown card by a hyphen ('H20e-141G'): that card's memory,
  no minus sign (bot.parse.gpus);
- a speech release of a catalog LLM ('GLM-4-Voice'): its language model sized and named so
  (bot.parse.vision_names, substitution ``speech_llm``);
- a context after a modal or limit word ('上下文只能到 20K', '能开到 32K'): the context
  (bot.parse.more_roles.L_CONTEXT); a load after a lower bound ('并发数超过 100'): sized at its least and
  said so (bot.parse.role_left.L_CONC, bot.parse.bound_words);
- 'vllm' beside an RL trainer's command: its rollout engine, no serving word (bot.parse.configs.merge).

The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.cli_run import ignored_pairs


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask --format json TEXT``."""
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) in (0, 2)
    return json.loads(capsys.readouterr().out)


def test_tokens_per_gpu_per_second_is_the_measured_rate(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(
        capsys, "训练 Llama-3-8B，16 卡 H800，实测 4200 Tokens/GPU/Second，global batch 256，要训多久？"
    )
    assert data["request"]["tokens_per_second_per_gpu"] == 4200
    assert data["request"].get("tokens") != 4200


def test_a_second_runs_rate_and_batch_are_another_setup(capsys: pytest.CaptureFixture[str]) -> None:
    text = (
        "Qwen3-8B 在 16 卡 H100 上：GlobalBatchSize 64，5100 tokens/GPU/s；"
        "GlobalBatchSize 128，5300 tokens/GPU/s"
    )
    data = ask(capsys, text)
    assert data["request"]["global_batch"] == 64
    assert data["request"]["tokens_per_second_per_gpu"] == 5100
    assert data["request"]["stage"] != "inference"
    named = ignored_pairs(data)
    assert any("128" in t and why == "other_setup" for t, why in named)
    assert any("5300" in t for t, _ in named)


@pytest.mark.parametrize(
    ("text", "count", "gib"), [("两张 40G 就加载不进去了", 2, 40), ("三块 24G 能跑 14B 吗", 3, 24)]
)
def test_chinese_count_then_memory(
    capsys: pytest.CaptureFixture[str], text: str, count: int, gib: float
) -> None:
    data = ask(capsys, text)
    assert (data["request"]["gpu_count"], data["request"]["gpu_memory_gib"]) == (count, gib)


def test_trt_short_name_names_tensorrt_llm(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "Qwen-7B 转成 TRT 以后两张 24G 加载不进去")
    assert data["request"].get("runtime") == "TensorRT-LLM" or (
        "runtime: TensorRT-LLM",
        "runtime_not_modelled",
    ) in (ignored_pairs(data))


def test_fp8_suffix_of_a_catalog_alias_is_the_precision(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "用 8 张 H20 部署 Qwen3-Coder-480B-A35B-Instruct-FP8 够吗？")
    assert data["request"]["precision"] == "fp8"
    assert data["request"]["model"] == "Qwen3-Coder-480B-A35B"


def test_memory_joined_to_an_unknown_card(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "8 张 MLU370-48G 部署 Qwen3-32B 够吗")
    assert data["request"]["gpu_memory_gib"] == 48
    assert data["request"]["gpu"] == "MLU370"
    assert not data["interpretation"].get("ignored") or all(
        why != "nonpositive" for _, why in ignored_pairs(data)
    )


def test_speech_release_sized_as_its_llm_and_named(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "部署 GLM-4-Voice 需要多少显存？")
    assert data["request"]["model"] == "GLM-4-9B"
    subs = data["interpretation"]["substitutions"]
    assert {"typed": "GLM-4-Voice", "used": "GLM-4-9B", "reason": "speech_llm"} in [
        {k: s[k] for k in ("typed", "used", "reason")} for s in subs
    ]


@pytest.mark.parametrize(
    ("text", "ctx"),
    [("部署 Qwen3-32B，上下文只能开到 16k", 16384), ("部署 Qwen3-32B，上下文能到 32K 吗？", 32768)],
)
def test_context_after_a_modal_word(capsys: pytest.CaptureFixture[str], text: str, ctx: int) -> None:
    data = ask(capsys, text)
    assert ctx in (data["request"].get("seq_len"), data["request"].get("max_model_len"))


def test_concurrency_after_a_lower_bound(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "用 vllm 部署 Qwen3-32B，并发数超过 100，要几张 H100？")
    assert data["request"]["concurrency"] == 100
    assert "lower_bound_concurrency" in [s["reason"] for s in data["interpretation"]["substitutions"]]


def test_vllm_beside_an_rl_trainer_is_no_serving_word(capsys: pytest.CaptureFixture[str]) -> None:
    text = (
        "训的是 7b 模型，vllm 版本 0.8.3。脚本：python -m openrlhf.cli.train_ppo_ray --actor_num_nodes 1 "
        "--actor_num_gpus_per_node 8 --vllm_num_engines 8 --advantage_estimator group_norm "
        "--n_samples_per_prompt 8"
    )
    assert ask(capsys, text)["request"]["stage"] == "finetune"
    assert ask(capsys, "用 vllm 部署 Qwen3-32B，8 卡 A100")["request"]["stage"] == "inference"
