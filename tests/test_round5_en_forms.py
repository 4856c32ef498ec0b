"""Round 5 of the real questions, English half (issue 24; tests/data/real_questions/en_r5.json): readers of
how people write, one per kind of fault seen on the working half — a value before a full stop, a precision
with its digits first, counts written with their sum, 'N nodes with M GPUs in total', 'the number of GPUs
… N', an algorithm inside a launcher's name, vLLM inside an identifier, mlx-lm and OpenRLHF's own words,
mlx-lm's checkpointing key, a card by its memory and vendor, 'each with 24G of memory', a benchmark's
``--num-prompts``, a tool named as the comparison, TensorRT-LLM's ``--max_batch_size`` as the engine's cap.
Each rule in both languages, through the CLI (``sizing-bot ask --format json``,
in process); the sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import pytest

from tests.cli_run import named
from tests.round_forms import ask

VALUE_BEFORE_FULL_STOP = [
    ("Serving Qwen2.5 32B with vLLM on two A100s, tp=2.", "tp", 2),
    ("LoRA of Llama 3 8B on one RTX 4090 with batch size 4.", "batch_size", 4),
    ("Serving Llama 3 70B with vLLM on 4 H100s with tp 4. Is that enough?", "tp", 4),
    ("用 vllm 在两张 A100 上部署 Qwen2.5 32B，tp=2.", "tp", 2),
    ("一张 4090 LoRA 微调 Llama 3 8B，batch size 4.", "batch_size", 4),
    ("四张 H100 用 vllm 部署 Llama 3 70B，tp 4. 够吗", "tp", 4),
]


@pytest.mark.parametrize(("text", "key", "value"), VALUE_BEFORE_FULL_STOP)
def test_a_value_before_a_full_stop(
    capsys: pytest.CaptureFixture[str], text: str, key: str, value: int
) -> None:
    """'… with tp=2.': the value that ends a sentence is read. Before, the settings' guard against a
    decimal ('2.5') refused it, and the TP (or batch) was dropped: the number named as unread."""
    data = ask(capsys, text)
    assert data["request"][key] == value
    assert named(data).get(str(value)) != "unread"


def test_a_decimal_and_a_numbered_list_stay_as_they_were(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "Two questions:\n1. Can one RTX 4090 serve Qwen2.5 7B with vLLM?")
    assert data["request"]["gpu_count"] == 1 and data["request"]["params_total"] == pytest.approx(
        7.6e9, rel=0.01
    )


REVERSED_PRECISION = [
    ("Serving Llama 3 70B on 4 A100s in 16bf with vLLM", "bf16"),
    ("Full fine-tune of Qwen2.5 7B in 16-bf on 8 H100", "bf16"),
    ("Serve Mistral 7B on one L4 in fp 16 with vLLM", "fp16"),
    ("4 张 A100 用 vllm 以 16bf 部署 Llama 3 70B", "bf16"),
    ("8 张 H100 以 16bf 全参微调 Qwen2.5 7B", "bf16"),
    ("一张 L4 用 vllm 以 fp 16 部署 Mistral 7B", "fp16"),
]


@pytest.mark.parametrize(("text", "precision"), REVERSED_PRECISION)
def test_a_precision_with_its_digits_first(
    capsys: pytest.CaptureFixture[str], text: str, precision: str
) -> None:
    """'16bf', 'fp 16': bf16 / fp16. Before, the width was lost and the default (fp16 for serving) sized."""
    assert ask(capsys, text)["request"]["precision"] == precision


COUNT_WITH_ITS_SUM = [
    ("Is 40=8+8+8+8+4*2 A100s the minimum for PPO of Llama 3 70B?", 40),
    ("GRPO of Qwen2.5 7B with 12=4+4+4 H100s: how long for one epoch of 10k prompts?", 12),
    ("We have 16=8+4+4 A800 cards: can we fully fine-tune a 13B model?", 16),
    ("Llama 3 70B 的 PPO 至少要 40=8+8+8+8+4*2 张 A100 吗", 40),
    ("12=4+4+4 张 H100 做 Qwen2.5 7B 的 GRPO 够吗", 12),
    ("16=8+4+4 张 A800 能全参微调 13B 吗", 16),
]


@pytest.mark.parametrize(("text", "count"), COUNT_WITH_ITS_SUM)
def test_a_count_with_its_sum_after_it(capsys: pytest.CaptureFixture[str], text: str, count: int) -> None:
    """'40=8+8+8+8+4*2': the count; the terms are its parts ('4*2' was read as 4 nodes of 2 cards)."""
    assert ask(capsys, text)["request"]["gpu_count"] == count


NODES_WITH_A_TOTAL = [
    ("PPO of a 70b model on A100 80G: do I need 4 nodes with 32 GPUs in total?", 32),
    ("Full fine-tune of Llama 3 70B on 2 machines with 16 H100s in total: enough?", 16),
    ("We have 3 servers with 24 A100 cards altogether: can they serve DeepSeek-V3?", 24),
    ("4 台机器一共 32 张 A100 80G，做 70b 的 PPO 够吗", 32),
    ("2 个节点总共 16 张 H100 全参微调 Llama 3 70B 够吗", 16),
    ("3 台服务器合计 24 张 A100 能部署 DeepSeek-V3 吗", 24),
]


@pytest.mark.parametrize(("text", "count"), NODES_WITH_A_TOTAL)
def test_nodes_with_a_total_count(capsys: pytest.CaptureFixture[str], text: str, count: int) -> None:
    """'4 nodes with 32 GPUs in total': 32 GPUs over 4 nodes. Before, 4 × 32 = 128 were sized."""
    assert ask(capsys, text)["request"]["gpu_count"] == count


NUMBER_OF_GPUS = [
    ("For PPO of Llama 3 70B on A100 80GB, does the number of GPUs need to be at least 32?", 32),
    ("Serving DeepSeek-V3 on H100: is the number of GPUs required no less than 16?", 16),
    ("GRPO of Qwen2.5 7B: the number of GPU cards I have is 8, is that enough?", 8),
    ("Llama 3 70B 做 PPO，卡的数量是不是不能少于 32？", 32),
    ("在 H100 上部署 DeepSeek-V3，GPU 的数量至少为 16 吗", 16),
    ("Qwen2.5 7B 做 GRPO，我的显卡数量是 8，够吗", 8),
]


@pytest.mark.parametrize(("text", "count"), NUMBER_OF_GPUS)
def test_the_number_of_gpus_with_words_before_its_value(
    capsys: pytest.CaptureFixture[str], text: str, count: int
) -> None:
    """'the number of GPU cards … no less than 40': that many GPUs, the job's total (before: unread)."""
    assert ask(capsys, text)["request"]["gpu_count"] == count


def test_the_number_of_gpus_is_the_total_beside_per_role_counts(capsys: pytest.CaptureFixture[str]) -> None:
    """OpenRLHF's '--actor_num_gpus_per_node 8' is one role's share; the number asked about is the job's."""
    text = (
        "python3 -m openrlhf.cli.train_ppo_ray --actor_num_nodes 1 --actor_num_gpus_per_node 8 "
        "--critic_num_nodes 1 --critic_num_gpus_per_node 8 for Llama 3 8B: "
        "must the number of GPUs be no less than 16?"
    )
    assert ask(capsys, text)["request"]["gpu_count"] == 16


ALGORITHM_IN_A_LAUNCHER = [
    ("python3 -m openrlhf.cli.train_ppo_ray with Llama 3 8B on 8 A100s: enough memory?", "ppo"),
    ("I run run_dpo.py on Qwen2.5 7B with 4 A100 80GB: how long per epoch?", "dpo"),
    ("bash train_grpo.sh for Qwen2.5 3B on two 4090s runs out of memory", "grpo"),
    ("用 openrlhf.cli.train_ppo_ray 训练 Llama 3 8B，8 张 A100 显存够吗", "ppo"),
    ("用 run_dpo.py 在 4 张 A100 80G 上训 Qwen2.5 7B 要多久", "dpo"),
    ("train_grpo.sh 跑 Qwen2.5 3B，两张 4090 爆显存", "grpo"),
]


@pytest.mark.parametrize(("text", "algorithm"), ALGORITHM_IN_A_LAUNCHER)
def test_an_algorithm_inside_a_launchers_name(
    capsys: pytest.CaptureFixture[str], text: str, algorithm: str
) -> None:
    """'train_ppo_ray', 'run_dpo.py': the algorithm the launcher runs (before: a plain fine-tuning)."""
    assert ask(capsys, text)["request"]["algorithm"] == algorithm


def test_a_setting_of_verl_named_ppo_is_no_algorithm(capsys: pytest.CaptureFixture[str]) -> None:
    text = "verl GRPO of Qwen2.5 7B on 8 H100: ppo_mini_batch_size=256, ppo_micro_batch_size_per_gpu=8"
    assert ask(capsys, text)["request"]["algorithm"] == "grpo"


VLLM_IDENTIFIERS = [
    ("GRPO of Qwen2.5 7B on 8 H100 with VLLM_ATTENTION_BACKEND=XFORMERS runs out of memory", "finetune"),
    ("PPO of Llama 3 70B with 16 GPUs for vllm_engines and 16 for training: enough?", "finetune"),
    ("export VLLM_USE_V1=0, then serve Qwen2.5 7B on one L40S: how many users?", "inference"),
    ("设置 VLLM_ATTENTION_BACKEND=XFORMERS 后在 8 张 H100 上 GRPO 训练 Qwen2.5 7B 爆显存", "finetune"),
    ("Llama 3 70B 的 PPO，16 张卡给 vllm_engines、16 张训练，够吗", "finetune"),
    ("export VLLM_USE_V1=0 后在一张 L40S 上部署 Qwen2.5 7B，能撑多少并发", "inference"),
]


@pytest.mark.parametrize(("text", "stage"), VLLM_IDENTIFIERS)
def test_vllm_inside_an_identifier(capsys: pytest.CaptureFixture[str], text: str, stage: str) -> None:
    """'VLLM_ATTENTION_BACKEND', 'vllm_engines': vLLM is the engine (RL training: the rollout engine)."""
    data = ask(capsys, text)
    assert data["request"]["stage"] == stage
    assert data["request"]["runtime"] == "vLLM"


MLX_LM = [
    ("mlx_lm.lora fine-tuning of Mistral 7B on an M2 Ultra 192GB: how long for 1000 iters?", None),
    ("LoRA with mlx-lm of Llama 3 8B on an M3 Max 64GB, grad_checkpoint: true", "full"),
    ("python -m mlx_lm lora --model Qwen2.5-7B with grad_checkpoint: false on an M3 Max 128GB", "none"),
    ("用 mlx_lm.lora 在 M2 Ultra 192GB 上微调 Mistral 7B 要多久", None),
    ("mlx-lm 做 lora 微调 Llama 3 8B，M3 Max 64GB，grad_checkpoint: true", "full"),
    ("python -m mlx_lm lora 训练 Qwen2.5 7B，grad_checkpoint: false，M3 Max 128GB 够吗", "none"),
]


@pytest.mark.parametrize(("text", "recompute"), MLX_LM)
def test_mlx_lm_and_its_checkpointing_key(
    capsys: pytest.CaptureFixture[str], text: str, recompute: str | None
) -> None:
    """mlx-lm is named (a tool the sizing has no limits of: never dropped in silence), its LoRA sized, and
    its ``grad_checkpoint`` key read as gradient checkpointing."""
    data = ask(capsys, text)
    assert data["request"]["method"] == "lora"
    assert named(data).get("training_tool: mlx-lm") == "no_field"
    if recompute is not None:
        assert data["request"]["recompute"] == recompute


OPENRLHF_WORDS = [
    "PPO of Llama 3 8B with --actor_num_gpus_per_node 4 --ref_num_nodes 1 on A100 80GB: enough?",
    "bash examples/scripts/train_ppo_llama_ray_70b.sh for a 70B model on 32 A100 80G: is that the minimum?",
    "Does --vllm_num_engines 2 with --critic_num_nodes 1 fit PPO of Qwen2.5 7B on 8 H100?",
    "Llama 3 8B 的 PPO，--actor_num_gpus_per_node 4 --ref_num_nodes 1，A100 80GB 够吗",
    "用 examples/scripts/train_ppo_llama_ray_70b.sh 在 32 张 A100 80G 上跑 70B 模型，是最低配置吗",
    "--vllm_num_engines 2 加 --critic_num_nodes 1，8 张 H100 跑 Qwen2.5 7B 的 PPO 放得下吗",
]


@pytest.mark.parametrize("text", OPENRLHF_WORDS)
def test_openrlhf_by_its_own_arguments(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """A message that writes OpenRLHF's launchers or Ray placement arguments runs OpenRLHF: said so — the
    training tool since s11 (OpenRLHF trains on DeepSpeed ZeRO only: estimator.training_tools), named
    'tool_inferred' / 'no_field' before."""
    data = ask(capsys, text)
    assert data["request"]["training_tool"] == "OpenRLHF"
    assert "training_tool: OpenRLHF" not in named(data)
    assert data["request"]["algorithm"] == "ppo"


CARD_BY_MEMORY_AND_VENDOR = [
    "Ollama runs gpt-oss:20b partly on the CPU although I have a 16gb Nvidia GPU",
    "Can my 16 GB graphics card serve Qwen2.5 7B with vLLM?",
    "LoRA of Llama 3 8B on a 16GB AMD GPU: will it fit?",
    "一张 16G 的英伟达显卡用 ollama 跑 gpt-oss:20b 会放到 CPU 上吗",
    "我的 16GB nvidia 显卡能用 vllm 部署 Qwen2.5 7B 吗",
    "16G 的 N 卡能 LoRA 微调 Llama 3 8B 吗",
]


@pytest.mark.parametrize("text", CARD_BY_MEMORY_AND_VENDOR)
def test_a_card_by_its_memory_and_vendor(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'a 16gb Nvidia GPU': one card of 16 GB. Before, 16 was unread and a default A100 80GB sized."""
    data = ask(capsys, text)
    assert data["request"]["gpu_memory_gib"] == 16
    assert named(data).get("16") != "unread"


EACH_WITH_MEMORY = [
    "I have two GPUs, each with 24G of memory. Can they serve Llama 3 70B in 4-bit?",
    "Four cards, each with 48GB of VRAM: can they fully fine-tune Qwen2.5 7B?",
    "We rent 8 GPUs each having 80GB: how long to pretrain a 1B model on 20B tokens?",
    "我有两张卡，每张 24G 显存，能部署 4bit 的 Llama 3 70B 吗",
    "四张卡，每张卡 48G 显存，能全参微调 Qwen2.5 7B 吗",
    "租了 8 张卡，每张 80G，预训练 1B 模型 20B token 要多久",
]


@pytest.mark.parametrize("text", EACH_WITH_MEMORY)
def test_each_cards_memory_after_each_with(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'two GPUs, each with 24G of memory': each card's memory (before: unread, an 80 GB card sized)."""
    data = ask(capsys, text)
    memory = {"24": 24, "48": 48, "80": 80}
    assert data["request"]["gpu_memory_gib"] == next(v for k, v in memory.items() if f" {k}G" in text)


BENCHMARK_PROMPTS = [
    "sglang.bench_serving --backend sglang --num-prompts 5000 with DeepSeek-Coder-V2-Lite-Instruct OOMs",
    "vLLM benchmark_serving.py --num-prompts 1000 with Llama 3 8B on one A100: what throughput?",
    "benchmark_serving.py --num_prompts=2000 against Qwen2.5 7B on vLLM with one H100",
    "用 sglang.bench_serving --num-prompts 5000 压测 DeepSeek-Coder-V2-Lite-Instruct 时 OOM",
    "vllm 的 benchmark_serving.py --num-prompts 1000 测 Llama 3 8B，一张 A100 吞吐多少",
    "一张 H100 用 vllm 部署 Qwen2.5 7B，benchmark_serving.py --num_prompts=2000",
]


@pytest.mark.parametrize("text", BENCHMARK_PROMPTS)
def test_a_benchmarks_prompt_count_is_no_length(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'--num-prompts 5000': prompts in all, never a length; before, 'prompt' in the flag made 5000 the
    sequence. s21-gen: with no request rate nor --max-concurrency, benchmark_serving / bench_serving send
    every prompt at time 0 (``--request-rate`` default inf), so the count is the load sized (was: named as
    unread)."""
    data = ask(capsys, text)
    count = next(n for n in ("5000", "1000", "2000") if n in text)
    assert data["request"]["seq_len"] != int(count)
    assert data["request"]["concurrency"] == int(count)


COMPARED_TOOLS = [
    ("Unlike unsloth, torchtune's LoRA of Llama 3 8B OOMs at 8k context on one RTX 4090", None),
    ("Compared with LLaMA-Factory, axolotl LoRA of Llama 3 8B runs slower on one A100: how long?", "axolotl"),
    ("Rather than TRL, I use axolotl for a LoRA of Qwen2.5 7B on two 4090s: does it fit?", "axolotl"),
    ("不像 unsloth，torchtune 做 Llama 3 8B 的 LoRA 在一张 4090 上 8k 上下文就 OOM", None),
    ("相比 LLaMA-Factory，axolotl 在一张 A100 上做 Llama 3 8B 的 LoRA 慢，要多久", "axolotl"),
    ("而不是 TRL，我用 axolotl 在两张 4090 上 LoRA 微调 Qwen2.5 7B，放得下吗", "axolotl"),
]


@pytest.mark.parametrize(("text", "tool"), COMPARED_TOOLS)
def test_a_tool_named_as_the_comparison_is_not_sized(
    capsys: pytest.CaptureFixture[str], text: str, tool: str | None
) -> None:
    """'unlike unsloth', 'compared with LLaMA-Factory': that tool is the comparison, named, not sized
    (before, the one modelled tool named was the job's, though only compared)."""
    data = ask(capsys, text)
    assert data["request"]["training_tool"] == tool
    compared = next(t for t in ("Unsloth", "LLaMA-Factory", "TRL") if t.lower() in text.lower())
    assert named(data).get(f"training_tool: {compared}") in ("no_field", "other_setup")


TENSORRT_ENGINE_BATCH = [
    ("trtllm-build --model_dir llama-3-8b --max_batch_size 64 on one L40S: how much memory to serve?", 64),
    ("TensorRT-LLM engine for Qwen2.5 7B with max_batch_size=32 on an A100 80GB: enough memory?", 32),
    ("python build.py --use_gpt_attention_plugin float16 --max_batch_size 16 for Llama 2 13B on an A100", 16),
    ("trtllm-build 构建 llama-3-8b，--max_batch_size 64，一张 L40S 部署要多少显存", 64),
    ("TensorRT-LLM 部署 Qwen2.5 7B，max_batch_size=32，一张 A100 80GB 够吗", 32),
    ("python build.py --use_gpt_attention_plugin float16 --max_batch_size 16，A100 上部署 Llama 2 13B", 16),
]


@pytest.mark.parametrize(("text", "cap"), TENSORRT_ENGINE_BATCH)
def test_tensorrt_llms_engine_batch_is_a_cap(capsys: pytest.CaptureFixture[str], text: str, cap: int) -> None:
    """TensorRT-LLM's ``--max_batch_size``: the engine's cap of requests at once (vLLM's max_num_seqs),
    named as a cap; before, it was read as a training-style batch and the load."""
    data = ask(capsys, text)
    assert data["request"]["max_num_seqs"] == cap
    assert named(data).get("runtime: TensorRT-LLM") == "runtime_not_modelled"  # also by its build flags


def test_lmdeploys_max_batch_size_is_left_as_it_was(capsys: pytest.CaptureFixture[str]) -> None:
    """Not TensorRT-LLM's rule. Since s32 a ``TurbomindEngineConfig(...)`` call is read as the ``lmdeploy
    serve`` command its keywords are the flags of (bot.parse.configs.lmdeploy_call): its max_batch_size is
    what the command line's --max-batch-size 32 is (the load and the engine's cap), where the call was
    prose before (the load only)."""
    data = ask(capsys, "lmdeploy TurbomindEngineConfig(tp=2, max_batch_size=32) serving Llama 3 8B on 2 A100")
    assert data["request"]["concurrency"] == 32 and data["request"]["max_num_seqs"] == 32
    line = ask(capsys, "lmdeploy serve api_server Meta-Llama-3-8B --tp 2 --max-batch-size 32 on 2 A100")
    assert (line["request"]["concurrency"], line["request"]["max_num_seqs"]) == (32, 32)
