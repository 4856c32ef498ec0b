"""Defects seen by session 11's fresh-user trial (understanding items), each fixed by a general rule and
checked here through the public JSON contract (``sizing-bot ask --format json``: ``request``,
``interpretation``), in both languages where wording is involved:

2. '5万条样本，每条几千 token': each sample's length after '每条' (no noun), never the data's total;
10. 'a few thousand tokens each (avg 4k)': the figure in brackets is the length, nothing rough said;
11. 'How many H800s …? We have two nodes of 8 H100': the H100s' count is never moved onto the H800;
8. '2 MegaChip 48GB cards': an unknown card kept by name with its count, never a catalog card;
6. 'InternVL2.5-26B': a release number glued to the name's first word, sized as a generic 26B;
4. OpenRLHF '--actor_num_nodes 4 --actor_num_gpus_per_node 8': 32 GPUs (the meaning table's rows);
14. 'budget -$2000': a negative amount, named, never a budget;
16. llama.cpp '-ngl 99': every layer on the GPU, read (never an unread number);
17. a verl YAML given with --config is read as verl; an unknown YAML gets a YAML answer, not 'JSON';
12. '$40 per hour' for a training run: the GPUs it rents at once and the hours on them.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import ask
from tests.cli_run import ask_json_in_process, named, substituted

_ask = ask_json_in_process
_ignored = named
_subs = substituted


# 2. '每条几千 token' after a sample count -------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "samples", "tokens"),
    [
        # 5万 × 5,000 ('几千' sized at its middle, said) = 2.5亿 token
        ("全参微调 Qwen2.5-7B，5万条样本，每条几千 token，8张H100，要多久？", 50_000, 2.5e8),
        # × 3 epochs: 7.5亿 token
        ("昇腾910B 2机16卡 全参微调 Qwen2.5-72B，5万条图文样本，每条几千 token，3个epoch", 50_000, 7.5e8),
        ("LoRA 微调 Qwen2.5-7B，2万条数据，每条大概几千 token，4张A100，要多久？", 20_000, 1e8),
        ("用 1万条对话微调 Llama-3-8B，每条约 3000 token，8张H100", 10_000, 3e7),
    ],
)
def test_each_sample_length_after_tiao_without_noun(question: str, samples: int, tokens: float) -> None:
    d = _ask(question)
    r = d["request"]
    assert r["num_samples"] == samples
    assert r["tokens"] == pytest.approx(tokens)
    if "几千" in question:
        assert ("几千", "5000", "vague_amount") in _subs(d)


@pytest.mark.parametrize(
    "question",
    [
        "Full fine-tune Qwen2.5-7B on 50k samples of a few thousand tokens each, 8 H100",
        "LoRA fine-tune Qwen2.5-7B on 50k samples, each a few thousand tokens long, 8 H100",
        "Full fine-tune Qwen2.5-7B on 50k samples, a few thousand tokens per sample, 8 H100",
    ],
)
def test_english_few_thousand_per_sample_keeps_the_count(question: str) -> None:
    r = _ask(question)["request"]
    assert r["num_samples"] == 50_000
    assert r["tokens"] == pytest.approx(2.5e8)


# 10. a rough per-sample length followed by its stated figure ('(avg 4k)') ----------------------------


@pytest.mark.parametrize(
    ("question", "tokens"),
    [
        # 50k × 4,000 × 3 epochs = 600M tokens (not 750M from 'a few thousand' = 5K)
        (
            "Full fine-tune Qwen3-235B-A22B on 50k samples of a few thousand tokens each (avg 4k), 3 epochs,"
            " on Ascend 910B 64GB. How many cards and days? budget $20k",
            6e8,
        ),
        ("LoRA fine-tune Qwen2.5-7B on 50k samples of a few thousand tokens (average 3000), 8 H100", 1.5e8),
        ("Full fine-tune Llama-3-8B on 20k samples, a few thousand tokens each (~2k), on 8 A100", 4e7),
        ("全参微调 Qwen2.5-7B，5万条样本，每条几千 token（平均 4k），8张H100", 2e8),
        ("LoRA 微调 Qwen2.5-7B，2万条数据，每条几千 token (平均 3000)，4张A100", 6e7),
        ("全参微调 Llama-3-8B，1万条对话，每条数千 token（约 2000），8张A100", 2e7),
    ],
)
def test_stated_average_replaces_the_rough_length(question: str, tokens: float) -> None:
    d = _ask(question)
    assert d["request"]["tokens"] == pytest.approx(tokens)
    assert not [s for s in _subs(d) if s[2] == "vague_amount"]  # the figure was given: nothing rough
    assert not [t for t, why in _ignored(d).items() if why == "unread"]


# 11. a count said of another card than the one asked about ---------------------------------------------


@pytest.mark.parametrize(
    ("question", "gpu", "other"),
    [
        (
            "How many H800s do we need to continue pretraining DeepSeek-V3 (671B MoE, 37B active) on 500B"
            " tokens in 30 days with FP8? We have two nodes of 8 H100 right now, is that enough?",
            "H800-SXM5-80GB",
            "16 × NVIDIA H100 SXM5 80GB",
        ),
        (
            "We own 8 A100 80GB. How many H100 would we need to pretrain a 13B model on 300B tokens"
            " in 20 days?",
            "H100-SXM5-80GB",
            "8 × NVIDIA A100 SXM4 80GB",
        ),
        ("how many H20 to serve Qwen2.5-72B for 50 users? we have 4 A800 now", "H20-96GB", "4 × NVIDIA A800"),
        (
            "要多少张 H800 才能在 30 天内用 1T token 预训练 Llama-3-70B？我们现在有 16 张 A100",
            "H800-SXM5-80GB",
            "16 × NVIDIA A100",
        ),
        (
            "我们有 8 张 A100。要在 20 天内用 3000亿 token 预训练 13B 模型，需要几张 H100？",
            "H100-SXM5-80GB",
            "8 × NVIDIA A100",
        ),
        (
            "部署 Qwen2.5-72B 给 50 个用户用，需要几张 H20？现在手上有 4 张 A800",
            "H20-96GB",
            "4 × NVIDIA A800",
        ),
    ],
)
def test_count_of_another_card_is_not_moved_onto_the_card_asked(question: str, gpu: str, other: str) -> None:
    d = _ask(question)
    assert d["request"]["gpu"] == gpu
    assert d["request"]["gpu_count"] is None  # the count of the card asked about is the question
    assert [t for t, why in _ignored(d).items() if why == "other_setup" and t.startswith(other)]


# 8. an unknown card named before its memory and a card word ------------------------------------------


@pytest.mark.parametrize(
    ("question", "name", "count", "memory"),
    [
        ("Serve Qwen2.5-7B on 2 MegaChip 48GB cards, 16 users", "MegaChip", 2, 48),
        ("Serve Qwen2.5-7B on two MegaChip&Co 48GB GPUs, 16 users", "MegaChip&Co", 2, 48),
        ("Serve Qwen2.5-7B on 4 Zeta 64GB accelerators", "Zeta", 4, 64),
        ("部署 Qwen2.5-7B，2 张 MegaChip 48G 卡，16 个用户", "MegaChip", 2, 48),
        ("用 4 张 FooCore 32G 显卡 LoRA 微调 Qwen2.5-7B", "FooCore", 4, 32),
        ("两张 MegaChip 48G 的卡部署 Qwen2.5-7B，16 个用户", "MegaChip", 2, 48),
    ],
)
def test_unknown_card_before_memory_and_card_word_keeps_name_and_count(
    question: str, name: str, count: int, memory: float
) -> None:
    d = _ask(question)
    r = d["request"]
    assert (r["gpu"], r["gpu_count"], r["gpu_memory_gib"]) == (name, count, memory)
    assert d["interpretation"]["unknown_gpu"] == name
    assert not [s for s in _subs(d) if s[2] == "gpu_by_memory"]  # never swapped for a catalog card


@pytest.mark.parametrize(
    "question", ["Serve Qwen2.5-7B on two 48GB cards, 16 users", "4 块 24G 显卡能跑 Qwen2.5-14B 吗"]
)
def test_a_count_word_before_memory_is_no_card_name(question: str) -> None:
    d = _ask(question)
    assert d["interpretation"]["unknown_gpu"] is None
    assert [s for s in _subs(d) if s[2] == "gpu_by_memory"]


# 6. an unknown name with a release number glued to its first word, then its size ----------------------


@pytest.mark.parametrize(
    ("question", "name", "size"),
    [
        (
            "Serve InternVL2.5-26B with TensorRT-LLM on H20, 200 concurrent users, 128k context, FP8 KV"
            " cache. How many GPUs and cost per hour? Our budget is $50 per hour.",
            "InternVL2.5-26B",
            26e9,
        ),
        ("Serve FooVL1.5-34B on 4 A100, 10 users", "FooVL1.5-34B", 34e9),
        ("QLoRA InternVL2.5-38B on one A100 80GB", "InternVL2.5-38B", 38e9),
        (
            "部署 InternVL2.5-26B，H20，200 并发，128k 上下文，FP8 KV cache，需要几张卡？",
            "InternVL2.5-26B",
            26e9,
        ),
        ("LoRA 微调 FooVL2.5-8B，4 张 A100", "FooVL2.5-8B", 8e9),
        ("用 8 张 H100 全参微调 BarLM3.1-70B，1亿 token", "BarLM3.1-70B", 70e9),
    ],
)
def test_unknown_name_with_glued_release_is_sized_at_its_size(question: str, name: str, size: float) -> None:
    d = _ask(question)
    assert d["understood"] is True
    assert d["request"]["params_total"] == size
    assert d["interpretation"]["unknown_model"] == name
    assert (name, f"dense-{size / 1e9:g}B", "generic_shape") in _subs(d)


def test_unknown_vlm_keeps_its_serving_settings() -> None:
    """InternVL2.5-26B at 200 × 128K with an FP8 KV cache: a 26B generic shape (52 GB of bf16 weights);
    the FP8 KV cache, the load and the hourly budget are all kept."""
    d = _ask(
        "Serve InternVL2.5-26B on H20, 200 concurrent users, 128k context, FP8 KV cache. How many GPUs?"
        " Our budget is $50 per hour."
    )
    r = d["request"]
    assert (r["kv_precision"], r["concurrency"], r["seq_len"]) == ("fp8", 200, 131072)
    assert (r["budget"], r["budget_period"]) == (50.0, "hour")
    assert d["report"]["inference"]["recommended_gpus"] >= 30


# 4. OpenRLHF's ray placement flags (bot/parse/configs/meaning.py rows) -------------------------------

_ORL = (
    "--pretrain meta-llama/Llama-3.1-70B-Instruct --actor_num_nodes 4 --actor_num_gpus_per_node 8"
    " --vllm_num_engines 4 --vllm_tensor_parallel_size 4 --n_samples_per_prompt 16 --generate_max_len 2048"
    " --zero_stage 3"
)


@pytest.mark.parametrize(
    ("question", "gpus", "per_node"),
    [
        (f"OpenRLHF GRPO run: {_ORL} on H100. Enough GPUs? how long for 10k prompts?", 32, 8),
        ("OpenRLHF PPO with --actor_num_nodes 2 --actor_num_gpus_per_node 4 on A100 for Qwen2.5-7B", 8, 4),
        (
            "OpenRLHF GRPO, --actor_num_nodes 2 on H100, Qwen2.5-7B, 5k prompts",
            16,
            8,
        ),
        (f"OpenRLHF 跑 GRPO：{_ORL}，H100，1万条 prompt 要多久？卡够吗？", 32, 8),
        ("用 OpenRLHF 做 PPO，--actor_num_nodes 2 --actor_num_gpus_per_node 4，A100，Qwen2.5-7B", 8, 4),
        ("OpenRLHF 训练 GRPO，--actor_num_nodes 3 --actor_num_gpus_per_node 8，H800，Qwen2.5-32B", 24, 8),
    ],
)
def test_openrlhf_actor_nodes_times_gpus_per_node(question: str, gpus: int, per_node: int) -> None:
    d = _ask(question)
    assert (d["request"]["gpu_count"], d["request"]["gpus_per_node"]) == (gpus, per_node)
    assert "unread" not in _ignored(d).values()  # '--actor_num_nodes 4' is read, never a stray '4'


def test_openrlhf_run_on_32_actor_gpus_fits_and_names_the_engines() -> None:
    """70B GRPO, ZeRO-3: at least 24 H100s (the answer's own minimum); 4 × 8 actor GPUs fit. The vLLM
    engines' 4 × 4 GPUs beside them have no field: named (no_field), never read as the run's count."""
    d = _ask(f"OpenRLHF GRPO run: {_ORL} --ref_num_nodes 1 --ref_num_gpus_per_node 8 on H100. Enough GPUs?")
    assert d["request"]["gpu_count"] == 32 and d["request"]["rollout_tp"] == 4
    memory = d["report"]["memory"]
    assert memory["min_gpus"] <= 32 and memory["plan_gpus"] == 32
    named = _ignored(d)
    assert named["vllm_num_engines: 4"] == named["ref_num_nodes: 1"] == "no_field"
    assert named["ref_num_gpus_per_node: 8"] == "no_field"


def test_openrlhf_pasted_command_actor_gpus(tmp_path: Any) -> None:
    script = tmp_path / "train.sh"
    script.write_text(
        "python -m openrlhf.cli.train_ppo_ray --pretrain meta-llama/Llama-3.1-8B-Instruct --actor_num_nodes 2"
        " --actor_num_gpus_per_node 8 --vllm_num_engines 2 --vllm_tensor_parallel_size 2"
        " --n_samples_per_prompt 8 --advantage_estimator group_norm\n"
    )
    out, _ = ask("A100 80G, 5000 prompts, how long?", None, "json", str(script))
    r = json.loads(out)["request"]
    assert (r["gpu_count"], r["gpus_per_node"], r["rollout_tp"]) == (16, 8, 2)


# 14. a minus sign before a currency sign --------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "typed"),
    [
        ("LoRA fine-tune Qwen2.5-7B on -8 H100 with -5000 samples, budget -$2000", "-$2000"),
        ("LoRA fine-tune Qwen2.5-7B on 8 H100, budget -$2000", "-$2000"),
        ("Serve Qwen2.5-7B on 2 H100 for 20 users, our budget is -$300 a month", "-$300"),
        ("LoRA 微调 Qwen2.5-7B，8 张 H100，预算 -¥5000", "-¥5000"),
        ("全参微调 Qwen2.5-7B，8 张 A100，预算 -$3000", "-$3000"),
        ("部署 Qwen2.5-7B，2 张 H100，20 个用户，预算每月 -¥8000", "-¥8000"),
    ],
)
def test_negative_money_is_named_never_a_budget(question: str, typed: str) -> None:
    d = _ask(question)
    assert d["request"]["budget"] is None
    assert _ignored(d)[typed] == "nonpositive"
    assert d["report"]["budget_gpu_hours"] is None  # no budget-mode answer for a positive amount


def test_a_spaced_dash_before_money_is_no_minus() -> None:
    assert _ask("Serve Qwen2.5-7B on 2 H100, budget - $300 per month")["request"]["budget"] == 300


# 16. llama.cpp -ngl (every layer on the GPU) is read, never an unread number -------------------------


@pytest.mark.parametrize(
    "question",
    [
        "llama.cpp with Qwen2.5-32B Q4_K_M, -ngl 99 -c 8192 on one 4090, tokens/s?",
        "llama.cpp serving Llama-3.1-8B Q8_0 on an RTX 3060 12GB, --n-gpu-layers 999, -c 4096: how fast?",
        "Run Qwen2.5-14B Q4_K_M in llama.cpp with -ngl -1 and -c 8192 on a 3090",
        "llama.cpp 部署 DeepSeek-R1-Distill-Qwen-32B，-ngl 99 -c 16384，单卡 4090D 24G，Q4_K_M，速度多少？",
        "用 llama.cpp 跑 Qwen2.5-14B Q4_K_M，--n-gpu-layers 999，-c 8192，3090 一张",
        "llama.cpp 推理 Llama-3.1-8B Q8_0，-ngl 100，上下文 4096，一张 3060 12G 速度多少",
    ],
)
def test_all_gpu_layers_is_read_as_no_offload(question: str) -> None:
    d = _ask(question)
    assert d["request"]["offload"] is False  # every layer on the GPU, as the sizing assumes
    assert "unread" not in _ignored(d).values()


def test_pasted_llama_cpp_command_reads_gpu_layers_through_the_meaning_table() -> None:
    from bot.parse.configs.meaning import MEANING

    assert MEANING["llama.cpp"]["-ngl"] == ("offload", "gpu_layers")
    d = _ask("llama-server -m qwen2.5-7b-q4_k_m.gguf -ngl 99 -c 4096 on a 3060 12GB")
    assert d["request"]["offload"] is False and not d["interpretation"]["ignored"]
    partial = _ask("llama-server -m qwen2.5-7b-q4_k_m.gguf --n-gpu-layers 40 -c 4096 on a 3060 12GB")
    # s14-ngl: read as gpu_layers (it asserted 'no_field', the split not modelled); 40 ≥ 28 layers + 1: all
    assert partial["request"]["gpu_layers"] == 40 and not partial["interpretation"]["ignored"]
    assert partial["report"]["inference"]["layer_split"] is None


# 17. a verl YAML given as a file ---------------------------------------------------------------------

_VERL_YAML = """data:
  train_batch_size: 256
  max_prompt_length: 1024
  max_response_length: 2048
actor_rollout_ref:
  model:
    path: Qwen/Qwen2.5-14B-Instruct
  rollout:
    name: vllm
    n: 8
    tensor_model_parallel_size: 2
algorithm:
  adv_estimator: grpo
trainer:
  n_gpus_per_node: 8
  nnodes: 2
  total_epochs: 2
"""


@pytest.mark.parametrize(
    "question",
    [
        "A800 80G, 5000 prompts, how long?",
        "A800 80G，5000 条 prompt，要多久？",
        "H100, 5k prompts: how many days?",
    ],
)
def test_verl_yaml_file_is_read_as_verl(tmp_path: Any, question: str) -> None:
    path = tmp_path / "ppo_trainer.yaml"
    path.write_text(_VERL_YAML)
    out, code = ask(question, None, "json", str(path))
    d = json.loads(out)
    assert code == 0 and d["understood"] is True
    assert (d["stack_config"]["tool"], d["stack_config"]["format"]) == ("verl", "yaml")
    r = d["request"]
    assert (r["model"], r["algorithm"], r["gpu_count"]) == ("Qwen2.5-14B", "grpo", 16)
    assert (r["num_generations"], r["max_completion_length"], r["rollout_tp"], r["epochs"]) == (8, 2048, 2, 2)


# 12. a training budget per hour is a rate: the GPUs it rents at once, and the hours on them ----------


@pytest.mark.parametrize(
    ("question", "gpus", "currency"),
    [
        # $40 an hour at $1.50–3.50 per H100-hour: floor(40 / 3.5) = 11 … floor(40 / 1.5) = 26 GPUs
        (
            "LoRA fine-tune Llama-3.1-70B on H100, 200M tokens, budget $40 per hour: how long, how many GPUs",
            (11, 26),
            "USD",
        ),
        ("Full fine-tune Qwen2.5-7B on 1B tokens on H100, we can spend $40 an hour", (11, 26), "USD"),
        ("LoRA fine-tune Qwen2.5-72B on A100, 200M tokens, budget of $20 per hour", None, "USD"),
        # ¥100 an hour at ¥15–30 per A100-hour: 3 … 6 GPUs
        ("LoRA 微调 Qwen2.5-72B，2亿 token，A100，预算每小时100元，要几张卡多久？", (3, 6), "CNY"),
        ("全参微调 Qwen2.5-7B，10亿 token，A100，预算每小时 300 元，多久？", (10, 20), "CNY"),
        ("LoRA 微调 Llama-3.1-8B，1亿 token，A100，每小时预算 60 元", (2, 4), "CNY"),
    ],
)
def test_hourly_training_budget_rents_gpus_at_once(
    question: str, gpus: tuple[int, int] | None, currency: str
) -> None:
    d = _ask(question)
    assert (d["request"]["budget_period"], d["request"]["currency"]) == ("hour", currency)
    notes = {w["code"]: w["params"] for w in d["report"]["warnings"]}
    assert "within_budget" not in notes and "over_budget" not in notes  # never a month's sum
    assert "budget_period" not in " ".join(_ignored(d))  # the period is used, not named
    p = notes["hourly_budget"]
    if gpus is not None:
        assert (p["gpus_low"], p["gpus_high"]) == gpus
    assert p["gpus_low"] == d["request"]["budget"] // p["price_high"]
    assert p["hours_low"] == pytest.approx(p["gpu_hours"] / p["gpus_high"])
    assert "month" not in d["reply"].split("\n\n")[0].lower() and "每月" not in d["reply"].split("\n\n")[0]


@pytest.mark.parametrize(
    "question",
    [
        "Full fine-tune Qwen2.5-7B on 1B tokens on H100, we can spend $1 an hour",
        "全参微调 Qwen2.5-7B，10亿 token，H100，预算每小时 5 元",
    ],
)
def test_hourly_budget_below_one_gpu_says_so(question: str) -> None:
    d = _ask(question)
    assert [w["code"] for w in d["report"]["warnings"] if w["code"].startswith("hourly")] == [
        "hourly_budget_short"
    ]


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "That YAML is not a config I can read"), ("zh", "这个 YAML 不是我能读的配置")]
)
def test_unknown_yaml_file_gets_a_yaml_answer_not_json(tmp_path: Any, lang: str, words: str) -> None:
    path = tmp_path / "run.yaml"
    path.write_text("model:\n  name: foo\n  size: 7b\noptim:\n  lr: 0.0001\nsteps: 1000\n")
    out, code = ask("A100, how long?", lang, "json", str(path))
    d = json.loads(out)
    assert code == 2 and d["config"]["error"] == "not_config_yaml"
    assert d["config"]["fields"] == ["model", "optim", "steps"]
    assert words in d["reply"] and "JSON" not in d["reply"]
