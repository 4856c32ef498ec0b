"""Session 40 fixs: serving runtimes as people run them (issue 24 item 3).

2. Ollama's parallel slots: one loaded model serves ``OLLAMA_NUM_PARALLEL`` requests at once, default 1
   (ollama/ollama envconfig/config.go line 275 at v0.33.0-rc2: ``NumParallel = Uint("OLLAMA_NUM_PARALLEL",
   1)``; since v0.10.0, #11330), and each slot has its own num_ctx: the runner's context is num_ctx × slots
   (server/sched.go line 794, ``effectiveLlamaServerContext``). 'parallel 4' beside Ollama is read as
   the load; the ledger names the slots and their KV tokens.
3. KTransformers named beside the experts-in-CPU split the answer sized: "used", not "not modelled".
4. The host-RAM figure of a CPU offload is DeepSpeed's estimator's, 16 B/param × 1.5
   (``additional_buffer_factor``, deepspeed/runtime/zero/stage3.py ``estimate_zero3_model_states_mem_needs``):
   the ledger says so.
5. What a serving runtime sees of an H100: CUDA's total, below nvidia-smi's 81,559 MiB.

Values worked by hand below.
"""

from __future__ import annotations

import json

import pytest
from cli_run import ask_quietly

from bot.core.pipeline import answer
from bot.parse import parse
from bot.render.renderer import render
from estimator import catalog
from estimator.runtimes.base import visible_bytes
from estimator.runtimes.others import OLLAMA_NUM_PARALLEL
from estimator.units import GIB


def _ask(question: str) -> dict:
    return json.loads(ask_quietly("--format", "json", question))


def _row(data: dict, field: str) -> dict:
    (row,) = [a for a in data["assumptions"] if a["field"] == field]
    return row


# 2. Ollama's parallel slots


@pytest.mark.parametrize(
    ("question", "slots"),
    [
        ("ollama 跑 qwen2.5 7b，parallel 设成 4，4090 够吗", 4),
        ("ollama qwen2.5 7b on a 4090 with parallel 4, num_ctx 8192", 4),
        ("Ollama 并行数 8 跑 qwen2.5 14b，4090", 8),
        ("ollama serve with parallel=6, qwen2.5 7b on one RTX 4090", 6),
        ("OLLAMA_NUM_PARALLEL=4 ollama serve, qwen2.5 7b, 4090", 4),  # its key form, read before (s17)
    ],
)
def test_ollama_parallel_said_is_the_load(question: str, slots: int):
    parsed = parse(question)
    assert parsed.request.runtime == "Ollama"
    assert parsed.request.concurrency == slots
    assert str(slots) not in [t for t, why in parsed.unused_numbers if why == "unread"]


@pytest.mark.parametrize(
    "question",
    [
        "ollama qwen2.5 72b on two 4090s, tensor parallel 2",  # TP, not slots
        "ollama 跑 qwen2.5 72b，两张 4090，数据并行 2",  # 数据并行: DP, not slots
        "vllm serve qwen2.5 7b on a 4090, parallel 4",  # not Ollama: not this reader's
    ],
)
def test_other_parallel_words_are_not_ollama_slots(question: str):
    assert parse(question).request.concurrency in (None, 1)


def test_ollama_default_is_one_request_at_a_time():
    """No load said on Ollama: 1, its OLLAMA_NUM_PARALLEL default, said as such (en and zh)."""
    assert OLLAMA_NUM_PARALLEL == 1
    data = _ask("ollama 跑 qwen2.5 32b，4090 够吗")
    row = _row(data, "concurrency")
    assert (row["value"], row["why"]) == (1, "ollama_num_parallel")
    assert not [a for a in data["assumptions"] if a["field"] == "ollama_num_parallel"]  # one slot: no row
    zh = render(answer("ollama 跑 qwen2.5 32b，4090 够吗"), "text")
    assert "Ollama 的 OLLAMA_NUM_PARALLEL 默认值：每个已加载的模型一次只处理一个请求" in zh
    en = render(answer("ollama qwen2.5 32b on a 4090, does it fit?"), "text")
    assert "Ollama's OLLAMA_NUM_PARALLEL default: one request at a time per loaded model" in en


def test_ollama_slots_size_the_kv_and_are_named():
    """Qwen2.5-7B: 28 layers × 4 KV heads × 128 × 2 (K, V) × 2 B = 57,344 B a token; 4 slots of num_ctx
    8,192: 4 × 8,192 = 32,768 tokens, 57,344 × 32,768 = 1,879,048,192 B of KV cache."""
    data = _ask("ollama qwen2.5 7b on a 4090 with parallel 4, num_ctx 8192")
    inf = data["report"]["inference"]
    assert inf["kv_bytes_per_token"] == 28 * 4 * 128 * 2 * 2 == 57344
    assert inf["concurrency"] == 4
    assert inf["kv_bytes_total"] == pytest.approx(57344 * 8192 * 4)
    row = _row(data, "ollama_num_parallel")
    assert (row["value"], row["why"]) == (4, "ollama_slots")
    assert row["params"]["kv_tokens"] == 32768
    en = render(answer("ollama qwen2.5 7b on a 4090 with parallel 4, num_ctx 8192"), "text")
    assert "Ollama's parallel slots (OLLAMA_NUM_PARALLEL): 4" in en
    assert "a KV cache of 8K × slots = 32,768 tokens" in en
    zh = render(answer("ollama 跑 qwen2.5 7b，parallel 设成 4，num_ctx 8192，4090"), "text")
    assert "Ollama 并行槽位（OLLAMA_NUM_PARALLEL）：4" in zh
    assert "KV 缓存为 8K × 槽位数 = 32,768 个 token" in zh


def test_a_concurrency_question_on_ollama_names_the_slots():
    """'how many at once' on Ollama: the most held at num_ctx 8,192 (42 on a 4090, as the table says),
    and the OLLAMA_NUM_PARALLEL that serves them: 42 × 8,192 = 344,064 tokens."""
    data = _ask("ollama qwen2.5 7b on a 4090, num_ctx 8192: how many concurrent requests can it hold?")
    most = data["report"]["inference"]["max_concurrency"]
    row = _row(data, "ollama_num_parallel")
    assert row["value"] == most == 42
    assert row["params"]["kv_tokens"] == 42 * 8192 == 344064


def test_num_parallel_in_a_modelfile_is_no_ollama_option():
    """Ollama has no ``num_parallel`` option (api/types.go; its slots are the server's environment): the
    key is named as the tool's unknown setting, not sized."""
    text = "FROM qwen2.5:7b\nPARAMETER num_ctx 8192\nPARAMETER num_parallel 4\n4090 够吗"
    data = _ask(text)
    assert {"text": "num_parallel: 4", "reason": "unknown_key"} in data["interpretation"]["ignored"]


# 3. KTransformers: its layout sized, so named as used


def test_ktransformers_split_is_used_not_unmodelled():
    q = "ktransformers 跑 deepseek r1 671b 一张4090 + 512G内存 能跑吗"
    a = answer(q)
    reasons = {i.text: i.reason for i in a.interpretation.ignored}
    assert reasons["runtime: KTransformers"] == "ktransformers_split"
    zh = render(a, "text")
    assert "已使用：“推理框架：KTransformers”（按它的布局估算" in zh
    assert "未使用：“推理框架：KTransformers”" not in zh
    en = render(answer("ktransformers deepseek r1 671b on one 4090 with 512GB RAM, does it run?"), "text")
    assert "Used: “runtime: KTransformers” (its layout is sized — routed experts in CPU memory" in en


# 4. Host RAM: DeepSpeed's 16 B/param × 1.5, cited


def test_host_ram_factor_is_cited_in_the_ledger():
    """Llama-3-70B (70.6B, catalog) with ZeRO-3 optimizer offload on one node: 70.6e9 × 16 × 1.5 =
    1,694 GB (DeepSpeed's estimator; 1,130 GB of states before its 1.5 buffer)."""
    q = "full fine-tune llama3 70b on 8 A100 80G with zero3 and cpu offload of the optimizer"
    data = _ask(q)
    row = _row(data, "host_ram_bytes")
    params = data["request"]["params_total"]
    assert row["value"] == pytest.approx(params * 16 * 1.5) == pytest.approx(1.694e12, rel=1e-3)
    assert (row["params"]["per_param"], row["params"]["factor"]) == (16.0, 1.5)
    assert data["report"]["host_ram"]["needed_bytes"] == pytest.approx(row["value"])
    en = render(answer(q), "text")
    assert "Host RAM per machine (CPU offload): 1,694 GB" in en
    assert "16 B per parameter" in en and "× 1.5, its additional_buffer_factor default" in en
    zh = render(answer("全参微调 llama3 70b，8 张 A100 80G，zero3 + cpu offload 优化器"), "text")
    assert "每台机器的主机内存（CPU 卸载）：1,694 GB" in zh
    assert "× 1.5，即它的 additional_buffer_factor 默认值" in zh


# 5. H100: what the runtime sees


def test_h100_visible_memory_is_cudas_total_below_nvidia_smi():
    """vLLM sizes from CUDA's total (torch.cuda.mem_get_info): its start-up log prints 79.22 GiB for an
    80 GB H100 (vllm-project/vllm PR #10511); nvidia-smi shows 81,559 MiB (79.65 GiB: modal-labs/
    modal-client PR #2797, NVIDIA/nccl issue #1264). The serving budget uses 0.99 × 80 GiB = 79.2 GiB,
    within 0.05 % of vLLM's figure and below nvidia-smi's, never the 81,920 MiB of the datasheet."""
    h100 = catalog.gpu("H100-SXM5-80GB")
    seen = visible_bytes(h100) / GIB
    assert seen == pytest.approx(79.22, rel=5e-4)
    assert seen < 81559 / 1024 < 81920 / 1024


# 1. SGLang --enable-dp-attention with its --dp: DP inside the TP group, no replicas

DSV3_CMD = (
    "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 --dp {dp} {flag}"
    "--trust-remote-code\n8 张 H200，32k 上下文能撑多少并发？"
)


def _ignored(data: dict) -> dict[str, str]:
    return {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}


def test_sglang_dp_attention_dp_is_no_replicas_in_a_command():
    """SGLang's DeepSeek launch '--tp 8 --dp 8 --enable-dp-attention' runs on 8 GPUs (server_args.py
    asserts tp_size % dp_size == 0; dp_attention.py: attn_tp_size = tp_size // dp_size = 1): sized on the
    8 H200 said, each GPU its own sequences' latent — not 64 GPUs as 8 replicas of TP 8 (before)."""
    data = _ask(DSV3_CMD.format(dp=8, flag="--enable-dp-attention "))
    assert data["request"]["gpu_count"] == 8
    assert data["request"]["dp_attention"] is True
    assert "--dp: 8" not in _ignored(data) and "gpu_count: 8" not in _ignored(data)
    assert _row(data, "kv_layout")["value"] == "dp_attention"
    plain = _ask(DSV3_CMD.format(dp=8, flag=""))  # no DP attention: --dp 8 is 8 replicas of TP 8
    assert plain["request"]["gpu_count"] == 64


def test_sglang_dp_attention_below_tp_is_named_not_used():
    """'--dp 2' beside '--enable-dp-attention --tp 8': attention groups of 8 ÷ 2 = 4 GPUs, each holding
    a copy of its sequences' latent — still 8 GPUs, not 16. Pin moved (s45 fixserve #2): modelled since
    s45 as attention_tp 4 (tests/test_s45_fixserve.py), no longer named as not used."""
    data = _ask(DSV3_CMD.format(dp=2, flag="--enable-dp-attention "))
    assert data["request"]["gpu_count"] == 8
    assert data["request"]["attention_tp"] == 4 and "--dp: 2" not in _ignored(data)


@pytest.mark.parametrize(
    ("question", "gpus"),
    [
        ("sglang 跑 DeepSeek-R1，H200，--tp 8 --dp 8 --enable-dp-attention，32k 上下文最多多少并发？", 8),
        (
            "两台 8 卡 H20 用 sglang 跑 DeepSeek-R1，--tp 16 --dp 16 --enable-dp-attention，"
            "上下文 64k，最多多少并发？",
            16,
        ),
        ("SGLang DeepSeek-V3 on H200, tp 8 and dp 8 with DP attention, 32k context: how many concurrent?", 8),
    ],
)
def test_sglang_dp_attention_dp_in_prose(question: str, gpus: int):
    data = _ask(question)
    assert data["request"]["gpu_count"] == gpus
    assert data["request"]["dp_attention"] is True
    assert not [t for t in _ignored(data) if t.startswith("dp: ")]


def test_dp_attention_holds_about_tp_times_plain_tp():
    """DeepSeek-V3 on 8 × H200 at 32K: DP attention keeps one latent per sequence, plain TP one per GPU,
    so the copy's KV pool is 8 × one GPU's, less on each GPU SGLang's 4 GiB more reserve with DP attention
    and the attention weights + embedding each rank keeps whole (s44, estimator.dp_replicated: 11.6 GB
    above 1/8 of them; before, between 7× and 8× plain TP's)."""
    data = _ask(DSV3_CMD.format(dp=8, flag="--enable-dp-attention "))
    dp = data["report"]["inference"]
    tp = _ask(DSV3_CMD.replace(" --dp {dp}", "").format(flag=""))["report"]["inference"]
    note = next(
        w["params"] for w in data["report"]["warnings"] if w["code"] == "dp_attention_replicated_sglang"
    )
    per_rank = tp["kv_capacity_tokens"] - (note["extra_bytes"] + 4 * 2**30) / 70_272
    assert dp["kv_capacity_tokens"] == pytest.approx(8 * per_rank, rel=0.01)
    assert 5 * tp["kv_capacity_tokens"] < dp["kv_capacity_tokens"] < 6 * tp["kv_capacity_tokens"]
    assert dp["max_concurrency"] == dp["kv_capacity_tokens"] // 32768
