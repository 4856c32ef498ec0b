"""Design-review fixes of s31 (fixf).

1. A vision-language release's tower is loaded (weights) but runs on image tokens only, and no images are
   read: per-token FLOPs (6·N·D), decode bytes and per-layer splits use the language model's parameters.
   Qwen2.5-VL-7B's language model is Qwen2.5-7B's shape and Qwen2.5-VL-3B's is Qwen2.5-3B's
   (tests/test_s31_catalog.py), so each pair's figures must agree where only the LLM counts.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import catalog
from estimator.architecture import count_params
from estimator.layout_table import DenseTable
from estimator.model_states import trained_params
from estimator.models import Method
from estimator.setup import TrainingSetup
from estimator.transients import _per_layer_linear_params


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "vl, text",
    [
        ("Qwen2.5-VL-7B 在一张 H100 上推理，单用户", "Qwen2.5-7B 在一张 H100 上推理，单用户"),
        ("serve Qwen2.5-VL-3B on one L40S for 8 users", "serve Qwen2.5-3B on one L40S for 8 users"),
    ],
)
def test_decode_reads_the_language_model_only(capsys, vl, text):
    a, b = _ask(capsys, vl)["report"]["inference"], _ask(capsys, text)["report"]["inference"]
    assert a["weights_bytes"] > b["weights_bytes"]  # the tower is loaded …
    assert a["decode_tokens_per_s"]["batch"] == b["decode_tokens_per_s"]["batch"]
    # … but not read per token: the same bytes per decode step as the text model of that shape
    assert a["decode_tokens_per_s"]["per_sequence"] == pytest.approx(
        b["decode_tokens_per_s"]["per_sequence"],
        rel=5e-3,  # catalog totals are rounded (3.75B, 3.09B)
    )


@pytest.mark.parametrize(
    "question, model",
    [
        ("full fine-tune Qwen2.5-VL-3B on 1B tokens with 8 H100", "Qwen2.5-VL-3B"),
        ("用 8 张 H100 全参微调 Qwen2.5-VL-7B，数据 2B token", "Qwen2.5-VL-7B"),
    ],
)
def test_training_flops_count_the_language_model(capsys, question, model):
    m = catalog.model(model)
    tokens = 1e9 if "3B" in model else 2e9
    lm = m.params_total - m.vision.params
    report = _ask(capsys, question)["report"]
    assert report["flops"] == pytest.approx(6 * lm * tokens)  # was 6 × the whole checkpoint
    assert report["flops"] < 6 * m.params_total * tokens / 1.07


def test_the_ledger_says_the_towers_flops_are_not_counted(capsys):
    en = _ask(capsys, "full fine-tune Qwen2.5-VL-7B on 1B tokens with 8 H100")
    (a,) = [x for x in en["assumptions"] if x["why"] == "vision_tower_frozen"]
    assert "its FLOPs are not counted (it runs on image tokens only" in a["source"]
    main(["ask", "--", "用 8 张 H100 推理 Qwen2.5-VL-7B"])
    zh = capsys.readouterr().out
    assert "已计入权重，但不计入每个 token 读取的字节（它只处理图像 token，这里不读取图像）" in zh


@pytest.mark.parametrize("vl, text", [("Qwen2.5-VL-7B", "Qwen2.5-7B"), ("Qwen2.5-VL-3B", "Qwen2.5-3B")])
def test_per_layer_splits_leave_the_tower_out(vl, text):
    m, t = catalog.model(vl), catalog.model(text)
    pm, pt = count_params(m)[0], count_params(t)[0]
    from estimator.vision import language_params

    assert language_params(m, pm) == pt
    freeze = TrainingSetup(method=Method.freeze, freeze_layers=2)
    assert trained_params(m, pm, freeze) == pytest.approx(trained_params(t, pt, freeze))
    assert _per_layer_linear_params(m, pm) == pytest.approx(_per_layer_linear_params(t, pt))
    setup = TrainingSetup()
    assert DenseTable(m, pm, setup).layer_linear == pytest.approx(DenseTable(t, pt, setup).layer_linear)


# 2. An answer that sized nothing counts a personal card as one card by the estimator's own predicate
#    (estimator.resolve.one_personal_card), and says it filled the count: a follow-up given the JSON as
#    ``prev`` fills it again rather than taking the 1 as stated.


@pytest.mark.parametrize(
    "question, card",
    [
        ("my RTX 3090 runs tiny-mystery-chat on vLLM, why is it slow?", "NVIDIA GeForce RTX 3090"),
        ("我的 RTX 4060 用 vLLM 跑 functionary-small 为什么这么慢", "NVIDIA GeForce RTX 4060 8GB"),
    ],
)
def test_unsized_personal_card_is_an_assumed_count(capsys, question, card):
    d = _ask(capsys, question)
    assert d["report"] is None
    assert d["request"]["gpu_count"] == 1
    assert d["request"]["assumed_fields"] == ["gpu_count"]
    (a,) = d["assumptions"]
    assert (a["field"], a["value"], a["why"], a["params"]) == (
        "gpu_count",
        1,
        "personal_one_card",
        {"gpu": card},
    )
    from bot.web.state import as_stated
    from estimator.request import SizingRequest

    assert as_stated(SizingRequest.model_validate(d["request"])).gpu_count is None  # filled again, not said


@pytest.mark.parametrize(
    "question",
    [
        "how many RTX 3090 do I need to run tiny-mystery-chat on vLLM?",
        "跑 tiny-mystery-chat 需要几张 RTX 4090？",
    ],
)
def test_unsized_count_follows_the_estimators_conditions(capsys, question):
    # the count asked is the question, for the sizing estimator and the unsized answer alike: no count
    d = _ask(capsys, question)
    assert d["report"] is None and d["request"]["count_asked"] is True
    assert d["request"]["gpu_count"] is None and d["assumptions"] == []


# 3. A model with both state layers and sliding-window layers: the KV splits are over the KV layers
#    (layers − state_layers), and the window applies to the sequence's KV. MiniMax-M1 (80 layers, 70 lightning
#    state layers, 10 softmax layers of 2·8·128·2 = 4,096 B per token each) with half its softmax layers
#    windowed at 4,096 tokens — no catalog model has both yet, so the shape is hypothetical.


def _hybrid_windowed():
    m = catalog.model("MiniMax-M1")
    return m.model_copy(update={"sliding_window": 4096, "sliding_window_layers": 5})


def test_hybrid_windowed_kv_per_sequence():
    from estimator.state_layers import state_bytes_per_sequence
    from estimator.weights import kv_bytes_per_sequence, kv_bytes_per_token

    m = _hybrid_windowed()
    assert kv_bytes_per_token(m) == 40_960.0
    state = state_bytes_per_sequence(m)
    # 5 full layers × 32,768 tokens + 5 windowed × 4,096, 4,096 B per layer-token: 756 MiB, + the states
    assert kv_bytes_per_sequence(m, 32_768) == pytest.approx(4096 * (5 * 32_768 + 5 * 4096) + state)
    assert kv_bytes_per_sequence(m, 2048) == pytest.approx(40_960 * 2048 + state)  # under the window


def test_hybrid_windowed_kv_capacity():
    from estimator.serving_layout import kv_capacity_tokens, room_per_gpu
    from estimator.state_layers import state_bytes_per_sequence

    m, gpu = _hybrid_windowed(), catalog.gpu("H200-SXM-141GB")
    weights = 8 * 0.5 * room_per_gpu(m, gpu, 8)  # half the room to the weights: the rest for KV
    room = room_per_gpu(m, gpu, 8) * 8 - weights - state_bytes_per_sequence(m) - 4096 * 5 * 4096
    tokens = kv_capacity_tokens(m, gpu, weights, 8)
    # the 5 full KV layers hold the tokens (4,096 B per layer-token; MiniMax's 8 KV heads split over TP 8)
    assert tokens == pytest.approx(room // (4096 * 5), abs=16)
