"""Readers that misfired on everyday text (session 18, s18-fxa): 'room' read as OOM, '7 x 24 GB' read as
24/7, a serving 4-bit turning a fine-tune into QLoRA, a serving int4 setting a file's bytes per parameter,
a per-user rate taken as the whole load."""

from __future__ import annotations

import pytest

from bot.parse import parse
from bot.parse.counts_tried import COUNTS_FAILED

# --- 1. count_failed: word-bounded OOM, a crash only next to a memory word --------------------------


@pytest.mark.parametrize(
    "text",
    [
        "I have 8 H100 in the server room. Fine-tune Llama-3.1-70B full, how long for 1B tokens?",
        "We have 8 A100s, is there room for a bigger batch? Fine-tune Llama-3.1-8B full.",
        "8 H100 in our classroom lab, fine-tune Llama-3.1-8B full, how long?",
        "Zoom call tomorrow: 4 A100s, serve Llama-3.1-8B for 100 users",
        "8 卡 A100 部署 Qwen2.5-72B 跑不起来，驱动版本不对，需要几张卡？",
        "vLLM crashes with an illegal memory access on 2 A100s serving Llama-3.1-70B, how many GPUs?",
        "4 卡 4090 微调 Qwen2.5-7B，进程 crash 了，日志说 NCCL timeout",
    ],
)
def test_everyday_words_are_no_failed_count(text: str) -> None:
    p = parse(text)
    assert COUNTS_FAILED not in p.notes


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("It OOMs on 8 H100s when I fine-tune Llama-3.1-70B full, how many do I need?", 8),
        ("8 卡 H100 全参微调 Llama-3.1-70B，显存爆了，要几张卡？", 8),
        ("8 卡 H100 全参微调 Llama-3.1-70B OOM了，要几张卡？", 8),
        ("Full fine-tune of Llama-3.1-8B on 2 A100s crashed, out of memory. How many?", 2),
        ("4 张 A100 全参微调 Qwen2.5-7B 跑不起来，显存不足", 4),
    ],
)
def test_a_memory_failure_is_still_a_failed_count(text: str, count: int) -> None:
    p = parse(text)
    assert p.request.gpu_count == count and COUNTS_FAILED in p.notes


# --- 2. around_clock: '7 x 24 GB' is seven 24 GB cards, '7x24 小时' and '24/7' a schedule -------------


@pytest.mark.parametrize(
    "text",
    [
        "I have 7 x 24 GB RTX 3090 cards, can I serve Llama-3.1-70B?",
        "我有 7×24G 的卡，部署 Llama-3.1-8B 够吗",
    ],
)
def test_seven_cards_of_24_gb_are_no_schedule(text: str) -> None:
    r = parse(text).request
    assert (r.gpu_count, r.gpu_memory_gib, r.hours_per_day) == (7, 24.0, None)


@pytest.mark.parametrize(
    "text",
    [
        "7x24 小时服务 200 个并发用户，部署 Llama-3.1-8B 要几张卡",
        "200 concurrent users 24/7 serving Llama-3.1-8B on H100, how many GPUs?",
    ],
)
def test_around_the_clock_is_still_a_schedule(text: str) -> None:
    assert parse(text).request.hours_per_day == 24.0


# --- 3. quantized_lora: a 4-bit of the serving after a fine-tune is no QLoRA --------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tune Llama-3.1-8B on my data on one RTX 4090, then serve it in 4-bit",
        "在一张 4090 上微调 Qwen2.5-7B，然后用 int4 部署",
        "Train Qwen2.5-7B on 2 A100s and deploy the result as AWQ",
    ],
)
def test_a_serving_four_bit_leaves_the_fine_tune_full(text: str) -> None:
    r = parse(text).request
    assert r.method != "qlora" and r.precision == "int4"


@pytest.mark.parametrize(
    "text",
    [
        "fine-tune Mistral-7B at 4 bits on a 3090",
        "4bit 微调 Qwen2.5-7B，一张 4090",
        "Fine-tune Llama-3.1-8B in 4-bit on a 4090, then serve it",
        "LoRA fine-tune Llama-3.1-8B then serve in int4",  # LoRA with a 4-bit named: QLoRA as before
    ],
)
def test_a_four_bit_fine_tune_is_still_qlora(text: str) -> None:
    assert parse(text).request.method == "qlora"


# --- 4. weight_size: a serving precision is the target; only a format said of the file sets the bytes -


@pytest.mark.parametrize(
    "text",
    [
        "I have a 62GB model, how many RTX 4090 do I need to serve it in int4?",
        "62GB 的模型用 int4 部署要几张 4090",
        "I have a 62GB model, how many RTX 4090 to serve it?",
    ],
)
def test_a_serving_precision_leaves_the_file_in_bf16(text: str) -> None:
    assert parse(text).request.params_total == pytest.approx(62e9 / 2)  # 62 GB ÷ 2 bytes (bf16)


def test_a_format_said_of_the_file_sets_its_bytes() -> None:
    fp8 = parse("我有 62GB 的 fp8 权重，部署要几张 4090").request
    assert (fp8.params_total, fp8.precision) == (pytest.approx(62e9), "fp8")  # 1 byte a parameter
    gguf = parse("I have a 62GB GGUF Q4_K_M, how many RTX 4090 to serve it?").request
    assert gguf.params_total == pytest.approx(62e9 * 8 / 4.85)  # Q4_K_M: 4.85 bits a weight (llama.cpp)


@pytest.mark.parametrize(
    "text",
    [
        "I have a 62GB dataset, serve Llama-3.1-8B on 4090s in int4",
        "62GB of RAM, serve a model in int4 on 4090s",
        "an A100 80GB model server, serve in int4",
    ],
)
def test_other_sizes_are_no_weights(text: str) -> None:
    assert parse(text).request.params_total in (None, 8e9)


# --- 5. rate_forms: a rate per user × the users is the service's rate ----------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama-3.1-8B on H100: 50 users each send 2 requests per minute, 300 output tokens each",
        "部署 Qwen2.5-7B，50 个用户每人每分钟 2 个请求，每次输出 300 token",
    ],
)
def test_a_per_user_rate_is_multiplied_by_the_users(text: str) -> None:
    p = parse(text)
    # 2 a minute × 50 users = 100 a minute = 1.67 req/s; × 300 output tokens = 500 tokens/s
    assert p.request.target_tokens_per_s == pytest.approx(2 * 50 / 60 * 300)
    said = [raw for raw, why in p.unused_numbers if why == "rate_times_output"]
    assert said and "50 users" in said[0] and "500 tokens/s" in said[0]


def test_a_per_user_rate_without_a_user_count_is_named_not_sized() -> None:
    p = parse("Serve Llama-3.1-8B on H100: each user sends 2 requests per minute, 300 output tokens each")
    assert p.request.target_tokens_per_s is None
    assert ("2 requests per minute", "per_user_rate") in p.unused_numbers


def test_a_service_rate_is_not_multiplied() -> None:
    p = parse("Serve Llama-3.1-8B on H100 to 50 users at 2 requests per second, 300 output tokens each")
    assert p.request.target_tokens_per_s == pytest.approx(2 * 300)
