"""Session 34, round 28 en (issue 24): readers for what round 28's working half missed, each the general way
people write it, with sentences of our own — must-read and must-not-misread.

- a launched script that generates text is a serving job ('torchrun … example_text_completion.py
  --max_seq_len 128 --max_batch_size 4'): bot/parse/configs/inference_scripts.py;
- an unknown release name after a job noun or as the subject of 'does … need' ('offline inference with
  InternVL-Chat-V1.5', '用 X 做离线推理'): bot/parse/job_objects.py;
- AMD's Radeon RX gaming cards the catalog lacks, named as typed ('RX 7900 XT', 'RX 6800'), and a card's
  memory in MiB written 'M' or 'MB' before 'of VRAM' ('20464M of VRAM', amdgpu's log);
- an unknown tool as the owner of a benchmark ("ipex-llm's all-in-one benchmark") and a tool's other name in
  brackets ('BigDL-LLM (ipex-llm)'): bot/parse/tool_slots.py, bot/parse/unknown_tools.py;
- a CPU typed where the machine is ('an Ultra5 with 16GB of memory', 'an i7-12700 with 16GB of memory'): the
  CPU named (cpu_not_gpu), its memory the host's (bot/parse/cpu_named.py, bot/parse/memory_forms.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _ask(text: str) -> tuple[dict[str, Any], dict[str, Any]]:
    answer = answer_json(text)
    return answer["request"], answer["interpretation"]


def _ignored(interp: dict[str, Any]) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in interp.get("ignored") or []]


# -- a script that generates is a serving job ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "context", "concurrency"),
    [
        (
            "torchrun --nproc_per_node 1 example_text_completion.py --ckpt_dir llama-2-7b/ "
            "--tokenizer_path tokenizer.model --max_seq_len 128 --max_batch_size 4 runs out of memory on my "
            "RTX 3060 12 GB. How much memory does Llama 2 7B need?",
            128,
            4,
        ),
        (
            "用 torchrun --nproc_per_node 1 example_chat_completion.py --max_seq_len 512 "
            "--max_batch_size 2 跑 llama-2-7b-chat，3060 爆显存",
            512,
            2,
        ),
        (
            "Running torchrun --nproc_per_node 2 example_chat_completion.py --ckpt_dir llama-2-13b-chat/ "
            "--max_seq_len 512 --max_batch_size 6 on two RTX 3090 fails with CUDA OOM.",
            512,
            6,
        ),
        (
            "torchrun --nproc_per_node 1 run_inference.py --max_seq_len 2048: Llama 2 7B on one A10 OOMs",
            2048,
            None,
        ),
    ],
)
def test_a_generating_script_is_served(text: str, context: int, concurrency: int | None) -> None:
    """Meta's llama/generation.py: Llama.build(max_seq_len, max_batch_size) allocates a KV cache of
    max_batch_size sequences of up to max_seq_len tokens: the context and the sequences served at once."""
    req, _ = _ask(text)
    assert req["stage"] == "inference"
    assert req["max_model_len"] == context
    assert req.get("training_tool") is None  # no 'PyTorch DDP' for a serving run
    assert req["runtime"] == "transformers"  # the model's PyTorch code at its released precision
    if concurrency is not None:
        assert req["concurrency"] == concurrency


@pytest.mark.parametrize(
    "text",
    [
        "torchrun --nproc_per_node 8 train.py --max_seq_len 2048 for Llama 2 7B on 8 A100 runs out of memory",
        "torchrun --nproc_per_node 2 finetune_chat.py --model llama-2-7b on 2 A100s OOMs",
        "torchrun --nproc_per_node 4 sft_generation.py with Llama 2 7B on 4 A100 OOMs",
    ],
)
def test_a_training_script_stays_training(text: str) -> None:
    req, _ = _ask(text)
    assert req["stage"] == "finetune"
    assert req["training_tool"] == "PyTorch DDP"


def test_llama_2_7b_in_fp16_does_not_fit_12_gb() -> None:
    """The run of the thread (meta-llama/llama#455 as rephrased in en28-001) ran out of memory: 6.74B
    parameters × 2 bytes = 13.5 GB of fp16 weights over an RTX 3060's 12 GB; the answer says so."""
    answer = answer_json(
        "torchrun --nproc_per_node 1 example_text_completion.py --ckpt_dir llama-2-7b/ --max_seq_len 128 "
        "--max_batch_size 4 runs out of memory on my RTX 3060 12 GB. How much memory does Llama 2 7B need?"
    )
    assert answer["request"]["precision"] == "fp16"
    assert answer["request"]["runtime"] == "transformers"
    assert answer["report"]["feasible"] == "no"


# -- an unknown release named after a job noun -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("What is the minimum GPU for offline inference with InternVL-Chat-V1.5? A 24GB 4090 is not enough.",
         "InternVL-Chat-V1.5"),
        ("How much VRAM does MiniCPM-V-2.6 need?", "MiniCPM-V-2.6"),
        ("Will Foo-Chat-V2 fit on one A10?", "Foo-Chat-V2"),
        ("The evaluation of Zeta-VL-3.1 on an L4 runs out of memory.", "Zeta-VL-3.1"),  # s34 review
        ("用 InternVL-Chat-V1.5 做离线推理最少要多大的显卡？4090 24G 不够。", "InternVL-Chat-V1.5"),
        ("InternVL-Chat-V1.5 离线推理最少要多大显存？", "InternVL-Chat-V1.5"),
        ("用 4090 对 Foo-VL-2.0 进行推理爆显存了", "Foo-VL-2.0"),
    ],
)  # fmt: skip
def test_an_unknown_release_after_a_job_is_named(text: str, name: str) -> None:
    _, interp = _ask(text)
    assert interp.get("unknown_model") == name


@pytest.mark.parametrize(
    "text",
    [
        "Inference with TensorRT-LLM on an H100: how much memory for a 70B?",
        "Training with DeepSpeed-ZeRO3 on 8 A100 OOMs, what do I need?",
        "Inference with FlashAttention-2 on a 4090: how much memory for a 7B?",
        "Serving on RTX-4090 with CUDA-12.1, how much memory does a 13B need?",
        "Inference with BigDL-LLM on an Arc A770 runs out of memory",
        "How much memory does Ubuntu-22.04 need for inference?",
        "inference with bf16-mixed on one A100 for a 7B model",
    ],
)
def test_software_after_a_job_is_no_model(text: str) -> None:
    """Software, settings and cards after a job noun are never the model ('TensorRT-LLM', 'CUDA-12.1')."""
    _, interp = _ask(text)
    typed = interp.get("unknown_model") or ""
    for word in ("TensorRT", "DeepSpeed", "FlashAttention", "RTX-4090", "CUDA", "BigDL", "Ubuntu", "bf16"):
        assert word.lower() not in typed.lower()


def test_a_catalog_model_is_still_the_catalog_one() -> None:
    req, interp = _ask("Inference with TensorRT-LLM on an H100 for Llama 3 8B")
    assert req["model"] == "Llama-3-8B" and not interp.get("unknown_model")


# -- AMD Radeon RX cards and memory in MiB -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "card", "gib"),
    [
        ("I have an AMD RX 7900 XT graphics card (20464M of VRAM, 53248M of GTT memory). Can it run a 24 GB "
         "model with llama.cpp?", "RX 7900 XT", 19.98),
        ("I have an AMD RX 7900 XT card with 20464 MB of VRAM. Can it run Qwen2.5 14B?", "RX 7900 XT", 19.98),
        ("I have an RX 6800 16GB. Can it run Llama 3 8B?", "RX 6800", 16.0),
        ("Can a Radeon RX 580 8GB run a 7B model?", "Radeon RX 580", 8.0),
        ("我有一张 RX 7900 XT 20G 显卡，能跑 Qwen2.5 14B 吗？", "RX 7900 XT", 20.0),
        ("AMD RX 6800 16G 能部署 Llama 3 8B 吗", "RX 6800", 16.0),
    ],
)  # fmt: skip
def test_an_rx_card_is_named_with_its_memory(text: str, card: str, gib: float) -> None:
    """20464 MiB / 1024 = 19.98 GiB (the amdgpu driver logs 'VRAM: 20464M'); a card the catalog lacks is
    named as typed, never the default A100 (design.md §8)."""
    req, interp = _ask(text)
    if card == "RX 7900 XT":  # s48 cat: a catalog card now (Radeon-RX-7900-XT), its memory as stated
        assert req["gpu"] == "Radeon-RX-7900-XT" and not interp.get("unknown_gpu")
    else:
        assert interp.get("unknown_gpu") == card
    assert req["gpu_memory_gib"] == pytest.approx(gib, abs=0.01)


def test_the_catalog_rx_7900_xtx_is_still_the_catalog_card() -> None:
    req, interp = _ask("Can an AMD Radeon RX 7900 XTX run Llama 3 8B?")
    assert req["gpu"] == "Radeon-RX-7900-XTX" and not interp.get("unknown_gpu")


def test_memory_in_mb_without_a_vram_word_is_no_card() -> None:
    """'takes 5000 MB' is what the model uses, not a card's memory (no 'of VRAM', no card word before)."""
    req, _ = _ask("The model takes 5000 MB when loaded on my 4090. Can I run two?")
    assert req["gpu"] == "RTX-4090" and req["gpu_memory_gib"] in (None, 24, 24.0)


# -- tools: a benchmark's owner, a name in brackets ------------------------------------------------------


def test_a_benchmarks_owner_is_the_runtime() -> None:
    _, interp = _ask(
        "ipex-llm's all-in-one benchmark of Baichuan2-13B with 1024 input and 1024 output tokens runs out of "
        "memory on an Arc A770."
    )
    assert ("runtime: ipex-llm", "runtime_not_modelled") in _ignored(interp)


def test_a_benchmark_named_by_its_suite_is_no_tool() -> None:
    _, interp = _ask("The MMLU benchmark of Llama 3 8B on an A10 takes how long?")
    assert not any(text.startswith(("runtime:", "training_tool:")) for text, _ in _ignored(interp))


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Baichuan2-7B-Chat in int4 with BigDL-LLM (ipex-llm) can't run on an Arc A770.",
         ["runtime: BigDL-LLM", "runtime: ipex-llm"]),
        ("Serving Llama 3 8B with FooServe (NewServe) on an A10.",
         ["runtime: FooServe", "runtime: NewServe"]),
        ("Serving Llama 3 8B with FooServe (v0.5) on an A10.", ["runtime: FooServe"]),
        ("Fine-tuning Llama 3 8B with FooTrain (LoRA) on an A10.", ["training_tool: FooTrain"]),
    ],
)  # fmt: skip
def test_a_tools_other_name_in_brackets(text: str, names: list[str]) -> None:
    """Both names of one tool are named; a version or a method in the bracket is no second tool."""
    got = [t for t, _ in _ignored(_ask(text)[1]) if t.startswith(("runtime:", "training_tool:"))]
    assert got == names


# -- a CPU typed where the machine is --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cpu", "host"),
    [
        ("Baichuan2-7B-Chat in int4 can't run on an Ultra5 with 16GB of memory.", "Ultra5", 16.0),
        ("Baichuan2-7B-Chat in int4 can't run on an i7-12700 with 16GB of memory.", "i7-12700", 16.0),
        ("Can a Xeon Gold 6248 with 64GB of memory run Llama 3 8B?", "Xeon Gold 6248", 64.0),
    ],
)
def test_a_cpus_memory_is_the_hosts(text: str, cpu: str, host: float) -> None:
    req, interp = _ask(text)
    assert (cpu, "cpu_not_gpu") in _ignored(interp)
    assert req["host_memory_gib"] == host


@pytest.mark.parametrize(
    "text",
    ["Llama 3 70B on an M2 Ultra 64GB?", "Can an M2 Ultra with 192GB of memory run Llama 3 70B?"],
)
def test_apples_ultra_is_no_intel_cpu(text: str) -> None:
    req, interp = _ask(text)
    assert req["gpu"].startswith("Apple-M2-Ultra")
    assert not any(reason == "cpu_not_gpu" for _, reason in _ignored(interp))


def test_a_cards_memory_stays_the_cards() -> None:
    """'a 4090 with 24GB of memory' is the card's memory, never the host's (a CPU word is what turns it)."""
    req, _ = _ask("Can a 4090 with 24GB of memory run Qwen2.5 14B?")
    assert req["gpu"] == "RTX-4090" and not req.get("host_memory_gib")
