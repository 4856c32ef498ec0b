"""Round 25 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r25.json): kinds of writing
the r25work half showed the parser missing, each read for its axis and tested through the CLI
(``sizing-bot ask --format json``):

- an unknown model whose name has a bare release number before its size or a context tail after it
  ('Foo-Alpaca-2-13B', 'BarLM-34B-200K'): named as typed and sized by its size (bot.parse.models.
  UNKNOWN_NAME_RE; before, the name was dropped, or no size was read at all);
- pre-training on a named model ('在 foo-llama-2-7b 上做预训练', '基于 Qwen2.5-7B 预训练') or of an Alpaca
  (instruction-following) release: continued pre-training (bot.parse.stage_hints.ON_BASE_RE,
  TUNED_RELEASE_RE); on a card ('在 Ascend-910B 上预训练') or from scratch it stays pre-training;
- the lowering verbs between a setting and its value ('batch_size 减少到 128', 'max_length 降低到 2048'), as
  the raising ones ('加到', '提高到') were read (bot.parse.phrasing_zh.SET_VERBS_ZH); an old value after '从'
  is not the setting;
- a shell's integer arithmetic as a flag's value ('--gradient_accumulation_steps $(expr 16 / 8)',
  '$((32 / 4))'): its result (bot.parse.written_values.SHELL_ARITHMETIC_RE);
- '上文' for the context after a length or '长' or before '长度' ('2k 上文', '200k 的长上文', '上文长度 8k'),
  never the text above ('如上文所述'); a vague larger length beside a number ('200k 或者几十 k 的长上文',
  '32k 甚至更长的上下文') leaves the number the length (bot.parse.phrasing_zh.UPPER_TEXT_RE,
  VAGUE_ALTERNATIVE_RE);
- several loads listed for one job ('100、120、150 并发都通过了', '并发 100、200 和 300'): one sized, the
  others named as other setups, never unread (bot.parse.count_forms.LOAD_LIST_RE); a list of card counts is
  no load;
- an Atlas server's NPUs written beside it ('Atlas 800 A3（64GB × 16）'): the machines' size, as
  '8 GPUs per node' is (bot.parse.node_shape.SERVER_SHAPE_RE); a card's count so written ('A100（80G × 8）')
  is no machine.

The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask --format json TEXT``."""
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) in (0, 2)
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("text", "typed", "params"),
    [
        ("用 4 卡 A40 微调 Foo-Alpaca-2-13B，要多少显存？", "Foo-Alpaca-2-13B", 13e9),
        ("fine-tune Bar-Chat-3-7B on 2 A100s, how much memory?", "Bar-Chat-3-7B", 7e9),
        ("部署 BarLM-34B-200K 要几张 A100？", "BarLM-34B-200K", 34e9),
    ],
)
def test_an_unknown_name_with_a_release_number_or_context_tail_is_named_and_sized(
    capsys: pytest.CaptureFixture[str], text: str, typed: str, params: float
) -> None:
    out = ask(capsys, text)
    assert out["interpretation"]["unknown_model"] == typed
    assert out["request"]["params_total"] == params
    assert not [i for i in out["interpretation"]["ignored"] if i["reason"] == "unread"]


@pytest.mark.parametrize(
    ("text", "stage"),
    [
        ("我在 foo-llama-2-7b 上做预训练，8 张 A100，要多久？", "continued_pretrain"),
        ("基于 Qwen2.5-7B 预训练，1T token 数据，8 张 H100 要几天？", "continued_pretrain"),
        ("pretraining on top of Llama-2-7B with 8 A100s, how long for 100B tokens?", "continued_pretrain"),
        ("Bar-Alpaca-2-13B 用 4 卡 A800 预训练要多少显存？", "continued_pretrain"),
        ("在 8 张 A100 上做预训练，7B 模型 1T token 要多久？", "pretrain"),
        ("在 Ascend-910B 上预训练 7B 模型要几张卡？", "pretrain"),
        ("从零预训练一个 7B 模型，1T token，要多少张 A100？", "pretrain"),
    ],
)
def test_pre_training_on_a_named_model_continues_it(
    capsys: pytest.CaptureFixture[str], text: str, stage: str
) -> None:
    assert ask(capsys, text)["request"]["stage"] == stage


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("微调 Qwen2.5-7B，batch_size 减少到 4 还是 OOM，要多少显存？", "batch_size", 4),
        ("微调 Qwen2.5-7B，cutoff_len 降低到 1024 了，显存够吗？", "seq_len", 1024),
        ("全量微调 Qwen2.5-7B，batch 从 16 降到 2，8 张 A100 够吗？", "batch_size", 2),
    ],
)
def test_a_lowering_verb_joins_a_setting_and_its_value(
    capsys: pytest.CaptureFixture[str], text: str, field: str, value: int
) -> None:
    assert ask(capsys, text)["request"][field] == value  # '从 16': the old value, never the setting


@pytest.mark.parametrize(
    ("text", "accumulation"),
    [
        ("swift sft --model Qwen2.5-7B --train_type full --gradient_accumulation_steps $(expr 16 / 4)"
         " 要多少显存", 4),
        ("torchrun --nproc_per_node 4 train.py --gradient_accumulation_steps $((32 / 4))"
         " --per_device_train_batch_size 2 微调 Qwen2.5-7B 要多少显存", 8),
    ],
)  # fmt: skip
def test_a_shell_arithmetic_value_is_its_result(
    capsys: pytest.CaptureFixture[str], text: str, accumulation: int
) -> None:
    req = ask(capsys, text)["request"]
    if req["global_batch"] is not None:  # the accumulation read into the global batch (micro × steps × GPUs)
        assert req["global_batch"] == req["batch_size"] * accumulation * (req["gpu_count"] or 1)
    else:
        assert req["gradient_accumulation"] == accumulation


def test_shell_arithmetic_folds_integer_division_and_leaves_a_zero_divisor() -> None:
    from bot.parse.written_values import fold_shell_arithmetic

    folded = fold_shell_arithmetic("--ga $(expr 16 / 3) --x $((2 * 8)) --y $(expr 7 \\* 2)")
    assert folded == "--ga 5 --x 16 --y 14"
    assert fold_shell_arithmetic("--ga $((16 / 0))") == "--ga $((16 / 0))"
    assert fold_shell_arithmetic("--ga $(nproc)") == "--ga $(nproc)"


@pytest.mark.parametrize(
    ("text", "count", "per_node"),
    [
        ("以 Atlas 800 A3（64GB × 16）为例部署 DeepSeek-V3，要几台？", 16, 16),
        ("2 台 Atlas 800I A2（64G x 8）部署 Qwen3-235B，能开多大上下文？", 16, 8),
        ("8 张 A100（80G × 8）全量微调 Qwen2.5-7B 够吗？", 8, None),
    ],
)
def test_an_atlas_servers_npus_are_per_node(
    capsys: pytest.CaptureFixture[str], text: str, count: int, per_node: int | None
) -> None:
    req = ask(capsys, text)["request"]
    assert (req["gpu_count"], req["gpus_per_node"]) == (count, per_node)


@pytest.mark.parametrize(
    ("text", "seq_len"),
    [
        ("全量微调 Qwen2.5-7B，8 张 A100 只能微调 2k 上文，请问 32k 或者几十 k 的长上文要怎么设置？", 32768),
        ("上文长度 8k，LoRA 微调 Qwen2.5-7B 要多少显存？", 8192),
        ("LoRA 微调 Qwen2.5-7B，16k 甚至更长的上下文要几张 A100？", 16384),
        ("如上文所述，LoRA 微调 Qwen2.5-7B，上下文 4k，要多少显存？", 4096),
    ],
)
def test_upper_text_is_the_context_and_a_vague_alternative_leaves_the_number(
    capsys: pytest.CaptureFixture[str], text: str, seq_len: int
) -> None:
    out = ask(capsys, text)
    assert out["request"]["seq_len"] == seq_len
    assert not [i for i in out["interpretation"]["ignored"] if i["reason"] == "unread"]


@pytest.mark.parametrize(
    ("text", "loads"),
    [
        ("用 vllm 部署 Qwen2.5-7B，100、120、150 并发都压测通过了，要几张 A100？", [100, 120, 150]),
        ("部署 Qwen2.5-7B，并发 100、200 和 300 分别要几张 A100？", [100, 200, 300]),
        ("serve Qwen2.5-7B at 100, 200 and 300 concurrent users on A100s, how many GPUs?", [100, 200, 300]),
    ],
)
def test_a_list_of_loads_sizes_one_and_names_the_others(
    capsys: pytest.CaptureFixture[str], text: str, loads: list[int]
) -> None:
    """Was: one load sized, the others named as other_setup. Since s36-lists (issue 24) every listed load is
    sized in its own row of report.per_value, so none is left to ask separately."""
    out = ask(capsys, text)
    rows = out["report"]["per_value"]
    assert [(r["setting"], r["value"], r["load"]) for r in rows] == [("concurrency", n, n) for n in loads]
    assert all(r["gpus"] >= 1 and r["memory_gib"] > 0 for r in rows)
    assert out["request"]["concurrency"] in loads
    assert sorted([out["request"]["concurrency"], *out["request"]["values_listed"]]) == loads
    assert not [i for i in out["interpretation"]["ignored"] if i["reason"] in ("unread", "other_setup")]


def test_a_list_of_card_counts_is_no_load(capsys: pytest.CaptureFixture[str]) -> None:
    out = ask(capsys, "部署 Qwen2.5-7B，4、8 张 A100 都试过，100 并发要几张？")
    assert out["request"]["concurrency"] == 100
    assert "4" not in {i["text"] for i in out["interpretation"]["ignored"] if i["reason"] == "other_setup"}
