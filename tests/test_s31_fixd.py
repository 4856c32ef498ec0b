"""Session 31 fix d, after a fresh-user trial.

- The NVIDIA DGX Spark (GB10, 128 GB unified LPDDR5x, 273 GB/s) is a catalog device of one GPU per box:
  before, 'gpt-oss-120b on a DGX Spark' was sized on an A100 80G "for reference only" and '两台 DGX Spark'
  was two DGX machines of eight; its answers keep Apple's advice (MLX, sysctl) to Macs.
"""

from __future__ import annotations

import re

import pytest

from tests.real_questions import answer_json

SPARK = "DGX-Spark-GB10-128GB"


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("can I run gpt-oss-120b on a DGX Spark, how many tokens/s?", 1),
        ("two DGX Sparks: how fast is qwen2.5 72b in 4-bit?", 2),
        ("Does a GB10 box run Qwen3 32B in bf16?", 1),
        ("Does gpt-oss-120b fit on a single DGX Spark?", 1),  # from tests/test_hw_reader.py
        ("一台 DGX Spark 能跑 gpt-oss-120b 吗", 1),  # from tests/test_hw_reader.py
        ("在一台 DGX Spark 上跑 gpt-oss-120b 每秒多少 token？", 1),
        ("两台 DGX Spark 跑 Qwen2.5 72B 4bit 多快？", 2),
        ("用 GB10 跑 Qwen3 32B 够吗", 1),
    ],
)
def test_a_dgx_spark_is_one_catalog_device_a_box(text: str, count: int) -> None:
    req = answer_json(text)["request"]
    assert (req["gpu"], req["gpu_count"]) == (SPARK, count)


@pytest.mark.parametrize(
    "text",
    [
        "can I run gpt-oss-120b on a DGX Spark, how many tokens/s?",
        "在一台 DGX Spark 上跑 gpt-oss-120b 每秒多少 token？",
    ],
)
def test_a_spark_gets_its_own_speed_and_no_mac_advice(text: str) -> None:
    reply = answer_json(text)["reply"]
    head = reply.splitlines()[0]
    # 273 GB/s over the mxfp4 weights read per token: 45 tokens/s, not an A100's 21 "for reference"
    # s36 fixg: the figure carries its band beside it ('≈ 45 (33–63) tokens/s', '解码约 45（33–63） token/s')
    assert re.search(r"\b45 ?(?:[(（]\d+–\d+[)）] ?)?token", head) and "A100" not in head
    assert "llama.cpp / MLX" not in reply and "On a Mac" not in reply and "在 Mac 上" not in reply


def test_apache_spark_is_no_device() -> None:
    req = answer_json("we clean data with Apache Spark, then serve Llama 3 8B on one H100")["request"]
    assert (req["gpu"], req["gpu_count"]) == ("H100-SXM5-80GB", 1)


def test_a_mac_keeps_its_advice() -> None:
    reply = answer_json("can I run gpt-oss-120b on an M4 Max, how many tokens/s?")["reply"]
    assert "llama.cpp / MLX" in reply and "On a Mac, run GGUF or MLX" in reply
