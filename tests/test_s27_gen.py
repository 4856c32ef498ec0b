"""Working-split failures and last session's leftovers by kind, session 27 gen (issue 24):

- an MoE shape typed before its family ('8x22b mixtral') is that release (bot/parse/written_products.py);
- a Cloud TPU slice by its accelerator type ('TPU v4-8', 'v5p-128', 'v5litepod-8') is its chips, never a
  negative number (bot/parse/written_products.py, Google Cloud TPU docs: two TensorCores per v4/v5p chip);
- the quantized-base ledger line names the user's own tool's key (axolotl's load_in_4bit), not
  LLaMA-Factory's quantization_bit (estimator/training_tools.quantization_key);
- a Chinese load under a ceiling word ('并发量不到 50') is the load sized, as English 'under 50' is
  (bot/parse/load_forms.py);
- a chassis named by its slots with fewer cards said in it ('8-GPU chassis … 4x MI100') sizes the cards
  said (bot/parse/chassis_slots.py);
- words between a count and a card word ('4 spare GPUs', '4 old cards') keep the count
  (bot/parse/role_left.BETWEEN).
"""

from __future__ import annotations

import pytest

from bot.cli import ask
from tests.real_questions import answer_json


def _request(question: str) -> dict:
    return answer_json(question)["request"]


def _named(question: str) -> list[str]:
    return [i["text"] for i in answer_json(question)["interpretation"]["ignored"]]


# mistralai/Mixtral-8x22B-v0.1 config.json: 141B total, 39B active (the catalog's Mixtral-8x22B).
@pytest.mark.parametrize(
    "question",
    [
        "How many H100 to fine-tune 8x22b mixtral with LoRA?",
        "8x22B Mistral 推理要几张 A100",
        "8x22B 的 mixtral 全参微调要多少卡",
    ],
)
def test_a_shape_before_its_family_is_that_release(question: str) -> None:
    request = _request(question)
    assert (request["model"], request["params_total"]) == ("Mixtral-8x22B", 141e9)


@pytest.mark.parametrize(
    ("question", "model"),
    [
        ("Mixtral 8x7B on 2 A100 for serving", "Mixtral-8x7B"),  # the usual order stays
        ("8x7b mixtral 部署要几张 4090", "Mixtral-8x7B"),
        ("Compare mixtral 8x22b with 8x7b mixtral on H100", "Mixtral-8x22B"),  # the first named is sized
    ],
)
def test_the_usual_mixtral_names_are_unchanged(question: str, model: str) -> None:
    assert _request(question)["model"] == model


# Google Cloud TPU docs: "Each TPU v4 chip contains two TensorCores" (v4-8: 4 chips); v5p the same; v5e
# ('v5litepod-16') counts chips.
@pytest.mark.parametrize(
    ("question", "gpu", "chips"),
    [
        ("Can I pretrain a 1B model on a TPU v4-8 with 100B tokens?", "TPUv4", 4),
        ("How long to pretrain a 7B on 1T tokens on a v5p-128?", "TPUv5p", 64),
        ("Serve Llama-3-70B on a v5litepod-8", "TPUv5e", 8),
        ("TPU v5e-16 上 LoRA 微调 Llama-3-8B 要多久，1 亿 token", "TPUv5e", 16),
        ("用 TPU v4-32 预训练 1B 模型，1000 亿 token 要多久", "TPUv4", 16),
    ],
)
def test_a_tpu_slice_is_its_chips(question: str, gpu: str, chips: int) -> None:
    request = _request(question)
    assert (request["gpu"], request["gpu_count"]) == (gpu, chips)
    assert not any(t.startswith("-") for t in _named(question))  # never a negative number


@pytest.mark.parametrize(
    ("question", "typed"),
    [
        ("请问在 Cloud TPU v3-256 上训练 24 小时，要花费多少美元？", "TPU v3-256"),
        ("Serve Llama-3-70B on a TPU v6e-8", "TPU v6e-8"),
    ],
)
def test_a_slice_of_a_generation_not_in_the_catalog_is_named_as_typed(question: str, typed: str) -> None:
    assert answer_json(question)["interpretation"]["unknown_gpu"] == typed


@pytest.mark.parametrize(
    "question",
    [
        "Pretrain a 1B model on 8 TPU v4 chips with 100B tokens, how long?",
        "用 8 个 TPU v4 芯片预训练 1B 模型，1000 亿 token",
    ],
)
def test_tpu_chips_counted_in_prose_stay(question: str) -> None:
    request = _request(question)
    assert (request["gpu"], request["gpu_count"]) == ("TPUv4", 8)


@pytest.mark.parametrize(
    ("question", "key", "other"),
    [
        ("QLoRA on Llama-3-8B with axolotl on one 4090", "axolotl's load_in_4bit", "quantization_bit"),
        ("用 axolotl 在一张 4090 上 QLoRA 微调 Llama-3-8B", "axolotl 的 load_in_4bit", "quantization_bit"),
        ("QLoRA on Llama-3-8B with Unsloth on one 4090", "Unsloth's load_in_4bit", "quantization_bit"),
        ("QLoRA on Llama-3-8B with LLaMA-Factory on one 4090", "quantization_bit", "load_in_4bit"),
        ("QLoRA on Llama-3-8B on one 4090", "quantization_bit", "load_in_4bit"),  # no tool: LLaMA-Factory's
    ],
)
def test_the_quantized_base_names_the_users_tool(question: str, key: str, other: str) -> None:
    text, _ = ask(question, None, "text")
    line = next(ln for ln in text.splitlines() if "bitsandbytes —" in ln)
    assert key in line and other not in line


@pytest.mark.parametrize(
    ("question", "load"),
    [
        ("一张 A100 部署 Qwen2.5-7B，单卡能撑的并发量不到 50，正常吗", 50),
        ("vLLM 部署 Qwen2.5-7B，并发数低于 20 的时候延迟还行", 20),
        ("One A100 serving Qwen2.5-7B handles a concurrency of under 50, is that normal?", 50),
    ],
)
def test_a_load_under_a_ceiling_word_is_sized(question: str, load: int) -> None:
    assert _request(question)["concurrency"] == load


def test_a_ceiling_on_latency_is_no_load() -> None:
    request = _request("一张 A100 部署 Qwen2.5-7B，延迟不到 50 ms，并发 8")
    assert request["concurrency"] == 8


@pytest.mark.parametrize(
    ("question", "gpu", "count"),
    [
        ("I run an 8-GPU server with 4x A100 80G, serve Llama-3-70B with vLLM", "A100-SXM4-80GB", 4),
        ("我们有一台 8 卡服务器，插了 4 张 A100，部署 Llama-3-70B", "A100-SXM4-80GB", 4),
        ("Our 8-GPU chassis holds 2x H100 for now: can it serve Llama-3-70B?", "H100-SXM5-80GB", 2),
    ],
)
def test_a_chassis_slots_are_not_the_cards_said(question: str, gpu: str, count: int) -> None:
    request = _request(question)
    assert (request["gpu"], request["gpu_count"]) == (gpu, count)
    assert "8" in _named(question)  # the slots, named as not used


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("2台8卡服务器，共16张A100，全参微调 7B 要多久", 16),  # two boxes of eight
        ("An 8-GPU server of H100 to serve Llama-3-70B", 8),  # a full box
        ("一台 8 卡 A100 服务器部署 Llama-3-70B", 8),
    ],
)
def test_a_full_box_is_its_cards(question: str, count: int) -> None:
    assert _request(question)["gpu_count"] == count


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("I have 4 spare GPUs with 24 GB each, can I LoRA Llama-3-8B?", 4),
        ("I have 4 old cards, can I LoRA Llama-3-8B on them?", 4),
        ("我有 4 张闲置的 A100，LoRA 微调 Llama-3-8B 要多久", 4),
    ],
)
def test_a_word_between_a_count_and_its_cards(question: str, count: int) -> None:
    assert _request(question)["gpu_count"] == count
