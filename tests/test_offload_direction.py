"""Offload direction (issue 24 item 4, part U2 item 2): CPU offload of a DeepSpeed/FSDP run versus
llama.cpp's 'offload' of layers onto the GPU, and configs that say there is none."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def _request(capsys, text: str) -> dict:
    main(["ask", "--format", "json", text])
    return json.loads(capsys.readouterr().out)["request"]


@pytest.mark.parametrize(
    "text",
    [
        "3 张 A100 对 Qwen2.5-7B 做 LoRA SFT，deepspeed 用 ds_zero2_no_offload.json，要多少显存？",
        "LoRA SFT of Qwen2.5-7B on 3 A100s with --deepspeed ds_zero2_no_offload.json: memory per GPU?",
    ],
)
def test_a_no_offload_deepspeed_file_is_zero2_without_offload(capsys, text):
    req = _request(capsys, text)
    assert (req["zero_stage"], req["offload"]) == (2, False)


@pytest.mark.parametrize(
    "text",
    [
        "8 张 A100 80G 用 LLaMA-Factory 全参微调 Qwen2.5-7B，deepspeed: ds_z3_offload_config.json",
        "Full SFT of Qwen2.5-7B on 8 A100 80GB with LLaMA-Factory, deepspeed: ds_z3_offload_config.json",
    ],
)
def test_llamafactory_deepspeed_file_names_give_stage_and_cpu_offload(capsys, text):
    req = _request(capsys, text)
    assert (req["zero_stage"], req["offload"], req["training_tool"]) == (3, True, "LLaMA-Factory")


@pytest.mark.parametrize(
    ("text", "offload"),
    [
        ("verl 用 8 张 A100 80G 做 Qwen2-7B 的 GRPO：fsdp param_offload=False, grad_offload=False", False),
        ("GRPO of Qwen2-7B with verl on 8 A100 80GB: fsdp param_offload=False, grad_offload=False", False),
        (
            "全参微调 Llama-3-8B，4 张 A100：offload_optimizer device: cpu，offload_param device: none",
            True,
        ),
        (
            "Full SFT Llama-3-8B, 4 A100s: offload_optimizer device: cpu, offload_param device: none",
            True,
        ),
    ],
)
def test_offload_keys_with_their_values(capsys, text, offload):
    """A key set to false/none is no offload; the optimizer offloaded to the CPU is offload, whatever
    the parameters do."""
    assert _request(capsys, text)["offload"] is offload


@pytest.mark.parametrize(
    "text",
    [
        "llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -ngl 99 -c 8192 一张 4090 够吗",
        "llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -ngl 99 -c 8192 on one 4090?",
        "用 llama-cpp-python，n_gpu_layers=-1，Qwen2.5-7B Q4_K_M 一张 3060 12G 能跑吗",
        "llama-cpp-python with n_gpu_layers=-1 for Qwen2.5-7B Q4_K_M on one RTX 3060 12GB?",
        "llama.cpp, Qwen2.5-7B Q4_K_M fully offloaded to the GPU on one RTX 3060: how much context fits?",
    ],
)
def test_all_layers_on_the_gpu_is_no_cpu_offload(capsys, text):
    req = _request(capsys, text)
    assert (req["offload"], req["runtime"]) == (False, "llama.cpp")


def test_partial_gpu_layers_are_sized(capsys):
    """'-ngl 20' on a llama-server line: 20 of Qwen2.5-7B's 28 layers + 1 on the GPU (llama.cpp counts the
    output layer), sized by estimator.layer_offload. Before s14-ngl the test asserted it was named as not
    sized (the split was not modelled): the same case, now used."""
    main(["ask", "--format", "json", "llama-server -m qwen2.5-7b-instruct-q4_k_m.gguf -ngl 20 on one 3060"])
    data = json.loads(capsys.readouterr().out)
    assert data["request"]["gpu_layers"] == 20
    split = data["report"]["inference"]["layer_split"]
    assert (split["layers"], split["gpu_layers"], split["output_on_gpu"]) == (28, 19, True)
    assert "-ngl: 20" not in {x["text"] for x in data["interpretation"]["ignored"]}


@pytest.mark.parametrize(
    ("text", "stage"),
    [
        ("8 张 910 用 LLaMA-Factory LoRA 微调 Qwen2.5-14B，已经开了 deepspeed z3 offload 还是 OOM", 3),
        ("Full DPO of Mistral-7B on 4 A6000s: which deepspeed_zero3.yaml settings make it fit?", 3),
        ("用 zero2.json 在 4 张 A100 上全参微调 Qwen2.5-7B 要多少显存", 2),
    ],
)
def test_deepspeed_config_names_give_the_zero_stage(capsys, text, stage):
    assert _request(capsys, text)["zero_stage"] == stage


@pytest.mark.parametrize(
    "text",
    [
        "llama-server 跑 Qwen2.5-7B Q4_K_M，一张 4090，--ctx-size 32768 够不够",
        "Qwen2.5-7B Q4_K_M with llama-server on one 4090 at --ctx-size 32768: does it fit?",
    ],
)
def test_llama_server_named_in_prose_is_llama_cpp(capsys, text):
    req = _request(capsys, text)
    assert (req["runtime"], req["max_model_len"]) == ("llama.cpp", 32768)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("两张 4090 用 FSDP + CPU offload 做 Llama-2-70B 的 QLoRA", "FSDP 把参数卸载到 CPU"),
        (
            "QLoRA Llama-2-70B on 2 x RTX 4090 24GB with FSDP and CPU offload",
            "FSDP's CPU offload of the parameters",
        ),
    ],
)
def test_cpu_offload_of_an_adapter_run_is_fsdp_parameter_offload(capsys, text, words):
    """Issue 25, then session 34 (s34-stack item 2): multi-GPU QLoRA with CPU offload was named as not
    modelled; it is now FSDP's parameter offload as people run it (answer.ai fsdp_qlora --use_cpu_offload,
    accelerate fsdp_offload_params: CPUOffload(offload_params=True)): the sharded base and the adapters'
    states in host RAM (tests/test_s34_stack.py has the figures), said in the verdict line."""
    main(["ask", "--format", "json", text])
    data = json.loads(capsys.readouterr().out)
    assert data["request"]["offload"] is True and data["request"]["method"] == "qlora"
    assert not [i for i in data["interpretation"]["ignored"] if i["reason"] == "offload_adapters"]
    assert data["report"]["memory"]["plan"]["offload"] is True
    main(["ask", text])
    assert words in capsys.readouterr().out.splitlines()[1]
