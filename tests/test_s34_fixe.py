"""Session 34, s34-fixe: findings of a design review of the merged tree.

Item 1 — an adapter run's CPU offload is a parameter offload only under full sharding. PyTorch FSDP
``CPUOffload(offload_params=True)`` (accelerate ``fsdp_offload_params: true``, answer.ai fsdp_qlora
``--use_cpu_offload``) and DeepSpeed ZeRO-3 ``offload_param`` keep the sharded weights in host RAM;
DeepSpeed ZeRO-1/2 ``offload_optimizer`` moves only the optimizer states (deepspeed/runtime/zero/
stage_1_and_2.py: ``cpu_offload`` applies to the fp32 partitions and optimizer state; the fp16 module
weights stay on the GPU). So LoRA Llama-2-13B under ZeRO-2 + offload_optimizer keeps its 16-bit base on
the GPU: 13.0e9 × 2 B = 26.0 GB = 24.21 GiB, over a 24 GiB RTX 4090 — does not fit, on one card or two
(ZeRO-2 does not shard weights), and the offload is named as not used for an adapter run.
"""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json

GIB = 2**30
LLAMA2_13B = 13.0e9  # estimator catalog (meta-llama/Llama-2-13b-hf)

LF_DS = "examples/deepspeed/"  # LLaMA-Factory's DeepSpeed configs
ZERO2_OFFLOAD = {
    "en1": "LoRA Llama-2-13B on one RTX 4090 with DeepSpeed ZeRO-2 offload_optimizer cpu",
    "en2": "LoRA fine-tune Llama-2-13B on 2x RTX 4090, DeepSpeed ZeRO stage 2 with optimizer offload to CPU",
    "zh1": "用 LLaMA-Factory 在 1 张 4090 上 LoRA 微调 Llama-2-13B，deepspeed: "
    + LF_DS
    + "ds_z2_offload_config.json",
    "zh2": "用 LLaMA-Factory 在 2 张 4090 上 LoRA 微调 Llama-2-13B，deepspeed: "
    + LF_DS
    + "ds_z2_offload_config.json",
}


@pytest.mark.parametrize("key", sorted(ZERO2_OFFLOAD))
def test_zero2_optimizer_offload_keeps_the_lora_base_on_the_gpu(key):
    """Must-not-misread: ZeRO-2's offload_optimizer is no FSDP parameter offload (the merged tree said
    'fits at 18 GiB … relies on FSDP's CPU offload of the parameters' on one card, and on two 'does not
    fit … (that would take at least 1)')."""
    answer = answer_json(ZERO2_OFFLOAD[key])
    report, memory = answer["report"], answer["report"]["memory"]
    assert memory["plan"]["zero_stage"] == 2 and memory["plan"]["offload"] is False
    assert memory["breakdown"]["weights"] == pytest.approx(2 * LLAMA2_13B, rel=1e-9)  # 24.21 GiB
    assert round(memory["breakdown"]["weights"] / GIB, 2) == 24.21
    assert memory.get("offloaded_bytes") is None and report["host_ram"] is None
    assert report["feasible"] == "no" and memory["min_gpus"] is None  # 2 cards do not shard a ZeRO-2 base
    reasons = {i["text"]: i["reason"] for i in answer["interpretation"]["ignored"]}
    if key.startswith("en"):  # s35-left2 #4: offload_optimizer said in words is the optimizer's alone, so
        # named as that (its states are small, the base stays on the GPU), no longer as any offload
        assert reasons.get("offload_optimizer: cpu") == "optimizer_offload_adapters"
    else:  # a file name ('ds_z2_offload_config.json') does not say which offload
        assert reasons.get("offload: cpu") == "offload_adapters"


def test_zero2_offload_never_says_fsdp():
    import contextlib
    import io

    from bot.cli import main

    for text in ZERO2_OFFLOAD.values():
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            main(["ask", "--format", "text", text])
        out = buf.getvalue()  # the merged tree's headline and plan reason, en and zh
        assert "FSDP's CPU offload" not in out and "FSDP offloads the parameters" not in out
        assert "FSDP 把参数卸载" not in out


@pytest.mark.parametrize(
    "text",
    [
        "用 LLaMA-Factory 在 2 张 4090 上 LoRA 微调 Llama-2-13B，deepspeed: "
        + LF_DS
        + "ds_z3_offload_config.json",
        "QLoRA Llama-2-13B on one RTX 4090 with FSDP, fsdp_offload_params: true",
    ],
)
def test_full_sharding_offload_still_offloads_the_parameters(text):
    """Must-read: ZeRO-3 offload (LLaMA-Factory ds_z3_offload_config: offload_param and offload_optimizer
    to cpu) and FSDP fsdp_offload_params keep the base in host RAM (estimator.adapter_offload)."""
    answer = answer_json(text)
    memory = answer["report"]["memory"]
    assert memory["plan"]["zero_stage"] == 3 and memory["plan"]["offload"] is True
    assert memory["breakdown"]["weights"] == 0.0 and memory["offloaded_bytes"] > 0
    assert "offload_adapters" not in [i["reason"] for i in answer["interpretation"]["ignored"]]


# Item 2 — the headline names Unsloth's whole-model limit only where the sizing keeps it: with no ZeRO stage
# stated (estimator.setup.TrainingSetup.shards_model False, the ZeRO-0 assumption 'tool_no_sharding'). A
# stated ZeRO-3 is sized sharded, so the headline must not say 'not sharded' beside it.
def _first_line(text: str) -> str:
    import contextlib
    import io

    from bot.cli import main

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        main(["ask", "--format", "text", text])
    return buf.getvalue().splitlines()[0]


@pytest.mark.parametrize(
    "text",
    [
        "Unsloth LoRA Qwen2.5-32B on 4 RTX 3090 with DeepSpeed ZeRO-3",
        "用 Unsloth 在 4 张 3090 上 LoRA 微调 Qwen2.5-32B，DeepSpeed ZeRO-3",
        "Fine-tune Llama-3-70B with Unsloth QLoRA on 4x RTX 4090 with FSDP full shard",
    ],
)
def test_unsloth_with_a_stated_zero3_headline_is_sharded(text):
    answer = answer_json(text)
    assert answer["report"]["memory"]["plan"]["zero_stage"] == 3  # sized sharded, as stated
    first = _first_line(text)
    assert "Unsloth" in first and "ZeRO-3" in first
    assert "not sharded" not in first and "不切分" not in first


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            "Fine-tune Llama-3-70B with Unsloth QLoRA on 2x RTX 4090",
            "the whole model on each GPU, not sharded",
        ),
        ("用 Unsloth 在 2 张 4090 上 QLoRA 微调 Llama-3-70B，够吗？", "每张卡放整个模型，不切分"),
    ],
)
def test_unsloth_with_no_stage_still_names_its_limit(text, words):
    """Must-not-misread: no stage stated → ZeRO 0, a whole copy per GPU, said in the headline."""
    assert answer_json(text)["report"]["memory"]["plan"]["zero_stage"] == 0
    assert words in _first_line(text)


# Item 3 — the fsdp_qlora figures agree with the computation, and one GPU with parameter offload holds the
# layer being computed. Llama-2-70B NF4 base: 4.127/8 × (69e9 − 2 × 32,000 × 8,192) + 2 B × 524,288,000
# (bf16 embedding + head) = 36.37 GB; rank-64 adapters on every linear layer: 4 × 207,093,760 = 828.4M × 16 B
# = 13.25 GB; total 49.63 GB (the docstring said 35.6 + 13.3 = 48.9, the test's docstring 35.9 + 13.3 = 49.6).
def test_fsdp_qlora_docstring_figures_are_the_computation():
    import estimator.adapter_offload as mod

    embed = 2 * 32_000 * 8192
    base = 4.127 / 8 * (69e9 - embed) + 2 * embed
    adapters = 16 * 4 * 207_093_760
    assert (round(base / 1e9, 1), round(adapters / 1e9, 1), round((base + adapters) / 1e9, 1)) == (
        36.4,
        13.3,
        49.6,
    )
    assert "36.4 GB of NF4 base + 0.83B adapters × 16 B = 13.3 GB = 49.6 GB" in " ".join(mod.__doc__.split())
    answer = answer_json(
        "QLoRA fine-tune Llama-2-70B with answer.ai fsdp_qlora on 2x RTX 4090 with --use_cpu_offload, "
        "lora rank 64"
    )
    assert answer["report"]["host_ram"]["needed_bytes"] == pytest.approx(base + adapters, rel=1e-9)


LLAMA2_13B_LAYER = (13.0e9 - 2 * 32_000 * 5120) / 40  # one decoder layer's projections: 316,808,000


@pytest.mark.parametrize(
    "text",
    [
        "LoRA Llama-2-13B on one RTX 4090 with FSDP, fsdp_offload_params: true",
        "在 1 张 4090 上用 FSDP LoRA 微调 Llama-2-13B，fsdp_offload_params: true",
    ],
)
def test_one_gpu_parameter_offload_holds_the_layer_being_computed(text):
    """FSDP CPUOffload(offload_params=True) copies a unit's parameters to the GPU for its forward and
    backward: one bf16 decoder layer of Llama-2-13B, 2 B × 316,808,000 = 633,616,000 B (0.59 GiB)."""
    memory = answer_json(text)["report"]["memory"]
    assert memory["plan"]["dp"] == 1 and memory["plan"]["offload"] is True
    assert memory["breakdown"]["weights"] == 0.0
    assert memory["breakdown"]["gathered_weights"] == pytest.approx(2 * LLAMA2_13B_LAYER, rel=1e-9)


def test_one_gpu_qlora_offload_layer_is_four_bit():
    """QLoRA: the layer copied in is the NF4 one, about 4.127/8 of the bf16 layer (scales and bf16
    embeddings in the stored base make it a little more)."""
    memory = answer_json("QLoRA Llama-2-13B on one RTX 4090 with FSDP, fsdp_offload_params: true")["report"][
        "memory"
    ]
    ratio = memory["breakdown"]["gathered_weights"] / (2 * LLAMA2_13B_LAYER)
    assert 4.127 / 16 < ratio < 0.3


def test_one_gpu_without_offload_gathers_nothing():
    """Must-not: a base kept on one GPU is not gathered a second time (DeepSpeed's _no_gather_coalesced)."""
    memory = answer_json("LoRA Llama-2-13B on one A100 80GB with FSDP")["report"]["memory"]
    assert memory["plan"]["dp"] == 1 and memory["plan"]["offload"] is False
    assert memory["breakdown"].get("gathered_weights", 0.0) == 0.0
    assert memory["breakdown"]["weights"] == pytest.approx(2 * LLAMA2_13B, rel=1e-9)


# Item 4 — DeepSpeed-Chat step 1's main.py defaults (micro-batch 16, 512 tokens, no checkpointing:
# step1_supervised_finetuning/main.py parse_args) only for step 1: a message that names step 2/3, PPO, a
# reward model, a critic or an actor is about a later step, whose scripts have other defaults.
@pytest.mark.parametrize(
    "text",
    [
        "After DeepSpeed-Chat step 1 finished fine, step 3 PPO with opt-1.3b actor and opt-350m critic OOMs "
        "on one A100 40GB",
        "DeepSpeed-Chat step 1 went through; step 2 reward model training with opt-350m runs out of memory "
        "on one RTX 3090",
        "DeepSpeed-Chat 第一步跑完了，第三步 PPO 用 opt-1.3b 做 actor 在一张 3090 上 OOM",
        "DeepSpeed-Chat 第一步没问题，第二步训练奖励模型 opt-350m 在一张 3090 上爆显存",
    ],
)
def test_dschat_later_step_takes_no_step1_defaults(text):
    answer = answer_json(text)
    request = answer["request"]
    assert (request["batch_size"], request["seq_len"]) != (16, 512)
    assert request["recompute"] != "none"
    assert "script_defaults" not in [i["reason"] for i in answer["interpretation"]["ignored"]]


@pytest.mark.parametrize(
    "text",
    [
        "DeepSpeed-Chat step 1 with facebook/opt-1.3b OOMs on one RTX 3090",
        "DeepSpeed-Chat 第一步 SFT 用 facebook/opt-1.3b 在一张 3090 上 OOM 了",
    ],
)
def test_dschat_step1_alone_keeps_its_defaults(text):
    """Must-not-misread: step 1 alone is still sized at its script's defaults."""
    answer = answer_json(text)
    request = answer["request"]
    assert (request["batch_size"], request["seq_len"], request["recompute"]) == (16, 512, "none")
    reasons = {i["text"]: i["reason"] for i in answer["interpretation"]["ignored"]}
    assert reasons["script: DeepSpeed-Chat step 1 main.py"] == "script_defaults"


# Item 5 — a generating script run with torchrun ('generate_data.py', 'example_chat_completion.py') makes the
# launch a serving job only when the message states no training job of its own
# (bot.parse.configs.inference_scripts.TRAINING_WORDS_RE).
@pytest.mark.parametrize(
    "text",
    [
        "torchrun --nproc_per_node 8 generate_data.py --ckpt_dir llama-2-70b/ then finetune Llama-2-7B with "
        "LoRA on the output, 1B tokens, 8x A100 80GB",
        "torchrun --nproc_per_node 8 generation.py to make data, then SFT Llama-2-7B for 3 epochs on "
        "1B tokens, 8x A100 80GB",
        "先用 torchrun --nproc_per_node 8 generate_data.py 生成数据，再用 LoRA 微调 Llama-2-7B，"
        "1B token，8 张 A100",
    ],
)
def test_generating_script_beside_a_stated_finetune_keeps_training(text):
    answer = answer_json(text)
    request = answer["request"]
    assert request["stage"] == "finetune" and request["model"] == "Llama-2-7B"
    assert request["tokens"] == 1e9 * (request["epochs"] or 1)  # 3 epochs of 1B tokens: 3e9
    assert request["gpu_count"] == 8
    assert "config_differs" not in [i["reason"] for i in answer["interpretation"]["ignored"]]


@pytest.mark.parametrize(
    ("text", "concurrency"),
    [
        (
            "torchrun --nproc_per_node 1 example_chat_completion.py --ckpt_dir llama-2-7b-chat/ "
            "--max_seq_len 512 --max_batch_size 6 on one RTX 4090",
            6,
        ),
        (
            "torchrun --nproc_per_node 2 generate.py --ckpt_dir llama-2-13b/ to generate training data "
            "on 2x RTX 4090",
            None,
        ),
        ("用 torchrun --nproc_per_node 2 generate.py 生成训练数据，2 张 4090 够吗", None),
    ],
)
def test_generating_script_alone_is_still_serving(text, concurrency):
    """Must-not-misread: no training job stated ('training data' is what the generator writes)."""
    request = answer_json(text)["request"]
    assert request["stage"] == "inference" and request["concurrency"] == concurrency


def test_one_gpu_parameter_offload_fits_where_the_gpu_parts_fit():
    """The search's one-GPU shell (ZeRO 0) bounds the states of a stated FSDP/ZeRO-3 parameter offload
    with the base in host RAM (estimator.memory.state_parts): LoRA Llama-2-13B with fsdp_offload_params on
    one RTX 4090 holds ≈ 18 GiB on the GPU — borderline (the offload), never 'does not fit' at 1 while the
    1-GPU parts fit; the same job's ZeRO-2 optimizer offload above does not fit."""
    report = answer_json("LoRA Llama-2-13B on one RTX 4090 with FSDP, fsdp_offload_params: true")["report"]
    memory = report["memory"]
    assert memory["fits_requested"] is True and memory["min_gpus"] == 1
    assert report["feasible"] == "borderline" and report["feasible_reason"] == "offload"
    assert memory["per_gpu_bytes"] < memory["usable_bytes"]
