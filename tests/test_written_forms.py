"""Round 2 of the real questions (issue 24 items 2 and 4; tests/data/real_questions/zh_r2.json): how people
write a setting's value, a bit width, a count times a memory, LoRA on a 4-bit base, ms-swift, and a model
named only by the job done to it — each rule in both languages, through the CLI (``sizing-bot ask
--format json``). The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import main


def ask(capsys: pytest.CaptureFixture[str], text: str, want_code: int = 0) -> dict[str, Any]:
    code = main(["ask", "--format", "json", text])
    data = json.loads(capsys.readouterr().out)
    assert code == want_code, data  # 2: a model with no size to answer with (it asks for one)
    return data


def unread(data: dict[str, Any]) -> list[str]:
    return [i["text"] for i in data["interpretation"]["ignored"] if i["reason"] == "unread"]


ASSIGNED = [
    ("Qwen2-7B 全参微调，2 张 A100，micro batch 只能设成 2", {"batch_size": 2, "gpu_count": 2}),
    (
        "Qwen2-7B LoRA 微调，单卡 A100，max_length 设置为 4096，lora rank 调到 64",
        {"seq_len": 4096, "lora_rank": 64},
    ),
    ("Full fine-tune Qwen2-7B on 2 A100 with the batch size set to 2", {"batch_size": 2, "gpu_count": 2}),
    ("LoRA on Qwen2-7B, one A100; we set the max length to 4096", {"seq_len": 4096}),
    ("ChatGLM2-6B 微调，两张 T4 16G，长度调到 300 还是爆", {"seq_len": 300, "gpu_count": 2}),
]


@pytest.mark.parametrize(("text", "want"), ASSIGNED)
def test_a_value_after_an_assignment_verb_is_the_setting(
    capsys: pytest.CaptureFixture[str], text: str, want: dict[str, Any]
) -> None:
    """'batchsize 设成 1', 'batch size set to 2': the verb between a setting and its value (before, the
    number was named as unread and the default batch sized)."""
    data = ask(capsys, text)
    assert {k: data["request"][k] for k in want} == want
    assert not set(map(str, want.values())) & set(unread(data))


COUNT_TIMES_MEMORY = [
    "全参 SFT 一个 7B，6*48G 的卡够不够",
    "7B 全参微调，6 x 48G 的显卡",
    "Full SFT of a 7B on 6*48G cards: enough?",
]


@pytest.mark.parametrize("text", COUNT_TIMES_MEMORY)
def test_a_count_times_a_memory_is_cards_of_that_memory(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """'8*40G 的卡': N cards of M GB each ('*' is markup to the normalizer; '的卡' ends the count)."""
    data = ask(capsys, text)
    assert (data["request"]["gpu_count"], data["request"]["gpu_memory_gib"]) == (6, 48)
    assert "6" not in unread(data)


FOUR_BIT_LORA = [
    ("LoRA 微调 Qwen2-7B，base 用 4 比特量化加载，单卡 4090", "qlora", "int4"),
    ("Qwen2-7B 做 lora，4位量化，一张 3090", "qlora", "int4"),
    ("LoRA on Qwen2-7B with the base loaded in 4-bit (load_in_4bit), one RTX 4090", "qlora", "int4"),
    ("LoRA on Qwen2-7B with the base in 8-bit, one RTX 4090", "lora", "int8"),  # 8-bit LoRA stays LoRA
]


@pytest.mark.parametrize(("text", "method", "precision"), FOUR_BIT_LORA)
def test_lora_on_a_four_bit_base_is_qlora(
    capsys: pytest.CaptureFixture[str], text: str, method: str, precision: str
) -> None:
    """QLoRA is LoRA through a frozen 4-bit base (Dettmers et al. 2023); '比特' is 'bit'."""
    data = ask(capsys, text)
    assert (data["request"]["method"], data["request"]["precision"]) == (method, precision)
    assert not unread(data)


def test_four_wei_of_people_is_not_a_bit_width(capsys: pytest.CaptureFixture[str]) -> None:
    """'位' is a bit only before a quantization word: '3位同学' is three people, not 3-bit weights."""
    data = ask(capsys, "我们 3位同学想 LoRA 微调 Qwen2-7B，一张 4090")
    assert (data["request"]["method"], data["request"]["precision"]) == ("lora", None)


SWIFT = [
    "用 swift 做 LoRA 微调 Qwen2-7B，两张 A10",
    "Qwen2-7B 微调参数：sft_type='lora'，两张 A10",
    "We fine-tune Qwen2-7B using swift to fine-tune with LoRA on two A10",
]


@pytest.mark.parametrize("text", SWIFT)
def test_swift_beside_a_fine_tuning_word_is_ms_swift(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """ms-swift's users call it 'swift' and write its ``sft_type`` (swift 2.x SftArguments)."""
    data = ask(capsys, text)
    assert data["request"]["training_tool"] == "ms-swift"


def test_swift_the_language_is_not_a_tool(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "My app is written in Swift; can one RTX 4090 serve Qwen2-7B?")
    assert data["request"].get("training_tool") is None


JOB_NAMED = [
    ("Penguin 全参数微调，8 张 A800 80G，要多少显存", "Penguin"),
    ("全参微调 Penguin，8 张 A800", "Penguin"),
    ("部署 Penguin 需要几张 4090", "Penguin"),
    ("We want to fully fine-tune Penguin on 8 A800 80G: enough memory?", "Penguin"),
    ("Serving Penguin on two RTX 4090s: how much memory?", "Penguin"),
]


@pytest.mark.parametrize(("text", "name"), JOB_NAMED)
def test_a_name_beside_a_job_word_is_the_model(
    capsys: pytest.CaptureFixture[str], text: str, name: str
) -> None:
    """An unknown model named only by the job done to it keeps its name (never silently dropped); with
    no size to size it on, the reply asks for one (exit code 2)."""
    data = ask(capsys, text, want_code=2)
    assert data["interpretation"]["unknown_model"] == name


@pytest.mark.parametrize(
    "text",
    [
        "Efficient fine-tuning of a 7B on 4 A800",
        "用 LLaMA Factory 微调 7B 模型，4 张 4090",
        "用摩尔线程S4000训练7B要多久",
        "Please fine-tune a 7B on 4 A800",
    ],
)
def test_a_word_beside_a_job_word_that_is_no_model(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """A capitalized first word, a tool's or a card's name beside the job word is not a model."""
    data = ask(capsys, text)
    assert data["interpretation"]["unknown_model"] is None


NEEDED_OR_USED = [
    ("教程说 LoRA 微调 Qwen2-7B 只要 20GB 显存，我有 2 张 T4，够吗", 20),
    ("单卡 LoRA 微调 Qwen2-7B 占了 18G 显存，我有 2 张 T4", 18),
    ("The blog says LoRA on Qwen2-7B needs 20GB of VRAM; I have 2 T4s, is that enough?", 20),
    ("LoRA on Qwen2-7B used 18 GB of VRAM; I have 2 T4s", 18),
]


@pytest.mark.parametrize(("text", "gib"), NEEDED_OR_USED)
def test_memory_needed_or_used_is_not_the_cards(
    capsys: pytest.CaptureFixture[str], text: str, gib: int
) -> None:
    """A memory a job needs or used ('只要 20GB 显存', 'used 18 GB of VRAM') is not the user's card: the T4s
    are sized at their own 16 GB, and the figure is named as not used."""
    data = ask(capsys, text)
    assert (data["request"]["gpu"], data["request"]["gpu_count"]) == ("T4", 2)
    assert data["request"]["gpu_memory_gib"] is None
    assert str(gib) in [i["text"] for i in data["interpretation"]["ignored"]]


def test_my_card_memory_is_still_the_cards(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "我的显存只有 12G，需要 2 张 24G 的卡吗，LoRA 微调 Qwen2-7B")
    assert data["request"]["gpu_memory_gib"] in (12, 24)


OOM_CAPACITY = [
    "LoRA 微调 Qwen2-7B，2 张 A100，报 OOM：GPU 0 的 39.39 GiB 总容量里已经分配了 37.10 GiB",
    "LoRA of Qwen2-7B on 2 A100 fails: CUDA out of memory (GPU 0; 39.39 GiB total capacity; 37.10 GiB already"
    " allocated)",
    "LoRA of Qwen2-7B on 2 A100: GPU 0 has a total capacity of 39.39 GiB of which 1.2 GiB is free",
]


@pytest.mark.parametrize("text", OOM_CAPACITY)
def test_the_total_capacity_of_an_oom_message_is_the_cards_memory(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """PyTorch's out-of-memory message says one card's memory ('39.39 GiB total capacity'): the A100s
    are the 40 GB ones, not the 80 GB default; the memory already allocated is named as not used."""
    data = ask(capsys, text)
    assert (data["request"]["gpu_count"], data["request"]["gpu_memory_gib"]) == (2, 39.39)


CHANGED = [
    ("Qwen2-7B 全参微调，8 张 A100，cutoff_len 一开始是 4096，爆显存后改成 2048", "seq_len", 2048, "4096"),
    ("Qwen2-7B 全参微调，8 张 A100，batch size 起初设的 8，后来降到 2", "batch_size", 2, "8"),
    (
        "Full fine-tune of Qwen2-7B on 8 A100: cutoff_len was 4096 at first, then we lowered it to 2048",
        "seq_len",
        2048,
        "4096",
    ),
    (
        "Full fine-tune of Qwen2-7B on 8 A100; the batch size was 8, then I reduced it to 2",
        "batch_size",
        2,
        "8",
    ),
]


@pytest.mark.parametrize(("text", "key", "value", "first"), CHANGED)
def test_a_value_changed_later_is_the_setting(
    capsys: pytest.CaptureFixture[str], text: str, key: str, value: int, first: str
) -> None:
    """A setting's value, then a change to another: the later one is the job asked about, the first is
    named as not used ('一开始' is 'at first', never the number one: before, '一' was sized as a
    sequence of 1 token)."""
    data = ask(capsys, text)
    assert data["request"][key] == value
    assert first in [i["text"] for i in data["interpretation"]["ignored"]]


@pytest.mark.parametrize(
    "text",
    [
        "两张 4090 能微调 14b 还是 72b？13b 呢？",
        "Can two 4090s fine-tune a 14b or a 72b? And a 13b?",
    ],
)
def test_each_size_said_alone_is_its_own_model(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """Sizes said alone and typed apart ('14b … 13b') are two models: one sized, each other one named as
    another setup (before, 13b was taken for 14b said again and dropped in silence)."""
    data = ask(capsys, text)
    sized = f"{data['request']['params_total'] / 1e9:g}b"
    named = {i["text"] for i in data["interpretation"]["ignored"] if i["reason"] == "other_setup"}
    assert {f"model: {n}" for n in ("14b", "72b", "13b")} - named == {f"model: {sized}"}
