"""Round 6 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r6.json): ways of writing
the r6work half showed the parser missing, each read by one rule for its kind — an Ascend 910B by its SKU,
an Ascend 910 by its number and memory, a Qwen variant word glued to its version, DeepSeek's short forms,
a model named only inside a file's name, 'swift … 的框架', the host's memory as DRAM, one request at a
time in words, a version glued to a size in a path — tested in both languages through the CLI
(``sizing-bot ask --format json``). The sentences are written for these tests (none is from the
real-question corpus)."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, named
from tests.round_forms import ask, req

ASCEND_SKUS = [
    ("8 张 910B3 部署 Qwen2.5-72B-Instruct，显存够吗？", 8),
    ("昇腾 910B4 四卡跑 qwen2-7b 的 lora 微调，要多少显存？", 4),
    ("两台 910b2*8 做 Qwen2-72B 全参微调够不够？", 16),
    ("Can 8x Ascend910B3 serve Qwen2.5-72B-Instruct?", 8),
    ("Is a single 910B4 NPU enough to serve Qwen2-7B?", 1),
    ("LoRA of Qwen2-72B on 16 910b2 NPUs: enough memory?", 16),
]


@pytest.mark.parametrize(("text", "count"), ASCEND_SKUS)
def test_an_ascend_910b_sku_is_the_910b_card(
    capsys: pytest.CaptureFixture[str], text: str, count: int
) -> None:
    """'910B3', '910b4', '昇腾 910B2': SKUs of the Ascend 910B, sized on the catalog's 910B with the count
    said (the 910B4, with 32 GB, on its own card since s49-verdict, named as typed), the SKU as typed named in
    a substitution (``card_sku``; before: an unknown card sized on the
    default A100, and '910b' read as a 910B-parameter model)."""
    data = ask(capsys, text)
    four = "910b4" in text.lower()  # s49-verdict: the 910B4 is its own 32 GB card (bot.parse.written_names)
    assert (req(data, "gpu"), req(data, "gpu_count")) == ("Ascend-910B4" if four else "Ascend-910B", count)
    assert req(data, "params_total") < 1e11  # the model named, never 910B parameters
    subs = data["interpretation"]["substitutions"]
    named = [(s["used"], s["reason"]) for s in subs if "910" in s["typed"]]
    assert named == ([] if four else [("Ascend-910B", "card_sku")])


ASCEND_910_MEMORY = [
    ("16 卡 910-64G 能全参微调 Qwen2-7B 吗？", 16, 64),
    ("8 张 910 32G 跑 qwen2-7b 推理够吗？", 8, 32),
    ("4 张 910 64G 部署 Qwen2-7B 够吗？", 4, 64),
    ("LoRA on Qwen2-72B with 16 910-64G NPUs: does it fit?", 16, 64),
    ("Can 8 910 32G NPUs serve Qwen2-7B?", 8, 32),
    ("Qwen2-7B inference on 4 910 64GB cards, enough?", 4, 64),
]


@pytest.mark.parametrize(("text", "count", "gib"), ASCEND_910_MEMORY)
def test_a_910_with_its_memory_is_an_ascend_910(
    capsys: pytest.CaptureFixture[str], text: str, count: int, gib: int
) -> None:
    """'910-64G', '910 32G': an Ascend 910 card with that memory each (before: '910' unread and the card
    sized on a generic GPU of the memory an OOM message printed, or on the default A100)."""
    data = ask(capsys, text)
    assert (req(data, "gpu"), req(data, "gpu_count"), req(data, "gpu_memory_gib")) == (
        "Ascend-910",
        count,
        gib,
    )


def test_910_as_an_amount_is_no_card(capsys: pytest.CaptureFixture[str]) -> None:
    """'910 块钱': a number, not a card (only 32 or 64 GB after it makes a 910 a card)."""
    data = ask(capsys, "我花了 910 块钱租了 8 张 A100，够跑 qwen2-7b 吗？")
    assert req(data, "gpu") == "A100-SXM4-80GB"


GLUED_VARIANTS = [
    # s38: Qwen2-VL-7B/72B and Qwen2.5-VL-72B are catalog releases too (8.29B, 73.4B with their towers)
    ("用 vllm 部署 qwen2VL-7b，A10 24G 够吗？", "qwen2VL-7b", 8.29e9),
    # s31-catalog: the whole Qwen2.5-VL releases, vision tower counted (3,754,622,976 and 8,292,166,656)
    ("Qwen2.5VL-3B 全参微调要几张 4090？", "Qwen2.5VL-3B", 3.75e9),
    ("qwen2audio-7b 推理需要多少显存？", "qwen2audio-7b", 7e9),
    ("Serving qwen2VL-7b-awq on one A10 (24 GB): enough?", "qwen2VL-7b", 8.29e9),
    ("How much memory does Qwen2.5VL-72B need for inference in bf16?", "Qwen2.5VL-72B", 73.4e9),
    ("Full fine-tuning of qwen2.5vl-7b on 8 A100s, how long per epoch?", "qwen2.5vl-7b", 8.29e9),
]


@pytest.mark.parametrize(("text", "typed", "size"), GLUED_VARIANTS)
def test_a_glued_variant_word_is_one_name(
    capsys: pytest.CaptureFixture[str], text: str, typed: str, size: float
) -> None:
    """'qwen2VL-7b', 'Qwen2.5VL-3B': one release, its variant word glued to the version, named as typed
    and sized at its size (before: 'qwen2' / 'qwen2.5' was read as another model, named as not sized)."""
    data = ask(capsys, text)
    vl = [
        s["typed"]
        for s in data["interpretation"].get("substitutions") or []
        if s["reason"] == "vision_language_llm"
    ]
    # s14-left: a VL release is sized as its catalog LLM (Qwen2.5-3B: 3.09B), named as typed with a reason;
    # s31-catalog: Qwen2.5-VL-3B/7B are catalog releases themselves (vision tower counted), resolved whole
    whole = req(data, "model") in {"Qwen2.5-VL-3B", "Qwen2.5-VL-7B", "Qwen2-VL-7B", "Qwen2.5-VL-72B"}
    assert whole or vl == [typed] or data["interpretation"]["unknown_model"] == typed
    assert req(data, "params_total") == pytest.approx(size, rel=0.1)
    assert not [t for t, why in named(data).items() if why == "other_setup"]


DEEPSEEK_SHORT = [
    ("用 ktransformers 跑 ds-r1，单卡 4090 能到多少 token/s？", "DeepSeek-R1"),
    ("ds v3 满血部署要几张 H20？", "DeepSeek-V3"),
    ("dsv3 推理 8 张 H200 够吗？", "DeepSeek-V3"),
    ("Can 2 nodes of 8 H100 serve ds-r1?", "DeepSeek-R1"),
    ("How many H20s for ds-v3 in fp8?", "DeepSeek-V3"),
    ("Is 8x H200 enough for dsr1 at 32k context?", "DeepSeek-R1"),
]


@pytest.mark.parametrize(("text", "model"), DEEPSEEK_SHORT)
def test_deepseek_short_forms(capsys: pytest.CaptureFixture[str], text: str, model: str) -> None:
    """'ds-r1', 'ds v3', 'dsv3': DeepSeek's releases as people shorten them (already read by main's
    parser; kept beside the file-name rule, whose record wrote 'ds-r1')."""
    assert req(ask(capsys, text), "model") == model


def test_deepspeed_ds_is_no_deepseek(capsys: pytest.CaptureFixture[str]) -> None:
    """'ds_config' is DeepSpeed's: no release name after it, no DeepSeek model."""
    assert req(ask(capsys, "ds_config 用 zero3，微调 qwen2-7b 要几张卡？"), "model") == "Qwen2-7B"


FILE_NAMED = [
    ("我用 examples/train_lora/llama3_lora_sft.yaml 改了一下，训练 qwen2-7b，4 张 4090 够吗？", "Qwen2-7B"),
    ("照着 qwen2_7b_full_sft.yaml 的配置全参微调 Llama-3-8B，8 张 A100 要多久？", "Llama-3-8B"),
    ("用 DeepSeek-V3-Chat-multi-gpu-4.yaml 跑 deepseek-r1，4 张 H20 显存只用了 4GB，正常吗？", "DeepSeek-R1"),
    ("I copied llama3_lora_sft.yaml and fine-tune Qwen2-7B with it on 4 4090s: enough?", "Qwen2-7B"),
    ("Using run_qwen2_7b.sh to train Llama-3-8B on 8 A100s, how long?", "Llama-3-8B"),
    (
        "With DeepSeek-V3-Chat-multi-gpu-4.yaml I run DeepSeek-R1 on 4 H20s; is that enough memory?",
        "DeepSeek-R1",
    ),
]


@pytest.mark.parametrize(("text", "model"), FILE_NAMED)
def test_a_model_named_only_in_a_file_name_is_another_setup(
    capsys: pytest.CaptureFixture[str], text: str, model: str
) -> None:
    """A config file named after a model ('llama3_lora_sft.yaml') and a model named in prose: the prose
    one is sized, the file's is named as another setup (before: the first name, the file's, was sized)."""
    data = ask(capsys, text)
    assert req(data, "model") == model
    assert any(t.startswith("model:") and why == "other_setup" for t, why in named(data).items())


def test_a_file_name_alone_keeps_its_model(capsys: pytest.CaptureFixture[str]) -> None:
    """With no model named outside it, the file's model is still the one read."""
    data = ask_in_process(capsys, "用 llama3_lora_sft.yaml 微调，4 张 4090 够吗？", want_code=2)
    assert data["interpretation"]["unknown_model"] == "llama3"  # no size: asked for (exit 2), name kept


SWIFT_FRAMEWORK = [
    "用 swift 这个框架全参微调 qwen2-7b，8 张 A100 够吗？",
    "swift 非常好用的框架，lora 微调 Qwen2-7B 要多少显存？",
    "感谢 swift，请问 4 张 3090 能做 Qwen2-7B 的 lora 吗？",
    "Thanks, the swift framework is great: LoRA on Qwen2-7B with 2 A100s, enough?",
    "With the swift toolkit, full fine-tuning of Qwen2-7B on 8 A100s: how long?",
    "I use the swift library for LoRA on Qwen2-7B; is one A100 enough?",
]


@pytest.mark.parametrize("text", SWIFT_FRAMEWORK)
def test_swift_called_a_framework_is_ms_swift(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'swift 很方便的框架', '感谢 swift', 'the swift framework': ModelScope's ms-swift (the word alone is
    also a programming language, so a word about a framework or thanks must go with it)."""
    assert req(ask(capsys, text), "training_tool") == "ms-swift"


DRAM = [
    ("单卡 4090 部署 deepseek-r1 671b int4，DRAM 1.5T，能跑多快？", 1536),
    ("DRAM 512G 加两张 4090 跑 DeepSeek-R1 Q4_K_M，显存够吗？", 512),
    ("服务器 1TB DRAM、一张 A100，跑 deepseek-r1 的 q4 能到几 token/s？", 1024),
    ("One 4090 and 1.5TB DRAM for DeepSeek-R1 Q4_K_M: how many tokens/s?", 1536),
    ("DRAM 512G with two 4090s for DeepSeek-R1 Q4_K_M, enough?", 512),
    ("A server with 1 TB of DRAM and one A100 for DeepSeek-R1 q4: how fast?", 1024),
]


@pytest.mark.parametrize(("text", "gib"), DRAM)
def test_dram_is_the_hosts_memory(capsys: pytest.CaptureFixture[str], text: str, gib: int) -> None:
    """'DRAM 1.5T': the host's memory, never tokens (before: 1.5T tokens were sized). Named when the job
    does not use it (all on the GPU: 'int4' is no llama.cpp format); since s19-trfix (trial s19 #1) a GGUF
    model too big for the cards is sized as llama.cpp's partial offload into that RAM (request
    host_memory_gib, the reply's 'of 512 GiB RAM'), which uses the number instead of naming it."""
    data = ask(capsys, text)
    assert req(data, "tokens") is None
    if f"host_memory: {gib} GB" not in named(data):
        assert req(data, "host_memory_gib") == gib
        assert data["report"]["inference"]["layer_split"]["host_memory_bytes"] == gib * 2**30


SINGLE_LOAD = [
    "以 Qwen3-14B 为例，单并发调用每秒 30 token，正常吗？",
    "单个并发下 Qwen2-7B 在 4090 上能跑多快？",
    "单路请求 70B 在 4 张 A100 上多少 token/s？",
    "With a single concurrent request Qwen3-14B gives 30 tokens/s on a 910B, is that normal?",
    "How fast is Qwen2-7B on a 4090 with one concurrent request?",
    "70B on 4 A100s at concurrency 1: how many tokens/s?",
]


@pytest.mark.parametrize("text", SINGLE_LOAD)
def test_one_request_at_a_time(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'单并发', '单个并发', '单路请求': one request at a time, as 'a single concurrent request' reads
    (before: the Chinese forms left the load to another number or the default)."""
    assert req(ask(capsys, text), "concurrency") == 1


GLUED_VERSION = [
    ("model_name_or_path: /mnt/0913/Qwen1.572B，lora 微调，8 张 A100 够吗？", "Qwen1.5-72B", 50e9),
    ("lora 微调 /data/models/Qwen1.514B，2 张 4090 够吗？", "Qwen1.5-14B", 10e9),
    ("部署 /models/Qwen2.57B-Instruct，一张 4090 够吗？", "Qwen2.5-7B", 5e9),
    ("LoRA on /data/Qwen1.572B with 8 A100s: enough?", "Qwen1.5-72B", 50e9),
    ("Serving /models/Qwen1.514B-Chat on 2 4090s: does it fit?", "Qwen1.5-14B", 10e9),
    ("Fine-tune model_name_or_path=/ckpt/Qwen2.57B on one A100?", "Qwen2.5-7B", 5e9),
]


@pytest.mark.parametrize(("text", "model", "at_least"), GLUED_VERSION)
def test_a_version_glued_to_a_size_is_that_release(
    capsys: pytest.CaptureFixture[str], text: str, model: str, at_least: float
) -> None:
    """'/mnt/Qwen1.572B': Qwen1.5-72B with its parameters (before: 1.572B parameters were sized)."""
    data = ask(capsys, text)
    assert req(data, "model") == model
    assert req(data, "params_total") > at_least


EXAMPLE_MODEL = [
    (
        "在 910B 上部署了 GLM4.5-Air 和 Qwen3-14B，以 Qwen3-14B 为例，单并发调用每秒 30 token，正常吗？",
        "Qwen3-14B",
    ),
    ("部署了 Llama-3-8B 和 Qwen2-7B，以 Qwen2-7B 为例，4090 上只有 20 token/s，正常吗？", "Qwen2-7B"),
    ("我们有 Qwen2-72B 和 Llama-3-70B 两个模型，以 Llama-3-70B 为例，8 张 A100 够吗？", "Llama-3-70B"),
    (
        "We serve GLM-4.5-Air and Qwen3-14B on a 910B; for example Qwen3-14B, gives 30 tokens/s. Normal?",
        "Qwen3-14B",
    ),
    (
        "I run Llama-3-8B and Qwen2-7B; take Qwen2-7B as an example: 20 tokens/s on a 4090, normal?",
        "Qwen2-7B",
    ),
    ("We have Qwen2-72B and Llama-3-70B; e.g. Llama-3-70B, are 8 A100s enough?", "Llama-3-70B"),
]


@pytest.mark.parametrize(("text", "model"), EXAMPLE_MODEL)
def test_the_example_model_is_sized(capsys: pytest.CaptureFixture[str], text: str, model: str) -> None:
    """'以 Qwen3-14B 为例', 'for example Qwen3-14B': of several models, the one the numbers are about is
    sized and the others named (before: the first named was sized)."""
    data = ask(capsys, text)
    assert req(data, "model") == model
    assert any(t.startswith("model:") and why == "other_setup" for t, why in named(data).items())
