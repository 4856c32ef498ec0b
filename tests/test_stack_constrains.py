"""Issue 24 item 3: the stack constrains the plan. A named training tool limits the layouts to what it
can run and the answer for that stack comes first, then what another stack would allow; a named serving
runtime (lmdeploy, TGI, ExLlamaV2, Ollama) uses its own memory model. Through the CLI, both languages."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from bot.cli import main
from estimator.runtimes.base import GIB
from estimator.runtimes.others import LMDEPLOY_CACHE_MAX_ENTRY_COUNT, TGI_WIGGLE_ROOM


def ask(capsys: pytest.CaptureFixture[str], text: str, fmt: str = "json") -> Any:
    code = main(["ask", "--format", fmt, text])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out) if fmt == "json" else out


LLAMA_FACTORY_2_4090 = {
    "en": "LoRA Llama-3-8B with LLaMA-Factory on 2 x 24GB RTX 4090, 32k context",
    "zh": "用 LLaMA-Factory 在 2 张 24G 的 RTX 4090 上 LoRA 微调 Llama-3-8B，32k 上下文",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_data_parallel_tool_keeps_to_its_layouts(capsys: pytest.CaptureFixture[str], lang: str) -> None:
    """LLaMA-Factory has no tensor parallelism: the plan on the user's 2 cards is DP 2 (ZeRO-3) and
    does not fit; Megatron-LM's TP would fit on 4 — named after the answer for the user's stack (s29 trial
    #7: as NVIDIA NeMo, whose PEFT runs LoRA with TP/PP; Megatron-LM has no LoRA)."""
    data = ask(capsys, LLAMA_FACTORY_2_4090[lang])
    assert data["request"]["training_tool"] == "LLaMA-Factory"
    mem = data["report"]["memory"]
    assert (mem["plan"]["tp"], mem["plan"]["pp"], mem["plan"]["dp"]) == (1, 1, 2)
    other = {a["change"]: a for a in mem["alternatives"]}["other_stack"]
    assert other["min_gpus"] == 4
    text = ask(capsys, LLAMA_FACTORY_2_4090[lang], "text")
    first = text.splitlines()[0]
    stack = {"en": "LLaMA-Factory: data parallel only", "zh": "LLaMA-Factory：只能数据并行"}[lang]
    assert stack in first
    line = {"en": "Another tool (NVIDIA NeMo: LoRA with tensor/pipeline parallelism) would allow: 4 GPUs",
            "zh": "换一个工具（NVIDIA NeMo：LoRA 配合张量/流水线并行）可以：4 张"}[lang]  # fmt: skip
    assert line in text and text.index(line) > text.index(first)


def test_megatron_searches_tensor_parallelism(capsys: pytest.CaptureFixture[str]) -> None:
    """Megatron-LM runs TP/PP: the same job needs no other stack (no 'other_stack' row) and fits on 4."""
    data = ask(capsys, "LoRA Llama-3-8B with Megatron-LM on RTX 4090 24GB, 32k context")
    assert data["request"]["training_tool"] == "Megatron-LM"
    mem = data["report"]["memory"]
    assert "other_stack" not in {a["change"] for a in mem["alternatives"]}
    assert mem["min_gpus"] == 4 and mem["min_plan"]["tp"] > 1


@pytest.mark.parametrize(
    "text",
    [
        "Full fine-tune Qwen2.5-14B with TRL on 8 A100 80GB",
        "用 axolotl 在 8 张 A100 80G 上全参微调 Qwen2.5-14B",
    ],
)
def test_named_trainer_runs_no_tensor_parallelism(capsys: pytest.CaptureFixture[str], text: str) -> None:
    data = ask(capsys, text)
    assert data["request"]["training_tool"] in ("TRL", "axolotl")
    plan = data["report"]["memory"]["plan"]
    assert (plan["tp"], plan["pp"]) == (1, 1)


def test_unsloth_computes_the_loss_in_chunks(capsys: pytest.CaptureFixture[str]) -> None:
    """Unsloth's chunked loss (no full fp32 logits copy): less logits memory than the HF Trainer."""
    text = "LoRA of Llama-3-8B with {} on one A100 80GB, 8k context"
    unsloth = ask(capsys, text.format("Unsloth"))["report"]["memory"]["breakdown"]
    trainer = ask(capsys, text.format("TRL"))["report"]["memory"]["breakdown"]
    assert unsloth["logits"] < trainer["logits"]


def _inference(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    data = ask(capsys, text)
    return data["report"]["inference"]


@pytest.mark.parametrize(
    "text",
    [
        "serve Qwen2.5-7B with lmdeploy on one A100 80GB, 8k context",
        "用 lmdeploy 在一张 A100 80G 上部署 Qwen2.5-7B，8k 上下文",
    ],
)
def test_lmdeploy_cache_is_a_share_of_free_memory(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """lmdeploy: 0.8 of the memory free after the weights is the KV cache (blocks of 64 tokens)."""
    inf = _inference(capsys, text)
    assert inf["runtime"] == "lmdeploy"
    free = inf["usable_bytes_per_gpu"] - inf["weights_bytes"]
    assert inf["workspace_bytes_per_gpu"] == pytest.approx((1 - LMDEPLOY_CACHE_MAX_ENTRY_COUNT) * free)
    tokens = math.floor(LMDEPLOY_CACHE_MAX_ENTRY_COUNT * free / inf["kv_bytes_per_token"]) // 64 * 64
    assert abs(inf["kv_capacity_tokens"] - tokens) <= 64
    assert 76 * GIB < inf["usable_bytes_per_gpu"] < 80 * GIB


def test_lmdeploy_command_line_share(capsys: pytest.CaptureFixture[str]) -> None:
    """A pasted ``--cache-max-entry-count 0.5`` is the share used."""
    inf = _inference(
        capsys,
        "how many A100 80GB?\nlmdeploy serve api_server Qwen/Qwen2.5-7B-Instruct --cache-max-entry-count 0.5",
    )
    free = inf["usable_bytes_per_gpu"] - inf["weights_bytes"]
    assert inf["runtime"] == "lmdeploy"
    assert inf["workspace_bytes_per_gpu"] == pytest.approx(0.5 * free)


def test_tgi_exllama_ollama_have_their_own_models(capsys: pytest.CaptureFixture[str]) -> None:
    base = "serve Qwen2.5-7B with {} on one A100 80GB, 8k context"
    vllm = _inference(capsys, base.format("vLLM"))
    tgi = _inference(capsys, base.format("TGI"))
    exl = _inference(capsys, base.format("exllamav2"))
    assert (tgi["runtime"], exl["runtime"]) == ("TGI", "ExLlama")
    rest = tgi["usable_bytes_per_gpu"] - tgi["weights_bytes"] - tgi["workspace_bytes_per_gpu"]
    assert rest > 0  # s32: fraction 1.0 × TGI_WIGGLE_ROOM 0.90 of the card usable, as vLLM's 0.9
    assert tgi["usable_bytes_per_gpu"] < TGI_WIGGLE_ROOM * 80 * GIB
    assert len({vllm["kv_capacity_tokens"], tgi["kv_capacity_tokens"], exl["kv_capacity_tokens"]}) == 3
    ollama = _inference(capsys, "用 Ollama 在一张 A100 80G 上跑 Qwen2.5-7B")
    assert ollama["runtime"] == "Ollama"


@pytest.mark.parametrize(
    "text", ["用 TensorRT-LLM 部署 Qwen2-7B，单卡 A100", "Serve Qwen2-7B with TensorRT-LLM on one A100"]
)
def test_unmodelled_runtime_is_named(capsys: pytest.CaptureFixture[str], text: str) -> None:
    data = ask(capsys, text)
    named = {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}
    assert named["runtime: TensorRT-LLM"] == "runtime_not_modelled"
    assert ask(capsys, text, "text").count("TensorRT-LLM") >= 1


@pytest.mark.parametrize(
    "text",
    [
        "Full fine-tune Qwen2.5-14B with LLaMA-Factory and ZeRO-2 on A100 80GB",
        "用 LLaMA-Factory 和 ZeRO-2 在 A100 80G 上全参微调 Qwen2.5-14B",
    ],
)
def test_tool_with_a_stated_zero_stage_keeps_it(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """A data-parallel tool and a stated ZeRO stage: the search keeps the stage (it crashed once: the
    pinned search tried every stage, the chosen layout only the stated one)."""
    mem = ask(capsys, text)["report"]["memory"]
    assert (mem["min_gpus"], mem["plan"]["zero_stage"], mem["plan"]["tp"]) == (8, 2, 1)
    assert {a["change"]: a["min_gpus"] for a in mem["alternatives"]}["zero3"] == 4


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        (
            "Training a 70B across nodes of A100 40GB with LLaMA-Efficient-Tuning and deepspeed",
            "LLaMA-Factory",
        ),
        ("GRPO with swift rlhf on Qwen2.5-3B-Instruct on 8 A100, --train_type lora", "ms-swift"),
        (
            "how many 46 GB GPUs?\naccelerate launch src/train_bash.py --stage sft --model_name_or_path "
            "mistralai/Mistral-7B-v0.1 --finetuning_type lora --cutoff_len 1024",
            "LLaMA-Factory",
        ),
        ("用 Unsloth 在一张 RTX 3090 上 QLoRA 微调 Qwen2.5-7B", "Unsloth"),
    ],
)
def test_training_tool_read_from_prose_and_lines(
    capsys: pytest.CaptureFixture[str], text: str, tool: str
) -> None:
    assert ask(capsys, text)["request"]["training_tool"] == tool


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("用 MedicalGPT 做 Qwen2.5-7B 增量预训练，8 张 A100", "training_tool: MedicalGPT"),
        ("GRPO of Qwen2.5-7B with --use_lmdeploy true rollouts on 8 A100", "runtime: lmdeploy"),
    ],
)  # vLLM doing the rollouts of an RL run is the engine they are timed with: used (test_rollout_engine_named)
def test_unmodelled_tool_or_serving_engine_in_training_is_named(
    capsys: pytest.CaptureFixture[str], text: str, named: str
) -> None:
    """Never silently dropped: a tool without a model, or a serving engine in a training question."""
    data = ask(capsys, text)
    assert named in {i["text"] for i in data["interpretation"]["ignored"]}
    assert data["request"]["training_tool"] != named.split(": ")[1]


def test_other_stack_not_named_when_zero3_does_as_well(capsys: pytest.CaptureFixture[str]) -> None:
    """ZeRO-2 stated in LLaMA-Factory: ZeRO-3 in the same tool gives 4 GPUs; Megatron-LM adds nothing."""
    mem = ask(capsys, "Full fine-tune Qwen2.5-14B with LLaMA-Factory and ZeRO-2 on A100 80GB")["report"][
        "memory"
    ]
    changes = {a["change"] for a in mem["alternatives"]}
    assert "zero3" in changes and "other_stack" not in changes
