"""Session 37 part fixa: what a fresh user's trial of main 23ce7a0e found in reading (issues 24 and 23).

1. An ASCII comma with no space after it, which is no thousands separator, reads as ', ' (as '，' does):
   '7b模型DPO,3万对偏好数据,8张4090' is 30,000 pairs on 8 cards, not 10,000 on 1.
2. A bare '32k' before a rate asked for ('32k 每条多少 token/s') is the context, not a measured result.
3. A Megatron-LM argument line's model shape builds the model sized, as a pasted config.json does.
4. Traditional Chinese questions are read (every character the parser's words use, and Taiwan's words).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import ask
from bot.parse import parse
from bot.parse.normalize import BARE_COMMA, normalize


def _answer(text: str, config: str | None = None) -> dict[str, Any]:
    out, _ = ask(text, None, "json", config)
    return json.loads(out)


def _req(text: str) -> dict[str, Any]:
    return parse(text).request.model_dump()


# -- 1. an ASCII comma is a thousands separator only between groups of three digits ----------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("7b模型DPO,3万对偏好数据,8张4090", {"num_samples": 30_000, "gpu_count": 8, "algorithm": "dpo"}),
        (
            "7B LoRA 微调,5万条数据,每条1k token,4张A100",
            {"num_samples": 50_000, "gpu_count": 4, "tokens": 50_000 * 1000, "method": "lora"},
        ),
        ("7B LoRA 微调 5万条数据,4张A100", {"num_samples": 50_000, "gpu_count": 4}),
        ("训练7B,1T token,A100 64卡", {"params_total": 7e9, "tokens": 1e12, "gpu_count": 64}),
        (
            "qwen-7b + lmdeploy,A10 单卡,session_len 8200,10 个并发请求 够吗",
            {"max_model_len": 8200, "concurrency": 10},
        ),
        ("LoRA fine-tune a 7B model,50k samples,4 A100", {"num_samples": 50_000, "gpu_count": 4}),
    ],
)
def test_an_ascii_comma_before_a_number_keeps_it(text: str, want: dict[str, Any]) -> None:
    req = _req(text)
    assert {k: req[k] for k in want} == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("训练7B 模型,10,000,000 条数据 1,000 张 A100", {"num_samples": 10_000_000, "gpu_count": 1000}),
        ("CUDA_VISIBLE_DEVICES=0,1,2,3 微调 7B LoRA", {"gpu_count": 4}),  # a list of ids stays a list
        (
            "fine-tune a 7B model on 1,024 A100 with 2,000,000 samples",
            {"gpu_count": 1024, "num_samples": 2e6},
        ),
    ],
)
def test_a_thousands_comma_stays_one_number(text: str, want: dict[str, Any]) -> None:
    req = _req(text)
    assert {k: req[k] for k in want} == want


@pytest.mark.parametrize(
    ("text", "normalized"),
    [
        ("数据,4张", "数据, 4张"),
        ("8200,10 个", "8200, 10 个"),
        ("128,16 卡", "128, 16 卡"),
        ("bs=1,4 台", "bs=1, 4 台"),
        ("1,000 张", "1,000 张"),
        ("10,000,000 条", "10,000,000 条"),
        ("devices=0,1 两张", "devices=0,1 两张"),
        ("q_proj,v_proj", "q_proj,v_proj"),
    ],
)
def test_which_commas_read_as_a_break(text: str, normalized: str) -> None:
    assert BARE_COMMA[0].sub(", ", text) == normalized


SWEEP = [
    "7B 模型 LoRA 微调，5万条数据，每条 2k token，4张A100，要多久",
    "预训练 13B 模型，1T token，64 张 H100，30 天够吗",
    "Qwen2.5-72B 部署，8卡H20，并发32，上下文32k，够不够",
    "DPO 训练 Qwen2.5-7B，3万对偏好数据，8张4090，每条 1024 token",
    "全参微调 70B，2台8卡A800，数据 20 万条，预算 10 万元",
    "vllm 部署 Llama-3-70B，4张A100，max_model_len 8192，100 个用户同时用",
    "7B QLoRA，单卡 3090，1万条数据，3 个 epoch，要几天",
]


@pytest.mark.parametrize("text", SWEEP)
def test_ascii_and_full_width_commas_read_the_same(text: str) -> None:
    """'，' → ',' (no space) changes nothing read (the sweep over every working split and the paraphrases
    went from 73 of 678 texts reading differently to 6, each a config-like or id-list text)."""
    assert _req(text.replace("，", ",")) == _req(text)


# -- 2. a bare k-number before a rate asked for is the context ----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Qwen3-235B-A22B 部署 8张H20 并发32 32k 每条多少token/s",
        "Qwen3-235B-A22B 部署 8张H20 32k 每秒多少token",
        "serve Llama 3 70B on 8 H100, 32 concurrent, 32k how many tokens/s per request",
    ],
)
def test_a_bare_k_number_before_a_rate_asked_is_the_context(text: str) -> None:
    answer = _answer(text)
    assert answer["request"]["seq_len"] == 32 * 1024
    assert not [i for i in answer["interpretation"]["ignored"] if i["reason"] == "observed"]


@pytest.mark.parametrize(
    ("text", "rate"),
    [
        ("部署 Qwen2.5-72B 4张A100 跑出 2000 tokens/s 还能加并发吗", "2000 tokens/s"),
        ("serve Llama 3 70B on 8 H100, we got 900 tok/s, how many users can it take?", "900 tok/s"),
    ],
)
def test_a_rate_with_a_result_word_is_still_observed(text: str, rate: str) -> None:
    ignored = _answer(text)["interpretation"]["ignored"]
    assert {"text": rate, "reason": "observed"} in ignored


# -- 3. a Megatron-LM argument line's shape is the model ---------------------------------------------------

FRESH = (
    "torchrun --nproc_per_node 8 --nnodes 4 pretrain_gpt.py --num-layers 32 --hidden-size 4096 "
    "--num-attention-heads 32 --seq-length 2048 --micro-batch-size 4 --global-batch-size 1024 "
    "--train-iters 250000 这个要跑多久"
)


def test_a_megatron_line_builds_its_model_and_answers_how_long() -> None:
    """GPT with Megatron-LM's defaults (arguments.py: ffn 4h, GeLU MLP, biases, tied embeddings, GPT-2 BPE
    padded to 128: 50,304): 12·L·h² + 13·L·h + V·h = 12·32·4096² + 13·32·4096 + 50,304·4096 ≈ 6.650e9
    (the D/20 guess was 26.2B); tokens = 1,024 × 2,048 × 250,000 = 5.24288e11."""
    answer = _answer(FRESH)
    req = answer["request"]
    assert req["params_total"] == pytest.approx(12 * 32 * 4096**2 + 13 * 32 * 4096 + 50304 * 4096, rel=1e-3)
    assert req["tokens"] == 1024 * 2048 * 250_000
    assert req["gpu_count"] == 32 and req["duration_asked"] is True
    assert answer["interpretation"]["ignored"] == []  # the shape keys are used, no longer 'not used'
    assert answer["stack_config"]["used"]["--num-layers"] == "architecture"
    assert "天" in answer["reply"].splitlines()[0]  # the headline answers how long


LLAMA3_8B = (
    "torchrun --nproc_per_node 8 --nnodes 2 pretrain_gpt.py --tensor-model-parallel-size 2 "
    "--num-layers 32 --hidden-size 4096 --num-attention-heads 32 "
    "--group-query-attention --num-query-groups 8 "
    "--ffn-hidden-size 14336 --swiglu --untie-embeddings-and-output-weights --disable-bias-linear "
    "--padded-vocab-size 128256 --seq-length 8192 --micro-batch-size 1 --global-batch-size 512 "
    "--train-iters 1000"
)


def test_a_megatron_config_file_gives_llama3_8b(tmp_path: Path) -> None:
    """Llama 3 8B's shape in Megatron-LM flags (--swiglu, GQA 8 groups, untied): 8,030,261,248 parameters,
    Meta-Llama-3-8B's count (its model card: 8B; the safetensors index: 8.03B)."""
    script = tmp_path / "meg.sh"
    script.write_text("#!/bin/bash\n" + LLAMA3_8B.replace(" --", " \\\n    --") + "\n", encoding="utf-8")
    answer = _answer("要跑多久", str(script))
    assert answer["request"]["params_total"] == pytest.approx(8.03e9, rel=2e-3)
    assert answer["request"]["tokens"] == 512 * 8192 * 1000


def test_a_megatron_llama2_shape_in_english_and_the_texts_size_named() -> None:
    """Llama 2 7B's shape (ffn 11,008, SwiGLU, vocab 32,000, untied, no biases): 6,738,415,616 parameters
    (Meta's Llama 2 paper, Table 1: 7B; HF Llama-2-7b-hf: 6.74B); the text's own '13B' is named."""
    text = (
        "13B pretraining with Megatron: torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 32 "
        "--hidden-size 4096 --num-attention-heads 32 --ffn-hidden-size 11008 --swiglu "
        "--untie-embeddings-and-output-weights --disable-bias-linear --padded-vocab-size 32000 "
        "--seq-length 4096 --global-batch-size 1024 --micro-batch-size 1 --train-iters 1000 "
        "on H100, how long?"
    )
    answer = _answer(text)
    assert answer["request"]["params_total"] == pytest.approx(6.74e9, rel=1e-3)
    assert {"text": "13B", "reason": "launch_line_model"} in answer["interpretation"]["ignored"]


def test_megatron_shape_flags_without_the_required_three_stay_not_used() -> None:
    answer = _answer(
        "torchrun --nproc_per_node 8 pretrain_gpt.py --hidden-size 4096 --train-iters 10 7B 要多久"
    )
    assert answer["request"]["params_total"] == 7e9
    assert {"text": "--hidden-size: 4096", "reason": "no_field"} in answer["interpretation"]["ignored"]


def test_padded_vocab_follows_megatron() -> None:
    from bot.parse.configs.megatron_shape import padded_vocab

    assert padded_vocab(50257, 128, 1) == 50304  # GPT-2 BPE: Megatron-LM's padded vocabulary
    assert padded_vocab(50257, 128, 2) == 50432  # a multiple of 128 × TP


# -- 4. Traditional Chinese ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (
            "請問 Llama 3.3 70B 用 4 張 A100 推理要多少顯存",
            {"model": "Llama-3.3-70B", "gpu_count": 4, "stage": "inference", "memory_asked": True},
        ),
        (
            "7B 模型 LoRA 微調，5萬條數據，8張4090 要訓練多久",
            {"method": "lora", "num_samples": 50_000, "gpu_count": 8},
        ),
        (
            "Qwen2.5-72B 部署 8卡H20 並發32 上下文32k 夠不夠",
            {"concurrency": 32, "seq_len": 32768, "gpu_count": 8},
        ),
        ("用 4 張 A100 做 Llama 3 70B 推論，需要多少記憶體", {"stage": "inference", "memory_asked": True}),
        ("微調 7B 模型，資料 5 萬筆，8 張 4090 要多久", {"num_samples": 50_000, "gpu_count": 8}),
        ("伺服器 8 張 H100 部署 Qwen2.5-72B，同時 32 個使用者，夠不夠", {"concurrency": 32, "gpu_count": 8}),
    ],
)
def test_traditional_questions_are_read(text: str, want: dict[str, Any]) -> None:
    req = _req(text)
    assert {k: req[k] for k in want} == want


def test_a_traditional_question_is_answered_in_chinese() -> None:
    answer = _answer("請問 Llama 3.3 70B 用 4 張 A100 推理要多少顯存")
    assert answer["lang"].startswith("zh")
    assert "張 A100" in answer["reply"]  # s38: a Traditional question's reply is in Traditional


def test_taiwan_words_only_in_a_traditional_text() -> None:
    """'资料' / '推论' in a Simplified text keep their own meaning (no Traditional character: no swap)."""
    assert "资料" in normalize("这份资料里说 7B 推论要 16G")
    assert "推理" in normalize("這份資料里說 7B 推論要 16G")


def test_the_character_table_is_one_to_one_and_leaves_the_parsers_words() -> None:
    from bot.parse import spelling_tables as sp
    from bot.parse.trad_chars import SIMP, TRAD

    assert len(TRAD) == len(SIMP) == len(set(TRAD))
    assert not set(TRAD) & {chr(k) for k in sp.TRAD_TO_SIMP}  # the small table's characters: not repeated
    assert "節" in TRAD and SIMP[TRAD.index("節")] == "节"
