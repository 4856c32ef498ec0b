"""Issue 24 items 2 and 4 (part s6-u3): general ways people write a setting, read through the CLI
(``sizing-bot ask``) in both languages. The sentences are written for these tests (none is from the
real-question corpus).

- One value said of several config keys ("A 和 B 都是 1", "both A and B set to 4"): each key gets it,
  so the global batch is micro-batch × accumulation × GPUs.
- A cloud instance type ("an AWS g5.48xl", "2 台 p4d.24xlarge") is its GPUs: count and card from the
  providers' instance tables (bot/parse/instances.py cites them).
- Several ZeRO stages tried in one message ("OOMs at zero2 and zero3", "zero 2/3 都试过"): the first is
  sized, each other one named as another setup.
- Colocate mode in online RL (TRL / ms-swift ``vllm_mode colocate``): the rollouts run on vLLM, which is
  named (a serving runtime in a training question), as when written.
- A bare ``batch_size`` beside ``micro_batch_size`` (alpaca-lora, axolotl) is the global batch, never a
  second micro-batch that silently replaces the first.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import main
from bot.parse.instances import spell_out_instances
from bot.parse.shared_value import spread_shared_value


def ask(capsys: pytest.CaptureFixture[str], text: str) -> Any:
    code = main(["ask", "--format", "json", text])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


# (sentence, micro-batch per GPU, GPUs, global batch = micro × accumulation × GPUs)
SHARED = [
    (
        "用 LLaMA-Factory 对 Qwen2.5-7B 做 LoRA，8 卡 A800，per_device_train_batch_size 和 "
        "gradient_accumulation_steps 都是 2，10 万条数据要多久",
        2, 8, 32,
    ),
    (
        "4 张 A100 全参微调 Qwen2.5-1.5B，micro_batch_size、gradient_accumulation_steps 均设为 4，"
        "要训练多久",
        4, 4, 64,
    ),
    (
        "LoRA SFT of Qwen2.5-7B on 4 A100 with both per_device_train_batch_size and "
        "gradient_accumulation_steps set to 4, how long for 10k samples?",
        4, 4, 64,
    ),
    (
        "LoRA of Llama-3-8B on 2 H100: micro_batch_size and gradient_accumulation_steps are both 8. "
        "How long for 50k samples?",
        8, 2, 128,
    ),
    (
        "LoRA of Llama-3-8B on 2 H100, per_device_train_batch_size, gradient_accumulation_steps = 2 "
        "for both, 50k samples: time?",
        2, 2, 8,
    ),
]  # fmt: skip


@pytest.mark.parametrize(("text", "micro", "gpus", "global_batch"), SHARED)
def test_one_value_for_several_keys(
    capsys: pytest.CaptureFixture[str], text: str, micro: int, gpus: int, global_batch: int
) -> None:
    data = ask(capsys, text)
    req = data["request"]
    assert (req["batch_size"], req["gpu_count"], req["global_batch"]) == (micro, gpus, global_batch)
    assert not [i for i in data["interpretation"]["ignored"] if i["reason"] == "unread"]


def test_shared_value_keeps_length_and_leaves_prose_alone() -> None:
    s = "lora_r 和 lora_alpha 都是 16, 4 a100 and 2 h100 are both 80g"
    out = spread_shared_value(s)
    assert len(out) == len(s)
    assert out.startswith("lora_r 16, lora_alpha 16")
    assert out.endswith("4 a100 and 2 h100 are both 80g")  # not config keys: left as written


# (sentence, card sized, GPUs, tensor parallel stated or None)
INSTANCES = [
    ("On one AWS g5.48xl, can vLLM serve Llama-3-70B-AWQ with tensor_parallel_size 8?", "A10G", 8, 8),
    ("Full fine-tune Llama-3-8B on 2 p4d.24xlarge nodes: time for 1B tokens?", "A100-SXM4-40GB", 16, None),
    ("Serve Llama-3-70B on an a2-ultragpu-4g at 8k context: does it fit?", "A100-SXM4-80GB", 4, None),
    ("LoRA of Llama-3-8B on a Standard_ND96isr_H100_v5, 20k samples: how long?", "H100-SXM5-80GB", 8, None),
    ("一台 g5.12xlarge 用 vLLM 部署 Qwen2.5-32B-AWQ，tp 4 能跑吗", "A10G", 4, 4),
    ("用 2 台 AWS p5.48xlarge 全参微调 Qwen2.5-14B，10B token 要多久", "H100-SXM5-80GB", 16, None),
    ("在两台 p4de.24xlarge 上全参微调 Llama-3-8B，10B token 要多久", "A100-SXM4-80GB", 16, None),
    ("g6e.xlarge 上部署 Qwen2.5-7B，32 并发够不够", "L40S", 1, None),
]  # fmt: skip


@pytest.mark.parametrize(("text", "gpu", "count", "tp"), INSTANCES)
def test_instance_type_is_its_gpus(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str, count: int, tp: int | None
) -> None:
    req = ask(capsys, text)["request"]
    assert (req["gpu"], req["gpu_count"], req["tp"]) == (gpu, count, tp)


def test_instance_names_only_real_instance_types() -> None:
    # s45 fixread #3: the provider word is kept, to be named as typed (was dropped: 'an 8 x a10g (a10g)')
    assert spell_out_instances("an aws g5.48xl (a10g)") == "an aws 8 x a10g (a10g)"
    assert spell_out_instances("3 g4dn.metal instances") == "24 x t4"
    assert spell_out_instances("a p3.32xlarge") == "a p3.32xlarge"  # no such size: left as typed
    assert spell_out_instances("qwen2.5-72b on 4 h100") == "qwen2.5-72b on 4 h100"


# (sentence, stage sized, stages named as another setup)
ZERO_STAGES = [
    ("Full fine-tune of Qwen2.5-14B on 8 H100: it OOMs with ZeRO-2 and with ZeRO-3. What fits?", 2, ["3"]),
    ("LoRA of Llama-3-70B on 4 A100 80G, tried deepspeed zero 3/2, still OOM: how many GPUs?", 3, ["2"]),
    ("8 张 A100 全参微调 Qwen2.5-14B，deepspeed zero 2/3 都试过了，还是 OOM，需要多少卡", 2, ["3"]),
    ("4 张 4090 做 Llama-3-8B 全参微调，zero1、zero2 和 zero3 都爆显存，要几张卡", 1, ["2", "3"]),
    ("QLoRA of Llama-3-70B on 2 RTX 4090 with DeepSpeed ZeRO-3: memory per GPU?", 3, []),
    ("QLoRA of Llama-3-70B with DeepSpeed ZeRO-3 and 2 RTX 4090: memory per GPU?", 3, []),
    ("Llama-3-8B 全参微调，DeepSpeed ZeRO-2 或 2 张 A100 80G 够吗", 2, []),
]  # fmt: skip


@pytest.mark.parametrize(("text", "sized", "named"), ZERO_STAGES)
def test_other_zero_stages_are_named(
    capsys: pytest.CaptureFixture[str], text: str, sized: int, named: list[str]
) -> None:
    data = ask(capsys, text)
    assert data["request"]["zero_stage"] == sized
    assert data["request"]["gpu_count"] in (2, 4, 8)  # the count after a stage is never read as a stage
    others = [i["text"] for i in data["interpretation"]["ignored"] if i["text"].startswith("zero_stage")]
    assert others == [f"zero_stage: {n}" for n in named]
    assert all(i["reason"] == "other_setup" for i in data["interpretation"]["ignored"] if i["text"] in others)


# (sentence, runtime read)
COLOCATE = [
    ("GRPO of Qwen2.5-7B with TRL in colocate mode on 8 H100: is memory enough?", "vLLM"),
    ("GRPO fine-tuning of Llama-3.2-3B, vllm_mode colocate, 4 A100 80G: how much memory per GPU?", "vLLM"),
    ("用 ms-swift 做 GRPO 训练 Qwen2.5-7B，colocate 模式，8 张 H100，显存够吗", "vLLM"),
    ("8 卡 H800 跑 PPO，Qwen2.5-14B，rollout 用 colocate 模式，每卡显存要多少", "vLLM"),
    ("DPO of Llama-3-8B on 8 H100 colocated with the reference model: memory?", None),  # no rollouts
    ("LoRA SFT of Qwen2.5-7B on 2 A100, colocate mode: time for 10k samples?", None),
]  # fmt: skip


@pytest.mark.parametrize(("text", "runtime"), COLOCATE)
def test_colocate_mode_names_vllm(capsys: pytest.CaptureFixture[str], text: str, runtime: str | None) -> None:
    data = ask(capsys, text)
    assert data["request"]["runtime"] == runtime
    named = {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}
    assert "runtime: vLLM" not in named  # an RL run's rollout engine is used (trial s11 item 13)


# (sentence, micro-batch per GPU, global batch)
BATCH_BESIDE_MICRO = [
    ("LoRA, Llama-2-13B, alpaca-lora, 4 A100, batch_size 128, micro_batch_size 4, 50k samples?", 4, 128),
    ("axolotl QLoRA, Mistral-7B, 2 RTX 4090, micro_batch_size 2, batch_size 32, 20k samples: time?", 2, 32),
    ("用 alpaca-lora 在 2 张 A100 上微调 Llama-2-7B，micro_batch_size 4，batch_size 64，5 万条要多久", 4, 64),
    ("LoRA of Llama-2-7B on 2 A100, batch size 8, 10k samples: how long?", 8, None),  # no micro-batch key
]  # fmt: skip


@pytest.mark.parametrize(("text", "micro", "global_batch"), BATCH_BESIDE_MICRO)
def test_batch_size_beside_micro_batch_is_global(
    capsys: pytest.CaptureFixture[str], text: str, micro: int, global_batch: int | None
) -> None:
    req = ask(capsys, text)["request"]
    assert (req["batch_size"], req["global_batch"]) == (micro, global_batch)
