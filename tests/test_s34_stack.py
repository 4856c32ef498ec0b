"""Session 34, s34-stack: the user's stack constrains the plan (issue 24 item 3).

Item 1 — Unsloth keeps the whole model on each GPU. Source: unslothai/unsloth ``unsloth/models/_utils.py``
(and ``llama.py``) ``get_max_steps``::

    if training_args.world_size > 1:
        raise RuntimeError('Unsloth currently does not support multi GPU setups - but we are working on it!')

and its start-of-training check ``if ((a - PRE_CHECK) >= 1).sum() > 1: raise RuntimeError(...)`` (more than
one GPU holding memory); its later DDP guide (unsloth.ai docs, basics/multi-gpu-training-with-unsloth/ddp)
runs one whole copy per GPU. So an Unsloth plan is ZeRO 0 (one GPU, or DDP copies), never ZeRO-3/FSDP,
and a sharded layout is named as another stack's (HF Trainer + DeepSpeed ZeRO-3, LLaMA-Factory).
"""

from __future__ import annotations

import pytest

from estimator.training_tools import SHARDING_STACKS, tool_limits
from tests.real_questions import answer_json

UNSLOTH_70B = {
    "en": "Fine-tune Llama-3-70B with Unsloth QLoRA on 2x RTX 4090",
    "zh": "用 Unsloth 在 2 张 4090 上 QLoRA 微调 Llama-3-70B，够吗？",
}


def test_unsloth_never_shards_in_the_tool_table():
    limits = tool_limits("Unsloth")
    assert limits is not None and limits.shards_model is False
    assert all(tool_limits(t).shards_model for t in ("LLaMA-Factory", "HF Trainer", "TRL", "axolotl", "verl"))
    assert "DeepSpeed ZeRO-3" in SHARDING_STACKS and "LLaMA-Factory" in SHARDING_STACKS


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_unsloth_70b_qlora_on_two_4090s_is_said_as_run_then_another_stack(lang):
    answer = answer_json(UNSLOTH_70B[lang])
    report, memory = answer["report"], answer["report"]["memory"]
    assert answer["request"]["training_tool"] == "Unsloth"
    # the user's layout: ZeRO 0 — a whole model on each of the 2 GPUs (DDP copies), said as assumed
    assert memory["plan"]["zero_stage"] == 0 and memory["plan"]["dp"] == 2
    zero = [a for a in answer["assumptions"] if a["field"] == "zero_stage"]
    assert [(a["value"], a["why"]) for a in zero] == [(0, "tool_no_sharding")]
    # DDP holds on each GPU what one GPU holds: the same parts as the single-GPU run
    one = answer_json("Fine-tune Llama-3-70B with Unsloth QLoRA on one RTX 4090")["report"]["memory"]
    assert memory["breakdown"] == one["breakdown"]
    assert report["feasible"] == "no" and memory["min_gpus"] is None  # no count fits a whole 70B each
    assert [w["code"] for w in report["warnings"]][:1] == ["no_fit_tool_no_sharding"]
    # ZeRO-3 only as another stack: the LLaMA-Factory run of the same job (4 GPUs, below)
    changes = {a["change"]: a["min_gpus"] for a in memory["alternatives"]}
    assert "zero3" not in changes and changes["sharding_stack"] == 4
    assert memory["fit_change"][0]["setting"] == "sharding_stack"
    assert "zero_stage" not in [c["setting"] for c in memory["fit_change"]]


def test_the_other_stack_is_what_llama_factory_runs():
    """Must-not-misread: the same job named in LLaMA-Factory keeps its ZeRO-3 plan (4 GPUs)."""
    memory = answer_json("Fine-tune Llama-3-70B with QLoRA in LLaMA-Factory on 2x RTX 4090")["report"][
        "memory"
    ]
    assert memory["min_gpus"] == 4 and memory["plan"]["zero_stage"] == 3


def test_a_stated_zero3_beside_unsloth_is_the_users_setting():
    answer = answer_json("Fine-tune Llama-3-70B with Unsloth QLoRA on 4x RTX 4090 with DeepSpeed ZeRO-3")
    assert answer["report"]["memory"]["plan"]["zero_stage"] == 3
    assert not [a for a in answer["assumptions"] if a.get("why") == "tool_no_sharding"]


def test_unsloth_small_model_fits_one_gpu():
    """Llama-3-8B QLoRA fits one 24 GB card: the fewest GPUs is 1, and on 2 each holds a whole copy."""
    memory = answer_json("Fine-tune Llama-3-8B with Unsloth on 2x RTX 4090")["report"]["memory"]
    assert memory["min_gpus"] == 1 and memory["plan"]["zero_stage"] == 0 and memory["plan"]["dp"] == 2


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "the whole model on each GPU, not sharded"), ("zh", "每张卡放整个模型，不切分")],
)
def test_headline_names_the_stack_limit(lang, words):
    import contextlib
    import io

    from bot.cli import main

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        main(["ask", "--format", "text", UNSLOTH_70B[lang]])
    first = buf.getvalue().splitlines()[0]
    # Since s36-fixe #1 line 1 says the user's setting does not fit first, then the change that fits
    # (a framework that shards the model, ZeRO-3 or FSDP, on 4 GPUs): ZeRO-3 is never the setting assumed.
    head, sep, change = first.partition("；" if lang == "zh" else "; ")
    assert words in head and "ZeRO-3" not in head and sep
    assert "ZeRO-3" in change and ("4 GPUs" in change or "4 张卡" in change)


# Item 2 — FSDP + QLoRA with CPU offload (estimator.adapter_offload): answer.ai fsdp_qlora train.py wraps
# with ``cpu_offload=CPUOffload(offload_params=True)`` under ``--use_cpu_offload true``; accelerate's
# ``fsdp_offload_params: true`` sets the same. The sharded base and the adapters' states live in host RAM.
LLAMA2_70B = 69e9  # the catalog's Llama-2-70B (meta-llama/Llama-2-70b-hf)
EMBED = 2 * 32_000 * 8192  # untied embedding + head, kept in bf16 by bitsandbytes
NF4_BITS = 4.127  # Dettmers et al. 2023 §2: NF4 + double-quantized scales
LORA_R16 = 80 * 16 * (2 * (8192 + 8192) + 2 * (8192 + 1024) + 3 * (8192 + 28672))  # q,o; k,v; gate,up,down


def _nf4_base() -> float:
    return NF4_BITS / 8 * (LLAMA2_70B - EMBED) + 2 * EMBED


@pytest.mark.parametrize(
    "text",
    [
        "QLoRA fine-tune Llama-2-70B with answer.ai fsdp_qlora on 2x RTX 4090 with --use_cpu_offload",
        "QLoRA Llama-2-70B on 2x RTX 4090 with FSDP, accelerate config fsdp_offload_params: true",
        "用 FSDP + QLoRA 在 2 张 4090 上微调 Llama-2-70B，开了 fsdp_offload_params: true",
    ],
)
def test_fsdp_qlora_offload_keeps_the_base_in_host_ram(text):
    answer = answer_json(text)
    memory, ram = answer["report"]["memory"], answer["report"]["host_ram"]
    assert (
        memory["plan"]["offload"] is True and memory["plan"]["zero_stage"] == 3 and memory["plan"]["dp"] == 2
    )
    assert memory["breakdown"]["weights"] == 0.0 and memory["breakdown"]["adapters"] == 0.0
    assert LORA_R16 == 207_093_760
    held = _nf4_base() + 16 * LORA_R16  # fp32 adapter + gradient + two AdamW moments
    assert memory["offloaded_bytes"] == pytest.approx(held, rel=1e-9)
    assert ram["needed_bytes"] == pytest.approx(held, rel=1e-9) and ram["buffer_factor"] == 1.0
    assert "CPUOffload(offload_params=True)" in ram["source"]
    assert answer["report"]["feasible"] == "borderline" and answer["report"]["feasible_reason"] == "offload"
    assert not [
        i for i in answer["interpretation"]["ignored"] if i["reason"] in ("param_offload", "offload_adapters")
    ]


def test_fsdp_qlora_readme_figure():
    """fsdp_qlora README: Llama-2-70B, 2 × 24 GB, --use_cpu_offload: "roughly 55GB of CPU RAM for model
    loading and FSDP CPU offloading" at its default LoRA rank 64: 36.4 GB of NF4 base + 13.3 GB of adapter
    states = 49.6 GB, under the README's figure, which includes loading."""
    answer = answer_json(
        "QLoRA fine-tune Llama-2-70B with answer.ai fsdp_qlora on 2x RTX 4090 with --use_cpu_offload, "
        "lora rank 64"
    )
    held = _nf4_base() + 16 * 4 * LORA_R16
    assert answer["report"]["host_ram"]["needed_bytes"] == pytest.approx(held, rel=1e-9)
    assert 45e9 < held < 55e9


def test_stated_host_ram_short_of_the_offload():
    answer = answer_json(
        "QLoRA Llama-2-70B on 2x RTX 4090 with FSDP, fsdp_offload_params: true, host RAM 32GB"
    )
    ram = answer["report"]["host_ram"]
    assert ram["stated_bytes"] == 32 * 2**30 and ram["holds"] is False
    assert "host_ram_short" in [w["code"] for w in answer["report"]["warnings"]]


def test_lora_offload_without_sharding_is_not_zeroed():
    """Must-not: an adapter run without offload keeps its base on the GPUs (no host RAM)."""
    answer = answer_json("QLoRA Llama-2-70B on 4x RTX 4090 with FSDP")
    assert answer["report"]["host_ram"] is None and answer["report"]["memory"]["breakdown"]["weights"] > 0


# Item 4 — each vendor's own link inside a node (bot.render.plan_text.NODE_LINKS): AMD Instinct's
# Infinity Fabric, Ascend's HCCS, NVIDIA's NVLink; never "NVLink" for an AMD or Ascend layout.
@pytest.mark.parametrize(
    ("text", "link"),
    [
        ("Full fine-tune Llama-3-70B on 16x MI250 with TP 4", "Infinity Fabric"),  # s36 left #1: TP said
        ("Full fine-tune Qwen2.5-72B on 16x MI300X with TP 4", "Infinity Fabric"),
        ("70B 预训练 2T token 用 256 张 910B", "HCCS"),
        ("Full fine-tune Llama-3-70B on 16x H100", "NVLink"),
    ],
)
def test_plan_reason_names_the_cards_own_link(text, link):
    import contextlib
    import io

    from bot.cli import main

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        main(["ask", "--format", "text", text])
    reason = next(line for line in buf.getvalue().splitlines() if line.startswith(("• Why", "• 原因")))
    assert f"({link})" in reason or f"（{link}）" in reason
    if link != "NVLink":
        assert "NVLink" not in reason


def _first_line(text: str) -> str:
    import contextlib
    import io

    from bot.cli import main

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        main(["ask", "--format", "text", text])
    return buf.getvalue().splitlines()[0]


@pytest.mark.parametrize(
    ("text", "echo"),
    [
        (
            "llama-server -m qwen2.5-32b-q4_k_m.gguf -c 32768 -ngl 99 -fa on a RTX 4090, will it fit?",
            "-fa on",
        ),
        ("llama.cpp --flash-attn -c 16384 Llama-3-70B Q4_K_M on 2x 3090", "-fa on"),
        (
            "OLLAMA_FLASH_ATTENTION=1 ollama run qwen2.5:32b with num_ctx 32768 on one RTX 4090",
            "OLLAMA_FLASH_ATTENTION=1",
        ),
        (
            "ollama 跑 qwen2.5:32b，num_ctx 32768，设置了 OLLAMA_FLASH_ATTENTION=1，一张 4090 够吗",
            "OLLAMA_FLASH_ATTENTION=1",
        ),
    ],
)
def test_flash_attention_on_is_echoed_as_used(text, echo):
    """llama.cpp -fa / --flash-attn and Ollama's OLLAMA_FLASH_ATTENTION=1: no fp32 KQ scores in the compute
    buffer (src/llama-graph.cpp build_attn_mha without flash attention; estimator.serving_verdict), so the
    setting changes the answer and is echoed beside the runtime."""
    answer = answer_json(text)
    assert answer["request"]["flash_attention"] is True
    assert echo in _first_line(text)


def test_flash_attention_not_stated_is_not_echoed():
    line = _first_line("ollama run qwen2.5:32b with num_ctx 32768 on one RTX 4090")
    assert "OLLAMA_FLASH_ATTENTION" not in line and "-fa" not in line


# Item 4 — GRPO: TRL's GRPOConfig.__post_init__ (trl/trainer/grpo_config.py) raises when
# generation_batch_size = per_device_train_batch_size × num_processes × steps_per_generation is not
# divisible by num_generations (estimator.grpo_batch).
@pytest.mark.parametrize(
    ("text", "batch", "per_prompt", "next_batch"),
    [
        # 2 × 8 GPUs = 16 completions, 16 % 6 = 4; lcm(6, 8) = 24
        ("GRPO Qwen2.5-7B with TRL on 8x H100, per_device_train_batch_size 2, num_generations 6", 16, 6, 24),
        # global batch 20 on 8 GPUs, 20 % 8 = 4; lcm(8, 8) = 8 → 24
        ("用 TRL 做 GRPO 训练 Qwen2.5-7B，8 张 H100，global batch 20，num_generations 8", 20, 8, 24),
    ],
)
def test_grpo_step_not_a_multiple_of_num_generations(text, batch, per_prompt, next_batch):
    notes = answer_json(text)["report"]["warnings"]
    note = next(n for n in notes if n["code"] == "grpo_batch_not_divisible")
    assert note["params"] == {"batch": batch, "num_generations": per_prompt, "next_batch": next_batch}


@pytest.mark.parametrize(
    "text",
    [
        "GRPO Qwen2.5-7B with TRL on 8x H100, per_device_train_batch_size 2, num_generations 8",  # 16 % 8 = 0
        "SFT Qwen2.5-7B with TRL on 8x H100, per_device_train_batch_size 2",  # no GRPO
        "GRPO Qwen2.5-7B with verl on 8x H100, data.train_batch_size 20, rollout.n 8",  # verl counts prompts
    ],
)
def test_grpo_step_check_stays_quiet(text):
    notes = answer_json(text)["report"]["warnings"]
    assert "grpo_batch_not_divisible" not in [n["code"] for n in notes]


# Item 4 — SGLang's --mem-fraction-static in the recipe holds the weights and one sequence of the context
# sized (sglang server_args.py: the share of the memory free at start-up for weights and the KV pool;
# --context-length must fit one request): rounded down to a hundredth unless that drops below it.
def _sglang_fraction(text: str) -> float:
    import contextlib
    import io
    import tempfile
    from pathlib import Path

    from bot.cli import main

    with tempfile.TemporaryDirectory() as d, contextlib.redirect_stdout(io.StringIO()):
        main(["ask", "--recipe", "sglang", "--recipe-dir", d, text])
        script = (Path(d) / "serve_sglang.sh").read_text()
    return float(script.split("--mem-fraction-static ")[1].split()[0])


def test_sglang_fraction_keeps_one_sequence():
    text = "Serve Qwen2.5-32B-AWQ with SGLang on one RTX 4090, context 8192"
    inf = answer_json(text)["report"]["inference"]
    one = (inf["weights_bytes"] + inf["kv_bytes_per_sequence"]) / inf["usable_bytes_per_gpu"]
    left = (inf["usable_bytes_per_gpu"] - inf["workspace_bytes_per_gpu"]) / inf["usable_bytes_per_gpu"]
    assert int(one * 100) / 100 < one < left  # the hundredth (0.87) would be below one 8K sequence
    fraction = _sglang_fraction(text)
    assert one <= fraction <= left + 1e-9 and fraction == pytest.approx(0.878)  # 0.873 needed, 0.878 left


def test_sglang_fraction_stays_a_hundredth_with_room():
    assert _sglang_fraction("Serve Llama-3-8B with SGLang on one RTX 4090, context 8192") == 0.87
