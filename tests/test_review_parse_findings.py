"""Session 17 design review's parser findings: inputs the merged tree misread although the base read them.

1. A number before 'accumulation' was taken as the steps even when the word had its own number after it
   ('batch size 16 gradient accumulation 4' → accumulation 16, batch 1) or when it belonged to another key
   ('warmup 100 accumulation 16' → accumulation 100).
"""

from __future__ import annotations

import pytest

from bot.cli import main
from tests.real_questions import answer_json


def _request(text: str) -> dict:
    return answer_json(text)["request"]


@pytest.mark.parametrize(
    ("text", "batch", "accum", "seq"),
    [
        ("batch size 16 gradient accumulation 4", 16, 4, None),
        ("micro batch 2 grad accum 8", 2, 8, None),
        ("bs 4 gradient accumulation steps 8 seq 4096", 4, 8, 4096),
        ("warmup 100 accumulation 16", None, 16, None),
        ("QLoRA Qwen2-7B on 2 4090, 16 grad accum steps", 1, 16, 2048),
        ("Llama-3-8B LoRA, batch 8 accumulation: 2, seq 1024", 8, 2, 1024),
        ("Qwen2-7B LoRA 微调，batch size 16，gradient accumulation 4，要多久", 16, 4, None),
        ("Qwen2-7B LoRA，warmup 100 accumulation 16", 1, 16, None),
    ],
)
def test_accumulation_keeps_its_own_number(text: str, batch, accum: int, seq) -> None:
    r = _request(text)
    assert (r["batch_size"], r["gradient_accumulation"]) == (batch, accum)
    if seq is not None:
        assert r["seq_len"] == seq


def test_warmup_before_accumulation_stays_warmup() -> None:
    ignored = {
        i["text"]: i["reason"] for i in answer_json("warmup 100 accumulation 16")["interpretation"]["ignored"]
    }
    assert ignored == {"warmup_steps: 100": "not_sized"}


@pytest.mark.parametrize(
    ("text", "count", "memory"),
    [
        ("We need 24x7 serving of Llama-3-70B on 4 A100 80GB; is the VRAM enough?", 4, 80.0),
        ("global batch 是 32*4，显存 80G，8 张 A100", 8, 80.0),
        ("micro batch 24*4 on 8 H100, Llama-3-8B full fine-tune, VRAM per GPU?", 8, None),
        ("服务器 24*4 小时运行 Qwen2-72B 推理，A100 8 张", 8, None),
        ("Llama-3-8B 推理，7x24 服务，显存 24G 的卡 4 张", 4, 24.0),
        # the form the rule was made for still reads: memory words beside the product
        ("我这 24*4 怎么还报显存溢出，Qwen2-7B 全参", 4, 24.0),
        ("Qwen2-14B LoRA on 24*4, keeps hitting OOM", 4, 24.0),
    ],
)
def test_bare_product_is_cards_only_beside_memory_words(text: str, count: int, memory) -> None:
    r = _request(text)
    assert (r["gpu_count"], r["gpu_memory_gib"]) == (count, memory)


@pytest.mark.parametrize(
    ("text", "count", "memory", "named"),
    [
        (
            "Llama-3-8B LoRA on one 4090; the server's 128GB is shared with other jobs. Will it fit?",
            1,
            None,
            ("host_memory: 128 GB", "no_field"),
        ),
        (
            "Llama-3-70B inference on 8 H100, the node's 640GB of GPU memory",
            8,
            80.0,
            ("640 GB", "cards_total"),
        ),
        ("Qwen2-72B 推理，box's 320GB VRAM across 4 cards", 4, 80.0, ("320 GB", "cards_total")),
    ],
)
def test_a_machines_memory_is_the_cards_only_with_gpu_words(text: str, count: int, memory, named) -> None:
    answer = answer_json(text)
    r = answer["request"]
    assert (r["gpu_count"], r["gpu_memory_gib"]) == (count, memory)
    assert named in [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]


@pytest.mark.parametrize(
    ("text", "seq", "named"),
    [
        ("Llama-3-8B LoRA at 2048 context on 2 A100, we need 3000 done by Friday", 2048, ("3000", "unread")),
        ("Qwen2-7B 推理，上下文 4096，想要 2000 左右的日活", 4096, ("2000", "unread")),
        ("Qwen2-7B LoRA，上下文 2048，数据按 3000 算", 2048, ("3000", "unread")),
        # a length asked after the one that runs is still read
        ("Qwen2-7B LoRA 上下文 2048，想要 3000 上下文", 3000, ("2048", "replaced_by_later_value")),
        (
            "Qwen2-7B cutoff_len 2048 能跑，想拉到 3072 需要多少显存",
            3072,
            ("2048", "replaced_by_later_value"),
        ),
        ("Llama-3-8B fine at 512 tokens but OOMs at 2048. How much memory for 2048?", 2048, None),
        ("Llama-3-8B LoRA works at 2048 context; we want 6000 context, how much memory?", 6000, None),
        ("Qwen2-7B 上下文 2048 能跑，想做 6000 长度的需要多少显存", 6000, None),
    ],
)
def test_a_later_number_is_the_asked_length_only_when_it_is_a_length(text: str, seq: int, named) -> None:
    answer = answer_json(text)
    assert answer["request"]["seq_len"] == seq
    if named is not None:
        assert named in [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Qwen2-7B 全参微调，内存 64G 都不够", ("64", "unread")),
        ("Qwen2-7B 全参微调，数据集 16G 也不行", ("16", "unread")),
    ],
)
def test_host_memory_or_data_not_enough_is_no_card(text: str, named) -> None:
    answer = answer_json(text)
    assert answer["request"]["gpu_memory_gib"] is None
    assert named in [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]


@pytest.mark.parametrize(
    ("text", "memory"), [("Qwen2-7B 全参微调，16G 都不够", 16.0), ("Qwen2-7B 全参微调，24G 显存也不够", 24.0)]
)
def test_a_card_not_enough_is_still_read(text: str, memory: float) -> None:
    r = _request(text)
    assert (r["gpu_count"], r["gpu_memory_gib"]) == (1, memory)


@pytest.mark.parametrize(
    "text",
    [
        "Qwen2-7B 全参微调，只能用 4 张，机器是 8 卡 A100",
        "Qwen2-7B 全参微调，只能用 4 张，服务器有 8 张 A100，要多久",
        "Llama-3-8B LoRA, we can only use 4 of them, the server has 8 A100s",
    ],
)
def test_the_machines_count_after_the_used_one_is_another_setup(text: str) -> None:
    answer = answer_json(text)
    assert answer["request"]["gpu_count"] == 4
    assert ("8", "other_setup") in [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Qwen2-7B LoRA on one 4090, the node's 128GB of GPU memory", "Not used: “128 GB” (more memory than"),
        ("一张 4090，显存 128G，Qwen2-72B 推理够吗", "未使用：“128 GB”（超过所说显卡单卡的显存"),
    ],
)
def test_a_share_above_the_named_card_never_overrides_it(capsys, text: str, named: str) -> None:
    answer = answer_json(text)
    assert (answer["request"]["gpu"], answer["request"]["gpu_memory_gib"]) == ("RTX-4090", None)
    assert ("128 GB", "over_card") in [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]
    assert main(["ask", text]) == 0
    assert named in capsys.readouterr().out


def test_a_memory_on_the_cards_name_stays_per_card() -> None:
    r = _request("H20 141G 8 张跑 DeepSeek-V3")  # the H20's 141 GB variant, not in the catalog
    assert (r["gpu_count"], r["gpu_memory_gib"]) == (8, 141.0)
