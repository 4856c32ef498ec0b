"""Session 51, part workmiss: the working splits' misses (issue 24), both languages.

1. A single-board computer or a phone named by its system ('a Raspberry Pi 4', '树莓派 5', 'run on
   Android', '安卓手机') and an Apple chip after 'my' / 'on' / 'an' ('on my M1'): named as typed
   (interpretation.unknown_gpu, bot.parse.lexicon.UNKNOWN_GPU_RE), never swapped for the default A100;
   Android's tools ('Android Studio', 'an Android app') name no device.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import ask


def _answer(text: str) -> dict:
    return json.loads(ask(text, None, "json")[0])


# 1. devices by their system ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Is it possible to run a 7B model on a Raspberry Pi 4 with 4GB of RAM?", "Raspberry Pi 4"),
        ("Can Mistral-7B run on Android through llama.cpp?", "Android"),
        ("On my M1, Llama-2-7b takes 3 minutes per answer.", "M1"),
        ("树莓派 5 8G 能跑 7B 模型吗", "树莓派 5"),
        ("安卓手机上能跑 Qwen2-1.5B 吗？", "安卓手机"),
    ],
)
def test_device_named_as_typed(text: str, name: str) -> None:
    a = _answer(text)
    assert a["interpretation"]["unknown_gpu"] == name


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("I build the Android app for a 7B model served on 2 A100 cards", 2),
        ("用 Android Studio 打包 App，7B 模型在 4 张 A100 上推理", 4),
        ("My 4 A100s serve Llama-2-70B for an Android client", 4),
    ],
)
def test_android_tools_name_no_device(text: str, count: int) -> None:
    a = _answer(text)
    assert a["interpretation"]["unknown_gpu"] is None
    assert a["request"]["gpu"].startswith("A100")
    assert a["request"]["gpu_count"] == count
