"""Cards and models the working questions name that the catalog lacked (session 48 part cat, issue 24 item 4),
and a unified-memory machine's GPU share named with its own vendor's source (review N5).

Census (working halves of every round and the paraphrases, never a test split): the cards most named as
unknown were the MI50 (6 questions) and AMD's Strix Halo (7 under its names: 'Strix Halo', 'Ryzen AI MAX+
395', 'Radeon 8060S'); the model most named as unknown with a published config, Falcon-40B (4).

Figures, as each entry's ``source`` quotes them:
- Strix Halo (AMD Ryzen AI Max+ 395, CES 2025): Radeon 8060S with 40 RDNA 3.5 CUs at 2.9 GHz; LPDDR5X-8000
  on a 256-bit bus = 256 GB/s; up to 128 GB, of which up to 96 GB as graphics memory (AMD Variable Graphics
  Memory, 75 %); 16-bit peak derived 40 x 512 FLOP/clk x 2.9 GHz = 59.4 TFLOPS (the RX 7900 XTX's per-CU
  WMMA rate).
- MI50 (AMD datasheet): 60 CUs at 1,725 MHz, FP16 26.5 TFLOPS, INT8 53 TOPS, no BF16; 32 GB HBM2, 1,024 GB/s.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import catalog
from estimator.architecture import count_params
from estimator.inference import kv_bytes_per_token


def _ask(capsys: pytest.CaptureFixture[str], question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _share(d: dict) -> tuple[float, str]:
    row = next(a for a in d["assumptions"] if a["field"] == "gpu_memory_utilization")
    return row["value"], row["why"]


# -- Strix Halo ---------------------------------------------------------------------------------------


def test_strix_halo_figures() -> None:
    g = catalog.gpu("Strix-Halo-395-128GB")
    figures = (g.peak_tflops_bf16, g.peak_tflops_fp16, g.memory_gib, g.memory_bandwidth_gbps)
    assert figures == (59.4, 59.4, 128, 256)
    assert (g.gpu_memory_fraction, g.gpus_per_node, g.unified_memory, g.vendor) == (0.75, 1, True, "AMD")
    assert g.peak_flops_16bit == pytest.approx(40 * 512 * 2.9e9, rel=1e-3)  # CUs x FLOP/clk x clock
    assert g.memory_bandwidth_gbps * 1e9 == 8000e6 * 256 / 8  # LPDDR5X-8000 x 256-bit
    assert g.gpu_memory_fraction == 96 / 128  # AMD Variable Graphics Memory: 96 GB of 128 GB
    assert "256 GB/s" in g.source and "96 GB" in g.source and "40 RDNA 3.5 CUs" in g.source


STRIX = [
    "serve Qwen3-32B with llama.cpp on a Strix Halo",
    "Can a Ryzen AI Max+ 395 run Llama 3 70B at Q4_K_M?",
    "Radeon 8060S: how much memory does Qwen3-32B need to serve?",
    "在 Strix Halo 上用 llama.cpp 部署 Qwen3-32B 要多少内存",
    "AMD Ryzen AI Max+ 395 能跑 Llama 3 70B 的 Q4_K_M 吗",
]


@pytest.mark.parametrize("question", STRIX)
def test_strix_halo_is_sized_as_itself(capsys: pytest.CaptureFixture[str], question: str) -> None:
    """Before: 'Strix Halo' named as unknown and sized by a stated memory only (no bandwidth, no speed)."""
    d = _ask(capsys, question)
    assert d["request"]["gpu"] == "Strix-Halo-395-128GB"
    assert d["interpretation"]["unknown_gpu"] is None
    assert _share(d) == (0.75, "unified_memory_amd")


NOT_THE_395 = [
    ("loading gpt-oss-20b shows 'out of memory' on a Strix Halo 388 with 64GB", "Strix Halo 388"),
    ("Ryzen AI Max 385 上跑 Qwen3-8B 够吗", "Ryzen AI Max 385"),
    ("Strix Halo 390 上部署 Qwen3-8B，64G 内存", "Strix Halo 390"),
]


@pytest.mark.parametrize(("question", "typed"), NOT_THE_395)
def test_another_ryzen_ai_max_stays_as_typed(
    capsys: pytest.CaptureFixture[str], question: str, typed: str
) -> None:
    """Another Ryzen AI Max chip (388: s46 round 42's label; 385: Radeon 8050S, 32 CUs) is not the 395: named
    as typed, and its SKU never read as a card count."""
    d = _ask(capsys, question)
    assert d["interpretation"]["unknown_gpu"] == typed
    assert d["request"]["gpu_count"] in (None, 1)


def test_a_stated_strix_halo_memory_keeps_amds_share(capsys: pytest.CaptureFixture[str]) -> None:
    """A 64 GB or 32 GB Strix Halo: AMD's 75 % at any size, not Metal's rule (2/3 below 64 GB on Apple)."""
    d = _ask(capsys, "serve Llama 3 8B on a Strix Halo with 32GB")
    assert (d["request"]["gpu"], d["request"]["gpu_memory_gib"]) == ("Strix-Halo-395-32GB", 32)
    assert _share(d) == (0.75, "unified_memory_amd")
    d = _ask(capsys, "Strix Halo 64G 上部署 Qwen3-32B")
    assert _share(d) == (0.75, "unified_memory_amd")


# -- each unified-memory machine's share, named with its own source (review N5) -------------------------

SHARES = [
    ("serve Llama 3 70B on a DGX Spark", 0.9, "unified_memory_nvidia", "CUDA allocates"),
    ("在 DGX Spark 上部署 Llama 3 70B", 0.9, "unified_memory_nvidia", "CUDA 从中分配"),
    ("serve Llama 3 8B on a Jetson AGX Orin", 0.75, "unified_memory_nvidia", "CUDA allocates"),
    ("serve Llama 3 70B on an M2 Ultra 192GB", 0.75, "unified_memory", "recommendedMaxWorkingSetSize"),
    ("用 M3 Pro 36GB 跑 Qwen3-8B", 2 / 3, "unified_memory", "recommendedMaxWorkingSetSize"),
    ("serve Qwen3-32B on a Strix Halo", 0.75, "unified_memory_amd", "Variable Graphics Memory"),
    ("在 Strix Halo 上部署 Qwen3-32B", 0.75, "unified_memory_amd", "GTT"),
]


@pytest.mark.parametrize(("question", "share", "why", "words"), SHARES)
def test_the_usable_share_names_its_source(
    capsys: pytest.CaptureFixture[str], question: str, share: float, why: str, words: str
) -> None:
    """Before: a DGX Spark's 90 % was explained by Metal's working set and iogpu.wired_limit_mb (Apple's)."""
    d = _ask(capsys, question)
    got, got_why = _share(d)
    assert (round(got, 4), got_why) == (round(share, 4), why)
    assert words in d["reply"]
    if why != "unified_memory":
        assert "Metal" not in d["reply"] and "iogpu" not in d["reply"]


def test_discrete_cards_keep_the_runtimes_share(capsys: pytest.CaptureFixture[str]) -> None:
    d = _ask(capsys, "serve Llama 3 8B with vLLM on one RTX 4090")
    assert not _share(d)[1].startswith("unified_memory")


# -- MI50 ---------------------------------------------------------------------------------------------


def test_mi50_figures() -> None:
    g = catalog.gpu("MI50-32GB")
    assert (g.peak_tflops_fp16, g.peak_tflops_bf16, g.peak_tops_int8) == (26.5, None, 53.0)
    assert (g.memory_gib, g.memory_bandwidth_gbps, g.nvlink, g.unified_memory) == (32, 1024, False, False)
    assert g.peak_flops_16bit == pytest.approx(60 * 64 * 2 * 2 * 1.725e9, rel=1e-3)  # packed FP16 FMA
    assert not g.has_bf16  # Vega 20 has no BF16: a bf16 checkpoint runs in fp16 (as on a V100)
    assert "26.5 TFLOPS" in g.source and "1,024 GB/s" in g.source


MI50 = [
    ("Has anyone run GPT OSS 120B with vllm-gfx906 on 4 MI50 GPUs of 16GB each?", 4, 16),
    ("serve Qwen2.5-14B on two AMD Radeon Instinct MI50", 2, None),
    ("4 张 MI50 32G 用 llama.cpp 跑 Qwen2.5-72B Q4_K_M 够吗", 4, 32),
    ("用两张 MI50 部署 Qwen2.5-14B", 2, None),
]


@pytest.mark.parametrize(("question", "count", "memory"), MI50)
def test_mi50_is_sized_as_itself(
    capsys: pytest.CaptureFixture[str], question: str, count: int, memory: int | None
) -> None:
    """Before: 'MI50' named as unknown (sized by a stated memory only, or on the default A100)."""
    d = _ask(capsys, question)
    r = d["request"]
    assert (r["gpu"], r["gpu_count"], r["gpu_memory_gib"]) == ("MI50-32GB", count, memory)
    assert d["interpretation"]["unknown_gpu"] is None
    assert r["precision"] != "bf16"  # no BF16 on the card


NOT_THE_MI50 = [
    ("serve Llama 3 70B on 8 MI100", "MI100"),
    ("用 8 张 MI250X 部署 Llama 3 70B", "MI250X"),
    ("serve Llama 3 70B on 8 MI300X", "MI300X"),
]


@pytest.mark.parametrize(("question", "gpu"), NOT_THE_MI50)
def test_other_instinct_cards_stay_themselves(
    capsys: pytest.CaptureFixture[str], question: str, gpu: str
) -> None:
    assert _ask(capsys, question)["request"]["gpu"] == gpu


# -- Falcon-40B ---------------------------------------------------------------------------------------


def test_falcon_40b_carries_its_config() -> None:
    """tiiuae/falcon-40b config.json: hidden_size 8192, n_layer 60, n_head 128, n_head_kv 8, vocab 65024;
    FFN 4 x 8192 = 32768 (llama.cpp's loader log: n_ff 32768); 2048 positions; tied head (FalconConfig's
    default)."""
    m = catalog.model("Falcon-40B")
    got = (m.layers, m.hidden, m.heads, m.kv_heads, m.head_dim_effective, m.ffn_hidden, m.vocab)
    assert got == (60, 8192, 128, 8, 64, 32768, 65024)
    assert (m.max_context, m.ffn_type, m.tied_embeddings) == (2048, "gelu", True)


def test_falcon_40b_count_is_the_checkpoints() -> None:
    """Nine bf16 shards of 9.50 + 7 x 9.51 + 7.58 GB hold 41.8B values; less the stored copy of the tied
    output head (65024 x 8192 = 0.53B), 41.3B are loaded."""
    m = catalog.model("Falcon-40B")
    stored = (9.50 + 7 * 9.51 + 7.58) * 1e9 / 2
    assert stored - 65024 * 8192 == pytest.approx(m.params_total, rel=0.005)
    total, _ = count_params(m)
    assert total == pytest.approx(m.params_total, rel=0.001)
    # KV cache: layers x kv_heads x head_dim x 2 (K and V) x 2 bytes
    assert kv_bytes_per_token(m) == 60 * 8 * 64 * 4 == 122880


FALCON = [
    ("Is 2x A100 40GB enough to serve tiiuae/falcon-40b-instruct with TGI --num-shard 2?", "Falcon-40B"),
    ("fine-tune Falcon-40B with LoRA on 8 A100 80GB", "Falcon-40B"),
    ("用 8 张 A100 80G 微调 Falcon-40B 需要多少显存", "Falcon-40B"),
    ("部署 falcon 40b 要几张 4090", "Falcon-40B"),
    ("serve Falcon-180B on 8 H100", "Falcon-180B"),
    ("在一张 4090 上部署 Falcon-7B", "Falcon-7B"),
]


@pytest.mark.parametrize(("question", "model_id"), FALCON)
def test_falcon_is_sized_as_its_release(
    capsys: pytest.CaptureFixture[str], question: str, model_id: str
) -> None:
    """Before: Falcon-40B was named as unknown and sized with a generic 40B shape."""
    d = _ask(capsys, question)
    assert d["request"]["model"] == model_id
    assert d["interpretation"]["unknown_model"] is None


# -- RX 7900 XT ---------------------------------------------------------------------------------------


def test_rx_7900_xt_figures() -> None:
    """Guru3D's table of AMD's figures: 84 CUs, 20 GB GDDR6, 320-bit at 20 Gbps; boost 2.4 GHz."""
    g = catalog.gpu("Radeon-RX-7900-XT")
    assert (g.peak_tflops_bf16, g.memory_gib, g.memory_bandwidth_gbps, g.personal) == (103.2, 20, 800, True)
    assert g.memory_bandwidth_gbps == 320 / 8 * 20  # bus bytes x Gbps
    assert g.peak_flops_16bit == pytest.approx(84 * 512 * 2.4e9, rel=1e-3)
    assert "800 GB/s" in g.source and "84 CUs" in g.source


RX = [
    ("Qwen3.6-27B Q4_K_M on one RX 7900 XT 20GB with llama.cpp: how much context fits?", "Radeon-RX-7900-XT"),
    ("我有一张 RX 7900 XT 20G 显卡，能跑 Qwen2.5 14B 吗？", "Radeon-RX-7900-XT"),
    ("用 7900XT 跑 Qwen2.5 14B 够吗", "Radeon-RX-7900-XT"),
    ("serve Qwen2.5-32B Q4_K_M on one RX 7900 XTX", "Radeon-RX-7900-XTX"),
    ("用 7900XTX 跑 Qwen2.5 14B", "Radeon-RX-7900-XTX"),
]


@pytest.mark.parametrize(("question", "gpu"), RX)
def test_rx_7900_xt_is_itself_and_the_xtx_stays(
    capsys: pytest.CaptureFixture[str], question: str, gpu: str
) -> None:
    """Before: 'RX 7900 XT' named as unknown (3 working questions), sized by a stated memory only."""
    d = _ask(capsys, question)
    assert (d["request"]["gpu"], d["interpretation"]["unknown_gpu"]) == (gpu, None)
