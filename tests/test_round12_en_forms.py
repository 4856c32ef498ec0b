"""Round 12 of the real questions, English half (issue 24; tests/data/real_questions/en_r12.json): readers of
how people write, one per kind of fault seen on the working half — a negation with a means word between it
and the method ('not with LoRA', '不采用 LoRA': read as LoRA), an offload key whose value turns it off written
in its plural form ('fsdp_offload_params False': read as offload on), and the KV-cache layers a serving engine
hands its cache to ('vLLM and LMCache': dropped in silence). Each rule in both languages, through the CLI
(``sizing-bot ask --format json``, in process); the sentences are written for these tests (none is from the
real-question corpus). Readers: :data:`bot.parse.lexicon.NEGATED_LORA_RE` (its means words
:data:`bot.parse.lexicon.LORA_MEANS`), :data:`bot.parse.prose_vocab.OFFLOAD_KEY_OFF_RE` and
:data:`bot.parse.param_offload.PARAM_OFFLOAD_RE`, :mod:`bot.parse.kv_layers`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_in_process, named


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_in_process(capsys, text)


NEGATED_WITH_MEANS = [
    "I want to fully fine-tune Mistral 7B on 4 A100s, not with LoRA.",
    "Fine-tune the 13B model itself, not using LoRA, on 8 A100s with 2048 tokens.",
    "Train Llama-3-8B on 2 H100, rather than doing LoRA; how much memory?",
    "Qwen2.5-7B 全参微调，不使用 LoRA，8 张 A100 要多久？",
    "用 4 张 4090 训练 Llama-3-8B，不采用 LoRA，显存够吗？",
    "Qwen2-7B 微调没有用 LoRA，2 张 A800 80G 够不够？",
]


@pytest.mark.parametrize("text", NEGATED_WITH_MEANS)
def test_negated_lora_with_a_means_word_is_full(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask(capsys, text)["request"]["method"] == "full"


LORA_SAID = [
    "Fine-tune Llama 3 8B with LoRA on one 4090, 4k context.",
    "用 LoRA 微调 Qwen2.5-7B，2 张 A100 够吗？",
    "Not sure about memory: fine-tune Qwen2.5-7B using LoRA on one A10G.",
]


@pytest.mark.parametrize("text", LORA_SAID)
def test_lora_said_stays_lora(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask(capsys, text)["request"]["method"] == "lora"


OFFLOAD_KEY_OFF = [
    "Fine-tune Llama-3-8B with FSDP on 8 A100 40GB, fsdp_offload_params False, batch size 1.",
    "Full fine-tune a 13B with FSDP, cpu_offload=CPUOffload(offload_params=False), on 4 H100.",
    "Full fine-tune Qwen2.5-7B on 4 A100 with offload_params: false and fsdp full_shard.",
    "用 FSDP 全参微调 Qwen2.5-14B，fsdp_offload_params 设为 false，8 张 A100 40G",
    "8 张 A800 全参训练 13B，offload_params=False，显存够吗？",
    "FSDP 训练 Llama-3-8B，offload_params: false，4 张 H100",
]


@pytest.mark.parametrize("text", OFFLOAD_KEY_OFF)
def test_offload_key_set_false_is_no_offload(capsys: pytest.CaptureFixture[str], text: str) -> None:
    data = ask(capsys, text)
    assert data["request"]["offload"] is False
    assert "offload_param: CPU" not in named(data)


OFFLOAD_KEY_ON = [
    "Full fine-tune a 13B with FSDP and offload_params: true on 4 A100 40GB.",
    "FSDP 全参训练 13B，offload_params=True，4 张 A100 40G",
    "Full fine-tune Llama-2-13B on 2 A100 with fsdp_offload_params true.",
]


@pytest.mark.parametrize("text", OFFLOAD_KEY_ON)
def test_offload_key_set_true_is_offload(capsys: pytest.CaptureFixture[str], text: str) -> None:
    data = ask(capsys, text)
    assert data["request"]["offload"] is True
    assert named(data)["offload_param: CPU"] == "param_offload"  # an upper bound, said (s26-trfix4 #10)


KV_LAYERS = [
    ("Serving Llama 3 8B with vLLM and LMCache on one L4, 32k context.", "vLLM", "LMCache"),
    (
        "Qwen2.5-32B on 2 H100 with SGLang and Mooncake for prefill/decode disaggregation, 64 users.",
        "SGLang",
        "Mooncake",
    ),
    (
        'vLLM with --kv-transfer-config \'{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}\' '
        "for Llama-3.1-70B on 4 A100.",
        "vLLM",
        "LMCache",
    ),
    ("vLLM 0.9.0 with the NIXL connector on 8 H100 serving DeepSeek-V3.", "vLLM", "NIXL"),
    ("用 vLLM 加 LMCache 部署 Qwen2.5-72B，4 张 A100，32k 上下文", "vLLM", "LMCache"),
    ("SGLang 搭配 Mooncake 做 PD 分离，8 张 H20 部署 DeepSeek-R1", "SGLang", "Mooncake"),
    ("vLLM 用 FlexKV 把 KV cache 卸到内存，单卡 L40S 跑 Qwen2.5-14B", "vLLM", "FlexKV"),
]


@pytest.mark.parametrize(("text", "engine", "layer"), KV_LAYERS)
def test_kv_cache_layer_is_named_beside_the_engine(
    capsys: pytest.CaptureFixture[str], text: str, engine: str, layer: str
) -> None:
    data = ask(capsys, text)
    assert data["request"]["runtime"] == engine
    assert named(data)[f"runtime: {layer}"] == "kv_cache_layer"


CARD_WITH_MEMORY = [
    # the M1 Max cases moved to tests/test_trial_s23_answers.py: the chip is in the catalog since s23; the
    # Jetson AGX Orin ones to tests/test_s26_trfix4.py (catalogued since s26)
    ("Serve Qwen2.5-7B on one Biren BR104 with 32GB.", "Biren BR104", 32.0),  # MTT S4000: catalog since s25
]


@pytest.mark.parametrize(("text", "card", "memory"), CARD_WITH_MEMORY)
def test_unknown_card_with_its_memory_keeps_both(
    capsys: pytest.CaptureFixture[str], text: str, card: str, memory: float
) -> None:
    data = ask(capsys, text)
    assert data["interpretation"]["unknown_gpu"] == card
    assert data["request"]["gpu_memory_gib"] == memory


MLX_NAMED = [
    ("Fine-tuning a 7B with LoRA in MLX on a Mac with 64GB.", "training_tool: mlx-lm", "no_field"),
    ("Serve Llama-3.1-8B with MLX on an M3 Max 36GB.", "runtime: MLX", "runtime_not_modelled"),
    (
        "Run Qwen2.5-32B-Instruct-MLX-4bit on a Mac Studio M2 Ultra 128GB with 32k context.",
        "runtime: MLX",
        "runtime_not_modelled",
    ),
    ("在 M2 Ultra 192G 上用 MLX 微调 Qwen2.5-7B 的 LoRA", "training_tool: mlx-lm", "no_field"),
    ("用 MLX 在 M3 Max 64G 上部署 Qwen2.5-14B 4bit", "runtime: MLX", "runtime_not_modelled"),
    (
        "M2 Max 96G 跑 mlx-community 的 Qwen2.5-32B-Instruct-4bit，32k 上下文",
        "runtime: MLX",
        "runtime_not_modelled",
    ),
]


@pytest.mark.parametrize(("text", "item", "reason"), MLX_NAMED)
def test_mlx_named_as_the_jobs_stack(
    capsys: pytest.CaptureFixture[str], text: str, item: str, reason: str
) -> None:
    assert named(ask(capsys, text))[item] == reason


FOUR_BIT_FINE_TUNING = [
    "Fine-tune Qwen2.5-7B at 4 bits on one 4090.",
    "Can Qwen3-235B-A22B be fine-tuned on 8 H100? 4-bit is enough.",
    "I want to fine-tune Mistral-7B in 4-bit on a T4.",
    "4bit 微调 Qwen2.5-7B，一张 4090 够吗？",
    "用 int4 量化微调 Llama-3-8B，单卡 3090",
    "想用 4 比特微调 Qwen2.5-14B，两张 4090 够不够？",
]


@pytest.mark.parametrize("text", FOUR_BIT_FINE_TUNING)
def test_fine_tuning_at_four_bits_with_no_method_is_qlora(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    data = ask(capsys, text)
    assert data["request"]["method"] == "qlora"
    assert "precision: int4" not in named(data)


FULL_AT_FOUR_BITS = [
    "Full fine-tune Qwen2.5-7B in 4-bit on one A100.",
    "全参微调 Qwen2.5-7B，4bit，一张 A100",
    "Full-parameter fine-tuning of Llama-3-8B with int4 weights on 2 H100?",
]


@pytest.mark.parametrize("text", FULL_AT_FOUR_BITS)
def test_full_fine_tuning_said_stays_full(capsys: pytest.CaptureFixture[str], text: str) -> None:
    data = ask(capsys, text)
    assert data["request"]["method"] == "full"
    assert named(data)["precision: int4"] == "training_precision"


PORTS = [
    (
        "Any ideas to reach 1 token/s on an 8 vCPU machine with llama2.c? I want Llama 2 7B usable.",
        "runtime: llama2.c",
        "Llama-2-7B",
    ),
    ("How fast is Gemma-2-9B with gemma.cpp on a 16-core CPU?", "runtime: gemma.cpp", "Gemma-2-9B"),
    ("Serving Qwen2.5-7B with qwen.cpp on one RTX 3060 12GB, 8k context.", "runtime: qwen.cpp", "Qwen2.5-7B"),
    ("用 llama2.c 在 8 核 CPU 上跑 Llama 2 7B，能到每秒 1 个 token 吗？", "runtime: llama2.c", "Llama-2-7B"),
    ("用 gemma.cpp 跑 Gemma-2-9B，一张 4090 够吗？", "runtime: gemma.cpp", "Gemma-2-9B"),
    ("qwen.cpp 部署 Qwen2.5-7B，单张 3060 12G，8k 上下文", "runtime: qwen.cpp", "Qwen2.5-7B"),
]


@pytest.mark.parametrize(("text", "item", "model"), PORTS)
def test_a_familys_port_is_a_tool_not_a_model(
    capsys: pytest.CaptureFixture[str], text: str, item: str, model: str
) -> None:
    data = ask(capsys, text)
    assert named(data)[item] == "runtime_not_modelled"
    assert data["request"]["model"] == model
    assert data["interpretation"]["unknown_model"] is None


def test_llm_c_trains(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "How long does llm.c take to pre-train a 124M GPT-2 on 10B tokens with 8 H100?")
    assert named(data)["training_tool: llm.c"] == "no_field"


def test_llama_cpp_stays_the_modelled_runtime(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "Serve Llama-3-8B with llama.cpp on a 4090, 8k context.")
    assert data["request"]["runtime"] == "llama.cpp"
    assert not [t for t in named(data) if t.startswith("runtime:")]


# s21 fixa/fxa, on purpose: a laptop word right before a card selects its laptop part, a catalog entry of its
# own (RTX 4060 Laptop 8 GB at 256 GB/s, RTX 3070 Laptop 8 GB at 448 GB/s), no longer the desktop card
LAPTOP_CARD = [
    ("My laptop's RTX 4060 runs out of memory with Llama-3-8B in fp16.", "RTX-4060-Laptop"),
    ("I have a gaming laptop with an RTX 3070; can it serve Mistral-7B at 4 bits?", "RTX-3070-Laptop"),
    ("On my laptop (RTX 4070, 32 GB RAM), can I run Qwen2.5-7B at Q4?", "RTX-4070"),
    ("我的笔记本是 4060，能跑 Qwen2.5-7B 的 4bit 吗？", "RTX-4060-Laptop"),
    ("笔记本上的 3060 能跑 Llama-3-8B 吗？", "RTX-3060"),
    ("游戏笔记本（RTX 4070）能部署 Qwen2.5-14B 吗？", "RTX-4070"),
]


@pytest.mark.parametrize(("text", "gpu"), LAPTOP_CARD)
def test_a_laptops_card_is_one_card(capsys: pytest.CaptureFixture[str], text: str, gpu: str) -> None:
    request = ask(capsys, text)["request"]
    assert (request["gpu"], request["gpu_count"]) == (gpu, 1)


ACCELERATE_NAMED = [
    "I get OOM fine-tuning gpt-j-6b with accelerate on 8 A100 40GB GPUs; my accelerate config uses FSDP.",
    "Full fine-tune Llama-3-8B using HF accelerate with DeepSpeed ZeRO-3 on 4 A100.",
    "Fine-tuning Mistral-7B through 🤗 Accelerate on 2 H100, how much memory?",
    "用 accelerate 多卡微调 Qwen2.5-7B，4 张 A100 40G",
    "基于 HF accelerate 的 FSDP 全参训练 Llama-3-8B，8 张 H100",
    "accelerate 的配置里开了 FSDP，微调 13B 爆显存，4 张 A100",
]


@pytest.mark.parametrize("text", ACCELERATE_NAMED)
def test_accelerate_named_as_the_tool(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert named(ask(capsys, text))["training_tool: accelerate"] == "no_field"


def test_accelerate_the_verb_names_no_tool(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "How can I accelerate training of a 7B model on 8 H100?")
    assert not [t for t in named(data) if t.startswith("training_tool")]


ONE_STACK_CONTRASTED = [
    "llama.cpp uses 7.5 GB of my 8 GB RTX 2070, but Ollama only uses 6 GB for Qwen2.5-7B. Why?",
    "With llama.cpp I get 40 tok/s on a 4090 for Llama-3-8B, whereas Ollama gives 30; why?",
    "llama.cpp loads all layers of Qwen2.5-14B on my RTX 4070 while Ollama offloads some to the CPU.",
    "llama.cpp 用了 7.5G 显存，而 Ollama 只用了 6G，跑 Qwen2.5-7B，显卡是 3060 12G",
    "同样跑 Llama-3-8B，llama.cpp 能全放进 4090，但 Ollama 却放了一部分到内存",
    "llama.cpp 跑 Qwen2.5-14B 比 Ollama 快，显卡 4070，为什么？",
]


@pytest.mark.parametrize("text", ONE_STACK_CONTRASTED)
def test_ollama_and_llama_cpp_set_against_each_other_are_two_setups(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    data = ask(capsys, text)
    sized = data["request"]["runtime"]
    other = "llama.cpp" if sized == "Ollama" else "Ollama"
    assert sized in ("Ollama", "llama.cpp")
    assert named(data)[f"runtime: {other}"] == "other_setup"


ONE_STACK_SAID = [
    "Ollama runs llama.cpp under the hood; serve Qwen2.5-7B on a 4090 with Ollama, 8k context.",
    "Serve Llama-3-8B with Ollama (llama.cpp backend) on an RTX 4090.",
    "用 Ollama（底层是 llama.cpp）在 4090 上部署 Qwen2.5-7B",
]


@pytest.mark.parametrize("text", ONE_STACK_SAID)
def test_ollama_said_to_run_llama_cpp_is_one_stack(capsys: pytest.CaptureFixture[str], text: str) -> None:
    data = ask(capsys, text)
    assert data["request"]["runtime"] == "Ollama"
    assert not [t for t in named(data) if t.startswith("runtime:")]


TRAIN_A_RELEASE = [
    "I want to train Qwen2.5-7B-Instruct on my own chat data with 4 A100s.",
    "Train Llama-3-8B on our support conversations using 8 H100, how long?",
    "Can I train gemma-2-9b-it on 2 A100 80GB?",
    "用 8 张 A100 训练 Qwen2.5-7B，数据是我的客服对话",
    "训练 gemma-2-9b-it，4 张 4090 够吗？",
    "用自己的数据集训练 Llama-3-8B-Instruct，2 张 H100 要多久？",
]


@pytest.mark.parametrize("text", TRAIN_A_RELEASE)
def test_training_a_chat_release_or_on_own_data_is_fine_tuning(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    assert ask(capsys, text)["request"]["stage"] == "finetune"


TRAIN_AT_SCALE = [
    "How long to train a 7B model from scratch on 1T tokens with 256 H100?",
    "Train Llama 3 8B on 15T tokens with 1024 H100.",
    "从头训练一个 7B 模型，1 万亿 token，256 张 H100 要多久？",
]


@pytest.mark.parametrize("text", TRAIN_AT_SCALE)
def test_training_at_pretraining_scale_stays_pretraining(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    assert ask(capsys, text)["request"]["stage"] == "pretrain"


R12_WORK_UNDERSTOOD_EN = 18
"""Round 12's English r12work records (en_r12.json, 20 records) understood in full at the last measurement
(7/20 at its freeze, 16/20 after these readers, 18/20 after round 15's tool readers: 'fine-tuned with
opensloth?', 'With lolcats I could train'; tests/data/real_questions/README.md). Its r12test half (20
records) is frozen in ``frozen_r12_test_en.sha256``."""


def test_round12_work_en_does_not_regress() -> None:
    from tests.test_real_questions import _work_understood

    assert _work_understood("r12work", "en", 20) >= R12_WORK_UNDERSTOOD_EN


COMMAND_THEN_PROSE = [
    (
        "torchrun --nproc_per_node 8 finetuning.py --enable_fsdp --use_peft --peft_method lora "
        "--use_fast_kernels with meta-llama/Llama-3.2-1B on 8 x A40, OOM at 50k context.",
        "Llama-3.2-1B",
    ),
    (
        "torchrun --nproc_per_node 8 train.py --bf16 --use_peft with Qwen2.5-7B on 8 H100, how long?",
        "Qwen2.5-7B",
    ),
    (
        "deepspeed train.py --zero_stage 3 --gradient_checkpointing using Mistral-7B on 4 A100 OOMs.",
        "Mistral-7B",
    ),
    (
        "torchrun --nproc_per_node 8 train.py --bf16 --use_peft 用 Qwen2.5-7B 在 8 张 H100 上训练要多久？",
        "Qwen2.5-7B",
    ),
    (
        "deepspeed train.py --zero_stage 3 --gradient_checkpointing 微调 Mistral-7B，4 张 A100 爆显存",
        "Mistral-7B",
    ),
    (
        "torchrun --nproc_per_node 8 finetuning.py --use_peft --use_fast_kernels 跑 Llama-3.2-1B，8 张 A40",
        "Llama-3.2-1B",
    ),
]


@pytest.mark.parametrize(("text", "model"), COMMAND_THEN_PROSE)
def test_prose_after_a_commands_flag_is_no_value(
    capsys: pytest.CaptureFixture[str], text: str, model: str
) -> None:
    data = ask(capsys, text)
    assert data["request"]["model"] == model
    assert not [t for t in named(data) if t.endswith((": with", ": using"))]


def test_a_flag_whose_value_is_on_keeps_it(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "llama-server -m qwen2.5-14b-q4_k_m.gguf -ngl 99 -fa on -c 32768 on my RTX 4090")
    assert data["request"]["max_model_len"] == 32768
