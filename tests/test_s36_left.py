"""Session 36, part left: answers a trial and a review found wrong.

1. A full fine-tune's fewest-card plan is a layout the common stacks run: ZeRO-3 / FSDP data parallelism
   (gradient checkpointing included) when it fits, TP or PP only where no data-parallel layout does or a
   Megatron-family tool is named. LLaMA-Factory and the HF Trainer have no TP of their own, and DeepSpeed's
   AutoTP training tutorial (deepspeed.ai/tutorials/autotp-training) pairs TP with ZeRO stages 0–2: the old
   'TP 2' for Llama 3 8B on 2 × A100 80G was a Megatron-LM layout nobody asked for.
4. Words misread as training settings: the rounds of a chat ('每个对话达到 50 轮') are not epochs, and
   documents one request carries ('each input reaches 3 documents') are not training samples — unless a
   training word is near.

Expected bytes are worked by hand from design §3.3 (ZeRO: 2 + 2 + 12 bytes per parameter, sharded over the
data-parallel degree under ZeRO-3) and the catalog's exact parameter counts (Meta-Llama-3-8B config.json:
8.03e9; Qwen2.5-14B: 14.7e9).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.parse.chat_forms import chat_rounds, in_one_prompt
from estimator.catalog import gpu as catalog_gpu
from estimator.catalog import model as catalog_model
from estimator.layouts import ordered_layouts, plan_preference
from estimator.setup import Layout

GIB = 2**30


def ask(capsys, question: str, fmt: str = "json") -> dict | str:
    main(["ask", "--format", fmt, question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


def _layout(d: dict) -> tuple:
    p = d["report"]["memory"]["plan"]
    return p["tp"], p["pp"], p["dp"], p["zero_stage"]


# ---- 1. the fewest-card plan of a full fine-tune: ZeRO-3 data parallelism before TP --------------------


@pytest.mark.parametrize("question", ["全参微调llama3 8b 2张A100", "full fine-tune Llama 3 8B on 2 A100 80G"])
def test_full_fine_tune_on_two_a100_is_zero3_data_parallel(capsys, question):
    d = ask(capsys, question)
    assert d["report"]["memory"]["min_gpus"] == 2
    assert _layout(d) == (1, 1, 2, 3)  # TP 1 × PP 1 × DP 2, ZeRO-3 (was TP 2 × DP 1)
    parts = d["report"]["memory"]["breakdown"]
    params = catalog_model("Llama-3-8B").params_total
    assert params == 8.03e9
    # ZeRO-3 over DP 2: bf16 weights 2 B, bf16 gradients 2 B, fp32 master + m + v 12 B per parameter, halved
    assert parts["weights"] == pytest.approx(2 * params / 2, rel=1e-9)  # 8.03 GB = 7.48 GiB
    assert parts["gradients"] == pytest.approx(2 * params / 2, rel=1e-9)
    assert parts["optimizer"] == pytest.approx(12 * params / 2, rel=1e-9)  # 48.18 GB = 44.87 GiB
    assert sum(parts.values()) <= 0.9 * catalog_gpu(d["request"]["gpu"]).addressable_bytes  # comfortable


def test_full_fine_tune_of_14b_is_zero3_on_four_a100(capsys):
    d = ask(capsys, "全参微调Qwen2.5-14B要几张A100 80G？")
    assert d["report"]["memory"]["min_gpus"] == 4
    assert _layout(d) == (1, 1, 4, 3)  # was TP 2 with ZeRO-3, a layout only Megatron-FSDP runs
    parts = d["report"]["memory"]["breakdown"]
    params = catalog_model("Qwen2.5-14B").params_total
    assert parts["optimizer"] == pytest.approx(12 * params / 4, rel=1e-9)  # 44.1 GB = 41.07 GiB
    text = ask(capsys, "全参微调Qwen2.5-14B要几张A100 80G？", "text")
    assert "TP 1 × PP 1 × DP 4，ZeRO-3" in text


def test_a_megatron_tool_named_keeps_tensor_parallelism(capsys):
    d = ask(capsys, "用Megatron-LM全参微调llama3 8b 2张A100")
    assert _layout(d) == (2, 1, 1, 0)  # Megatron-LM runs TP: its least-communication layout stands


def test_data_parallel_first_orders_every_dp_layout_before_tp():
    # Llama 3 8B's shape: 32 layers, 32 heads, 8 KV heads; 8 NVLink GPUs a node; 2 GPUs
    first = ordered_layouts(32, 32, 8, 8, True, 2, 1, False, None, None, 0, None, None, False, True)
    plain = ordered_layouts(32, 32, 8, 8, True, 2, 1, False, None, None, 0, None, None, False)
    assert sorted(first) == sorted(plain)  # the same layouts, another order
    split = [i for i, p in enumerate(first) if p.tp * p.pp > 1]
    assert max(i for i, p in enumerate(first) if p.tp * p.pp == 1) < min(split)
    assert first[0] == Layout(1, 1, 2, 0, "selective", 1, False)
    assert (first[4].tp, first[4].recompute) == (1, "full")  # DP with full recompute before TP 2
    assert plain[4].tp == 2  # before: TP 2 without full recompute came first
    assert list(first) == sorted(first, key=lambda p: plan_preference(p, True, False, 8, dp_first=True))


# ---- 4. chat rounds are not epochs; documents in one prompt are not training samples --------------------


@pytest.mark.parametrize(
    ("left", "right", "want"),
    [
        ("部署qwen2.5 7b做客服，每个对话达到 ", "轮，要几张4090", True),
        ("客服场景，平均 ", "轮对话，要几张卡", True),
        ("a support bot where each chat runs ", "轮", True),
        ("多轮对话数据训练 ", "轮，要几张卡", False),  # a training word: epochs
        ("全参微调qwen2.5 7b，1万条对话，", "轮", False),
        ("微调qwen 7b，跑 ", "轮", False),  # no chat word
        ("每个对话达到 ", "次", False),  # not 轮
    ],
)
def test_chat_rounds(left, right, want):
    assert chat_rounds(left, right) is want


@pytest.mark.parametrize(
    ("left", "right", "want"),
    [
        ("serve llama 3 8b where each input reaches ", " documents of 20k tokens", True),
        ("每次输入 ", "篇文档，要几张卡", True),
        ("rag service: ", " documents per request, 8k each", True),
        ("部署qwen做问答，", "篇文档塞进上下文", True),
        ("fine-tune qwen2.5 7b on ", " documents for 2 epochs", False),
        ("用 ", "篇文档训练", False),  # no prompt word before, no per-request after
        ("微调时每次输入 ", "篇文档", False),  # a training word near
    ],
)
def test_documents_in_one_prompt(left, right, want):
    assert in_one_prompt(left, right) is want


@pytest.mark.parametrize(
    "question",
    [
        "部署qwen2.5 7b做客服，每个对话达到 50 轮，要几张4090",
        "部署qwen2.5 7b，客服平均 20 轮对话，要几张4090",
    ],
)
def test_chat_rounds_are_not_epochs_end_to_end(capsys, question):
    d = ask(capsys, question)
    assert d["request"]["stage"] == "inference"
    assert d["request"].get("epochs") is None
    assert not [i for i in d["interpretation"]["ignored"] if i["text"].startswith("epochs")]
    assert {i["text"] for i in d["interpretation"]["ignored"]} & {"50", "20"}  # named as not used


def test_training_rounds_stay_epochs(capsys):
    d = ask(capsys, "用10万条多轮对话数据微调qwen2.5 7b，训练3轮，要几张A100")
    assert (d["request"]["epochs"], d["request"]["num_samples"]) == (3.0, 100000.0)


def test_documents_in_one_input_are_not_samples(capsys):
    d = ask(capsys, "serve Llama 3 8B on one A100 where each input reaches 3 documents of 20k tokens")
    assert d["request"].get("num_samples") is None
    assert d["request"]["prompt_tokens"] == 20000
    assert "3" in {i["text"] for i in d["interpretation"]["ignored"]}  # named, not swapped


def test_training_documents_stay_samples(capsys):
    d = ask(capsys, "fine-tune qwen2.5 7b on 3000 documents for 2 epochs on A100")
    assert (d["request"]["num_samples"], d["request"]["epochs"]) == (3000.0, 2.0)


# ---- 2. a context past the named version's window names the later version of the same size -------------


@pytest.mark.parametrize(
    ("model", "tokens", "want"),
    [
        ("Llama-3-70B", 131072, ("Meta Llama 3.1 70B", 131072)),  # config.json max_position_embeddings
        ("Llama-3-8B", 131072, ("Meta Llama 3.1 8B", 131072)),
        ("Qwen2-72B", 131072, ("Qwen2.5 72B", 131072)),  # 32,768 native, YaRN factor 4
        ("Llama-3-70B", 1_000_000, None),  # no release of that shape holds 1M tokens
        ("Llama-2-70B", 32768, None),  # Llama 3's vocabulary differs (128,256 vs 32,000): another shape
        ("Qwen2.5-7B", 262144, None),  # never an earlier version, a -Coder or a -Math model
    ],
)
def test_later_version(model, tokens, want):
    from estimator.context_window import later_version

    assert later_version(catalog_model(model), tokens) == want


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "serve lamma3 70b with 128k ctx on H100, how many?",
            "Meta Llama 3.1 70B, the same size and shape, was released for 131,072 tokens",
        ),
        (
            "部署 lamma3 70b，上下文 128k，几张H100",
            "Meta Llama 3.1 70B 大小和结构相同，发布时支持 131,072 个 token",
        ),
    ],
)
def test_a_context_past_llama3_names_llama31(capsys, question, said):
    d = ask(capsys, question)
    codes = {n["code"]: n["params"] for n in d["report"]["warnings"]}
    assert codes["later_version_window"]["later"] == "Meta Llama 3.1 70B"
    assert "beyond_context_window" in codes  # the model asked stays, and its window is said
    assert d["request"]["model"] == "Llama-3-70B"
    assert said in ask(capsys, question, "text")


def test_no_later_version_within_the_window(capsys):
    d = ask(capsys, "serve llama3 70b with 8k ctx on H100, how many?")
    assert "later_version_window" not in {n["code"] for n in d["report"]["warnings"]}


@pytest.mark.parametrize(
    "question",
    [
        "I serve my MyQwen 7B via Ollama on a 4090, how much memory?",
        "用 Ollama 在 4090 上跑我的 MyQwen 7B，要多少显存",
    ],
)
def test_ollama_is_a_runtime_and_the_unknown_model_is_named(capsys, question):
    d = ask(capsys, question)
    assert d["request"]["runtime"] == "Ollama"  # kept as the runtime: its memory model sizes the answer
    assert d["interpretation"]["unknown_model"] == "MyQwen 7B"  # named as typed, never swapped
    assert not [i for i in d["interpretation"]["ignored"] if "ollama" in i["text"].lower()]
