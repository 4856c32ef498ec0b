"""Session 50, part leftovers: last session's review leftovers (issue 24 item 4), both languages.

1. A card's memory followed by 'each' ('4 nodes, 32x H200 GPUs each with 141GB', normalized '32x h200 141gb
   each'): the 'each' is the memory's (bot.parse.fixed_patterns.MEMORY_EACH, read with the card in
   bot.parse.gpus), so 32 cards shared by 4 nodes stay 32 (more than one node holds: 8 SXM GPUs on an
   HGX/DGX baseboard, bot.parse.node_words.JI_KA_PER_NODE_MAX), as the plain '4 nodes, 32x H200' reads.
   Before, the 'each' made them each machine's: 128.
2. A ``--dtype`` typed before ``--quantization awq`` is named as not sized, as after it (vLLM: the
   activations' type; the AWQ weights stay 4-bit); FP8 asked on a T4 (compute capability 7.5: no FP8 tensor
   cores, and vLLM's weight-only FP8 Marlin kernel needs 8.0, estimator.serving.runs_fp8_weight_only) is
   named ``no_fp8_weights`` and sized in 16-bit, no longer given the bf16 card's reason ``fp16_no_bf16``.
3. One card said for the model and the other card given another job ('两张 3090，想用单卡跑模型，另一张跑
   embedding'): the model is sized on one card, the other card's phrase named ``other_card_job``
   (bot.parse.other_card_job, gated on bot.parse.cue_words.OTHER_CARD_CUES).
4. A setting changed with no 'from' ('max_new_tokens 2048 -> 512', '2048 → 512', '2048 改成 512'): the
   changed-to value is the setting, the earlier one named replaced_by_later_value, as 'from 2048 to 512'
   was read (bot.parse.written_units._LOWERED); before, 2048 was sized and the 512 left unread.
5. '910B4-1' typed is named as typed (the Ascend-910B entry, 64 GB), its '-1' no longer a count of -1
   (bot.parse.written_names.ASCEND_SKU_RE); the 910B4's 1,600 GB/s is the 910B's, marked ASSUMED in the
   catalog's source (no published figure found for the 910B4).
6. 'MacBook Pro 16 核 GPU', '16-core GPU': the Apple chip's GPU cores (Apple sells each M chip with several
   GPU core counts), never 16 devices: named ``apple_gpu_cores`` (bot.parse.gpu_cores); a MacBook Air with
   its memory only is the base M4 at that memory (estimator.mac_devices.MAC_CHIPS), never an M4 Max.
7. The script readers' labels ('script: DeepSpeed-Chat step 3 critic') worded in a Chinese reply
   ('脚本：DeepSpeed-Chat 第 3 步的 critic'; bot.render.understood._SCRIPT_TEXTS, 'script' in _OWN_FIELDS).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import ask


def _answer(text: str) -> dict:
    return json.loads(ask(text, None, "json")[0])


def _ignored(a: dict) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in a["interpretation"]["ignored"]]


# 1. 'each' after a card's memory ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "We have 4 nodes, 32x H200 GPUs each with 141GB. Can we serve DeepSeek-V3?",
        "4 servers, 32 H200 GPUs with 141GB each: how fast does Llama-3-70B serve?",
        "4 nodes, 32 A100 80GB each, serving Llama-3-70B",
        "4 台机器，共 32 张 H200 141G，部署 DeepSeek-V3 够吗",
        "4 个节点，32 张 H200，每张 141G，部署 DeepSeek-V3",
    ],
)
def test_memory_each_is_not_each_machine(text: str) -> None:
    r = _answer(text)["request"]
    assert r["gpu_count"] == 32
    assert r["gpu_memory_gib"] in (141.0, 80.0)


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("4 nodes, 32x H200 each, serve DeepSeek-V3", 128),  # the cards are each node's
        ("2 nodes, 8x H200 GPUs each with 141GB, serve DeepSeek-V3", 16),  # 8 a node: one baseboard
        ("4 台服务器，每台 8 张 H200 141G，部署 DeepSeek-V3", 32),
        ("4 台服务器，32 张 H200 每台，部署 DeepSeek-V3", 128),
    ],
)
def test_cards_each_machines_still_multiply(text: str, count: int) -> None:
    assert _answer(text)["request"]["gpu_count"] == count


# 2. --dtype beside a weight format; FP8 asked on a card without FP8 ------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "vllm serve Qwen/Qwen2.5-7B-Instruct-AWQ --dtype half --quantization awq on one T4",
        "vllm serve Qwen/Qwen2.5-7B-Instruct-AWQ --quantization awq --dtype half on one T4",
        "用 vllm 在 T4 上跑：vllm serve Qwen/Qwen2.5-7B-Instruct-AWQ --dtype float16 --quantization awq",
    ],
)
def test_dtype_beside_awq_is_named_whichever_order(text: str) -> None:
    """vLLM's --dtype is the activations' type; AWQ weights stay 4-bit (int4 sized), the dtype named."""
    a = _answer(text)
    assert a["request"]["precision"] == "int4"
    assert [r for t, r in _ignored(a) if t.startswith("--dtype")] == ["not_sized"]


@pytest.mark.parametrize(
    "text",
    [
        "vllm serve Qwen/Qwen2.5-7B-Instruct --dtype half on one T4",
        "在 T4 上 vllm serve Qwen/Qwen2.5-7B-Instruct --dtype float16",
    ],
)
def test_dtype_alone_sizes_the_weights(text: str) -> None:
    a = _answer(text)
    assert a["request"]["precision"] == "fp16"
    assert not [t for t, _ in _ignored(a) if "dtype" in t]


@pytest.mark.parametrize(
    "text",
    [
        "vllm serve Qwen/Qwen2.5-7B-Instruct --quantization fp8 --dtype float16 on a T4",
        "T4 上 vllm serve Qwen/Qwen2.5-7B-Instruct --quantization fp8 --dtype float16",
    ],
)
def test_fp8_on_t4_is_named_for_fp8_not_bf16(text: str) -> None:
    """T4 (compute capability 7.5): no FP8 tensor cores and below vLLM's FP8 Marlin kernels' 8.0: FP8 is
    named no_fp8_weights and sized in 16-bit (fp16: no bf16 there), never 'no bf16' for an fp8 typed."""
    a = _answer(text)
    assert a["request"]["precision"] == "fp16"
    assert ("precision: fp8", "no_fp8_weights") in _ignored(a)
    assert "fp16_no_bf16" not in [s["reason"] for s in a["interpretation"].get("substitutions") or []]


# 3. One card for the model, the other for another job -------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "两张 3090，想用单卡跑模型，另一张跑 embedding，部署 Qwen2.5-7B",
        "有两块 4090，用一张卡部署 Qwen2.5-7B，另外一块卡用来跑 bge-reranker",
        "I have two 3090s: one card runs the model, the other runs an embedding model. Serve Qwen2.5-7B",
        "Two RTX 4090s: serve Qwen2.5-7B on one GPU, the other one is for the reranker.",
    ],
)
def test_the_other_card_is_not_the_models(text: str) -> None:
    a = _answer(text)
    assert a["request"]["gpu_count"] == 1
    assert "other_card_job" in [r for _, r in _ignored(a)]
    assert "repeated" not in [r for _, r in _ignored(a)]  # 'the other one' / '另一张': no second count


@pytest.mark.parametrize(
    "text",
    [
        "两张 3090 部署 Qwen2.5-14B，另一个问题是显存够不够",
        "Two 3090s serving Qwen2.5-14B; the other question is whether TP 2 is slow",
        "两张 3090 部署 Qwen2.5-14B，另一张卡跑 embedding",  # no one card said for the model
    ],
)
def test_no_card_kept_for_another_job_keeps_the_count(text: str) -> None:
    assert _answer(text)["request"]["gpu_count"] == 2


# 4. A setting changed with no 'from': the changed-to value is the setting -----------------------------


@pytest.mark.parametrize(
    "text",
    [
        "llama.cpp, Qwen2.5-7B Q4_K_M, max_new_tokens 2048 -> 512, RTX 3060",
        "llama.cpp, Qwen2.5-7B Q4_K_M, max_new_tokens 2048 → 512, RTX 3060",
        "llama.cpp 跑 Qwen2.5-7B Q4_K_M，max_new_tokens 2048 改成 512，3060",
        "llama.cpp 跑 Qwen2.5-7B Q4_K_M，max_new_tokens 从 2048 改成 512，3060",
    ],
)
def test_changed_to_value_is_the_setting(text: str) -> None:
    ig = _ignored(_answer(text))
    assert ("output_tokens: 512", "output_in_context") in ig
    assert ("2048", "replaced_by_later_value") in ig
    assert not [t for t, r in ig if r == "unread"]


@pytest.mark.parametrize(
    ("text", "seq"),
    [
        ("全参微调 Qwen2.5-7B，cutoff_len 2048 -> 4096，8 张 A100", 4096),
        ("Full fine-tune Qwen2.5-7B, cutoff_len 4096 => 2048, 8x A100", 2048),
        ("全参微调 Qwen2.5-7B，cutoff_len 4096，8 张 A100，2 -> 3 天能训完吗", 4096),  # no key: a range
    ],
)
def test_changed_length_without_from(text: str, seq: int) -> None:
    assert _answer(text)["request"]["seq_len"] == seq


# 5. The 910B4-1 keeps its typed name; the 910B4's bandwidth is marked assumed -----------------------------


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("4 张 910B4-1 部署 Qwen2.5-72B-Instruct 够吗", "910B4-1"),
        ("Can 4 Ascend 910B4-1 NPUs serve Qwen2.5-72B-Instruct?", "Ascend 910B4-1"),
    ],
)
def test_910b4_1_keeps_its_typed_name(text: str, typed: str) -> None:
    """The 910B4-1 is a 64 GB part (HAMi-WebUI issue #47: npu-smi 65536 MB): the Ascend-910B entry, the
    typed name kept whole and its '-1' never a count of -1."""
    a = _answer(text)
    assert (a["request"]["gpu"], a["request"]["gpu_count"]) == ("Ascend-910B", 4)
    assert {"typed": typed, "used": "Ascend-910B", "reason": "card_sku"} in a["interpretation"][
        "substitutions"
    ]
    assert not _ignored(a)


@pytest.mark.parametrize(
    ("text", "count"), [("4 张 910B4 部署 Qwen2.5-72B-Instruct 够吗", 4), ("910B4 1 张部署 Qwen2.5-7B", 1)]
)
def test_910b4_alone_stays_the_32g_card(text: str, count: int) -> None:
    a = _answer(text)
    assert (a["request"]["gpu"], a["request"]["gpu_count"]) == ("Ascend-910B4", count)


def test_910b4_bandwidth_is_marked_assumed() -> None:
    from estimator import catalog

    g = catalog.gpu("Ascend-910B4")
    assert g.memory_bandwidth_gbps == catalog.gpu("Ascend-910B").memory_bandwidth_gbps  # copied, said so
    assert "ASSUMED" in g.source


# 6. An Apple chip's GPU core count is no count of devices ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "cores"),
    [
        ("MacBook Pro 16 核 GPU，能跑 Qwen2.5-7B 吗", "16"),
        ("MacBook Pro M3 Max 40 核 GPU 128G 跑 Qwen2.5-72B", "40"),
        ("Can a MacBook Pro with a 16-core GPU run Qwen2.5-7B?", "16"),
        ("M3 Max MacBook Pro, 40-core GPU, 128GB: can it run Qwen2.5-72B?", "40"),
    ],
)
def test_gpu_cores_are_not_devices(text: str, cores: str) -> None:
    a = _answer(text)
    assert a["request"]["gpu_count"] in (None, 1)
    assert (cores, "apple_gpu_cores") in _ignored(a)


@pytest.mark.parametrize(
    "text",
    [
        "2 张 4090，服务器 CPU 是 64 核，跑 Qwen2.5-14B",
        "2x RTX 4090 on a 64-core CPU server, serving Qwen2.5-14B",
    ],
)
def test_cpu_cores_leave_the_card_count(text: str) -> None:
    a = _answer(text)
    assert a["request"]["gpu_count"] == 2
    assert "apple_gpu_cores" not in [r for _, r in _ignored(a)]


@pytest.mark.parametrize(
    ("text", "chip"),
    [
        # s51 leftovers #2: an 8 GB Air is an M1-M3 (the M4 Air starts at 16 GB): the newest, the M3
        ("MacBook Air 8G 能跑 Qwen2.5-1.5B 吗", "Apple-M3-8GB"),
        ("Can my MacBook Air 8GB run Qwen2.5-1.5B?", "Apple-M3-8GB"),
        ("MacBook Air 16GB, can it run Qwen2.5-7B?", "Apple-M4-16GB"),
        ("a 64GB MacBook Pro, can it run Qwen2.5-32B?", "Apple-M4-Max-64GB"),  # a Pro may have a Max
        ("64G 的 MacBook Pro 能跑 Qwen2.5-32B 吗", "Apple-M4-Max-64GB"),
    ],
)
def test_macbook_air_has_the_base_chip(text: str, chip: str) -> None:
    """A MacBook Air has the base M chip only (apple.com MacBook Air tech specs), never a Max."""
    assert _answer(text)["request"]["gpu"] == chip


# 7. The script readers' labels in a Chinese reply -------------------------------------------------------


def _text(question: str) -> str:
    return ask(question, None, "text")[0]


def test_dschat_script_labels_are_translated() -> None:
    zh = _text(
        "DeepSpeed-Chat 第三步 PPO，actor 用 OPT-1.3B，"
        "--critic_model_name_or_path facebook/opt-350m，8 张 A100"
    )
    assert "脚本：DeepSpeed-Chat 第 3 步的 critic" in zh
    assert "script: DeepSpeed-Chat" not in zh
    en = _text(
        "DeepSpeed-Chat step 3 PPO, actor OPT-1.3B, --critic_model_name_or_path facebook/opt-350m, 8x A100"
    )
    assert "script: DeepSpeed-Chat step 3 critic" in en
