"""Round 32, Chinese (session 36, branch s36-r32zh): the readers for what r32work showed, each the general
way people write it, in both languages where it applies, with sentences of our own that must be read and
sentences that must not be misread (tests/data/real_questions/README.md, round 32)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json, key_understood


def _ignored(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer["interpretation"].get("ignored") or []]


# 1. 'bsz' (fairseq's and many training scripts' short form of the batch size) is the batch size


@pytest.mark.parametrize(
    ("text", "batch"),
    [
        ("8 张 A100 微调 Qwen2-7B，bsz=1，显存够吗？", 1),
        ("8 A100s fine-tuning Qwen2-7B with bsz=2, enough memory?", 2),
        ("bsz 设成 8 能在 4090 上 LoRA 微调 Qwen2-7B 吗", 8),
    ],
)
def test_bsz_is_the_batch_size(text: str, batch: int) -> None:
    answer = answer_json(text)
    assert answer["request"]["batch_size"] == batch
    assert "batch_size" not in (answer["request"].get("assumed_fields") or [])
    assert (str(batch), "unread") not in _ignored(answer)


# 2. part of the weights said to sit on the CPU, and accelerate's max_memory with a 'cpu' budget: CPU offload


@pytest.mark.parametrize(
    "text",
    [
        "Qwen2-7B 推理很慢，device_map 把一部分放到 CPU 上了，加载最低要多少显存？",
        "Qwen2-7B 推理时部分层加载到内存了，要多少显存才能全放 GPU？",
        "Llama-2-13B inference is slow, I think part of the model was put on the CPU. How much VRAM?",
        "两张 3090 推理 Qwen2-14B，max_memory={0:'20GiB',1:'20GiB','cpu':'16GiB'}，够吗？",
        "Llama-2-70B with max_memory={0: '22GiB', 1: '22GiB', 'cpu': '100GiB'} on two 3090s, will it fit?",
    ],
)
def test_weights_on_the_cpu_are_an_offload(text: str) -> None:
    assert answer_json(text)["request"]["offload"] is True


@pytest.mark.parametrize(
    "text",
    [
        "能不能用 CPU 推理 Qwen2-7B？内存 32G 够吗？",
        "kv cache 放内存的话，4090 能跑 Qwen2-7B 32k 上下文吗？",
        "一部分数据放到内存里预处理，Qwen2-7B LoRA 微调 4090 够吗？",
        "max_memory={0:'20GiB',1:'20GiB'} 两张 3090 跑 Qwen2-14B 够吗",
    ],
)
def test_no_offload_read_without_weights_on_the_cpu(text: str) -> None:
    assert not answer_json(text)["request"].get("offload")


# 3. a name ending in '-hf' (the Hugging Face conversion of a release) is a model, never an engine; a
# name with a release suffix in the job's means slot ('用 foo-chat 推理') is the model, named as typed


@pytest.mark.parametrize("name", ["cogvlm-chat-hf", "foovlm-chat", "cogvlm-chat"])
def test_a_release_suffix_in_the_means_slot_is_the_model(name: str) -> None:
    answer = answer_json(f"用 {name} 推理，两张 3090 够吗？")
    assert answer["interpretation"]["unknown_model"] == name
    assert not [t for t, _ in _ignored(answer) if t.startswith("runtime")]


def test_a_tool_in_the_means_slot_stays_a_tool() -> None:
    answer = answer_json("用 Foo-Serve 推理 Qwen2-7B 要多少显存？")
    assert answer["request"]["model"] == "Qwen2-7B"
    assert ("runtime: Foo-Serve", "runtime_not_modelled") in _ignored(answer)
    answer = answer_json("用 FlagEmbedding 部署 bge-m3 要多少显存？")
    assert answer["interpretation"]["unknown_model"] == "bge-m3"


# 4. serving and tuning each asked as a question of its own: the stage not sized is named


@pytest.mark.parametrize(
    "text",
    [
        "我想要使用 TinyLlama：最低显卡需求要多少？能不能进行 CPU 推理？能不能做模型微调？",
        "I want TinyLlama: what is the minimum GPU? Can it run inference on a CPU? Can I fine-tune it?",
        "Qwen2-7B 用 4090 推理要多少显存？能不能做微调？",
    ],
)
def test_two_stages_asked_apart_name_the_other(text: str) -> None:
    answer = answer_json(text)
    stage = answer["request"]["stage"]
    other = "inference" if stage == "finetune" else "finetune"
    assert (f"stage: {other}", "other_setup") in _ignored(answer)


@pytest.mark.parametrize(
    "text",
    [
        "8 张 A100 做 GRPO 训练 Qwen2.5-7B，rollout 能否进行推理加速？要多少显存？",
        "微调 DeepSeek-R1-Distill-Qwen-7B 这种推理模型要多少显存？",
        "用 vLLM 推理 Qwen2-72B 要几张 A100？",
    ],
)
def test_a_serving_word_that_is_no_stage_names_none(text: str) -> None:
    assert not [t for t, _ in _ignored(answer_json(text)) if t.startswith("stage:")]


# 5. LongQLoRA is a QLoRA job (Yang 2023, arXiv:2311.04879); a project whose tutorial is followed
# ('按照 X 的教程') is the job's tool, named as typed


def test_longqlora_is_qlora_and_longlora_lora() -> None:
    answer = answer_json("用 LongQLoRA 训练 Llama-2-7B 到 32k 上下文要几张 A100？")
    assert (answer["request"]["stage"], answer["request"]["method"]) == ("finetune", "qlora")
    answer = answer_json("用 LongLoRA 训练 Llama-2-7B 到 32k 上下文要几张 A100？")
    assert answer["request"]["method"] == "lora"


def test_a_tutorial_followed_names_its_tool() -> None:
    answer = answer_json("按照 LongQLoRA 的教程，8 张 V100 32G 训练 Llama-2-7B 的 16k 上下文要多少显存？")
    assert ("training_tool: LongQLoRA", "no_field") in _ignored(answer)
    assert answer["request"]["method"] == "qlora"
    answer = answer_json("照着官方的教程部署 Qwen2-72B 要几张 A100？")
    assert not [t for t, _ in _ignored(answer) if t.startswith(("runtime", "training_tool"))]


# 6. a card memory said as the other option is named as another setup, not left unread


@pytest.mark.parametrize(
    ("text", "sized", "other"),
    [
        ("RTX A2000 6GB 能跑 Qwen2-1.5B 吗？如果不行，RTX A2000 12GB 可以吗？", 6, "12 GB"),
        ("Can an RTX A2000 6GB run Qwen2-1.5B? If not, what about the A2000 12GB?", 6, "12 GB"),
        ("A100 40G 推理 Qwen2-72B 要几张？80G 的呢？", 40, "80 GB"),
    ],
)
def test_another_memory_asked_is_another_setup(text: str, sized: int, other: str) -> None:
    answer = answer_json(text)
    assert answer["request"]["gpu_memory_gib"] == sized
    # s36-lists: the other memory is sized in a row of its own (report.per_value), no longer sent away as
    # another setup to ask separately
    rows = [(r["setting"], r["value"]) for r in answer["report"]["per_value"]]
    assert rows == [("gpu_memory_gib", sized), ("gpu_memory_gib", int(other.split()[0]))]
    assert (other, "other_setup") not in _ignored(answer)


@pytest.mark.parametrize(
    "text",
    [
        "A100 80G 微调 Qwen2-7B，还是 OOM，已经用了 78G，要几张卡？",
        "A100 80G 微调 Qwen2-7B 不行，显存占用 78G 呢，怎么办？",
    ],
)
def test_a_memory_in_use_is_no_other_option(text: str) -> None:
    assert not [t for t, why in _ignored(answer_json(text)) if why == "other_setup" and "78" in t]


# 7. scorer: a list of training lengths or card memories (two setups) is understood when each is used or
# named as not used, as tools, stages and ZeRO stages already are (tests/real_questions.py EACH_NAMED)


def test_scorer_takes_each_length_and_memory_used_or_named() -> None:
    answer = {
        "request": {"seq_len": 15000, "gpu_memory_gib": 6.0},
        "interpretation": {"ignored": [{"text": "10k", "reason": "other_setup"}]},
    }
    assert key_understood("seq_len", [15360, 10240], answer)
    assert not key_understood("gpu_memory_gib", [6, 12], answer)
    answer["interpretation"]["ignored"].append({"text": "12 GB", "reason": "other_setup"})
    assert key_understood("gpu_memory_gib", [6, 12], answer)
    answer["interpretation"]["ignored"][-1]["reason"] = "unread"  # a number not understood names nothing
    assert not key_understood("gpu_memory_gib", [6, 12], answer)
