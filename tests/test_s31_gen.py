"""Session 31, general readers (s31-gen): sentences of our own, never corpus records, in both languages —
each reader must read its family of phrasings and must not misread its near misses."""

from __future__ import annotations

import pytest

from bot.parse import parse
from bot.parse.packing_words import packing_said

# -- sample packing said in prose or as a bare switch (bot.parse.packing_words) --------------------------

PACKING_ON = [
    "SFT Qwen2.5-7B on 8 A100 with sample packing enabled",
    "Fine-tune Llama-3-8B on 4 H100, --neat_packing --gradient_checkpointing",
    "OpenRLHF DPO of Qwen2.5-7B on 8 A100: --micro_train_batch_size 1 --packing_samples --flash_attn",
    "train Mistral-7B with TRL, packing=True, on 2 A100",
    "We pack the samples into 4096-token sequences to fine-tune Qwen2.5-7B on 8 A100",
    "微调 Qwen2.5-7B，开了 packing，8 卡 A100",
    "8 张 A100 全参微调 Llama-3-8B，用了序列打包，要多久",
    "Qwen2.5-14B LoRA 微调，4 卡 4090，sample_packing 打开了",
]
PACKING_OFF = [
    "SFT Qwen2.5-7B on 8 A100 without packing",
    "Fine-tune Llama-3-8B on 4 H100, packing=False",
    "LoRA on Mistral-7B, 2 A100; we don't pack sequences",
    "微调 Qwen2.5-7B，没开 packing，8 卡 A100",
    "全参微调 Llama-3-8B，8 卡 A100，packing 关了",
    "Qwen2.5-14B LoRA 微调，4 卡 4090，不开 packing",
]
PACKING_NOT_SAID = [
    "What is packing? Fine-tune Qwen2.5-7B on 8 A100",
    "Fine-tune Qwen2.5-7B on 8 A100, the package is transformers 4.44",
    "微调 Qwen2.5-7B 要几张 A100？packing 是什么意思",
]


@pytest.mark.parametrize("text", PACKING_ON)
def test_packing_on_is_read(text: str) -> None:
    assert parse(text).request.packing is True


@pytest.mark.parametrize("text", PACKING_OFF)
def test_packing_off_is_read(text: str) -> None:
    assert parse(text).request.packing is False


@pytest.mark.parametrize("text", PACKING_NOT_SAID)
def test_packing_not_said_is_not_set(text: str) -> None:
    assert parse(text).request.packing is None


def test_packing_is_no_serving_setting() -> None:
    """A serving question's 'pack' is no training switch (the reader runs for training stages only)."""
    assert parse("Serve Qwen2.5-7B on an A100 with vLLM, with packing").request.packing is None
    assert packing_said("unpack the package") is None


# -- a request's length in an engine's error, retold in Chinese (bot.parse.too_long) --------------------

TOO_LONG_ZH = [
    ("vllm 部署 Qwen2.5-7B，A100，报错：最大上下文 32768 tokens，但请求了 47219 tokens", 47219),
    ("用 vllm 部署 Qwen2.5-7B，A100 上报错说请求的 token 数是 40000，超过了 32768 的上限，怎么办", 40000),
    ("vllm 跑 Qwen2.5-7B，输入了 40000 个 token，超过最大上下文 32768，A100 单卡能开到多长", 40000),
]


@pytest.mark.parametrize(("text", "prompt"), TOO_LONG_ZH)
def test_request_length_in_chinese_is_the_prompt(text: str, prompt: int) -> None:
    assert parse(text).request.prompt_tokens == prompt


def test_request_length_in_english_still_read() -> None:
    text = (
        "vllm serve Qwen2.5-7B on an A100: This model's maximum context length is 32768 tokens. "
        "However, you requested 47219 tokens. How long a context fits?"
    )
    assert parse(text).request.prompt_tokens == 47219


def test_requests_count_is_no_length() -> None:
    """'100 个请求' counts requests; '每个请求 2000 tokens' stays each request's length."""
    req = parse("vllm 部署 Qwen2.5-7B 在 A100 上，100 个请求，每个请求 2000 tokens").request
    assert req.prompt_tokens is None and req.seq_len == 2000


# -- a prompt length beside a serving context is used, never dropped (bot.parse.assemble) ---------------

PROMPT_BESIDE_CONTEXT = [
    ("Serve Qwen2.5-7B on an A100 with vLLM, 32k context, prompts of 2000 tokens", 2000, 32768),
    ("vllm 部署 Qwen2.5-7B，A100，上下文 32k，输入 2000 tokens", 2000, 32768),
    ("Qwen2.5-7B on vLLM, one A100, 16k context, inputs about 3000 tokens", 3000, 16384),
]


@pytest.mark.parametrize(("text", "prompt", "context"), PROMPT_BESIDE_CONTEXT)
def test_prompt_beside_context_is_used(text: str, prompt: int, context: int) -> None:
    req = parse(text).request
    assert (req.prompt_tokens, req.seq_len) == (prompt, context)


def test_training_prompt_is_no_serving_prompt() -> None:
    """A training question's prompt length stays the training sequence's part (no serving prompt)."""
    req = parse("GRPO on Qwen2.5-7B, 8 A100, prompts of 512 tokens, completions up to 1024").request
    assert req.prompt_tokens is None


# -- a personal card with no count, nothing sized: one card (bot.core.unsized_card) ----------------------

ONE_PERSONAL_CARD = [
    "Why so slow? foo-chat-v2 on vLLM, RTX 3090 24gb, bf16",
    "Serving my-private-model with vLLM on an RTX 4090: is 20 tokens/s normal?",
    "Can I fine-tune bar-lm-small with LoRA on my RTX 4060 Ti?",
    "用 4090 部署 foo-ocr，速度正常吗",
    "我的 3090 上用 vllm 跑 xx-chat，为什么这么慢",
    "在 RTX 4080 上 LoRA 微调 yy-model 可以吗",
]
COUNT_STAYS_OPEN = [
    "How many RTX 4090 do I need to serve foo-chat-v2?",
    "foo-chat-v2 on H100, why so slow?",
    "需要几张 4090 才能部署 foo-ocr",
    "foo-ocr 用 4090 部署要几张卡",
]


def _request(text: str) -> dict:
    from tests.real_questions import answer_json

    return answer_json(text)["request"]


@pytest.mark.parametrize("text", ONE_PERSONAL_CARD)
def test_personal_card_without_count_is_one(text: str) -> None:
    assert _request(text)["gpu_count"] == 1


@pytest.mark.parametrize("text", COUNT_STAYS_OPEN)
def test_count_asked_or_datacenter_card_stays_open(text: str) -> None:
    """A count asked or a data-centre card (H100: no card one owns) leaves the count open."""
    assert _request(text)["gpu_count"] is None


# -- requests said to arrive together are the load (bot.parse.role_left R_CONC / L_CONC) -----------------

AT_ONCE = [
    ("Qwen2.5-7B on an A10 with vLLM: OOM when 10 requests come in at once", 10),
    ("Serving Qwen2.5-7B on 2 A100; 64 requests arrive simultaneously, will it fit?", 64),
    ("Llama-3-8B on vLLM, one L40S: what if 32 queries hit it at the same time?", 32),
    ("A10 上 vllm 跑 qwen2.5-7b，10 个请求同时进来就 OOM", 10),
    ("A10 上 vllm 跑 qwen2.5-7b，同时来 12 个请求就爆显存", 12),
    ("A10 上 vllm 跑 qwen2.5-7b，20 个 input_len 50 的请求一起来就 OOM", 20),
]


@pytest.mark.parametrize(("text", "load"), AT_ONCE)
def test_requests_arriving_together_are_the_load(text: str, load: int) -> None:
    assert parse(text).request.concurrency == load


def test_a_card_count_before_the_requests_is_no_load() -> None:
    """'8 张卡，100 个请求一起来': the 8 counts cards (another counted noun before the requests)."""
    req = parse("vllm 跑 qwen2.5-7b，8 张卡，100 个请求一起来要多久").request
    assert (req.gpu_count, req.concurrency) == (8, 100)
    req = parse("Qwen2.5-7B on 4 A100 with vLLM, requests come in at once from 3 regions").request
    assert req.concurrency != 3


# -- another algorithm in a sentence of its own is named, not dropped (bot.parse.compared) ----------------

ANOTHER_ALGORITHM = [
    ("Can Online DPO train a 72B model on 8 A100? For the 7B PPO run you used 8 GPUs.", "dpo", "PPO"),
    ("I did SFT on Qwen2.5-7B last week. Now I want DPO on 8 A100, how long?", "dpo", "SFT"),
    ("PPO on Qwen2.5-7B, 8 H100: how long? Our SFT run took a day.", "ppo", "SFT"),
    ("DPO 训练 72B 需要几张 A100？之前 7B 的 PPO 用了 8 张卡。", "dpo", "PPO"),
    ("想用 DPO 训练 Qwen2.5-7B，8 张 A100 够吗？上个月的 GRPO 跑了一天。", "dpo", "GRPO"),
    ("PPO 训练 Qwen2.5-7B 要几张 A100？SFT 已经做完了。", "ppo", "SFT"),
]
ONE_RUN = [
    "SFT Qwen2.5-7B then DPO on 8 A100, how long?",
    "GRPO on Qwen2.5-7B with 8 A100: how long? We use TRL's GRPOTrainer.",
    "先 SFT 再 DPO，Qwen2.5-7B，8 张 A100 要多久？",
]


def _named(text: str) -> list[str]:
    from tests.real_questions import answer_json

    return [i["text"] for i in answer_json(text)["interpretation"]["ignored"] if isinstance(i, dict)]


@pytest.mark.parametrize(("text", "sized", "other"), ANOTHER_ALGORITHM)
def test_another_algorithm_in_its_own_sentence_is_named(text: str, sized: str, other: str) -> None:
    assert parse(text).request.algorithm == sized
    assert f"algorithm: {other}" in _named(text)


@pytest.mark.parametrize("text", ONE_RUN)
def test_one_pipeline_or_one_algorithm_names_none(text: str) -> None:
    assert not [t for t in _named(text) if t.startswith("algorithm: ")]
