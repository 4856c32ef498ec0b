"""Session 13, part fixc: QLoRA's step time (s12 trial C3), AMD workstation cards, Xinference's launch
flags, a rollout engine turned off in prose, and a bare family name before a user count — through the
JSON contract of ``sizing-bot ask`` (in process), both languages, with phrasings other than the trial's.
"""

from __future__ import annotations

import pytest
from cli_run import ask_json_in_process, named

from estimator import catalog
from estimator.training_rate import QLORA_STEP_FACTOR

# -- C3: QLoRA steps are slower than bf16 LoRA --------------------------------------------------------------

LITGPT_PAIRS = {  # Lightning-AI/litgpt config_hub/finetune/README.md: (lora, qlora) minutes, same settings
    "falcon-7b": (24.84, 50.85), "gemma-2b": (9.41, 12.91), "llama-2-7b": (32.82, 45.67),
    "mistral-7b-v0.2": (31.00, 44.75), "mistral-7b": (31.01, 44.75), "phi-2": (3.78, 4.51),
    "phi-3": (6.46, 7.47), "stablelm-base-alpha-3b": (13.07, 25.86), "tiny-llama": (8.09, 8.70),
}  # fmt: skip


def test_qlora_factor_is_the_median_of_litgpts_same_setting_pairs() -> None:
    ratios = sorted(q / lo for lo, q in LITGPT_PAIRS.values())
    assert round(ratios[len(ratios) // 2], 2) == QLORA_STEP_FACTOR == 1.39
    assert round(45.67 / 32.82, 2) == 1.39  # Llama-2-7B, the row the ledger quotes


def _mfu(data: dict) -> dict:
    return next(a for a in data["assumptions"] if a["field"] == "mfu")


@pytest.mark.parametrize(
    "qlora",
    [
        "QLoRA fine-tune Llama-3-8B on 100M tokens with 1 A100 80G, how long?",
        "How many hours to fine-tune Llama-3-8B with 4-bit QLoRA, 100M tokens, one A100 80G",
        "用 1 张 A100 80G 做 QLoRA 微调 Llama-3-8B，1 亿 token 要多久",
        "Llama-3-8B QLoRA 微调，数据 1 亿 token，单卡 A100 80G，需要多少小时",
    ],
)
def test_qlora_is_timed_slower_than_lora_by_the_measured_factor(qlora: str) -> None:
    """A100 ≥ 7B: calibrated 40 % for LoRA; QLoRA 0.40 / 1.39 = 28.8 %, GPU-hours × 1.39."""
    lora = ask_json_in_process("LoRA fine-tune Llama-3-8B on 100M tokens with 1 A100 80G, how long?")
    data = ask_json_in_process(qlora)
    assert data["request"]["method"] == "qlora"
    assert lora["report"]["mfu"]["likely"] == pytest.approx(0.40)
    assert data["report"]["mfu"]["likely"] == pytest.approx(0.40 / 1.39)
    ratio = data["report"]["gpu_hours"]["likely"] / lora["report"]["gpu_hours"]["likely"]
    assert ratio == pytest.approx(1.39)
    mfu = _mfu(data)
    assert mfu["value"] == 0.2878 and "mfu_qlora" in mfu["also"] and mfu["params"]["qlora_factor"] == 1.39


def test_qlora_factor_is_said_in_both_languages() -> None:
    en = ask_json_in_process("QLoRA fine-tune Qwen2.5-14B on 20M tokens with 2 H100")
    zh = ask_json_in_process("QLoRA 微调 Qwen2.5-14B，2000万 token，2 张 H100 要多久")
    assert (
        "÷ 1.39 for QLoRA: the 4-bit NF4 base is de-quantized in every forward and backward"
        in _mfu(en)["source"]
    )
    from bot.cli import ask

    text, _ = ask("QLoRA 微调 Qwen2.5-14B，2000万 token，2 张 H100 要多久", None, "text")
    assert "QLoRA 再除以 1.39：4-bit NF4 底座在每次前向和反向时都要反量化" in text
    assert zh["report"]["mfu"]["likely"] == pytest.approx(en["report"]["mfu"]["likely"])


def test_other_bit_widths_and_a_stated_mfu_are_not_slowed() -> None:
    """8-bit base: no public measurement — said, not modelled; the user's MFU is theirs."""
    eight = ask_json_in_process("LLaMA-Factory 8-bit QLoRA Llama-3-8B on 1 A100, 100M tokens, how long?")
    assert eight["report"]["mfu"]["likely"] == pytest.approx(0.40)
    assert "mfu_quantized_base_unmodelled" in _mfu(eight)["also"] and _mfu(eight)["params"]["bits"] == 8
    stated = ask_json_in_process("QLoRA Llama-3-8B on 1 A100, 100M tokens, MFU 35%, how long?")
    assert stated["report"]["mfu"]["likely"] == pytest.approx(0.35)


# -- AMD workstation and datacenter cards --------------------------------------------------------------------


def test_amd_cards_people_ask_about_are_in_the_catalog_with_datasheet_figures() -> None:
    w7900 = catalog.gpu("Radeon-PRO-W7900")
    assert (w7900.memory_gib, w7900.peak_tflops_bf16, w7900.memory_bandwidth_gbps) == (48, 122.6, 864)
    w7800 = catalog.gpu("Radeon-PRO-W7800")
    assert (w7800.memory_gib, w7800.peak_tflops_bf16, w7800.memory_bandwidth_gbps) == (32, 90.5, 576)
    w7800_48 = catalog.gpu("Radeon-PRO-W7800-48GB")
    assert (w7800_48.memory_gib, w7800_48.peak_tflops_bf16, w7800_48.memory_bandwidth_gbps) == (48, 90.5, 864)
    assert all("AMD" in catalog.gpu(g).source for g in ("Radeon-PRO-W7900", "Radeon-PRO-W7800"))
    for gpu_id, memory in (("MI210", 64), ("MI250X", None), ("MI300X", 192), ("MI325X", 256)):
        assert catalog.gpu(gpu_id).vendor == "AMD"
        assert memory is None or catalog.gpu(gpu_id).memory_gib == memory


@pytest.mark.parametrize(
    ("question", "gpu", "count"),
    [
        ("Can 2 AMD Radeon PRO W7900 serve Qwen2.5-32B for 8 users?", "Radeon-PRO-W7900", 2),
        ("两张 W7900 48G 部署 Qwen2.5-32B，并发 8", "Radeon-PRO-W7900", 2),
        ("LoRA fine-tune Qwen2.5-7B on one Radeon Pro W7800", "Radeon-PRO-W7800", 1),
        ("用 2 张 W7800 48GB 部署 Qwen2.5-14B 够吗", "Radeon-PRO-W7800-48GB", 2),
    ],
)
def test_radeon_pro_cards_are_read_never_swapped(question: str, gpu: str, count: int) -> None:
    data = ask_json_in_process(question)
    assert (data["request"]["gpu"], data["request"]["gpu_count"]) == (gpu, count)
    assert data["interpretation"]["unknown_gpu"] is None and data["interpretation"]["substitutions"] == []


# -- Xinference launch ---------------------------------------------------------------------------------------


def _request(data: dict, *keys: str) -> dict:
    return {k: data["request"][k] for k in keys}


def test_xinference_launch_pasted_reads_model_size_precision_engine_and_gpus() -> None:
    data = ask_json_in_process(
        "How much GPU memory per card?\nxinference launch --model-name qwen2.5-instruct "
        "--size-in-billions 72 --model-format awq --quantization Int4 --n-gpu 2 --model-engine vllm"
    )
    want = {"stage": "inference", "model": "Qwen2.5-72B", "precision": "int4", "tp": 2, "gpu_count": 2}
    assert _request(data, *want) == want and data["request"]["runtime"] == "vLLM"
    assert data["stack_config"]["tool"] == "xinference"
    assert named(data) == {"runtime: Xinference": "runtime_not_modelled"}  # sized as the vLLM it runs


def test_xinference_short_flags_replicas_and_forwarded_engine_keys_in_chinese() -> None:
    data = ask_json_in_process(
        "这样启动要几张 4090？\nxinference launch -n qwen2.5-instruct -s 7 -f pytorch -q none --n-gpu 1 "
        "--replica 2 -en vllm --gpu_memory_utilization 0.85 --max_model_len 8192"
    )
    want = {"model": "Qwen2.5-7B", "tp": 1, "gpu_count": 2, "gpu_memory_utilization": 0.85,
            "max_model_len": 8192, "runtime": "vLLM"}  # fmt: skip
    assert _request(data, *want) == want
    assert named(data) == {  # the weights as released; Xinference itself is named, vLLM sized
        "-f: pytorch": "not_sized", "-q: none": "not_sized", "runtime: Xinference": "runtime_not_modelled"
    }  # fmt: skip


def test_xinference_decimal_sizes_gpu_lists_and_gguf() -> None:
    small = ask_json_in_process(
        "xinference launch --model-name deepseek-r1-distill-qwen --size-in-billions 1_5 "
        "--model-engine transformers --gpu-idx 0,1 on A10"
    )
    assert _request(small, "model", "gpu_count", "runtime") == {
        "model": "DeepSeek-R1-Distill-Qwen-1.5B", "gpu_count": 2, "runtime": "transformers"
    }  # fmt: skip
    gguf = ask_json_in_process(
        "xinference launch --model-name qwen3 --size-in-billions 32 --model-format ggufv2 "
        "--quantization Q4_K_M --model-engine llama.cpp --n-gpu 1 on RTX 4090"
    )
    assert _request(gguf, "model", "precision", "runtime") == {
        "model": "Qwen3-32B", "precision": "q4_k_m", "runtime": "llama.cpp"
    }  # fmt: skip


def test_xinference_without_an_engine_names_itself_and_auto_gpus() -> None:
    data = ask_json_in_process(
        "xinference launch --model-name qwen2.5-instruct --size-in-billions=0_5 --n-gpu auto on T4"
    )
    assert data["request"]["model"] == "Qwen2.5-0.5B"
    assert named(data) == {"runtime: Xinference": "runtime_not_modelled", "--n-gpu: auto": "auto_value"}


@pytest.mark.parametrize(
    "question",
    [
        "Serve Qwen2.5-72B-AWQ with Xinference on H100s, --n-gpu 2",
        "用 Xinference 部署 Qwen2.5-72B-AWQ，H100，n-gpu 设为 2",
    ],
)
def test_xinference_flags_in_prose(question: str) -> None:
    assert ask_json_in_process(question)["request"]["tp"] == 2


# -- a rollout engine turned off -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "written"),
    [
        ("GRPO on Qwen2.5-7B with ms-swift on 8 H100, 1000 prompts, use_vllm false", "use_vllm false"),
        ("TRL GRPO, Qwen2.5-7B, 8 H100, 1000 prompts, use_vllm: False", "use_vllm: false"),
        ("GRPO Qwen2.5-7B on 8 H100 without vLLM, 1000 prompts", "without vllm"),
        ("TRL GRPO Qwen2.5-7B on 8 H100, use_vllm set to False", "use_vllm set to false"),
        ("GRPO 训练 Qwen2.5-7B，8 张 H100，use_vllm 设为 false", "use_vllm 设为 false"),
        ("用 ms-swift 做 GRPO，Qwen2.5-7B，8 张 H100，1000 条 prompt，vllm 关掉", "vllm 关掉"),
        ("GRPO 训练 Qwen2.5-7B，8 张 H100，不用 vLLM 生成", "不用 vllm"),
        (
            "swift rlhf --rlhf_type grpo --model Qwen/Qwen2.5-7B-Instruct --use_vllm false on 8 H100",
            "--use_vllm false",
        ),
    ],
)
def test_vllm_turned_off_is_not_read_as_vllm(question: str, written: str) -> None:
    data = ask_json_in_process(question)
    assert data["request"]["algorithm"] == "grpo" and data["request"]["runtime"] is None
    # s26-trfix4 (trial 2 #3): TRL and ms-swift generate in the trainer with vLLM off, timed as its
    # model.generate (estimator/trainer_decode.py): the switch is used, not named. Since s37-grpo #1 no tool
    # named is TRL's default path too (use_vllm False: model.generate in the trainer), so vLLM off agrees
    # with it and is used, no longer named as sized like vLLM ('rollout_as_vllm')
    in_trainer = data["request"]["training_tool"] in ("TRL", "ms-swift", None)
    assert named(data).get(written) == (None if in_trainer else "rollout_as_vllm")
    if data["report"].get("rollout"):  # timed (a data amount given): as model.generate's decode
        assert data["report"]["rollout"]["in_trainer"] is in_trainer


@pytest.mark.parametrize(
    ("value", "runtime", "reason"),
    # s18-trfix: use_vllm true with no vllm_mode is said in the reply: sized as TRL's server mode; s26-trfix4:
    # false is TRL's own model.generate, memory and time (no longer named as timed like vLLM)
    [("false", None, None), ("true", "vLLM", "vllm_server_default")],
)
def test_use_vllm_in_a_pasted_config_agrees_with_the_prose(
    value: str, runtime: str | None, reason: str | None
) -> None:
    data = ask_json_in_process(
        "GRPO with this TRL config on 8 H100:\nmodel_name_or_path: Qwen/Qwen2.5-7B-Instruct\n"
        f"num_generations: 8\nuse_vllm: {value}\nper_device_train_batch_size: 4"
    )
    assert data["request"]["runtime"] == runtime
    assert named(data).get(f"use_vllm: {value.title()}") == reason


@pytest.mark.parametrize(
    "question",
    [
        "Serving Qwen2.5-7B with vLLM takes 40 GB on an A100; without vLLM it is 17 GB. How do I cut it?",
        "用 vllm 部署 Qwen2.5-7B 显存占 40G，不用 vllm 只占 17G，A100 上怎么降低？",
    ],
)
def test_vllm_named_in_use_beside_an_off_mention_stays_vllm(question: str) -> None:
    assert ask_json_in_process(question)["request"]["runtime"] == "vLLM"


@pytest.mark.parametrize(
    "question",
    [
        "ms-swift GRPO Qwen2.5-7B on 8 H100, --use_lmdeploy false",
        "ms-swift 做 GRPO，Qwen2.5-7B，8 张 H100，--use_lmdeploy false",
    ],
)
def test_lmdeploy_turned_off_is_not_read_as_lmdeploy(question: str) -> None:
    data = ask_json_in_process(question)
    assert data["request"]["runtime"] is None
    # s26-trfix4: no engine left, ms-swift generates in its trainer (model.generate): used, not named
    assert "--use_lmdeploy false" not in named(data)


def test_lmdeploy_off_beside_vllm_on_keeps_vllm() -> None:
    data = ask_json_in_process(
        "swift rlhf --rlhf_type grpo --model Qwen/Qwen2.5-7B-Instruct --use_lmdeploy false --use_vllm true "
        "on 8 H100"
    )
    assert data["request"]["runtime"] == "vLLM"


# -- a bare family name before a user count ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "typed", "users"),
    [
        ("Gemma 8 个用户，一张 4090 够吗", "Gemma", 8),
        ("Serve Gemma with 8 users on an L4", "Gemma", 8),
        ("Qwen 16 concurrent users on 2 A100", "Qwen", 16),
        ("Qwen 8 个并发，4090 能跑吗", "Qwen", 8),
    ],
)
def test_bare_family_keeps_the_user_count_and_is_named_as_typed(
    question: str, typed: str, users: int
) -> None:
    data = ask_json_in_process(question)
    assert data["request"]["concurrency"] == users
    assert data["interpretation"]["unknown_model"] == typed and data["request"]["model"] is None


@pytest.mark.parametrize(
    ("question", "model"),
    [
        ("Gemma-2-9B 8 users on one RTX 4090, enough?", "Gemma-2-9B"),
        ("部署 Gemma-2-9B，8 个用户同时用，A10 够吗", "Gemma-2-9B"),
        ("gemma2 9b for 8 concurrent users on 4090", "Gemma-2-9B"),
        ("Llama 3 8B, 8 users, one 4090", "Llama-3-8B"),
    ],
)
def test_named_model_with_user_count(question: str, model: str) -> None:
    data = ask_json_in_process(question)
    assert (data["request"]["model"], data["request"]["concurrency"]) == (model, 8)
