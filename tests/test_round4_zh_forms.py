"""Round 4 of the real questions (issue 24 items 1, 2 and 4; tests/data/real_questions/zh_r4.json): ways of
writing that the r4work half showed the parser missing, each read by one rule for its kind — device lists
given to a launcher, a command written after a colon, llama.cpp's old ``main`` binary, OpenRLHF's argument
names, and more — tested in both languages through the CLI (``sizing-bot ask --format json``). The
sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import named
from tests.real_questions import score
from tests.round_forms import ask, fields

INCLUDE = [
    (
        "Qwen2-7B 全参 SFT，deepspeed --include localhost:0,1,2,3 train.py --per_device_train_batch_size 2 "
        "--gradient_accumulation_steps 8，显存够吗",
        4,
        64,
    ),
    (
        "full SFT of Qwen2-7B: deepspeed -i localhost:4,5 train.py --per_device_train_batch_size 1 "
        "--gradient_accumulation_steps 16 --bf16, will it fit?",
        2,
        32,
    ),
    (
        'LoRA on llama-3-8b over two hosts: deepspeed --include="node1:0,1,2,3@node2:0,1,2,3" train.py '
        "--per_device_train_batch_size 4 --gradient_accumulation_steps 2",
        8,
        64,
    ),
]


@pytest.mark.parametrize(("text", "gpus", "global_batch"), INCLUDE)
def test_deepspeed_include_lists_the_gpus(
    capsys: pytest.CaptureFixture[str], text: str, gpus: int, global_batch: int
) -> None:
    """``deepspeed --include localhost:0,1,2,3`` runs on the four GPUs listed (DeepSpeed's launcher
    ``parse_inclusion_exclusion``): the GPU count, so the global batch is micro × accumulation × 4 (before:
    no count, the accumulation named as unread)."""
    data = ask(capsys, text)
    assert fields(data, "gpu_count", "global_batch") == {"gpu_count": gpus, "global_batch": global_batch}


AFTER_COLON = [
    (
        "LoRA 微调 Qwen1.5-14B-Chat，命令：deepspeed --num_gpus 4 src/train_bash.py --stage sft "
        "--finetuning_type lora --cutoff_len 2048 --per_device_train_batch_size 2 "
        "--gradient_accumulation_steps 4。"
        "要多少显存？",
        {"gpu_count": 4, "seq_len": 2048, "global_batch": 32},
    ),
    (
        "My launch cmd:torchrun --nproc_per_node 8 src/train.py --stage sft --finetuning_type full "
        "--cutoff_len 4096 --per_device_train_batch_size 1 --gradient_accumulation_steps 2 "
        "for Qwen2-7B. OOM?",
        {"gpu_count": 8, "seq_len": 4096, "global_batch": 16},
    ),
]


@pytest.mark.parametrize(("text", "want"), AFTER_COLON)
def test_a_command_after_a_colon_is_read(
    capsys: pytest.CaptureFixture[str], text: str, want: dict[str, Any]
) -> None:
    """'命令：deepspeed …' / 'cmd:torchrun …': a command right after a colon is read as the command it is
    (before: the colon hid its launcher, so its GPU count was lost)."""
    data = ask(capsys, text)
    assert fields(data, *want) == want


def test_another_script_after_a_colon_is_left_to_the_prose(capsys: pytest.CaptureFixture[str]) -> None:
    """A script whose flags no known tool has ('main.py --zero_stage 2 --offload', DeepSpeed-Chat) is not
    read as a command after a colon: the prose reader reads its ZeRO stage and offload, as before."""
    data = ask(
        capsys, "4 卡 A100 LoRA 微调 Qwen2-7B，命令：deepspeed main.py --zero_stage 2 --offload --lora_dim 64"
    )
    assert fields(data, "zero_stage", "offload") == {"zero_stage": 2, "offload": True}


OLD_MAIN = [
    "用 llama.cpp 在 CPU 上跑 llama-2-13b 的 q4_0：./main -m models/13B/ggml-model-q4_0.bin -c 4096 -t 8，"
    "速度多少？",
    "llama.cpp on my laptop with llama-2-13b q4_0: ./main -m models/13B/ggml-model-q4_0.bin -c 4096 -t 8. "
    "How fast?",
]


@pytest.mark.parametrize("text", OLD_MAIN)
def test_llama_cpp_main_binary_and_a_generic_weights_file(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """llama.cpp's ``./main -m … -c 4096`` (its CLI before llama-cli): the context is read; the weights file
    ``ggml-model-q4_0.bin`` names no model, so the model the text names is sized."""
    data = ask(capsys, text)
    assert fields(data, "runtime", "max_model_len", "model") == {
        "runtime": "llama.cpp",
        "max_model_len": 4096,
        "model": "Llama-2-13B",
    }
    assert "-t: 8" in named(data)


OPENRLHF = [
    "用 OpenRLHF 做 GRPO，Qwen2.5-7B，2 台 8 卡 H100：--micro_train_batch_size 2 --train_batch_size 256 "
    "--micro_rollout_batch_size 8 --rollout_batch_size 512 --prompt_max_len 2048 --generate_max_len 4096 "
    "--n_samples_per_prompt 8 --vllm_num_engines 4，要多久？",
    "GRPO with OpenRLHF on Qwen2.5-7B, 2 nodes of 8 H100: --micro_train_batch_size 2 --train_batch_size 256 "
    "--micro_rollout_batch_size 8 --rollout_batch_size 512 --prompt_max_len 2048 --generate_max_len 4096 "
    "--n_samples_per_prompt 8 --vllm_num_engines 4. How long?",
]


@pytest.mark.parametrize("text", OPENRLHF)
def test_openrlhf_argument_names(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """OpenRLHF's names (openrlhf/cli/train_ppo_ray.py): --micro_train_batch_size is the micro-batch,
    --prompt_max_len + --generate_max_len one sequence, --n_samples_per_prompt the generations per prompt,
    --vllm_num_engines the vLLM rollout engine; --rollout_batch_size the prompts a rollout (s32: read in
    its unit, never the micro-batch), --micro_rollout_batch_size named."""
    data = ask(capsys, text)
    assert fields(
        data, "batch_size", "global_batch", "seq_len", "max_completion_length", "num_generations"
    ) == {
        "batch_size": 2,
        "global_batch": 256,
        "seq_len": 6144,
        "max_completion_length": 4096,
        "num_generations": 8,
    }
    assert data["request"]["runtime"] == "vLLM"
    assert data["request"]["rollout_batch"] == 512
    assert "micro_rollout_batch_size: 8" in named(data)


def test_scorer_reads_a_comma_list_of_lora_targets() -> None:
    """A label 'q_proj,v_proj' (LLaMA-Factory's lora_target as typed) is the contract's list of those two."""
    record = {"stated": {"lora_targets": "q_proj,v_proj"}}
    answer = {"request": {"lora_targets": ["q_proj", "v_proj"]}, "interpretation": {"ignored": []}}
    assert score(record, answer) == []
    answer["request"]["lora_targets"] = ["q_proj"]
    assert score(record, answer) == ["lora_targets"]


OTHER_ENGINE = [
    (
        "用 SGLang 部署 Qwen2-72B-Instruct，4 张 A100，吞吐只有 300 tokens/s；"
        "之前用 vLLM 跑能到 600，是哪里的问题？",
        "SGLang",
    ),
    (
        "4 张 A100 用 lmdeploy 部署 Qwen2-72B-Instruct 很慢。"
        "另外用 vllm 在同一台机器上也试了，这速度正常吗？",
        "lmdeploy",
    ),
    (
        "Serving Qwen2-72B-Instruct with lmdeploy on 4 A100s gives 300 tokens/s. Previously vLLM gave 500 on "
        "the same box, is that normal?",
        "lmdeploy",
    ),
]


@pytest.mark.parametrize(("text", "engine"), OTHER_ENGINE)
def test_an_engine_said_as_an_earlier_setup_is_not_the_one_sized(
    capsys: pytest.CaptureFixture[str], text: str, engine: str
) -> None:
    """'之前用 vLLM 能到 600' / '另外用 vllm 也试了' / 'previously vLLM gave 500': that engine is an
    earlier or other setup, named, and the one the message is about is sized (before: the engine in the
    asking sentence or the last one read was sized, here the earlier one)."""
    data = ask(capsys, text)
    assert data["request"]["runtime"] == engine
    assert named(data).get("runtime: vLLM") == "other_setup"


KEY_MEMORY = [
    "GPU: 1*A100, 显存: 40GB, 内存: 64GB，7B 全参 SFT 够吗？",
    "单卡 A100 显存大小：40G，7B 全参 SFT 够吗？",
    "GPU: 1x A100, VRAM: 40GB, RAM: 64GB. Full SFT of a 7B, enough?",
    "GPU memory = 40 GB on one A100; full SFT of a 7B, enough?",
]


@pytest.mark.parametrize("text", KEY_MEMORY)
def test_card_memory_written_as_a_setting(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'显存: 40GB' / 'VRAM: 40GB' / 'GPU memory = 40 GB' (a hardware line as pasted): each card's memory,
    sized (before: the 80 GB A100 was sized and '40' named as unread); the host's RAM stays the host's."""
    data = ask(capsys, text)
    assert data["request"]["gpu_memory_gib"] == 40
    assert "40" not in named(data)


ASKED_METHOD = [
    "QLoRA 在一张 24G 的卡上能微调 Qwen2-7B，那不量化的 LoRA 要多少显存？",
    "用 QLoRA 在 24G 显存上能微调 Qwen2-7B。应该如何进行不量化的 LoRA 呢？",
    "QLoRA of Qwen2-7B fits on one 24 GB card, but how much memory does plain LoRA need?",
]


@pytest.mark.parametrize("text", ASKED_METHOD)
def test_the_method_the_question_asks_about_is_sized(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """A method that worked, then a question about another ('QLoRA 可以…，那不量化的 LoRA 呢？'): the one
    asked about is sized, the other stays a compared method (before: the first written, QLoRA, was sized
    on a 4-bit base)."""
    data = ask(capsys, text)
    assert data["request"]["method"] == "lora"
    assert data["request"]["methods"] == ["lora", "qlora"]
    assert data["request"]["precision"] != "int4"


SAMPLE_LENGTH = [
    "用一张 3090 Ti LoRA 微调 Qwen2-7B，个别数据长度会达到 2000 左右，能跑吗？",
    "用一张 3090 Ti LoRA 微调 Qwen2-7B，样本长度一般在 2000 上下，能跑吗？",
    "LoRA on Qwen2-7B with one 3090 Ti; some samples run to about 2000 tokens. Will it fit?",
    "LoRA on Qwen2-7B with one 3090 Ti, sample length up to 2000. Will it fit?",
]


@pytest.mark.parametrize("text", SAMPLE_LENGTH)
def test_a_sample_length_with_words_before_its_value(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'数据长度会达到 2000 左右' / 'samples run to about 2000 tokens' / 'sample length up to 2000': the
    length a sample reaches is the sequence trained at (before: the default 2048 was sized, the 2000 named
    as unread or, in English, dropped in silence)."""
    data = ask(capsys, text)
    assert data["request"]["seq_len"] == 2000
    assert "2000" not in named(data)


PRODUCT_PAIRS = [
    ("用 2x8 或 4x8 的 A100 全参微调 Qwen2-72B 要多久？", 16, 32),
    ("我有 2x16 和 3x16 的 910B 卡，GRPO 训练 Qwen2.5-32B 显存够吗？", 32, 48),
    ("Full fine-tuning Qwen2-72B on 2x8 or 4x8 A100s, how long?", 16, 32),
]


@pytest.mark.parametrize(("text", "low", "high"), PRODUCT_PAIRS)
def test_two_node_setups_are_a_range(
    capsys: pytest.CaptureFixture[str], text: str, low: int, high: int
) -> None:
    """'2x8 或 4x8 的 A100': two setups of nodes × cards, sized from the first up to the second, as '16 or 32
    cards' is (before: the first product was dropped in silence and only the second sized)."""
    data = ask(capsys, text)
    assert fields(data, "gpu_count", "gpu_count_max") == {"gpu_count": low, "gpu_count_max": high}


ROLLOUT_SHARE = [
    ("GRPO 训练 Qwen2.5-32B，用 2x16 的 910B 卡，预计 2-4 卡 vllm 就够了，显存够吗？", 32, {"2", "4"}),
    ("GRPO of Qwen2.5-32B on 16 A100s, 4 GPUs for vLLM and the rest for training. Enough memory?", 16, {"4"}),
]


@pytest.mark.parametrize(("text", "gpus", "share"), ROLLOUT_SHARE)
def test_cards_for_the_rollout_engine_are_not_the_job(
    capsys: pytest.CaptureFixture[str], text: str, gpus: int, share: set[str]
) -> None:
    """In online RL, the cards given to the vLLM rollout engine ('2-4 卡 vllm', '4 GPUs for vLLM') are a
    share of the job's: named, never its GPU count (before: '2-4 卡' was sized as the job's cards)."""
    data = ask(capsys, text)
    assert data["request"]["gpu_count"] == gpus
    assert data["request"].get("gpu_count_max") is None
    assert share <= set(named(data))


def test_a_serving_count_before_the_engine_stays_the_count(capsys: pytest.CaptureFixture[str]) -> None:
    """Outside online RL, '4 卡 vllm 部署' is the serving job's four cards."""
    data = ask(capsys, "4 卡 vllm 部署 Qwen2-72B-Instruct 能撑多少并发？")
    assert data["request"]["gpu_count"] == 4


CARD_NOT_MODEL = [
    "用 16 张 Ascend-910B 训练 Qwen2.5-32B 要多久？",
    "Full fine-tuning Qwen2.5-32B on 16 ascend910b cards, how long?",
]


@pytest.mark.parametrize("text", CARD_NOT_MODEL)
def test_a_card_name_with_a_b_is_not_a_model(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'Ascend-910B' / 'ascend910b' is the card (its catalog aliases written with a hyphen or glued), never
    a 910B-parameter model named as another setup (before: the A100 default was sized)."""
    data = ask(capsys, text)
    assert fields(data, "gpu", "gpu_count", "model") == {
        "gpu": "Ascend-910B",
        "gpu_count": 16,
        "model": "Qwen2.5-32B",
    }
    assert not [t for t in named(data) if t.startswith("model:")]


HOST_BESIDE_VRAM = [
    ("一张 4090，显存 24G，内存 64G，Qwen2-7B LoRA 够吗？", "host_memory: 64 GB"),
    ("GPU: 1*A100, 显存: 40GB, 内存: 50GB，Qwen2-7B 全参 SFT 够吗？", "host_memory: 50 GB"),
]


@pytest.mark.parametrize(("text", "host"), HOST_BESIDE_VRAM)
def test_memory_beside_vram_is_the_hosts(capsys: pytest.CaptureFixture[str], text: str, host: str) -> None:
    """'显存 24G，内存 64G': with each card's memory said as 显存, a bare 内存 is the host's, named (before:
    '内存 64G' was left to the card rules and '50' named as an unread number)."""
    data = ask(capsys, text)
    assert named(data).get(host) == "no_field"
    assert data["request"]["gpu_memory_gib"] in (24, 40)


def test_a_list_of_methods_in_the_question_keeps_the_first(capsys: pytest.CaptureFixture[str]) -> None:
    """'支持 QLoRA、P-tuning 这种…吗？': a list of methods in the asking sentence is no turn to the last one;
    the first written is sized, the other compared (as before the asked-method rule)."""
    data = ask(capsys, "要微调 Qwen2-7B，最少要几张 3090？支持 QLoRA、P-tuning 这种省显存的方式吗？")
    assert data["request"]["methods"][0] == "qlora"


SHORT_KEYS = [
    ("Qwen2-7B LoRA，bs=4，ga=8，4 张 4090，够吗？", {"batch_size": 4, "global_batch": 128}),
    (
        "LoRA on Qwen2-7B, micro batch 2, grad_acc 4, on 2 GPUs: enough memory?",
        {"batch_size": 2, "global_batch": 16},
    ),
    ("Qwen2.5-7B LoRA，rank 设 64，alpha 128，单卡 4090 够吗？", {"lora_rank": 64}),
    ("LoRA on Qwen2.5-7B with rank=32 and alpha 64 on one 4090, enough?", {"lora_rank": 32}),
    ("Qwen2.5-14B 全参，开了重计算，8 张 A800，一天能训多少 token？", {"recompute": "full"}),
    (
        "Full fine-tuning Qwen2.5-14B with gradient checkpointing on 8 A800s, tokens per day?",
        {"recompute": "full"},
    ),
]


@pytest.mark.parametrize(("text", "want"), SHORT_KEYS)
def test_settings_in_their_short_forms(
    capsys: pytest.CaptureFixture[str], text: str, want: dict[str, Any]
) -> None:
    """'ga=8' / 'grad_acc 4' (gradient accumulation), a bare 'rank 设 64' in a LoRA message, '开了重计算':
    settings as people shorten them (before: the accumulation and the rank named as unread numbers, the
    recompute not read)."""
    data = ask(capsys, text)
    assert fields(data, *want) == want


MORE_COUNTS = [
    ("2 台 8 卡或 4 台 8 卡的 A100 全参微调 Qwen2-72B 要多久？", {"gpu_count": 16, "gpu_count_max": 32}),
    (
        "Full fine-tuning Qwen2-72B on 2 nodes of 8 or 4 nodes of 8 A100s, how long?",
        {"gpu_count": 16, "gpu_count_max": 32},
    ),
    ("CUDA_VISIBLE_DEVICES=0,1,2,3 跑 Qwen2-7B 全参 SFT，显存够吗？", {"gpu_count": 4}),
    ("With CUDA_VISIBLE_DEVICES=0,1 I fine-tune Qwen2-7B with LoRA; is memory enough?", {"gpu_count": 2}),
]


@pytest.mark.parametrize(("text", "want"), MORE_COUNTS)
def test_more_count_forms(capsys: pytest.CaptureFixture[str], text: str, want: dict[str, Any]) -> None:
    """'2 台 8 卡或 4 台 8 卡' / '2 nodes of 8 or 4 nodes of 8': two node setups as a range of their totals;
    'CUDA_VISIBLE_DEVICES=0,1,2,3' in prose: the four GPUs the job sees (before: the second setup's node
    count or the list's first device was named as an unread number)."""
    data = ask(capsys, text)
    assert fields(data, *want) == want


@pytest.mark.parametrize(
    "text",
    [
        "3 张卡（CUDA_VISIBLE_DEVICES=1,2,3）对 Qwen2-7B 做 LoRA SFT，要训多久？",
        "LoRA SFT of Qwen2-7B on 3 GPUs (CUDA_VISIBLE_DEVICES=1,2,3): how long?",
    ],
)
def test_a_device_list_beside_a_count_is_one_count(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """The cards counted in words and the visible-devices list are one count: 3, the device ids never
    named as unread numbers (before: '1' was named)."""
    data = ask(capsys, text)
    assert data["request"]["gpu_count"] == 3
    assert not {"1", "2", "3"} & set(named(data))
