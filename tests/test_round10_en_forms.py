"""Round 10 of the real questions, English half (issue 24; tests/data/real_questions/en_r10.json): readers
of how people write, one per kind of fault seen on the working half — activation recompute in a tool's own
spelling ('--deepspeed_checkpoint_activations', Megatron-LM's '--recompute-activations': not read), a tool
named beside another the parser knows or as an owner ('with EasyR1' running verl, "trlX's experiments":
dropped; 'litgpt' renamed lit-llama; 'exllamav3' not read as ExLlama), a flag ending a sentence ('… --bf16?
I only have …': 'I' read as its value), ``accelerate launch``'s own flags ('--config_file configs/zero3.yaml',
'--zero_stage 3': dropped in silence), and TGI's 'SHARDED=true' on 4 cards (TP 1). Each rule in both
languages, through the CLI (``sizing-bot ask --format json``, in process); the sentences are written for
these tests (none is from the real-question corpus). Readers: :mod:`bot.parse.recompute_words`,
:mod:`bot.parse.unknown_tools`, :data:`bot.parse.stack_words.TRAINING_TOOLS`, the ExLlama row of
:data:`bot.parse.method_words.RUNTIMES`, ``_options`` of :mod:`bot.parse.configs.launchers`,
:mod:`bot.parse.configs.accelerate_flags`, :func:`bot.parse.inline_flags.sharded_tp` and
:data:`bot.parse.cue_words.MEASURED_BEFORE`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import named
from tests.round_forms import ask

RECOMPUTE_SPELLINGS = [
    (
        "Pre-training a 13B model on 64 H100 with Megatron-LM and --checkpoint-activations:"
        " how long for 300B tokens?", "full",
    ),
    (
        "Fine-tune Llama-2-7B with DeepSpeed ZeRO-2 and --deepspeed_checkpoint_activations on"
        " 4 A100 80GB: memory?", "full",
    ),
    (
        "NeMo SFT of Llama-3-8B with activations_checkpoint_method=uniform on 8 H100, how much"
        " memory per GPU?", "full",
    ),
    (
        "Megatron-LM pretraining of a 70B model with --recompute-activations on 32 H100: how"
        " long for 1T tokens?", "selective",
    ),
    ("Full fine-tune of Qwen2.5-7B with --grad_ckpt on 2 A100 80GB: how much memory per GPU?", "full"),
    (
        "用 Megatron-LM 在 64 张 H100 上预训练 13B 模型，开了 --checkpoint-activations"
        "，300B token 要多久？", "full",
    ),
    (
        "用 Megatron-LM 在 32 张 H100 上预训练 70B，加了 --recompute-activations"
        "，1T token 要多久？", "selective",
    ),
    ("NeMo 在 8 张 H100 上 SFT Llama-3-8B，activations_checkpoint_granularity=full，显存够吗？", "full"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "mode"), RECOMPUTE_SPELLINGS)
def test_a_tools_own_recompute_spelling_is_read(
    capsys: pytest.CaptureFixture[str], text: str, mode: str
) -> None:
    """Megatron-LM's legacy and GPT-NeoX's checkpoint-activations, DeepSpeed's
    deepspeed_checkpoint_activations, NeMo's activations_checkpoint_*, grad_ckpt: full recompute;
    Megatron-LM's --recompute-activations: selective (its arguments.py)."""
    assert ask(capsys, text)["request"]["recompute"] == mode


def test_a_negated_grad_ckpt_flag_is_not_full_recompute(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(
        capsys,
        "LoRA on Llama-2-7B with llama-recipes --use_peft --no_peft_grad_ckpt on one A100 40GB: memory?",
    )
    assert data["request"]["recompute"] != "full"


TOOLS_BESIDE_OR_OWNED = [
    (
        "I'm replicating nanoGPT's GPT-2 124M training on 8 A100 40GB: how long"
        " for 10B tokens?", "training_tool: nanoGPT",
    ),
    (
        "GRPO on Qwen2.5-7B with EasyR1 (python3 -m verl.trainer.main) on 8 H100: how much"
        " memory per GPU?", "training_tool: EasyR1",
    ),
    ("How many A100 80GB to run trlX's PPO example on Llama-2-7B?", "training_tool: trlX"),
    (
        "在 8 张 H100 上用 EasyR1（python3 -m verl.trainer.main）做 Qwen2.5-VL-7B"
        " 的 GRPO，每卡显存多少？", "training_tool: EasyR1",
    ),
    ("照着 nanoGPT's 脚本在 4 张 4090 上训练 GPT-2 124M，要多久？", "training_tool: nanoGPT"),
    (
        "用 EasyR1 跑 python3 -m verl.trainer.main，"
        "在 16 张 A800 上做 Qwen2.5-14B 的 GRPO，显存够吗？",
        "training_tool: EasyR1",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("text", "item"), TOOLS_BESIDE_OR_OWNED)
def test_a_tool_no_table_has_is_named_beside_a_known_one_or_as_an_owner(
    capsys: pytest.CaptureFixture[str], text: str, item: str
) -> None:
    """Named as typed (before: dropped when a known tool was read, and a possessive was no context)."""
    assert item in named(ask(capsys, text))


LITGPT = [
    "Fine-tune Llama-2-13B with litgpt LoRA on one A100 80GB: how much memory?",
    "Is lit-gpt's full fine-tuning of Phi-2 possible on a 24GB 4090?",
    "用 litgpt 在单张 A100 80G 上 LoRA 微调 Llama-2-13B，显存要多少？",
    "litgpt 全参微调 Phi-2，一张 24G 的 4090 够吗？",
    "我用 lit-gpt 在 8 张 A100 上预训练 1B 模型 100B token，要多久？",
]


@pytest.mark.parametrize("text", LITGPT)
def test_litgpt_is_named_as_itself_not_lit_llama(capsys: pytest.CaptureFixture[str], text: str) -> None:
    items = named(ask(capsys, text))
    assert "training_tool: litgpt" in items
    assert "training_tool: lit-llama" not in items


EXLLAMA_V3 = [
    "Gemma-3-27B at 4.0bpw in exllamav3 on a 24GB 4090: how much context fits?",
    "Serving Qwen2.5-32B EXL3 with ExLlamaV3 on two 3090s: what context length fits?",
    "用 exllamav3 在一张 4090 上跑 Qwen2.5-32B 的 4.0bpw，能开多长上下文？",
    "Llama-3-70B EXL3 at 3.0bpw on two 24GB cards in exllamav3: does 32k context fit?",
    "ExLlamaV3 跑 Llama-3-70B 的 3.0bpw，两张 3090 能开 32k 上下文吗？",
    "两张 4090 用 exllamav3 加载 Qwen2.5-72B 的 EXL3 量化，显存够吗？",
]


@pytest.mark.parametrize("text", EXLLAMA_V3)
def test_exllamav3_is_the_exllama_runtime(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask(capsys, text)["request"]["runtime"] == "ExLlama"


FLAG_ENDS_A_SENTENCE = [
    (
        "accelerate launch train.py --model_name_or_path Qwen/Qwen2.5-7B"
        " --per_device_train_batch_size 2 --bf16? I have 4 A100 40GB.", "bf16",
    ),
    (
        "torchrun --nproc_per_node 8 train.py --model_name_or_path meta-llama/Llama-2-7b-hf"
        " --fp16. Why does it OOM on 8 V100 16GB?", "fp16",
    ),
    (
        "deepspeed train.py --model_name_or_path Qwen/Qwen2.5-14B --deepspeed ds_z3.json"
        " --bf16! It runs out of memory on 8 A800.", "bf16",
    ),
    (
        "torchrun --nproc_per_node 4 train.py --model_name_or_path Qwen/Qwen2.5-7B --bf16？我有 4"
        " 张 A100 40G，够吗", "bf16",
    ),
    (
        "deepspeed train.py --model_name_or_path meta-llama/Llama-2-13b-hf --fp16"
        "。8 张 V100 32G 为什么爆显存？", "fp16",
    ),
    (
        "deepspeed train.py --model_name_or_path Qwen/Qwen2.5-7B --deepspeed ds_z2.json"
        " --bf16！4 张 4090 跑不动，怎么办",
        "bf16",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("text", "precision"), FLAG_ENDS_A_SENTENCE)
def test_a_flag_ending_a_sentence_takes_no_value(
    capsys: pytest.CaptureFixture[str], text: str, precision: str
) -> None:
    """'--bf16? I have …': a switch at a sentence's end, not '--bf16 I' (named as an unknown value)."""
    data = ask(capsys, text)
    assert data["request"]["precision"] == precision
    assert not any(t.startswith(("--bf16", "bf16", "--fp16", "fp16")) for t in named(data))


ACCELERATE_FLAGS = [
    (
        "accelerate launch --config_file configs/zero3.yaml --num_processes 8 train.py"
        " --model_name_or_path Qwen/Qwen2.5-14B on 8 A100: memory per GPU?",
        {"zero_stage": 3, "gpu_count": 8},
    ),
    (
        "accelerate launch --use_deepspeed --zero_stage 3 --offload_optimizer_device cpu"
        " --mixed_precision bf16 --num_processes 4 train.py --model_name_or_path"
        " meta-llama/Llama-2-13b-hf: does it fit on 4 A100 40GB?",
        {"zero_stage": 3, "offload": True, "precision": "bf16"},
    ),
    (
        "accelerate launch --use_fsdp --fsdp_sharding_strategy SHARD_GRAD_OP"
        " --fsdp_activation_checkpointing true --num_processes 8 train.py for a Llama-3-8B"
        " full fine-tune on 8 L40S: memory?", {"zero_stage": 2, "recompute": "full"},
    ),
    (
        "Full fine-tune of Llama-3-8B with accelerate launch --config_file fsdp.yaml train.py"
        " on 8 A100: memory?", {"zero_stage": 3},
    ),
    (
        "在 8 张 A100 上用 accelerate launch --config_file configs/zero3.yaml train.py"
        " --model_name_or_path Qwen/Qwen2.5-14B 全参微调，显存够吗？", {"zero_stage": 3},
    ),
    (
        "用 accelerate launch --use_deepspeed --zero_stage 2 --offload_optimizer_device cpu"
        " --num_processes 4 train.py 在 4 张 4090 上全参微调 Qwen2.5-3B，每卡显存多少"
        "？", {"zero_stage": 2, "offload": True},
    ),
    (
        "accelerate launch --mixed_precision fp16 --num_processes 2 train.py 在 2 张 V100 32G"
        " 上微调 Llama-2-7B，显存够吗？", {"precision": "fp16"},
    ),
]  # fmt: skip


@pytest.mark.parametrize(("text", "want"), ACCELERATE_FLAGS)
def test_accelerate_launch_flags_are_read(
    capsys: pytest.CaptureFixture[str], text: str, want: dict[str, Any]
) -> None:
    """Every flag of accelerate launch (v1.10.1 launch.py) before the script: its config file named for a
    ZeRO stage or FSDP, --zero_stage, --offload_optimizer_device, --mixed_precision, FSDP's strategy and
    activation checkpointing (before: only --num_processes; the rest dropped in silence)."""
    request = ask(capsys, text)["request"]
    assert {k: request[k] for k in want} == want


def test_an_accelerate_flag_that_does_not_size_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(
        capsys,
        "accelerate launch --use_deepspeed --zero_stage 2 --main_process_port 29501"
        " --num_processes 4 train.py"
        " --model_name_or_path Qwen/Qwen2.5-7B on 4 A100: memory?",
    )
    assert named(data)["--main_process_port: 29501"] == "not_sized"


TGI_SHARDED = [
    (
        "TGI in Docker with MODEL_ID=Qwen/Qwen2.5-14B-Instruct and SHARDED=true on 2x A10G"
        " 24GB: how long a context fits?", 2,
    ),
    (
        "text-generation-inference with --sharded true on 4 L4 GPUs serving Llama-3.1-8B: how"
        " many concurrent requests?", 4,
    ),
    ("用 TGI 部署 Qwen2.5-32B，SHARDED=true，4 张 L20，能跑多长上下文？", 4),
    ("Serving Mistral-7B with TGI, SHARDED=true, on 2 L40S: how many requests at 8k context?", 2),
    ("TGI 的 --sharded true 开着，2 张 A10 跑 Qwen2.5-7B，8k 上下文能并发多少？", 2),
    ("docker 跑 TGI，MODEL_ID=Qwen/Qwen2.5-14B-Instruct，SHARDED=true，8 张 L20，并发多少？", 8),
]  # fmt: skip


@pytest.mark.parametrize(("text", "tp"), TGI_SHARDED)
def test_tgi_sharded_shards_over_every_card(capsys: pytest.CaptureFixture[str], text: str, tp: int) -> None:
    assert ask(capsys, text)["request"]["tp"] == tp


def test_tgi_not_sharded_keeps_no_tp(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "TGI with SHARDED=false on 2 A10G for Llama-3.1-8B: how long a context?")["request"][
        "tp"
    ] in (None, 1)


SERVED_MODEL_MADE_WITH_A_JOB_NAMED_TOOL = [
    "I get CUDA out of memory running inference with the Mistral 7B model I fine-tuned with"
    " mistral-finetune on an A10G.",
    "Serving the Llama-3-8B I tuned with llama_finetuning on one L4 with vLLM: how many concurrent users?",
    "Deploying a Qwen2.5-7B trained with the qwen-sft repo on a 4090: how much VRAM for inference?",
    "部署用 llama-finetune 微调好的 Llama-3-8B，单张 L4 推理够吗？",
    "用 qwen-sft 训练好的 Qwen2.5-7B 在 4090 上推理要多少显存？",
    "拿 mistral-finetune 微调过的 Mistral-7B 在 A10G 上推理，为什么爆显存？",
]


@pytest.mark.parametrize("text", SERVED_MODEL_MADE_WITH_A_JOB_NAMED_TOOL)
def test_a_tool_named_for_its_job_does_not_make_serving_a_fine_tuning(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """'mistral-finetune', 'llama_finetuning', 'qwen-sft': a repository's name, the job is serving."""
    assert ask(capsys, text)["request"]["stage"] == "inference"


CONFIG_MODEL_REPLACES_THE_TEXTS = [
    "GRPO on an R1-Distill model with accelerate launch --config_file zero3.yaml grpo.py"
    " --model_name_or_path deepseek-ai/DeepSeek-R1-Distill-Qwen-7B on 8 A100: memory?",
    "I usually serve DeepSeek-V3, but now: vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192"
    " on one L4:"
    " how many requests fit?",
    "Mixtral-8x7B was my first try; now deepspeed train.py --model_name_or_path meta-llama/Llama-2-13b-hf"
    " --deepspeed ds_z3.json on 8 A100: memory?",
    "平时跑 DeepSeek-V3，这次 torchrun --nproc_per_node 8 train.py"
    " --model_name_or_path Qwen/Qwen2.5-14B --bf16"
    " 全参微调，8 张 A100 够吗？",
    "之前试过 Mixtral-8x7B，现在 vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192，"
    "一张 L4 能并发多少？",
    "R1 的蒸馏版用 accelerate launch --config_file zero2.yaml sft.py --model_name_or_path"
    " deepseek-ai/DeepSeek-R1-Distill-Qwen-14B 训练，8 张 H100 显存够吗？",
]


@pytest.mark.parametrize("text", CONFIG_MODEL_REPLACES_THE_TEXTS)
def test_a_configs_dense_model_leaves_no_active_parameters_of_the_texts(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """The model a command names replaces the text's whole: a dense one has no params_active (before:
    DeepSeek-R1's 37B active parameters were kept beside a 7B distill)."""
    request = ask(capsys, text)["request"]
    assert request["params_active"] is None
    assert request["params_total"] < 20e9


GPT_NEOX = [
    ("Serving GPT-NeoX-20B with TGI on 2 A100 40GB: how many requests fit?", True),
    ("How much VRAM does gpt-neox-20b need in fp16 for inference?", True),
    ("部署 GPT-NeoX-20B 需要几张 A10？", True),
    ("GPT-NeoX 20B 用 vLLM 推理，一张 A100 80G 够吗？", True),
    ("Pre-training a 1.3B model with GPT-NeoX on 8 A100: how long for 26B tokens?", False),
    ("用 gpt-neox 框架在 16 张 A100 上预训练 6.9B 模型 300B token 要多久？", False),
]


@pytest.mark.parametrize(("text", "model"), GPT_NEOX)
def test_the_gpt_neox_models_are_not_its_trainer(
    capsys: pytest.CaptureFixture[str], text: str, model: bool
) -> None:
    """'GPT-NeoX-20B' is the model; 'with GPT-NeoX' alone is EleutherAI's trainer (named)."""
    data = ask(capsys, text)
    assert ("training_tool: GPT-NeoX" in named(data)) is not model
    assert (data["request"]["model"] == "GPT-NeoX-20B") is model


FUNCTION_WORD_BEFORE_A_SIZE = [
    "Llama-3.1-405B in FP8 on 16 A40: does it fit, since 405B in FP8 needs about 405GB?",
    "Qwen2.5-72B on 2 A100 40GB should fit because 72B in int4 is about 40GB, right?",
    "Mixtral-8x7B on 2 A100 40GB, although 47B in fp16 is 94GB: will it fit?",
    "Qwen2.5-72B 放 2 张 A100 40G，因为 72B 的 int4 只要 40GB，应该够吧？",
    "Llama-3.1-405B 的 FP8 放 16 张 A40 上，既然 405B 的 FP8 大约 405GB，够吗？",
    "Mixtral-8x7B 用 2 张 A100 40G，虽然 47B 的 fp16 有 94GB，能跑吗？",
]


@pytest.mark.parametrize("text", FUNCTION_WORD_BEFORE_A_SIZE)
def test_a_function_word_before_a_size_names_no_model(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'since 405B', 'because 72B': a conjunction and a size, not a model 'since 405B'."""
    assert not any(t.startswith("model:") for t in named(ask(capsys, text)))


ROLLOUT_SHARE = [
    "GRPO of Qwen3-4B in Unsloth on a 4090 with fast_inference=True, gpu_memory_utilization = 0.6: memory?",
    "GRPO on Qwen2.5-7B with TRL on 8 H100 and gpu_memory_utilization 0.5: how much is left for training?",
    "PPO of Llama-3-8B with verl on 8 A100, gpu_memory_utilization=0.4: does it fit?",
    "用 Unsloth 在一张 4090 上做 Qwen3-4B 的 GRPO，gpu_memory_utilization 设 0.7，显存够吗？",
    "8 张 H100 上用 TRL 跑 Qwen2.5-7B 的 GRPO，gpu_memory_utilization=0.5，训练还剩多少显存？",
    "verl 做 Llama-3-8B 的 PPO，8 张 A100，gpu_memory_utilization 0.4，够吗？",
]


@pytest.mark.parametrize("text", ROLLOUT_SHARE)
def test_a_gpu_memory_share_in_an_rl_job_is_the_rollout_engines(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """Unsloth's GRPO 'gpu_memory_utilization' (its vLLM generates the completions): the rollout share,
    used (before: named as a serving setting)."""
    request = ask(capsys, text)["request"]
    assert request["rollout_gpu_memory_utilization"] in (0.4, 0.5, 0.6, 0.7)
    assert request["gpu_memory_utilization"] is None


def test_a_share_in_sft_is_still_a_serving_setting(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "SFT of Qwen2.5-7B on 2 A100 with gpu_memory_utilization 0.8: how much memory?")
    assert named(data)["gpu_memory_utilization: 0.8"] == "serving_only"


RELEASE_DATES = [
    ("GRPO of Qwen3-4B-Instruct-2507 on a 4090: how much memory?", "Qwen3-4B"),
    ("Serving DeepSeek-V3-0324 on 8 H200: how long a context fits?", "DeepSeek-V3"),
    ("Qwen3-235B-A22B-Instruct-2507-FP8 on 8 H100: how many concurrent requests?", "Qwen3-235B-A22B"),
    ("部署 Qwen3-30B-A3B-Instruct-2507，4 张 4090 够吗？", "Qwen3-30B-A3B"),
    ("DeepSeek-R1-0528 用 8 张 H200 部署，能开多长上下文？", "DeepSeek-R1"),
    ("在一张 4090 上 LoRA 微调 Qwen3-4B-Instruct-2507，显存够吗？", "Qwen3-4B"),
]


@pytest.mark.parametrize(("text", "model"), RELEASE_DATES)
def test_a_release_date_is_part_of_the_models_name(
    capsys: pytest.CaptureFixture[str], text: str, model: str
) -> None:
    """'-2507', '-0324': the release's date (YYMM, MMDD), never an unread number."""
    data = ask(capsys, text)
    assert data["request"]["model"] == model
    assert not any(t in named(data) for t in ("2507", "0324", "0528"))


MEASURED_IN_BRACKETS = [
    "Llama-2 70B GPTQ 4bit on 2x 3090 runs at 2048 context with decent performance (11 tok/sec) in ExLlama."
    " Can it do 4096 context?",
    "Qwen2.5-32B AWQ on one 4090 with vLLM gives OK speed (about 25 t/s); how many users at 8k context?",
    "Mixtral-8x7B Q4 on 2 3090 with llama.cpp, throughput (40 tokens/s) is fine; can I go to 32k context?",
    "两张 3090 跑 Llama-2-70B 的 4bit，速度（11 tok/s）还行，能开到 4096 上下文吗？",
    "一张 4090 跑 Qwen2.5-32B AWQ，性能（25 token/s）可以，8k 上下文能并发几个？",
    "单张 L40S 跑 Qwen2.5-14B，速度（40 tokens/s）够用，32k 上下文放得下吗？",
]


@pytest.mark.parametrize("text", MEASURED_IN_BRACKETS)
def test_a_rate_in_brackets_after_how_a_run_went_is_measured(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """'decent performance (11 tok/sec)', '速度（15 tok/s）': what the run gives, never the target."""
    assert ask(capsys, text)["request"]["target_tokens_per_s"] is None


def test_a_rate_asked_for_is_still_the_target(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "Llama-3-8B on one L40S: how many users at 30 tokens/s each?")
    # s41 revfix #2: a speed per user is used as tokens_per_s_per_sequence (it was named as not used)
    assert data["request"]["tokens_per_s_per_sequence"] == 30 and "30 tokens/s" not in named(data)
