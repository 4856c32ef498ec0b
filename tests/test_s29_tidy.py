"""s29-tidy: the s28 fresh-user trial's open findings (/work/notes/s28/trial.md M1–M6, L1–L7) and the review
leftovers, each asked in both languages through the CLI's one pipeline (``bot.cli.ask``)."""

from __future__ import annotations

import json

import pytest

from bot.cli import ask


def _text(question: str) -> str:
    out, code = ask(question, None, "text")
    assert code == 0
    return out


def _json(question: str) -> dict:
    out, _ = ask(question, None, "json")
    return json.loads(out)


@pytest.mark.parametrize(
    ("question", "label"),
    [
        (
            "what's the minimum VRAM to run Phi-3-mini-4k-instruct locally, will it run on my GTX 1660 6GB?",
            "KV cache (fp16)",
        ),
        ("phi-3-mini 在 GTX 1660 6GB 上本地跑，最少要多少显存", "KV 缓存（fp16）"),
    ],
)
def test_gguf_weights_chosen_for_a_small_card_keep_llama_cpps_f16_cache(question: str, label: str) -> None:
    """L3: Q4_K_M picked because 16-bit weights do not fit runs on llama.cpp, whose KV cache is f16 unless
    set (llama.cpp common/arg.cpp ``--cache-type-k/-v`` default f16); it was labelled bf16."""
    data = _json(question)
    assert data["request"]["precision"] == "q4_k_m"
    assert data["report"]["inference"]["kv_precision"] == "fp16"
    out = _text(question)
    assert label in out and "bf16" not in out.split("\n\n")[1]


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("海光 K100 AI 64GB 部署 Qwen2.5-72B，20 并发，要几张", "海光 K100 AI"),
        ("海光 K100-AI 64GB 部署 Qwen2.5-72B，20 并发，要几张", "海光 K100-AI"),
        ("Hygon K100 AI 64GB to serve Qwen2.5-72B for 20 concurrent users, how many cards?", "Hygon K100 AI"),
    ],
)
def test_a_domestic_card_named_with_its_memory_keeps_name_and_memory(question: str, name: str) -> None:
    """M1: 'K100 AI 64GB' (Hygon's DCU with the product's 'AI' suffix) is a 64 GiB card named as typed, never
    an A100 80G with '64' left unused; its speed is unknown (no public datasheet peak in the catalog)."""
    data = _json(question)
    assert data["request"]["gpu_memory_gib"] == 64
    assert data["interpretation"]["unknown_gpu"].lower().startswith(name.lower())
    out = _text(question)
    assert "A100 80G" not in out and name in out.splitlines()[0] and "“64”" not in out


@pytest.mark.parametrize(
    ("question", "words"),
    [
        (
            "ollama run qwen2.5:72b 我的电脑是 4060Ti 16G + 32G 内存，能跑吗？多快？",
            ("CPU 内存中 30.9 GiB", "内存共 32 GiB，只剩 1.1 GiB 给系统和其他程序：太紧"),
        ),
        (
            "ollama run qwen2.5:72b on my 4060 Ti 16GB with 32GB RAM, will it run and how fast?",
            ("30.9 GiB in CPU memory", "only 1.1 GiB of your 32 GiB RAM left for the system"),
        ),
    ],
)
def test_the_headline_says_how_little_ram_the_offload_leaves(question: str, words: tuple[str, ...]) -> None:
    """M2: 30.9 GiB of layers in 32 GiB of RAM leaves 1.1 GiB, under the 4 GiB an OS wants
    (estimator.host_ddr.OS_RAM_RESERVE): line 1 says so, not only the detail line '(内存共 32 GiB)'."""
    headline = _text(question).splitlines()[0]
    assert all(w in headline for w in words)


def test_an_offload_with_room_to_spare_says_nothing_of_the_os() -> None:
    """M2's other side: 64 GB of RAM leaves ~33 GiB beside the 30.9 GiB of layers: no warning."""
    headline = _text("ollama run qwen2.5:72b 我的电脑是 4060Ti 16G + 64G 内存，能跑吗？").splitlines()[0]
    assert "CPU 内存中 30.9 GiB" in headline and "太紧" not in headline


@pytest.mark.parametrize(
    "figures",
    [
        "• 解码速度：每条序列约 23 token/s ⚠️ 按 vLLM 的默认设置估算 " * 8 + "改用 --data-parallel-size 8",
        "• Decode: about 23 tokens/s per sequence ⚠️ sized with vLLM's defaults " * 6
        + "use --data-parallel-size 8",
    ],
)
def test_a_wecom_card_marks_where_it_cut_its_text(figures: str) -> None:
    """L7: WeCom's template card caps ``sub_title_text`` at 300 characters and the title at 60; a cut text
    ends in "…" at a space, never mid-flag ('改用 --data-paralle') with no sign of the cut."""
    from bot.chat.adapter import Outbound
    from bot.wecom.card import SUBTITLE_MAX, TITLE_MAX, build_card

    text = json.dumps({"h": "**" + figures[:90] + "**", "f": figures})
    card = build_card(Outbound(text, "T1", [], lang="zh"), "sz-T1-00000000")
    sub, title = card["sub_title_text"], card["main_title"]["title"]
    assert len(sub) <= SUBTITLE_MAX and sub.endswith("…") and "--data-paralle" not in sub
    assert len(title) <= TITLE_MAX and title.endswith("…")
    assert figures.startswith(sub[:-1]) and figures[len(sub) - 1] == " "


@pytest.mark.parametrize(
    "question",
    [
        "DPO 训练 14B 模型，2 万对偏好数据，每条 2k token，ZeRO-3，8 卡 A100 40G 够不够，要多久",
        "DPO-train a 14B model on 20k preference pairs of 2k tokens each, ZeRO-3, is 8x A100 40GB enough, "
        "how long?",
    ],
)
def test_a_zero3_fine_tune_recommends_recompute_before_more_nodes(question: str) -> None:
    """M3: 96 A100 40G (12 nodes) were recommended for a 3-hour DPO that fits on 8, only to keep the
    activations; with ZeRO-3 said (data parallelism: no TP to spread them) the recommendation weighs full
    recompute (≈ 1/3 more compute) against more nodes (estimator.layouts.prefer_recompute): 16 with it."""
    m = _json(question)["report"]["memory"]
    assert m["min_gpus"] == 8
    assert (m["recommended_gpus"], m["recommended_plan"]["recompute"]) == (16, "full")
    assert "96 " not in _text(question) and "96 张" not in _text(question)


@pytest.mark.parametrize(
    ("question", "plan_line", "fix"),
    [
        (
            "LLaMA-Factory LoRA 微调 Qwen2.5-14B，cutoff_len 8192，平均每条 1200 token，"
            "20万条数据，2 个 epoch，4 张 A100 要多久",
            "• 4 张时：TP 1 × PP 1 × DP 4，纯 DDP（不用 ZeRO），完全重计算，每卡约 48.5 GiB / 80 GiB",
            "要改的设置：DeepSpeed ZeRO-3 或 FSDP",
        ),
        (
            "LLaMA-Factory LoRA fine-tune Qwen2.5-14B, cutoff_len 8192, 1200 tokens per sample on average, "
            "200k samples, 2 epochs, 4x A100 - how long?",
            "• On 4 GPUs: TP 1 × PP 1 × DP 4, plain DDP (no ZeRO), full recompute, "
            "≈ 48.5 GiB of 80 GiB per GPU",
            "What to change: DeepSpeed ZeRO-3 or FSDP",
        ),
    ],
)
def test_a_ddp_tool_is_laid_out_as_ddp_where_one_gpu_holds_it(
    question: str, plan_line: str, fix: str
) -> None:
    """M6: LoRA 14B fits on one A100 ('at least 1 GPU'), so LLaMA-Factory's plain DDP on 4 (each GPU holds
    what one holds) is the plan shown — 48.5 GiB per GPU likely, its band's high end 83.1 GiB above the
    card, so borderline with ZeRO-3 as the change — not a ZeRO-3 plan at 30.2 GiB beside 'needs ZeRO-3'."""
    out = _text(question)
    assert plan_line in out and fix in out
    assert "DP 4，ZeRO-3" not in out and "DP 4, ZeRO-3" not in out  # the ZeRO-3 plan, 30.2 GiB
    m = _json(question)["report"]["memory"]
    assert (m["min_gpus"], m["plan"]["zero_stage"], m["plan"]["dp"]) == (1, 0, 4)
