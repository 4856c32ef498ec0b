"""The length reader (issue 24, s17 length axis): sentences of our own per kind of phrasing, three per
language, with the lengths they state. A serving context is the engine's limit (``max_model_len``) or, as the
scorer takes it (tests/real_questions.py), the context sized (``seq_len``) of a serving question; a thousands
length ('8k') may be read as 8,000 or 8,192 tokens, so values match within 2.5 %. ``named``: lengths the
answer names as another setup tried (``other_setup``), never sized nor dropped.

Kinds: a vLLM error quoting the model's max seq len; the length asked about after the one that runs; a
context after a limit/size word or a setting verb; prompt and reply lengths in sentence forms; each sample's
or request's length; TensorRT-LLM's max_input_len / max_output_len; other lengths tried beside the used one;
a config key's value with a magnitude ('cutoff_len 设成 2万', 'max_seq_length 16k'); a benchmark's random
input and output tokens; vLLM's --max-num-seq (a cap on sequences, never a 30-token sequence); a range of
lengths, sized at its longer end (the shorter named); a context extension 'from 4k to 32k'.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json

CASES: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "engine_error": [
        (
            "vllm 启动报错：the model's max seq len (32768) is larger than the maximum number of tokens "
            "that can be stored in KV cache (20000)，Qwen2.5-7B 单卡 4090",
            {"max_model_len": 32768},
        ),
        (
            "部署 Llama-3.1-8B 报 max seq len (131072) is larger than the maximum number of tokens，A10 "
            "24G 怎么办",
            {"max_model_len": 131072},
        ),
        (
            "用 vllm 跑 Qwen2-7B-Instruct 提示 The model's max seq len (32768) is larger than KV cache "
            "(9000)，两张 T4",
            {"max_model_len": 32768},
        ),
        (
            "vLLM on an L4: ValueError: The model's max seq len (32768) is larger than the maximum "
            "number of tokens that can be stored in KV cache (12000). Qwen2.5-7B",
            {"max_model_len": 32768},
        ),
        (
            "Serving Mistral-7B-Instruct-v0.2 on a T4 fails: the model's max seq len (32768) is "
            "larger than the maximum number of tokens in KV cache",
            {"max_model_len": 32768},
        ),
        (
            "Error with Llama-3.1-70B-AWQ on 2x A6000 in vLLM: max seq len (131072) is larger than "
            "the maximum number of tokens that can be stored in KV cache (60000)",
            {"max_model_len": 131072},
        ),
    ],
    "asked_after": [
        (
            "Qwen2.5-7B LoRA 微调，cutoff_len 1024 能跑，想拉到 4096 需要多少显存，单卡 4090",
            {"seq_len": 4096},
        ),
        ("8 张 A800 全参微调 Llama-3-8B 只能跑 4k 上下文，想做 32k 需要什么配置", {"seq_len": 32000}),
        ("序列长度 2K 到 4K 之间，Qwen2-7B 全参微调按 4K 算要几张 H100", {"seq_len": 4096}),
        (
            "Full fine-tune of Llama-3-8B on 8 A100 works at max_seq_length 2048, we want to go to "
            "8192. How many GPUs?",
            {"seq_len": 8192},
        ),
        (
            "A Qwen2.5-14B LoRA fits at 1024 tokens on my A6000 but OOMs at 4096. How much memory for 4096?",
            {"seq_len": 4096},
        ),
        (
            "Mistral-7B SFT runs with cutoff_len 2048 on 2x 3090; we need to increase it to 16k, "
            "what hardware?",
            {"seq_len": 16384},
        ),
    ],
    "from_to": [
        ("上下文从 4k 扩到 32k，Llama-2-7B 做长文本微调，需要多少 A100", {"seq_len": 32768}),
        ("Qwen2-7B 长文本微调，序列长度从 8k 提到 64k，H800 要几张", {"seq_len": 65536}),
        ("7B 模型 LoRA 微调，cutoff_len 2048 和 4096 都试过，按 4096 算要几张 3090", {"seq_len": 4096}),
        (
            "We extend Llama-2-7B from 4k to 32k context with continued pretraining on 64 A100",
            {"seq_len": 32768},
        ),
        ("seq len 2048 vs 4096 for LoRA on Llama-2-13B, 1 A100 40GB: size it at 4096", {"seq_len": 4096}),
        (
            "Going from 2k to 16k sequence length for a Mistral-7B full fine-tune on 8 H100, memory?",
            {"seq_len": 16384},
        ),
    ],
    "length_range": [
        ("训练 7B，上下文 2k~4k，按最长算，8 卡 4090", {"seq_len": 4096, "named": ["2k"]}),
        (
            "样本长度在 1000 到 3000 token 之间，Qwen2.5-7B LoRA，单卡 A100",
            {"seq_len": 3000, "named": ["1000"]},
        ),
        ("上下文 8k 到 16k，部署 Qwen2.5-14B，20 并发", {"max_model_len": 16384, "named": ["8k"]}),
        (
            "a context of 16k to 32k for Qwen2.5-7B serving, 10 users on an L40S",
            {"max_model_len": 32768, "named": ["16k"]},
        ),
        (
            "Serving Llama-3-8B, context 4096 to 8192, 50 users, L4s",
            {"max_model_len": 8192, "named": ["4096"]},
        ),
        (
            "Training Qwen2-7B with a context length of 2048 to 8192 tokens on 8 H100",
            {"seq_len": 8192, "named": ["2048"]},
        ),
    ],
    "context_words": [
        ("koboldcpp 的上下文大小设 16384，Qwen2.5-14B Q4_K_M，一张 4090 够吗", {"max_model_len": 16384}),
        ("ollama 跑 qwen2.5:32b，上下文上限 32768，两张 3090 能全放 GPU 吗", {"max_model_len": 32768}),
        ("部署 Llama-3.1-8B，把上下文长度调到 65536，单卡 A100 40G 够不够", {"max_model_len": 65536}),
        (
            "With llama.cpp, Qwen2.5-14B has a context limit of 40k for me on a 24GB card. Why?",
            {"max_model_len": 40000},
        ),
        (
            "vLLM, TP 2, model len 6000, enforce eager, Qwen2-7B on two T4s still OOMs",
            {"max_model_len": 6000},
        ),
        (
            "Serving Gemma-2-9B on an L4, reducing the sequence length to under 4000 stopped the OOM",
            {"max_model_len": 4000},
        ),
    ],
    "prompt_reply": [
        (
            "部署 Qwen2.5-14B，输入平均 2000 token，输出大概 300 token，50 并发要几张 L40S",
            {"prompt_tokens": 2000, "seq_len": 2300},
        ),
        (
            "RAG 服务：8k input, 1k output，30 并发，Qwen2.5-32B 要多少卡",
            {"prompt_tokens": 8000, "seq_len": 9000},
        ),
        (
            "推理服务每个请求输入 1500 token、生成 500 token，Llama-3-8B，20 路并发",
            {"prompt_tokens": 1500, "seq_len": 2000},
        ),
        (
            "Serving Qwen2.5-72B: prompts average 4,000 tokens and responses about 600 tokens, 64 "
            "concurrent users",
            {"prompt_tokens": 4000, "seq_len": 4600},
        ),
        (
            "Serving Llama-3.1-8B: each request has a 1024-token prompt and generates 256 tokens, 32 at once",
            {"prompt_tokens": 1024, "seq_len": 1280},
        ),
        (
            "Chatbot with 2k input and 512 output, 100 concurrent users, Llama-3.1-70B on H100",
            {"prompt_tokens": 2000, "seq_len": 2512},
        ),
        (
            "2048 input 128 output at concurrency 16, Qwen2-7B on an L4",
            {"prompt_tokens": 2048, "seq_len": 2176},
        ),
    ],
    "each_length": [
        ("每条样本约 8k token，LoRA 微调 Qwen2.5-14B，8 张 A800 每张显存多少", {"seq_len": 8000}),
        ("部署 Qwen2.5-7B，每个请求最长 8k，20 并发，要几张 L20", {"max_model_len": 8192}),
        ("每次对话大概 6000 token，部署 Llama-3-8B 给 50 人用", {"max_model_len": 6000}),
        (
            "Each sample is about 4k tokens; full fine-tuning Qwen2-7B on 8 H100s, how long for 100k "
            "samples?",
            {"seq_len": 4000},
        ),
        (
            "Fine-tune Llama-3.1-8B on long documents, sequences up to 16k tokens, on 4 H800s",
            {"seq_len": 16000},
        ),
        ("Serving Qwen2-7B with each request up to 8k tokens, 10 users, on an L4", {"max_model_len": 8192}),
    ],
    "trt_lengths": [
        (
            "TensorRT-LLM 编译 Llama-2-13B，max_input_len 2048，max_output_len 512，A100 40G 能跑几路",
            {"prompt_tokens": 2048, "seq_len": 2560},
        ),
        (
            "trtllm-build 的 max_input_len 4096、max_output_len 1024，Qwen2-7B，L40S",
            {"prompt_tokens": 4096, "seq_len": 5120},
        ),
        (
            "用 TensorRT-LLM 部署 Baichuan2-7B，max_input_len=1024 max_output_len=1024，T4 够吗",
            {"prompt_tokens": 1024, "seq_len": 2048},
        ),
        (
            "TensorRT-LLM engine for Llama-2-7B with max_input_len 1024 and max_output_len 256 on an A10G",
            {"prompt_tokens": 1024, "seq_len": 1280},
        ),
        (
            "Building a TensorRT-LLM engine: --max_input_len 8192 --max_output_len 2048 for "
            "Mistral-7B on an L4",
            {"prompt_tokens": 8192, "seq_len": 10240},
        ),
        (
            "trtllm-build with max_input_len 512, max_output_len 512, Llama-3-8B on an A100",
            {"prompt_tokens": 512, "seq_len": 1024},
        ),
    ],
    "other_tried": [
        (
            "vllm 部署 Qwen2.5-7B，--max-model-len 16k、24k 都能起，但 32k 报错，单卡 4090，能撑多长",
            {"max_model_len": 16384, "named": ["24k", "32k"]},
        ),
        (
            "LoRA 微调 Llama-3-8B，cutoff_len 4096 能跑，8192 和 16384 都 OOM，两张 3090",
            {"seq_len": 4096, "named": ["8192", "16384"]},
        ),
        (
            "llama.cpp 上下文大小 20480 全放 GPU，但 24576 时只能放 40 层，4090 跑 24B Q4_K_M",
            {"max_model_len": 20480, "named": ["24576"]},
        ),
        (
            "vLLM with --max-model-len 20k, 35k and 45k starts, but 29k fails, Llama-3.1-8B on an RTX 3090",
            {"max_model_len": 20480, "named": ["35k", "45k", "29k"]},
        ),
        (
            "Llama 3.1 8B on 2x 3090 tops out at 4096 sequence length with lora and 8192 with qlora",
            {"seq_len": 4096, "named": ["8192"]},
        ),
        (
            "koboldcpp runs Mistral-Small-24B at a context size of 16384, but only 38/43 layers at "
            "32768 on a 4090",
            {"max_model_len": 16384, "named": ["32768"]},
        ),
    ],
    "key_magnitude": [
        ("训练集 output 长度 1万8，cutoff_len 设成 2万，1.5B 模型微调要几张卡", {"seq_len": 20000}),
        ("cutoff_len 1.6万，Qwen2.5-7B LoRA 微调，一张 H100 够吗", {"seq_len": 16000}),
        ("全参微调 Qwen2-7B，model_max_length 设为 3万，8 卡 H800", {"seq_len": 30000}),
        ("LoRA on Qwen2.5-7B with max_seq_length 16k on one H100, enough?", {"seq_len": 16384}),
        ("LLaMA-Factory full SFT with cutoff_len 8k for Llama-3-8B on 8 A100", {"seq_len": 8192}),
        ("axolotl sequence_len: 32k for a Mistral-7B QLoRA on an A6000", {"seq_len": 32768}),
    ],
    "benchmark_lengths": [
        (
            "vllm 压测 Qwen2.5-14B，随机输入 4000 token，输出 200 token，并发 8，A100",
            {"prompt_tokens": 4000, "seq_len": 4200},
        ),
        (
            "benchmark 用 2000 个随机输入 token 和 500 个输出 token，Llama-3-8B，L40S，并发 16",
            {"prompt_tokens": 2000, "seq_len": 2500},
        ),
        (
            "压测 Qwen2-7B：1024 个输入 token、256 个输出 token，并发 32，A10",
            {"prompt_tokens": 1024, "seq_len": 1280},
        ),
        (
            "Benchmark with 8000 random input tokens and 256 output tokens at concurrency 4, "
            "Qwen2.5-7B on an L40S",
            {"prompt_tokens": 8000, "seq_len": 8256},
        ),
        (
            "bench with 2048 synthetic input tokens and 128 output tokens, Llama-3-8B on an A10G, "
            "8 concurrent",
            {"prompt_tokens": 2048, "seq_len": 2176},
        ),
        (
            "vLLM on an A100: --max-model-len 16384, 16000 random input tokens and 200 output tokens "
            "at max-concurrency 1",
            {"prompt_tokens": 16000, "seq_len": 16200},
        ),
    ],
    "cap_not_length": [
        (
            "vllm 部署 Qwen2.5-7B：--max-model-len 8192 --max-num-seq 64，A10 24G",
            {"seq_len": 8192, "max_model_len": 8192},
        ),
        (
            "vllm 启动参数 max_num_seq=32，max_model_len=16384，Qwen2.5-14B，A100",
            {"seq_len": 16384, "max_model_len": 16384},
        ),
        (
            "vllm 跑 Llama-3-8B，--max-num-seq 8，--max-model-len 4096，3090",
            {"seq_len": 4096, "max_model_len": 4096},
        ),
        (
            "Serving Qwen3-14B-AWQ on 1x A100 80GB with vLLM: --max-model-len 16384 --max-num-seq 30",
            {"seq_len": 16384, "max_model_len": 16384},
        ),
        (
            "Qwen2-7B on vLLM with max_num_seq 16 and max_model_len 4096, one T4",
            {"seq_len": 4096, "max_model_len": 4096},
        ),
        (
            "--max-num-seq 128 --max-model-len 32768 for Llama-3.1-8B on an H100",
            {"seq_len": 32768, "max_model_len": 32768},
        ),
    ],
}


def _close(want: float, got: object) -> bool:
    return isinstance(got, int | float) and abs(want - got) <= 0.025 * want


@pytest.mark.parametrize(
    ("text", "want"),
    [pytest.param(t, w, id=f"{k}-{i}") for k, cs in CASES.items() for i, (t, w) in enumerate(cs)],
)
def test_lengths_read(text: str, want: dict[str, Any]) -> None:
    answer = answer_json(text)
    request = answer["request"]
    named = {(i.get("text"), i.get("reason")) for i in answer["interpretation"]["ignored"]}
    for key, value in want.items():
        if key == "named":
            assert all((raw, "other_setup") in named for raw in value), named
        elif key == "max_model_len":
            serving = request["stage"] == "inference"
            got = request["max_model_len"] or (request["seq_len"] if serving else None)
            assert _close(value, got), (key, value, request)
        else:
            assert _close(value, request[key]), (key, value, request)


def test_each_kind_has_three_per_language() -> None:
    for cases in CASES.values():
        zh = sum(any("\u4e00" <= ch <= "\u9fff" for ch in text) for text, _ in cases)
        assert zh >= 3 and len(cases) - zh >= 3
