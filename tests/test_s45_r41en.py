"""Session 45, round 41 en (issue 24): readers for what r41work en missed at its freeze, each tested on
sentences of our own (must-read and must-not-misread), in both languages.

- KoboldCpp's ``--gpulayers N`` (koboldcpp.py's argparse; ``"gpulayers": 81`` in its saved config): the layers
  on the GPU, as llama.cpp's ``-ngl``; its ``-1`` (KoboldCpp guesses) is no count;
- ColossalAI Chat's ``--strategy`` (``colossalai_zero2`` → ZeRO-2, ``colossalai_gemini`` → ZeRO-3, a ``_cpu``
  suffix → CPU offload; applications/Chat/examples/train_sft.py) and its ``--accimulation_steps`` (spelled so
  in that script), before named as unknown keys;
- a serving engine's ``--max-batch-size N`` (Atlas, TensorRT-LLM's ``max_batch_size``): its cap on the
  sequences run at once (``max_num_seqs``), never a training micro-batch;
- 'from 2048 to 65536 context in 2048 steps': a sweep's increment, never 2048 optimizer steps (which sized a
  benchmark as a fine-tuning run);
- a tool's own benchmark program run ('ran ds4-bench with …', 'ds4-bench --ctx-start …', '用 ds4-bench 跑'):
  the tool is the runtime, named as typed; an evaluation suite ('SWE-bench', 'MT-Bench') is none.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.parse.configs.coati import COATI_STRATEGIES
from tests.real_questions import answer_json


def _ask(text: str) -> tuple[dict[str, Any], list[tuple[str | None, str | None]]]:
    answer = answer_json(text)
    items = (answer.get("interpretation") or {}).get("ignored") or []
    return answer["request"], [(i.get("reason"), i.get("text")) for i in items]


# --- KoboldCpp's gpulayers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "On two RTX 5090 I run a 70B Q4_K_M gguf in koboldcpp (contextsize 32768, gpulayers 40). How fast?",
        'My koboldcpp config has "gpulayers": 40 for a 70B Q4_K_M gguf on two RTX 5090, how fast is it?',
        "两张 RTX 5090 用 koboldcpp 跑 70B 的 Q4_K_M gguf，gpulayers 40，速度能有多少？",
    ],
)
def test_koboldcpp_gpulayers_are_the_layers_on_the_gpu(text: str) -> None:
    request, items = _ask(text)
    assert request["gpu_layers"] == 40
    assert request["gpu_count"] == 2  # the 40 is no GPU count
    assert ("unread", "40") not in items


@pytest.mark.parametrize(
    "text",
    [
        "On two RTX 5090 I run a 70B Q4_K_M gguf in koboldcpp with --gpulayers -1. How fast?",
        "两张 RTX 5090 用 koboldcpp 跑 70B 的 Q4_K_M gguf，--gpulayers -1，速度能有多少？",
    ],
)
def test_koboldcpp_auto_layers_are_no_count(text: str) -> None:
    assert _ask(text)[0].get("gpu_layers") is None  # -1: KoboldCpp picks the count itself


# --- ColossalAI Chat's --strategy and --accimulation_steps ------------------------------------------------


_COATI = (
    "torchrun --standalone --nproc_per_node=4 examples/train_sft.py --model llama "
    "--strategy {strategy} --batch_size 1 --accimulation_steps 8"
)


@pytest.mark.parametrize(
    ("prefix", "strategy", "stage", "offload"),
    [
        ("On four A100 40G I train LLaMA-7B with ", "colossalai_zero2", 2, None),
        ("On four A100 40G I train LLaMA-7B with ", "colossalai_gemini", 3, None),
        ("四张 A100 40G 上训练 LLaMA-7B，命令是 ", "colossalai_zero2_cpu", 2, True),
        ("四张 A100 40G 上训练 LLaMA-7B，命令是 ", "colossalai_zero1", 1, None),
    ],
)
def test_coati_strategy_is_its_zero_stage(prefix: str, strategy: str, stage: int, offload: Any) -> None:
    request, items = _ask(prefix + _COATI.format(strategy=strategy) + " — OOM, how much memory is needed?")
    assert request["zero_stage"] == stage
    assert request["global_batch"] == 1 * 8 * 4  # micro × --accimulation_steps × the 4 GPUs
    assert request.get("offload") is offload or (offload is None and not request.get("offload"))
    assert not any(text and ("strategy" in text or "accimulation" in text) for _, text in items)


def test_coati_table_holds_the_scripts_stages() -> None:
    # applications/Chat/examples/train_sft.py: ColossalAIStrategy(stage=2 …) for colossalai_zero2, stage=3
    # for colossalai_gemini; NaiveStrategy / DDPStrategy shard nothing
    assert COATI_STRATEGIES == {
        "naive": 0, "ddp": 0, "colossalai_zero1": 1, "colossalai_zero2": 2, "colossalai_gemini": 3,
    }  # fmt: skip


def test_an_unknown_strategy_is_still_named() -> None:
    request, items = _ask(
        "On four A100 40G I train LLaMA-7B with " + _COATI.format(strategy="colossalai_tp") + " — OOM?"
    )
    assert request.get("zero_stage") is None
    assert any(text == "strategy: colossalai_tp" for _, text in items)


# --- a serving engine's --max-batch-size ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "On one DGX Spark I serve Qwen3-30B-A3B in FP8 with --max-seq-len 65536 and --max-batch-size 4. "
        "What speed should I get?",
        "在一台 DGX Spark 上部署 Qwen3-30B-A3B（FP8），参数 --max-seq-len 65536 --max-batch-size 4，"
        "速度能到多少？",
    ],
)
def test_serving_max_batch_size_is_the_sequence_cap(text: str) -> None:
    request, items = _ask(text)
    assert request.get("max_num_seqs") == 4 or any(t == "max_num_seqs: 4" for _, t in items)
    assert request.get("batch_size") is None
    assert not any(reason == "training_only" for reason, _ in items)


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tuning Qwen3-8B on one A100 80GB, my script takes --max-batch-size 4: how long for 1B tokens?",
        "在一张 A100 80GB 上微调 Qwen3-8B，训练脚本 --max-batch-size 4，1B token 要多久？",
    ],
)
def test_training_max_batch_size_is_no_serving_cap(text: str) -> None:
    request, _ = _ask(text)
    assert request.get("max_num_seqs") is None
    assert request["stage"] == "finetune"


# --- a sweep's increment is no step count -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "On an M3 Ultra 512GB I benchmarked Qwen3-235B-A22B Q4_K_M in llama.cpp from 2048 to 65536 context "
        "in 2048 steps with 128 generated tokens. How does the speed fall with context?",
        "M3 Ultra 512GB 上用 llama.cpp 测 Qwen3-235B-A22B Q4_K_M，上下文从 2048 到 65536，步长 2048，"
        "每次生成 128 个 token，速度随上下文怎么下降？",
    ],
)
def test_sweep_increment_is_no_training_run(text: str) -> None:
    request, items = _ask(text)
    assert request["stage"] == "inference"
    assert not any(reason == "steps_need_batch" for reason, _ in items)


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tuning Qwen3-8B on one A100 for 2048 steps at seq 4096, how long will it take?",
        "一张 A100 上微调 Qwen3-8B，训练 2048 步，序列 4096，要多久？",
    ],
)
def test_training_steps_are_still_steps(text: str) -> None:
    request, items = _ask(text)
    assert request["stage"] == "finetune"
    assert any(str(said).startswith("2048 steps") or str(said).startswith("2048 步") for _, said in items)


# --- a tool's own benchmark program -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "I ran ds4-bench with DeepSeek-V4-Flash on one RTX PRO 6000: what prefill speed should it get?",
        "On one RTX PRO 6000, ds4-bench --ctx-start 2048 --ctx-max 32768 gives slow prefill; what is normal?",
        "在一张 RTX PRO 6000 上用 ds4-bench 跑 DeepSeek-V4-Flash，prefill 速度应该是多少？",
    ],
)
def test_bench_program_names_its_tool(text: str) -> None:
    request, items = _ask(text)
    assert ("runtime_not_modelled", "runtime: ds4") in items
    assert ("runtime_not_modelled", "runtime: ds4-bench") not in items
    assert request.get("stage") != "finetune"


@pytest.mark.parametrize(
    "text",
    [
        "We ran SWE-bench with Qwen3-32B on two H100, how many tokens per second do we need?",
        "Qwen3-32B on two H100 scores well on MT-Bench; what throughput can it serve?",
        "the ds4-bench numbers for DeepSeek-V4-Flash on one RTX PRO 6000 look low",
        "两张 H100 跑 Qwen3-32B 的 SWE-bench 评测，吞吐要多少？",
    ],
)
def test_evaluation_suites_and_mentions_are_no_tool(text: str) -> None:
    _, items = _ask(text)
    assert not {"runtime: swe", "runtime: mt", "runtime: ds4"} & {str(t) for _, t in items}
