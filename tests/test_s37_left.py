"""Session 37, branch s37-left: answers a trial and a review found wrong. Sentences of our own, both
languages.

1. Lists of values written in more ways get a row each (report.per_value): the preposition repeated after
   the separator ('for 16k and for 64k', '16k 还是用 64k'), card memories written as a list with their
   unit ('24G 还是 48G 的卡', '24G, 48G or 80G cards'); a card asked about with no model asks for the
   model (help.j2).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _rows(answer: dict[str, Any]) -> list[tuple[str, float]]:
    return [(r["setting"], r["value"]) for r in answer["report"]["per_value"]]


def _ignored(answer: dict[str, Any]) -> list[str]:
    return [i["text"] for i in answer["interpretation"].get("ignored") or []]


# 1. lists


@pytest.mark.parametrize(
    ("text", "setting", "values"),
    [
        ("serve Llama-3-8B for 16k and for 64k context, how much memory", "seq_len", [16384, 65536]),
        ("部署 Llama-3-8B，16k 还是用 64k 上下文", "seq_len", [16384, 65536]),
        ("部署Qwen2.5-7B，24G 还是 48G 的卡", "gpu_memory_gib", [24, 48]),
        ("serve Qwen2.5-7B on a 24GB or 48GB card", "gpu_memory_gib", [24, 48]),
        ("Qwen2.5-7B 推理，16G、24G 或 48G 显存够吗", "gpu_memory_gib", [16, 24, 48]),
        ("finetune Llama-3-8B with 24G, 48G or 80G cards", "gpu_memory_gib", [24, 48, 80]),
        ("在 1、2 或 4 张 A100 上微调 Llama-3-8B 要多久", "gpu_count", [1, 2, 4]),
    ],
)
def test_a_row_per_value_listed(text: str, setting: str, values: list[float]) -> None:
    answer = answer_json(text)
    assert _rows(answer) == [(setting, v) for v in values]
    assert not set(_ignored(answer)) & {str(v) for v in values}  # each answered in its row, none 'ask apart'


def test_a_listed_length_row_is_the_length_asked_alone() -> None:
    rows = answer_json("serve Llama-3-8B for 16k and for 64k context, how much memory")["report"]["per_value"]
    alone = answer_json("serve Llama-3-8B at 64k context, how much memory")["report"]["inference"]
    row = next(r for r in rows if r["value"] == 65536)
    assert row["memory_gib"] == round(alone["bytes_per_gpu"] / 2**30, 1)
    # Llama-3-8B KV: 32 layers × 8 KV heads × 128 × 2 (K, V) × 2 B = 128 KiB per token (design §3.4)
    assert alone["kv_bytes_per_token"] == 32 * 8 * 128 * 2 * 2


@pytest.mark.parametrize(
    "text",
    [
        "部署Qwen2.5-7B 24G 的卡，48 路并发",  # a memory and a load, not a list of memories
        "serve Qwen2.5-7B on a 24GB card with 48 concurrent users",
        "serve Llama-3-8B for 16k context and 64 users",  # a length and a load
    ],
)
def test_no_memory_rows_without_a_list(text: str) -> None:
    answer = answer_json(text)
    assert answer["report"]["per_value"] == []


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("4090 24G 能跑吗？如果不行，A100 40G 可以吗？", "能不能在你说的卡上跑，要看模型"),
        ("will it run on a 4090 24G? if not, an A100 40G?", "Whether it runs on the card you named depends"),
    ],
)
def test_a_card_without_a_model_asks_for_the_model(text: str, line: str) -> None:
    answer = answer_json(text)
    assert line in answer["reply"]
    assert answer["request"]["model"] is None  # no default model sized in its place


def test_a_card_with_a_model_is_sized() -> None:
    answer = answer_json("Qwen2.5-7B 在 4090 24G 上能跑吗？")
    assert "要看模型" not in answer["reply"]
    assert answer["request"]["model"] == "Qwen2.5-7B"


# 2. Ascend serving: vLLM-Ascend or MindIE, never the CUDA servers as the advice


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("在 910B 上部署 Qwen2.5-72B，要几张卡", "在昇腾 NPU 上部署用 vLLM-Ascend"),
        ("serve Qwen2.5-72B on 8 Ascend 910C", "On Ascend NPUs serve it with vLLM-Ascend"),
    ],
)
def test_ascend_serving_advises_the_ascend_runtimes(text: str, line: str) -> None:
    reply = answer_json(text)["reply"]
    assert line in reply and "MindIE" in reply
    assert "Serve it with vLLM or SGLang" not in reply and "部署用 vLLM 或 SGLang" not in reply


def test_a_stated_mindie_is_named_as_not_modelled() -> None:
    answer = answer_json("用 MindIE 在 910B 上部署 Qwen2.5-72B")
    ignored = {(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]}
    assert ("runtime: MindIE", "runtime_not_modelled") in ignored
    assert answer["request"]["runtime"] is None  # never swapped for vLLM silently: named above


def test_nvidia_serving_keeps_vllm_and_sglang() -> None:
    reply = answer_json("serve Qwen2.5-72B on 4 A100 80G")["reply"]
    assert "Serve it with vLLM or SGLang" in reply and "vLLM-Ascend" not in reply


# 3. 'which is faster' between two models: the layouts each was sized on are named when they differ


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        (
            "which is faster to serve on 4 H100, Llama-3-8B or Llama-3-70B?",
            ["layouts differ", "Meta Llama 3 8B TP=1 × 4 replicas", "Meta Llama 3 70B TP=4 "],
        ),
        (
            "4 张 A100 上部署，Qwen2.5-32B 和 Llama-3-70B 哪个更快",
            ["布局不同", "Qwen2.5 32B TP=1 × 4 个副本", "Meta Llama 3 70B TP=4"],
        ),
    ],
)
def test_which_is_faster_names_different_layouts(text: str, parts: list[str]) -> None:
    # 8B bf16 16.1 GB + its KV fit one 80 GB card: 4 copies; 70B bf16 141 GB needs TP 4 (a power of two ≥ 2)
    first = answer_json(text)["reply"].splitlines()[0]
    assert all(p in first for p in parts), first


def test_which_is_faster_on_a_stated_layout_names_none() -> None:
    first = answer_json("which is faster to serve on 4 H100 at TP 4, Llama-3-8B or Llama-3-70B?")["reply"]
    assert "Faster: Meta Llama 3 8B" in first and "layouts differ" not in first


# 4. the formula line on the recommended size follows the recommended layout's own recompute


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("full fine-tune Llama-3-70B on H100", "with the full recompute its layout runs"),
        ("全参微调 Llama-3-70B 用 H100", "按它的布局开全量重计算"),
    ],
)
def test_a_recomputing_recommended_layout_is_not_called_no_recompute(text: str, line: str) -> None:
    answer = answer_json(text)
    rec = answer["report"]["memory"]["recommended_plan"]
    assert (rec["tp"], rec["pp"], rec["recompute"]) == (1, 1, "full")  # data parallelism first (s36)
    assert line in answer["reply"]
    reply = answer["reply"]
    assert "no full recompute on NVLink" not in reply and "有 NVLink 的卡不开全量重计算" not in reply


def test_a_recommended_layout_without_full_recompute_keeps_its_line() -> None:
    answer = answer_json("full fine-tune Qwen2.5-7B on A100 80G")
    assert answer["report"]["memory"]["recommended_plan"]["recompute"] != "full"
    assert "no full recompute on NVLink GPUs" in answer["reply"]


# 5. a stated 128K on a model whose config window is 128,000 tokens is that window


@pytest.mark.parametrize(
    "text",
    ["部署Mistral-Nemo-12B，128K上下文要多少显存", "serve Mistral-Nemo 12B at 128K context, how much memory"],
)
def test_128k_on_a_128000_window_is_the_window(text: str) -> None:
    answer = answer_json(text)
    # mistralai/Mistral-Nemo-Base-2407 config.json: max_position_embeddings 128000 ('128k context')
    assert answer["request"]["seq_len"] == 128_000
    assert not [w for w in answer["report"]["warnings"] if w["code"] == "beyond_context_window"]
    # KV per token: 40 layers × 8 KV heads × head_dim 128 × 2 (K, V) × 2 B = 163,840 B (160 KiB)
    inf = answer["report"]["inference"]
    assert inf["kv_bytes_per_token"] == 40 * 8 * 128 * 2 * 2
    assert "128K" in answer["reply"].splitlines()[0] and "125K" not in answer["reply"]


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("serve Llama-3.1-8B at 128K context", 131_072),  # config.json max_position_embeddings 131072
        ("部署Qwen2.5-7B，128K上下文要多少显存", 131_072),  # YaRN factor 4 × 32,768 native
        ("serve Mistral-Nemo 12B at 256K context", 262_144),  # past the window: as said, and the note stays
        ("用 128K 上下文 LoRA 微调 Mistral-Nemo-12B", 128_000),  # training reads the same rule
    ],
)
def test_a_k_length_elsewhere_stays_1024s(text: str, tokens: int) -> None:
    assert answer_json(text)["request"]["seq_len"] == tokens


# 7. LLaVA-1.5 in the catalog, the vision tower and projector in the count


@pytest.mark.parametrize(
    ("model", "total", "vision"),
    [
        # CLIP ViT-L/14-336 303,507,456 + projector 1,024→4,096→4,096 20,979,712; Vicuna-7B, vocab 32,064
        ("LLaVA-1.5-7B", 7_063_427_072, 303_507_456 + 20_979_712),
        # the same tower + projector 1,024→5,120→5,120 31,467,520; Vicuna-13B, vocab 32,064
        ("LLaVA-1.5-13B", 13_351_494_656, 303_507_456 + 31_467_520),
    ],
)
def test_llava_counts_its_vision_tower(model: str, total: int, vision: int) -> None:
    from estimator import catalog
    from estimator.architecture import count_params

    spec = catalog.models()[model]
    assert spec.vision is not None and spec.vision.params == vision
    assert spec.vision.tokens_per_image == (336 // 14) ** 2 == 576
    assert count_params(spec)[0] == spec.params_total == total


@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("serve llava-1.5-7b on one 4090", "LLaVA-1.5-7B"),
        ("全参微调 LLaVA-1.5-13B 要几张 A100", "LLaVA-1.5-13B"),
    ],
)
def test_llava_is_read_and_sized(text: str, model: str) -> None:
    answer = answer_json(text)
    assert answer["request"]["model"] == model
    inf = answer["report"].get("inference")
    if inf is not None:  # fp16 release: 2 bytes per parameter, tower included
        assert inf["weights_bytes"] == pytest.approx(7_063_427_072 * 2, rel=0.01)


@pytest.mark.parametrize("text", ["full fine-tune LLaVA 7B on one A100 40GB", "微调 LLaVA 7B 要几张 A100"])
def test_llava_without_a_version_is_named(text: str) -> None:
    # LLaVA (v1), 1.5 and NeXT all have a 7B: the unversioned name is read as the catalog's release, said
    answer = answer_json(text)
    subs = [(s["typed"], s["used"], s["reason"]) for s in answer["interpretation"]["substitutions"]]
    assert ("LLaVA 7B", "LLaVA-1.5-7B", "latest_release") in subs
