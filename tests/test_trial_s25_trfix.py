"""Session 25 fresh-user trial, serving and the Mac (/work/notes/s25/trial_findings.md #1, #2): each
finding through the CLI (``sizing-bot ask --format json``) in both languages, asserting the values the
sources give."""

from __future__ import annotations

from typing import Any

import pytest

from estimator import catalog
from tests.cli_run import ask_in_process

GIB = 2**30


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_in_process(capsys, text)


@pytest.mark.parametrize(
    ("chip", "bandwidth", "memory"),
    [
        ("Apple-M1-16GB", 68.25, 16),
        ("Apple-M2-24GB", 100, 24),
        ("Apple-M3-24GB", 100, 24),
        ("Apple-M4-32GB", 120, 32),
    ],
)
def test_base_chips_carry_apples_bandwidth(chip: str, bandwidth: float, memory: float) -> None:
    """Apple's per-chip unified-memory bandwidth (newsroom / tech specs cited in gpus.toml): M1 68.25 GB/s
    (LPDDR4X-4266 × 128 bit), M2 and M3 100 GB/s, M4 120 GB/s;
    the largest memory when only the chip is named."""
    spec = catalog.gpu(chip)
    assert (spec.memory_bandwidth_gbps, spec.memory_gib, spec.vendor) == (bandwidth, memory, "Apple")


MACS = [
    ("gpt-oss-20b on a MacBook Air M3 16GB with Ollama - will it run?", "Apple-M3-16GB", 16.0),
    ("M3 MacBook Air with 16GB, gpt-oss-20b with Ollama?", "Apple-M3-16GB", 16.0),
    ("我的MacBook Air M3 16G能跑gpt-oss-20b吗", "Apple-M3-16GB", 16.0),
    ("Llama-3.1-8B on a 24GB MacBook Air M3 with Ollama — tokens per second?", "Apple-M3-24GB", 24.0),
    ("MacBook Air M2 跑 qwen2.5 7b 够吗", "Apple-M2-24GB", 24.0),
    ("MacBook Pro M1 16GB 能跑 qwen2.5 7b 吗", "Apple-M1-16GB", 16.0),
    ("Mac mini M4 16GB, ollama qwen2.5 7b tokens/s?", "Apple-M4-16GB", 16.0),
]


@pytest.mark.parametrize(("text", "chip", "memory"), MACS)
def test_a_named_base_chip_is_never_an_m4_max(
    capsys: pytest.CaptureFixture[str], text: str, chip: str, memory: float
) -> None:
    """'MacBook Air M3 16GB' is the M3 (100 GB/s), never the M4 Max (546 GB/s) 'with its chip not named'
    (trial s25 #1: decode ×5 too fast); a named chip is not said to be unnamed, in either language."""
    data = ask(capsys, text)
    hw = data["report"]["hardware"]
    assert (hw["id"], hw["memory_gib"]) == (chip, memory)
    assert data["interpretation"]["unknown_gpu"] is None
    assert "sized as the M4 Max" not in data["reply"] and "chip not named" not in data["reply"]
    assert "没说芯片" not in data["reply"]


def test_base_chip_decode_follows_its_bandwidth(capsys: pytest.CaptureFixture[str]) -> None:
    """Llama-3.1-8B Q4_K_M (4.9 GB) on an M3's 100 GB/s: about 10 tokens/s at most (before, 50 at the
    M4 Max's 546 GB/s)."""
    inf = ask(capsys, "Llama-3.1-8B on a 24GB MacBook Air M3 with Ollama — tokens per second?")["report"][
        "inference"
    ]
    assert 5 < inf["decode_tokens_per_s"]["per_sequence"] < 100e9 / 4.9e9


@pytest.mark.parametrize(
    ("text", "chip"),
    [
        ("gpt-oss-20b on a MacBook Pro M3 Max 36GB with Ollama", "Apple-M3-Max-36GB"),
        ("Mac mini M4 Pro 64G 用 ollama 跑 qwq 32b 够吗", "Apple-M4-Pro-64GB"),
    ],
)
def test_a_pro_or_max_after_the_mac_line_is_still_that_chip(
    capsys: pytest.CaptureFixture[str], text: str, chip: str
) -> None:
    """'MacBook Pro M3 Max': the base chip's alias 'macbook pro m3' does not end before 'Max'."""
    assert ask(capsys, text)["report"]["hardware"]["id"] == chip


def test_an_m3_inside_a_model_name_is_no_mac(capsys: pytest.CaptureFixture[str]) -> None:
    """'bge-m3' names an embedding model, not an Apple M3 (the chip's family is 'Apple M3', no bare 'm3')."""
    assert (
        ask(capsys, "serve Qwen2.5-7B and bge-m3 on one RTX 4090")["report"]["hardware"]["id"] == "RTX-4090"
    )


MIXTRAL = (
    "What's the memory per GPU for Mixtral-8x7B inference in fp16 on 4x A10G with TGI at 16 concurrent "
    "and 4k context?"
)
MINDIE = "华为昇腾910B 8卡部署DeepSeek-R1-Distill-Qwen-32B，用MindIE，并发50，每张卡显存占多少"


def test_memory_per_gpu_is_stated_on_the_users_count_en(capsys: pytest.CaptureFixture[str]) -> None:
    """Mixtral 8x7B fp16 on 4 × A10G (trial s25 #2): weights 93.4 GB / 4 = 21.7 GiB and KV 128 KiB × 4,096 ×
    16 = 8.6 GB / 4 = 2.0 GiB per GPU, plus TGI's workspace and the CUDA context: ≈ 25.3 GiB each, over
    the 19.2 GiB usable (s32: TGI fills 0.90 of the card) — said in the headline though it does not fit
    (before: no per-GPU figure)."""
    data = ask(capsys, MIXTRAL)
    inf = data["report"]["inference"]
    assert data["request"]["memory_asked"] is True
    floor = (inf["weights_bytes"] + inf["kv_bytes_total"]) / 4 / GIB
    assert floor + 0.5 < inf["bytes_per_gpu"] / GIB < floor + 3
    assert round(inf["bytes_per_gpu"] / GIB, 1) == 25.3
    head = data["reply"].splitlines()[0]
    assert "≈ 25.3 GiB per GPU on 4 × A10G" in head and "19.2 GiB usable on each" in head


def test_memory_per_card_is_stated_and_the_assumed_context_named_zh(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """'每张卡显存占多少' on 8 × 910B: the per-card figure in the headline, and the '不够' that rests on the
    reasoning model's assumed 32K context says the context was assumed (trial s25 #2)."""
    data = ask(capsys, MINDIE)
    head = data["reply"].splitlines()[0]
    per = data["report"]["inference"]["bytes_per_gpu"] / GIB
    assert f"每卡显存约 {per:.1f} GiB" in head
    assert "上下文是假设的" in head


def test_no_memory_cue_no_memory_line(capsys: pytest.CaptureFixture[str]) -> None:
    """Without the question the headline is unchanged (the field stays unset)."""
    data = ask(capsys, "serve Qwen2.5-72B on 4 H100 with 20 concurrent at 4k context")
    assert data["request"].get("memory_asked") is None
    assert "per GPU on" not in data["reply"].splitlines()[0]


VLLM_CMD = (
    "Will this start on 4x L40S? How many concurrent requests at full context?\n"
    "vllm serve Qwen/Qwen3-32B --tensor-parallel-size 4 --max-model-len 40960 --gpu-memory-utilization 0.92 "
    "--kv-cache-dtype fp8 --max-num-seqs 128"
)


def test_lighter_weights_never_need_more_gpus_than_the_released_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Qwen3-32B bf16 holds 19 sequences of 40,960 tokens on the user's 4 × L40S at TP 4 (trial s25 #6). INT4
    (≈ 18 GB of weights) holds those 19 on two TP-2 pairs, 4 GPUs: the fewest, not the five single-card
    copies the PCIe preference picks (before: 'INT4 (GPTQ/AWQ): 5', more than bf16 needs on a count whose
    five copies no TP divides). Equal to the recommendation, the line is left out."""
    data = ask(capsys, VLLM_CMD)
    inf = data["report"]["inference"]
    assert inf["recommended_gpus"] == 4 and inf["max_concurrency"] == 19
    assert {a["change"]: a["min_gpus"] for a in inf["alternatives"]} == {"fp8": 4, "int4": 4}
    assert "Fewest GPUs with lighter weights" not in data["reply"]


def test_qwen3_dense_runs_its_config_length_without_yarn(capsys: pytest.CaptureFixture[str]) -> None:
    """Qwen3-32B's config.json says max_position_embeddings 40960 (the card: 32,768 prompt + 8,192 output;
    source in qwen.toml), so --max-model-len 40960 needs no YaRN override (trial s25 #7); 65,536 still does,
    with YaRN's original_max_position_embeddings the card's 32,768."""
    assert catalog.model("Qwen3-32B").max_context == 40960
    assert "YaRN" not in ask(capsys, VLLM_CMD)["reply"]
    longer = ask(capsys, "serve Qwen3-32B on 2 H100 at 64k context with vLLM")["reply"]
    assert "65,536 tokens need YaRN" in longer and '"original_max_position_embeddings":32768' in longer


DSV3 = "Serve DeepSeek-V3 for 200 concurrent users at 4k context, which GPUs and how many? Budget $30k/month."
DSV3_ZH = "部署DeepSeek-V3，200并发，4k上下文，用什么卡、几张？预算每月20万"


@pytest.mark.parametrize("text", [DSV3, DSV3_ZH])
def test_mla_with_no_engine_named_is_sized_on_plain_tp(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """No engine named: vLLM is the server sized, so DeepSeek-V3's latent cache follows vLLM's default,
    plain --tensor-parallel-size, where every rank keeps all of it (estimator.mla_layout; trial s25 #8:
    the headline, capacity and budget lines were DP attention's ×8). 16 × A100 80G at TP 8 × PP 2 hold
    230 sequences of 4K, not DP attention's 1,844 (offered after, in the note)."""
    data = ask(capsys, text)
    report = data["report"]
    kinds = {a["field"]: a for a in data["assumptions"]}
    assert kinds["kv_layout"]["why"] == "mla_vllm_default"
    assert report["inference"]["max_concurrency"] < 200 * 8 // 2  # plain TP: about 1/TP of DP attention's


@pytest.mark.parametrize("text", [DSV3, DSV3_ZH])
def test_which_gpus_for_serving_compares_cards(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'Which GPUs and how many' for serving: A100 80G, H100 80G and H200 compared (trial s25 #4: one card,
    ``comparisons: []``); with the load stated, the cheapest is the one whose month for that load costs
    least (each row carries the same 200 sequences: 16 × A100 at $1.20–2.50 per GPU-hour, 730 h = $14,016
    – $29,200, against 16 × H100's $17,520 – $40,880), and it leads the answer."""
    data = ask(capsys, text)
    report = data["report"]
    assert report["hardware"]["id"] == "A100-SXM4-80GB"
    assert {r["gpu"] for r in report["comparisons"]} == {"H100-SXM5-80GB", "H200-SXM-141GB"}
    first = data["reply"].splitlines()[0]
    # s29 fix b: with a budget a month stated, the headline leads with the best option within it (the same
    # A100 80G, at its month for the load), no longer 'Cheapest for this load' (bot.core.budget_pick)
    assert first.startswith(
        (
            # s43 fixans #2: FP8 on Ampere is weight-only W8A16 (vLLM FP8 Marlin) or INT8
            "Within your budget of $30,000 a month: 16 × A100 80G with FP8 weight-only (W8A16 with vLLM's "
            "FP8 Marlin kernels: no FP8 tensor cores) or INT8 weights, $14,016 – $29,200 a month",
            "只有按较低价格才在预算（每月 ¥200,000）之内：16 张 A100 80G，FP8 仅权重（W8A16，"
            "vLLM 的 FP8 Marlin 内核：这张卡没有 FP8 张量核心）或 INT8 权重，每月 ¥175,200 – ¥350,400",
        )
    )


def test_the_stated_loads_month_is_on_each_row(capsys: pytest.CaptureFixture[str]) -> None:
    """Each serving row states its month for the load beside the cost per token (what is compared)."""
    reply = ask(capsys, DSV3)["reply"]
    assert "• A100 80G: 16 GPUs" in reply and "$14,016 – $29,200 a month" in reply
    assert "$17,520 – $40,880 a month" in reply  # 16 × H100 at $1.50–3.50 per GPU-hour, 730 h


@pytest.mark.parametrize(
    "text",
    [
        "gpt-oss-20b on a MacBook Air M3 16GB with Ollama - will it run?",
        "用 Ollama 在 16G 的 MacBook Air M3 上跑 gpt-oss-20b 行吗",
    ],
)
def test_gpt_oss_under_ollama_stays_mxfp4(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """Ollama's gpt-oss tags ship the released MXFP4 weights only (ollama.com/library/gpt-oss: 'MXFP4
    format'), so where they do not fit the answer says so in MXFP4 instead of sizing a Q4_K_M Ollama does
    not publish (trial s25 #14)."""
    inf = ask(capsys, text)["report"]["inference"]
    assert inf["weight_format"] == "mxfp4" and inf["runtime"] in ("Ollama", "llama.cpp")


@pytest.mark.parametrize(
    "text",
    [
        "lmdeploy跑InternLM2.5-20B，单张3090，AWQ量化，吞吐大概多少token/s",
        "lmdeploy serving InternLM2.5-20B AWQ on one RTX 3090, what throughput can I expect?",
    ],
)
def test_throughput_is_the_total_at_the_most_held(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'吞吐 / throughput' asks tokens/s in total at the sequences the card holds, not one stream (trial s25
    #13: '36 token/s (1 sequence at a time)'): InternLM2.5-20B AWQ (12.1 GB) on a 3090 holds 12 of 4K
    (KV 48 × 8 × 128 × 2 × 2 B = 192 KiB a token), decoded together."""
    data = ask(capsys, text)
    inf = data["report"]["inference"]
    assert data["request"]["concurrency_asked"] is True
    assert inf["max_concurrency"] == inf["decode_tokens_per_s"]["batch"] == 12
    assert inf["decode_tokens_per_s"]["aggregate"] > 5 * inf["decode_tokens_per_s"]["per_sequence"]


def test_a_throughput_target_is_no_throughput_question(capsys: pytest.CaptureFixture[str]) -> None:
    """'5000 tokens/s throughput needed' states a target (the load that decodes it), not a question."""
    data = ask(capsys, "serve Qwen2.5-7B on one A10G, 5000 tokens/s throughput needed")
    assert data["request"]["target_tokens_per_s"] == 5000 and not data["request"].get("concurrency_asked")


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (MINDIE, "KV 缓存：每份模型副本"),
        ("Serve Qwen2.5-32B with MindIE on 4 Ascend 910B at 8k context, 20 concurrent", "KV cache: "),
    ],
)
def test_an_engine_not_modelled_gets_no_vllm_start_up_log(
    capsys: pytest.CaptureFixture[str], text: str, line: str
) -> None:
    """MindIE named (not modelled: said so) is sized with vLLM's memory model and the KV line says that,
    never 'vLLM's KV cache … the start-up log of V0 …' as if the user ran vLLM (trial s25 #14)."""
    data = ask(capsys, text)
    assert {"text": "runtime: MindIE", "reason": "runtime_not_modelled"} in data["interpretation"]["ignored"]
    reply = data["reply"]
    assert line in reply and "V0 以 --max-model-len" not in reply and "start-up log of V0" not in reply
    assert "vLLM's KV cache" not in reply and "vLLM 的 KV 缓存" not in reply
