"""Round 7 of the real questions, English half (issue 24; tests/data/real_questions/en_r7.json): readers of
how people write, one per kind of fault seen on the working half — a model name ending a sentence (its
full stop kept the name from being read), reinforcement learning said in words (sized as a pre-training),
a rollout engine named only by the prefix of its own key ('vllm_gpu_memory_utilization', the engine lost),
a model asked about by its family word alone (the other one sized), a speed from a tool's log or one
'gets around' (read as the target, or not read), a host's CPU between the article
and its card (no count) and MLX's serving commands (the engine dropped in
silence). Each rule in both languages, through the CLI
(``sizing-bot ask --format json``, in process); the sentences are written for these tests (none is from
the real-question corpus). Readers: :data:`bot.parse.verb_names.AFTER_JOB_RE`, the fine-tuning words of
:data:`bot.parse.lexicon.FINETUNE_RE`, :mod:`bot.parse.engine_keys` with the ``vllm_share`` rows of
:mod:`bot.parse.configs.meaning`, :mod:`bot.parse.asked_stem`,
:data:`bot.parse.written_units.MEASURED_BEFORE`, the host CPU of
:data:`bot.parse.words.ARTICLE_GPU_RE`, and MLX in :data:`bot.parse.more_engines.MORE_RUNTIMES`."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, named
from tests.round_forms import ask

NAME_BEFORE_STOP = [
    ("I want to fine-tune InternVL. Is 4 A100 40GB enough?", "InternVL", "finetune"),
    ("We are serving Monkey. How much memory does it need on 2 A100?", "Monkey", "inference"),
    (
        "Full-parameter fine-tuning of Baichuan2.5 on 8 H800. What is the memory per GPU?",
        "Baichuan2.5",
        "finetune",
    ),
    ("我想微调 InternVL. 4 张 A100 40G 够吗", "InternVL", "finetune"),
    ("部署 Monkey. 两张 A100 要多少显存？", "Monkey", "inference"),
    ("8 张 H800 全参微调 CogVLM2. 每张卡要多少显存", "CogVLM2", "finetune"),
]


@pytest.mark.parametrize(("text", "name", "stage"), NAME_BEFORE_STOP)
def test_a_name_ending_a_sentence_is_the_model(
    capsys: pytest.CaptureFixture[str], text: str, name: str, stage: str
) -> None:
    """'fine-tuning of MiniCPM-V.': a name after a job word is the model named as typed, its full stop no
    part of it. Before, the dot after the name (a dot inside a name, 'Qwen2.5', is one) kept the name from
    being read: no model at all. (A name with no size is not sized: the reply asks for its size, code 2.)"""
    data = ask_in_process(capsys, text, want_code=2)
    assert data["request"]["stage"] == stage
    assert data["interpretation"]["unknown_model"] == name


REINFORCEMENT = [
    "What is the minimum VRAM for reinforcement learning training of a 7B model on 4x RTX 3090?",
    "Can I do RL on Qwen2.5-7B with 8 H100?",
    "How many GPUs do I need for reinforcement learning on a 32B model?",
    "强化学习 7B 模型需要多少显存？4 张 3090 够吗",
    "用 8 张 A100 做强化学习，Qwen2.5-7B 要多久",
    "32B 模型做强化学习要几张 H100",
]


@pytest.mark.parametrize("text", REINFORCEMENT)
def test_reinforcement_learning_tunes_a_model(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'reinforcement learning (training) of a 7B model', 'RL on Qwen', '做强化学习': post-training of a
    model that exists, a fine-tuning. Before, only 'RL training' / '强化学习训练' were: 'training' alone
    made it a pre-training from scratch, and 'RL on …' a serving question."""
    assert ask(capsys, text)["request"]["stage"] == "finetune"


def test_a_reinforcement_learning_researcher_is_no_job(capsys: pytest.CaptureFixture[str]) -> None:
    """'a reinforcement learning researcher' says who asks, not the job: serving stays serving."""
    text = "I'm a reinforcement learning researcher, can I serve Llama-3-8B on one RTX 4090?"
    assert ask(capsys, text)["request"]["stage"] == "inference"


ROLLOUT_KEY = [
    "Training Qwen2.5-7B with GRPO in TRL on 4 A100, vllm_gpu_memory_utilization=0.6, OOM",
    "GRPO for Qwen2.5-3B with the trl library on 2 H100: GRPOConfig(num_generations=4, "
    "vllm_gpu_memory_utilization=0.4, bf16=True). How much memory?",
    "OpenRLHF PPO of Llama-3-8B on 8 H100 with vllm_gpu_memory_utilization 0.5, does it fit?",
    "用 TRL 做 GRPO 训练 Qwen2.5-7B，vllm_gpu_memory_utilization=0.6，4 张 A100 显存够吗",
    "GRPOConfig(num_generations=8, vllm_gpu_memory_utilization=0.3) 在 2 张 H20 上训练 Qwen2.5-7B，够不够",
    "OpenRLHF 在 8 张 H100 上做 PPO，Llama-3-8B，vllm_gpu_memory_utilization 设为 0.5",
]


@pytest.mark.parametrize("text", ROLLOUT_KEY)
def test_an_engines_key_names_the_rollout_engine(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'vllm_gpu_memory_utilization=0.6' in an RL job: vLLM's share of each card, and vLLM is the rollout
    engine it is the share of. Before, the share was read and the key (masked with it) named no engine
    when no other word did: the runtime was lost."""
    request = ask(capsys, text)["request"]
    assert request["stage"] == "finetune" and request["runtime"] == "vLLM"
    assert request["rollout_gpu_memory_utilization"] in (0.3, 0.4, 0.5, 0.6)


@pytest.mark.parametrize(
    "text",
    [
        "GRPO of Qwen2.5-3B with ms-swift on 8 A100: use_lmdeploy true, "
        "vllm_gpu_memory_utilization 0.9, how much memory?",
        "ms-swift GRPO，Qwen2.5-3B，8 张 A100，use_lmdeploy true，vllm_gpu_memory_utilization 0.9，够吗",
    ],
)
def test_another_engine_turned_on_keeps_it(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """ms-swift keeps its vLLM keys while lmdeploy generates ('use_lmdeploy true'): the key's prefix does
    not name vLLM then, lmdeploy stays the rollout engine."""
    data = ask(capsys, text)
    assert data["request"]["runtime"] == "lmdeploy"


ASKED_BY_STEM = [
    (
        "Llama-3-8B fits on my RTX 4090 with 32k context, whereas Mistral-Nemo-12B only fits 8k. "
        "Why does Mistral need so much more memory?",
        "Mistral-Nemo-12B",
    ),
    (
        "InternLM2-20B serves fine on two A100, while Yi-34B runs out of memory. How many A100 does Yi need?",
        "Yi-34B",
    ),
    (
        "With vLLM, Qwen2.5-14B gets 25 tokens/s on one L4 and Gemma-2-9B gets 40. What should Gemma reach "
        "with 8 users?",
        "Gemma-2-9B",
    ),
    (
        "Llama-3-8B 在 4090 上能开 32k 上下文，Mistral-Nemo-12B 只能开 8k，Mistral 为什么这么占显存？",
        "Mistral-Nemo-12B",
    ),
    ("InternLM2-20B 两张 A100 部署没问题，Yi-34B 显存不够，Yi 要几张 A100？", "Yi-34B"),
    (
        "vLLM 上 Qwen2.5-14B 一张 L4 有 25 tokens/s，Gemma-2-9B 有 40，Gemma 带 8 个用户能到多少？",
        "Gemma-2-9B",
    ),
]


@pytest.mark.parametrize(("text", "model"), ASKED_BY_STEM)
def test_a_model_asked_by_its_family_word(capsys: pytest.CaptureFixture[str], text: str, model: str) -> None:
    """'… Yi-34B runs out of memory. How many A100 does Yi need?': the asking sentence names one of the
    models by the first word of its name, so that one is sized and the other named (other_setup).
    Before, the bare family word was no model mention: the question seemed to name none, and the first
    catalog name was sized."""
    data = ask(capsys, text)
    assert data["request"]["model"] == model
    assert any(t.startswith("model: ") and r == "other_setup" for t, r in named(data).items())


def test_a_family_word_two_models_share_decides_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """'Qwen2.5-7B … Qwen3-8B …, why does Qwen do that?': both names start with 'Qwen', the word tells
    neither apart; the usual order stands (the second one, after 'but', is the one failing)."""
    data = ask(capsys, "Qwen2.5-7B works on one A100 but Qwen3-8B runs out of memory, why does Qwen do that?")
    assert data["request"]["model"] == "Qwen3-8B"


HOST_AND_CARD = [
    "Serving Qwen2.5-7B with llama.cpp on a Ryzen 7900X + Intel Arc A770, what context fits?",
    "Can I serve Llama-3-8B on my i9-14900K + Arc B580? What context fits?",
    "Qwen2.5-14B with vLLM on a Xeon w5-3435X and an Arc A770, how many users?",
    "在 Ryzen 7900X + Arc A770 上用 llama.cpp 跑 Qwen2.5-7B，上下文能开多大",
    "在 i9-14900K + Arc B580 上部署 Llama-3-8B，能开多长上下文",
    "在 Threadripper 7970X 和 Arc A770 上跑 Qwen2.5-14B，能支持几个用户",
]


@pytest.mark.parametrize("text", HOST_AND_CARD)
def test_a_host_cpu_and_its_card_is_one_card(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'on a Ryzen 7900X + Intel Arc A770': the host's CPU, then one card (the article counts the card
    as 'on an Arc A770' does). Before, the CPU between the article and the card hid it: no count, and
    a card the catalog lacks was sized at the default count."""
    data = ask(capsys, text)
    assert data["request"]["gpu_count"] == 1 and data["interpretation"]["unknown_gpu"]


LOGGED_SPEED = [
    "Serving Mistral-7B with vLLM on one RTX 4090: Avg prompt throughput: 1006.0 tokens/s, "
    "Avg generation throughput: 15.5 tokens/s. What should I get?",
    "Qwen2.5-7B on one A100 with vLLM, the log shows Avg generation throughput: 273.8 tokens/s, "
    "can it serve 50 users?",
    "Llama-3-70B on 8 H100 with vLLM, benchmark_serving says Output token throughput (tok/s): 1519.34. "
    "Enough for 100 users?",
    "vLLM 部署 Mistral-7B，一张 4090，日志 Avg generation throughput: 15.5 tokens/s，正常吗",
    "一张 A100 用 vLLM 跑 Qwen2.5-7B，日志里 Avg prompt throughput: 1006.0 tokens/s，能撑 50 个用户吗",
    "8 张 H100 跑 Llama-3-70B，benchmark_serving 显示 Output token throughput (tok/s): 1519.34，"
    "100 个用户够吗",
]


@pytest.mark.parametrize("text", LOGGED_SPEED)
def test_a_logged_speed_is_no_target(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'Avg generation throughput: 15.5 tokens/s' (vLLM's metrics log), 'Output token throughput (tok/s):
    1519.34' (its serving benchmark): a tool's label before its figure, what was measured, named. Before,
    the first such figure became the throughput the service was sized for."""
    data = ask(capsys, text)
    assert data["request"]["stage"] == "inference" and data["request"]["target_tokens_per_s"] is None


def test_a_throughput_asked_with_a_colon_stays_the_target(capsys: pytest.CaptureFixture[str]) -> None:
    """'required throughput: 500 tokens/s' is no tool's label: the throughput asked for."""
    data = ask(capsys, "Serving Llama-3-8B on two L4, required throughput: 500 tokens/s, how many users?")
    assert data["request"]["target_tokens_per_s"] == 500


MEASURED_TFLOPS = [
    "Pre-training Llama-3-8B with Megatron on 16 H100 and we only get around 120 TFLOPS. "
    "How long for 1T tokens?",
    "I train Qwen2.5-14B on 8 A100 and get about 150 TFLOPS, how many days for 500B tokens?",
    "Pre-training a 7B model on 32 H800, it gets roughly 200 TFLOPS; how long for 2T tokens?",
    "Megatron 在 16 张 H100 上预训练 Llama-3-8B，只能 get around 120 TFLOPS，1T token 要多久",
    "8 张 A100 训练 Qwen2.5-14B，we get about 150 TFLOPS，500B token 要几天",
    "32 张 H800 预训练 7B 模型，it gets roughly 200 TFLOPS，2T token 要多久",
]


@pytest.mark.parametrize("text", MEASURED_TFLOPS)
def test_tflops_one_gets_around_is_the_achieved_rate(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'… and only get around 120 TFLOPS': a verb of getting, then about/around, before the figure — what
    the run achieves per GPU. Before, only 'we get 120 TFLOPS' was; with 'around' between, the figure was
    named as unread and the default utilization sized the time."""
    request = ask(capsys, text)["request"]
    assert request["achieved_tflops_per_gpu"] in (120, 150, 200)


MLX_SERVING = [
    "I run mlx_lm.generate with Llama-3-8B-Instruct in 4-bit on an M2 Max 32GB, how fast should it be?",
    "python -m mlx_lm.server --model Qwen2.5-7B-Instruct on an M3 Max 64GB: how many tokens/s?",
    "mlx_lm.chat with Mistral-7B on an M1 Max 32GB, what context fits?",
    "用 mlx_lm.generate 在 M2 Ultra 192GB 上跑 Llama-3-70B，速度应该多少",
    "M3 Max 64GB 上用 mlx_lm.server 部署 Qwen2.5-14B，每秒多少 token",
    "mlx_lm.chat 跑 Mistral-7B，M1 Max 32GB，上下文最多多长",
]


@pytest.mark.parametrize("text", MLX_SERVING)
def test_mlx_serving_commands_name_the_engine(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'mlx_lm.generate' / 'mlx_lm.server' / 'mlx_lm.chat' serve with MLX on Apple silicon: an engine the
    sizing has no memory model of, named as not modelled. Before, it was dropped in silence."""
    data = ask(capsys, text)
    assert data["request"]["stage"] == "inference"
    assert named(data).get("runtime: MLX") == "runtime_not_modelled"


def test_mlx_lora_stays_the_training_tool(capsys: pytest.CaptureFixture[str]) -> None:
    """'mlx_lm.lora' trains (mlx-lm the tool), no serving engine is named."""
    data = ask(capsys, "mlx_lm.lora on Qwen2.5-7B with an M3 Max 128GB, how much memory does LoRA need?")
    assert "runtime: MLX" not in named(data) and named(data).get("training_tool: mlx-lm") == "no_field"
