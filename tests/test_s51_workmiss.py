"""Session 51, part workmiss: the working splits' misses (issue 24), both languages.

1. A single-board computer or a phone named by its system ('a Raspberry Pi 4', '树莓派 5', 'run on
   Android', '安卓手机') and an Apple chip after 'my' / 'on' / 'an' ('on my M1'): named as typed
   (interpretation.unknown_gpu, bot.parse.lexicon.UNKNOWN_GPU_RE), never swapped for the default A100;
   Android's tools ('Android Studio', 'an Android app') name no device.
2. A setting's other value written after its key whose number is also written for a setting outside the
   vocabulary ('max_slices_num 设 9 或 80、batch_size 1 或 9'): the keyed 9 is batch_size's other value
   (bot.parse.keyed_values.keyed_places, a row each in report.per_value), no longer left unread because
   the same 9 follows an unknown key; the value sized said once stays as it was.
3. Meta's example scripts' '--ckpt_dir CodeLlama-7b/' names the model (bot.parse.configs.training.MODEL_KEYS),
   no longer an unknown key with no model sized; a checkpoint directory that is no model names none.
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


# 2. a keyed value whose number is written for an unknown setting too ------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "两张 A100 微调 Qwen-7B，max_slices_num 设 9 或 80、batch_size 1 或 9",
        "Two A100s fine-tune Qwen-7B with num_crops 9 or 80 and batch_size 1 or 9",
    ],
)
def test_keyed_value_beside_unknown_key(text: str) -> None:
    a = _answer(text)
    assert a["request"]["batch_size"] == 1
    rows = [(r["setting"], r["value"]) for r in (a["report"].get("per_value") or [])]
    named = [i["text"] for i in a["interpretation"]["ignored"]]
    assert ("batch_size", 9) in rows or "batch_size: 9" in named


@pytest.mark.parametrize(
    "text",
    [
        "Two A100s fine-tune Qwen-7B with num_crops 9 and batch_size 9",
        "两张 A100 微调 Qwen-7B，max_slices_num 设 9，batch_size 9",
    ],
)
def test_same_value_beside_unknown_key_is_not_another_setup(text: str) -> None:
    a = _answer(text)
    assert a["request"]["batch_size"] == 9
    assert not a["report"].get("per_value")
    assert "batch_size: 9" not in [i["text"] for i in a["interpretation"]["ignored"]]


# 3. --ckpt_dir names the model ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "model", "count"),
    [
        ("torchrun example_completion.py --ckpt_dir CodeLlama-7b/ on one A100", "CodeLlama-7B", 1),
        ("torchrun example_chat.py --ckpt_dir llama-2-13b-chat/，2 张 A100 推理", "Llama-2-13B", 2),
    ],
)  # fmt: skip
def test_ckpt_dir_names_the_model(text: str, model: str, count: int) -> None:
    a = _answer(text)
    assert a["request"]["model"] == model
    assert a["request"]["gpu_count"] == count
    assert not any(i["text"].startswith("ckpt_dir") for i in a["interpretation"]["ignored"])


@pytest.mark.parametrize(
    "text",
    [
        "torchrun --nproc_per_node 2 train.py --ckpt_dir ./checkpoints/ on 2 A100 to fine-tune Qwen-7B",
        "用 2 张 A100 微调 Qwen-7B：torchrun --nproc_per_node 2 train.py --ckpt_dir ./checkpoints/",
    ],
)
def test_ckpt_dir_of_no_model_keeps_the_model_said(text: str) -> None:
    a = _answer(text)
    assert a["request"]["model"] == "Qwen-7B"
    assert a["request"]["gpu_count"] == 2
