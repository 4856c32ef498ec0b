"""Session 47 part cat (issue 24 item 4): catalog cards people asked about.

- Cambricon MLU370-X8 (estimator/data/gpus.toml): Cambricon's launch figures of 2022-03-21 — FP16 96
  TFLOPS, BF16 96 TFLOPS, INT8 256 TOPS, 48 GB LPDDR5 at 614.4 GB/s, PCIe 4.0 x16, 250 W. The bare 'MLU370'
  (the series, whose S4 / X4 cards are 24 GB) and the MLU370 typed with another variant stay as typed.
- Kunlunxin P800 and MetaX C500 are not in the catalog: no vendor page publishes their memory bandwidth and
  16-bit peak (searched 2026-12-07), so they are still named as typed, never swapped.
"""

from __future__ import annotations

import pytest

from estimator import catalog
from tests.real_questions import answer_json


def test_the_mlu370_x8_carries_cambricons_figures() -> None:
    spec = catalog.gpu("MLU370-X8")
    assert (spec.memory_gib, spec.memory_bandwidth_gbps) == (48, 614.4)
    assert (spec.peak_tflops_fp16, spec.peak_tflops_bf16, spec.peak_tops_int8) == (96.0, 96.0, 256.0)
    assert spec.vendor == "Cambricon" and spec.nvlink is False


@pytest.mark.parametrize(
    "question",
    [
        "8 张 MLU370-X8 能跑 Qwen2.5-32B 推理吗",
        "用 4 张寒武纪 MLU370-X8 部署 Qwen2.5-72B，够吗",
        "We have 8 Cambricon MLU370-X8 cards: can they serve Qwen2.5-72B?",
        "Serve Qwen2.5-32B on 4 MLU370-X8 with vLLM: how many concurrent users?",
    ],
)
def test_the_mlu370_x8_is_sized_as_itself(question: str) -> None:
    answer = answer_json(question)
    assert answer["request"]["gpu"] == "MLU370-X8"
    assert answer["interpretation"]["unknown_gpu"] is None
    assert answer["report"]["hardware"]["memory_gib"] == 48
    assert "A100" not in answer["reply"].split("\n", 1)[0]


def test_the_trials_colleagues_a800_stays_another_setup_beside_the_x8() -> None:
    """s13 trial N4: 'We have 8 Cambricon MLU370-X8 48GB cards. Our colleague … on 8 A800': theirs."""
    answer = answer_json(
        "We have 8 Cambricon MLU370-X8 48GB cards. Our colleague trained a 7B LoRA on 8 A800 "
        "in 6 hours on 100M tokens. How long for us on the MLU370 with the same data, "
        "and does 14B full fine-tuning fit?"
    )
    assert answer["request"]["gpu"] == "MLU370-X8" and answer["request"]["gpu_memory_gib"] == 48
    ignored = answer["interpretation"]["ignored"]
    assert any(i["text"] == "A800" and i["reason"] == "other_setup" for i in ignored)


@pytest.mark.parametrize(
    ("question", "typed"),
    [  # must not misread: the series alone, another variant and the other makers' cards stay as typed
        ("8 张 MLU370-48G 部署 Qwen3-32B 够吗", "MLU370"),
        ("How many Cambricon MLU370 48GB cards to serve Qwen2.5-7B?", "Cambricon MLU370"),
        ("寒武纪 MLU370-S4 24G 上跑 Qwen2.5-14B 推理需要几张", "寒武纪 MLU370-S4"),
        ("用 2 张昆仑芯 P800 部署 Qwen2.5-72B 要多少显存", "昆仑芯 P800"),
        ("Can 8 MetaX C500 serve Llama-3.1-70B?", "MetaX C500"),
    ],
)
def test_neighbours_of_the_x8_stay_as_typed(question: str, typed: str) -> None:
    answer = answer_json(question)
    assert answer["interpretation"]["unknown_gpu"] == typed
    assert answer["request"]["gpu"] == (typed if answer["request"]["gpu_memory_gib"] else "A100-SXM4-80GB")


# -- item 3: a DGX Spark (and every unified-memory box) is counted in machines: 台, not 张


@pytest.mark.parametrize(
    ("question", "head"),
    [
        ("两台 DGX Spark 能跑 Qwen2.5-72B 推理吗", "Qwen2.5 72B bf16 推理，2 台 DGX Spark："),
        ("一台 DGX Spark 能跑 gpt-oss-120b 吗", "1 台 DGX Spark"),
        ("Jetson Orin Nano 8GB 能跑 Qwen2.5-7B 吗", "1 台 Jetson Orin Nano 8G"),
        ("2 台 M4 Pro 64G 能跑 Qwen2.5-72B Q4 吗", "2 台 M4 Pro 64G"),
        ("Can 2 DGX Sparks serve Llama-3.1-70B?", "Meta Llama 3.1 70B bf16 inference on 2 × DGX Spark:"),
    ],
)
def test_a_dgx_spark_is_a_machine(question: str, head: str) -> None:
    answer = answer_json(question)
    first = answer["reply"].split("\n", 1)[0]
    assert head in first
    assert "张 DGX Spark" not in answer["reply"] and "张 Jetson" not in answer["reply"]


@pytest.mark.parametrize(
    ("question", "head"),
    [  # must not misread: a card stays a card (张), a Mac stays a machine as before
        ("两张 RTX 4090 能跑 Qwen2.5-32B 推理吗", "2 张 RTX 4090"),
        ("两台 Mac Studio M3 Ultra 512G 能跑 DeepSeek-R1 吗", "2 台 M3 Ultra 512G"),
    ],
)
def test_cards_stay_cards_beside_the_machines(question: str, head: str) -> None:
    assert head in answer_json(question)["reply"].split("\n", 1)[0]


# -- item 2: DeepSeek-V3.2 (not -Exp) is sized as the catalog's V3.2-Exp, and the reply says so


@pytest.mark.parametrize(
    ("question", "typed", "said"),
    [
        (
            "DeepSeek-V3.2 推理要几张 H200",
            "DeepSeek-V3.2",
            "“DeepSeek-V3.2”按 DeepSeek-V3.2-Exp（671B MoE，V3 架构 + DeepSeek Sparse Attention） "
            "估算：两者结构相同",
        ),
        (
            "How many H200 to serve DeepSeek-V3.2?",
            "DeepSeek-V3.2",
            "Sized “DeepSeek-V3.2” as DeepSeek-V3.2-Exp (671B MoE, V3 architecture + DeepSeek Sparse "
            "Attention): the same architecture",
        ),
        ("Serve DeepSeek-V3.2-Speciale on 8 H200", "DeepSeek-V3.2-Speciale", "the same architecture"),
    ],
)
def test_v3_2_is_sized_as_v3_2_exp_and_said(question: str, typed: str, said: str) -> None:
    """deepseek-ai/DeepSeek-V3.2 model card: 'The model structure of DeepSeek-V3.2 and DeepSeek-V3.2-Speciale
    are the same as DeepSeek-V3.2-Exp' (671B total, 37B active)."""
    answer = answer_json(question)
    assert answer["request"]["model"] == "DeepSeek-V3.2-Exp"
    subs = [(s["typed"], s["reason"]) for s in answer["interpretation"]["substitutions"]]
    assert (typed, "same_architecture_release") in subs
    assert said in answer["reply"]


@pytest.mark.parametrize(
    "question",
    [  # must not misread: the -Exp release itself, and V3.1 / V3, are sized as themselves without the line
        "DeepSeek-V3.2-Exp 推理要几张 H200",
        "Serve deepseek-ai/DeepSeek-V3.2-Exp on 8 H200",
        "DeepSeek-V3.1 推理要几张 H200",
        "How many H200 to serve DeepSeek-V3?",
    ],
)
def test_the_exp_release_and_older_versions_say_nothing(question: str) -> None:
    answer = answer_json(question)
    reasons = [s["reason"] for s in answer["interpretation"]["substitutions"]]
    assert "same_architecture_release" not in reasons
    assert "same architecture" not in answer["reply"] and "结构相同" not in answer["reply"]


# -- item 4: Whisper is named as a speech model, not an LLM; its hours of audio are named with why


@pytest.mark.parametrize(
    ("question", "said", "hours"),
    [
        (
            "用 Whisper large-v3 转写 1 万小时音频，需要几张 A100，多久",
            "“Whisper large-v3”是语音识别模型，不是我估算的大语言模型：只按同尺寸的通用结构（1.55B）估算",
            "1 万",
        ),
        (
            "Transcribe 10,000 hours of audio with Whisper large-v3 on A100s: how long?",
            "“Whisper large-v3” is a speech-recognition model, not an LLM I size: only its memory and its "
            "text decoding are estimated, with a generic shape of its size (1.55B).",
            "10,000",
        ),
    ],
)
def test_whisper_is_named_as_not_an_llm(question: str, said: str, hours: str) -> None:
    """Whisper large: 1.55B parameters (Radford et al. 2022, Table 1)."""
    answer = answer_json(question)
    assert said in answer["reply"]
    subs = [(s["typed"], s["reason"]) for s in answer["interpretation"]["substitutions"]]
    assert ("Whisper large-v3", "speech_model_shape") in subs
    assert {"text": hours, "reason": "audio_hours"} in [
        {"text": i["text"], "reason": i["reason"]} for i in answer["interpretation"]["ignored"]
    ]


@pytest.mark.parametrize(
    "question",
    [  # must not misread: an unknown LLM keeps the generic-shape line; a TTS model stays out of scope
        "Serve FooLM-7B on one A100",
        "用一张 A100 部署 FooLM-7B",
    ],
)
def test_an_unknown_llm_is_not_called_a_speech_model(question: str) -> None:
    answer = answer_json(question)
    reasons = [s["reason"] for s in answer["interpretation"]["substitutions"]]
    assert "speech_model_shape" not in reasons
    assert "语音识别" not in answer["reply"] and "speech-recognition" not in answer["reply"]


# -- item 5: a head count is users, ⌈users × 10 %⌉ at once; 'N users' is read as at once and said (README)


@pytest.mark.parametrize(
    ("question", "users", "at_once"),
    [
        ("公司 500 名员工用 Qwen2.5-32B，需要几张 A100", 500, 50),
        ("Our company of 500 employees will use Qwen2.5-32B: how many A100?", 500, 50),
        ("公司 505 名员工用 Qwen2.5-32B，需要几张 A100", 505, 51),  # ⌈505 × 10 %⌉ = 51
        ("505 employees use Qwen2.5-32B: how many A100?", 505, 51),
    ],
)
def test_a_head_count_is_users_one_in_ten_at_once(question: str, users: int, at_once: int) -> None:
    answer = answer_json(question)
    assert (answer["request"]["users"], answer["request"]["concurrency"]) == (users, at_once)
    assert {"text": str(users), "reason": "users_active_share"} in [
        {"text": i["text"], "reason": i["reason"]} for i in answer["interpretation"]["ignored"]
    ]


@pytest.mark.parametrize(
    "question",
    [  # must not misread: 'users' is the load at once in both languages, and the reply says how to say people
        "Qwen2.5-32B for 500 users: how many A100?",
        "Qwen2.5-32B 给 500 个用户用，要几张 A100",
    ],
)
def test_users_are_read_at_once_in_both_languages(question: str) -> None:
    answer = answer_json(question)
    assert answer["request"]["concurrency"] == 500 and answer["request"]["users"] is None
    assert {"text": "500", "reason": "users_at_once"} in [
        {"text": i["text"], "reason": i["reason"]} for i in answer["interpretation"]["ignored"]
    ]
