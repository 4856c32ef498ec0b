"""Session 26 trial 2 findings, training and reading (part trfix4: /work/notes/s26/trial2_findings.md)."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json

AXOLOTL = """base_model: Qwen/Qwen2.5-14B-Instruct
load_in_4bit: true
adapter: qlora
lora_r: 32
sequence_len: 4096
sample_packing: true
micro_batch_size: 2
gradient_accumulation_steps: 8
num_epochs: 2
optimizer: paged_adamw_8bit
gradient_checkpointing: true
"""


# #4: an average sample length in a pasted config's comment is tokens per sample, not a sequence length the
# config overrides: 40K samples × 1,500 tokens × 2 epochs = 120M tokens (the request's tokens count the
# epochs), not the 41M that 512 tokens a sample assumed; the config's sequence_len 4096 stays the cap.
@pytest.mark.parametrize(
    "comment",
    [
        "# 2x RTX 3090, dataset 40k samples avg 1500 tokens. how long?",
        "# 2张3090，数据4万条，平均每条1500 token，要多久",
    ],
)
def test_an_average_sample_length_beside_a_config_is_tokens_per_sample(comment: str) -> None:
    answer = answer_json(AXOLOTL + comment)
    request = answer["request"]
    assert (request["seq_len"], request["tokens_per_sample"], request["tokens"]) == (4096, 1500, 120_000_000)
    assert not any(i["text"].startswith("seq_len") for i in answer["interpretation"]["ignored"])


# #17: '16张H100（2机8卡）' is read as 2 × 8 = 16, the count used: its '2' is no second value ('repeated').
@pytest.mark.parametrize(
    "question",
    [
        "verl GRPO Qwen2.5-32B, 16张H100（2机8卡），rollout.n=8，1万条prompt，response最长4096，要多久",
        "verl GRPO Qwen2.5-32B on 16 H100 (2机8卡), rollout.n=8, 10k prompts, response up to 4096, how long?",
    ],
)
def test_machines_times_cards_equal_to_the_count_is_not_a_second_value(question: str) -> None:
    answer = answer_json(question)
    assert answer["request"]["gpu_count"] == 16
    assert not [i for i in answer["interpretation"]["ignored"] if i["text"] in ("2", "8")]


# #2: Jetson Orin modules (NVIDIA data sheets): unified memory, LPDDR5 bandwidth, sized as themselves;
# the memory after a word of the name ('Orin Nano 8GB') is the module's, never an A100 for reference.
@pytest.mark.parametrize(
    ("question", "gpu", "bandwidth"),
    [
        ("Run qwen2.5:3b with Ollama on a Jetson Orin Nano 8GB, tokens/s?", "Jetson-Orin-Nano-8GB", 68),
        ("Jetson Orin Nano 8G用Ollama跑qwen2.5:3b 速度多少", "Jetson-Orin-Nano-8GB", 68),
        (
            "Serve Llama-3.1-8B on a Jetson AGX Orin 64GB with llama.cpp, tokens/s?",
            "Jetson-AGX-Orin-64GB",
            204.8,
        ),
        ("Ollama qwen2.5:7b on an Orin NX 16G, speed?", "Jetson-Orin-NX-16GB", 102.4),
    ],
)
def test_jetson_orin_modules_are_sized_as_unified_memory(question: str, gpu: str, bandwidth: float) -> None:
    from estimator import catalog

    answer = answer_json(question)
    assert answer["request"]["gpu"] == gpu and answer["interpretation"]["unknown_gpu"] is None
    spec = catalog.gpu(gpu)
    assert spec.unified_memory and spec.memory_bandwidth_gbps == bandwidth
    # decode of a Q4_K_M model on one module: its bandwidth, not an A100's (491 tokens/s before)
    assert 0 < answer["report"]["inference"]["decode_tokens_per_s"]["per_sequence"] < 40


# #13: the RTX 3050 Laptop (NVIDIA's RTX 30 laptop spec page: 16 SMs, 4 GB, 128-bit at 14 Gbps = 224 GB/s),
# found through the desktop RTX 3050's name after 'laptop' as the 3060 / 4060 laptop parts are.
@pytest.mark.parametrize(
    "question",
    ["Run Qwen3-8B with Ollama on a laptop RTX 3050 4GB — speed?", "笔记本3050 4G 用ollama跑qwen2.5:3b 速度"],
)
def test_the_rtx_3050_laptop_is_in_the_catalog(question: str) -> None:
    answer = answer_json(question)
    assert answer["request"]["gpu"] == "RTX-3050-Laptop" and answer["interpretation"]["unknown_gpu"] is None


# #5: the axolotl QLoRA paste on 2 × RTX 3090: its settings need 8 GPUs (the 13.9 GiB of fp32 logits,
# 2 × 4,096 × 152,064 × 12 B, never shrink with data parallelism) while micro-batch 1 fits on one: the
# training headline says their setting does not fit, then that change, before any count (as the memory
# headline does: bot/render/fit_change_text.py headline_fix).
@pytest.mark.parametrize(
    ("comment", "fix", "count"),
    [
        (
            "# 2x RTX 3090, dataset 40k samples avg 1500 tokens. how long?",
            "with micro-batch 1",
            "as set (at least 8 GPUs at these settings)",
        ),
        (
            "# 2张3090，数据4万条，平均每条1500 token，要多久",
            "微批次改为 1",
            "按现在的设置 2 张 RTX 3090 显存放不下（这样设置至少要 8 张）",
        ),
    ],
)
def test_a_setting_that_fits_leads_the_training_headline(comment: str, fix: str, count: str) -> None:
    """s34 #1: their setting's verdict (and the count it needs, said as theirs) first, then the change that
    fits on their 2 cards and the days there: the headline and the body's 'at least 8' agree."""
    from bot.cli import ask

    text, _ = ask(AXOLOTL + comment, None, "text")
    first = text.splitlines()[0]
    assert count in first and fix in first and first.index(count) < first.index(fix)


# The forms earlier rounds pinned as an uncatalogued one-device system (tests/test_hw_reader.py,
# tests/test_round12_en_forms.py): now the catalog's module, one of it, its memory the one named.
@pytest.mark.parametrize(
    "question",
    [
        "Jetson AGX Orin 64GB 能跑 Qwen2.5-14B 吗",
        "Can a Jetson AGX Orin run Llama-3-8B?",
        "Can a Jetson AGX Orin with 64GB run Llama-3.1-8B in fp16?",
        "Jetson AGX Orin 64G 能用 fp16 跑 Llama-3.1-8B 吗？",
    ],
)
def test_the_jetson_agx_orin_is_one_catalog_module(question: str) -> None:
    answer = answer_json(question)
    assert (answer["request"]["gpu"], answer["request"]["gpu_count"]) == ("Jetson-AGX-Orin-64GB", 1)
    assert answer["interpretation"]["unknown_gpu"] is None
