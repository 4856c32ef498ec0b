"""A length in the prose and one in a pasted config (session 19, s19-fix item 10).

A message that asks to change the config's length ('我想把长度改成 4096', 'I want a 4096 sequence length
instead') is sized at its own length and names the config's ('cutoff_len: 1024', ``prose_changes``); a
message that describes the config ('这是我现在的配置，序列长度 4096') keeps the config's 1024 and names its
own (``config_differs``): design §8, every value used or named. Both with the config before and after the
prose.
"""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render

YAML = """```yaml
model_name_or_path: Qwen/Qwen2.5-7B
stage: sft
finetuning_type: lora
per_device_train_batch_size: 2
cutoff_len: 1024
bf16: true
```"""


def _ask(prose: str, config_first: bool):  # type: ignore[no-untyped-def]
    return answer(f"{YAML}\n{prose}" if config_first else f"{prose}\n{YAML}")


def _named(a) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [(i.text, i.reason) for i in a.interpretation.ignored]


@pytest.mark.parametrize("config_first", [True, False])
@pytest.mark.parametrize(
    "prose",
    [
        "我想把长度改成 4096，2 张 A100 够吗",
        "我想用 4096 的长度，2 张 A100 够吗",
        "I want a 4096 sequence length instead, is 2 A100 enough?",
    ],
)
def test_prose_asking_a_change_wins(prose: str, config_first: bool) -> None:
    a = _ask(prose, config_first)
    assert a.report.request.seq_len == 4096
    assert ("cutoff_len: 1024", "prose_changes") in _named(a)
    assert "cutoff_len" in render(a, "text")


@pytest.mark.parametrize("config_first", [True, False])
@pytest.mark.parametrize(
    "prose",
    [
        "这是我现在的配置，序列长度 4096，2 张 A100",
        "this config trains 4096-token samples on 2 A100s, fits?",
        # session 19 review: a change word counts only in the length's clause or the one before it; a bare
        # '想要' / "I'd like" / 'what if' asks no change
        "这是我现在的配置，序列长度 4096，我想要知道 2 张 A100 要训多久",
        "My current setup uses 4096-token samples on 2 A100s. I'd like to know how long it takes.",
        "Here is my config, sequence length 4096 on 2 A100s; what if I double the data?",
    ],
)
def test_prose_describing_the_config_gives_way(prose: str, config_first: bool) -> None:
    """The config's 1024 is sized, the prose's 4096 named (``config_differs``)."""
    a = _ask(prose, config_first)
    assert a.report.request.seq_len == 1024
    assert ("seq_len: 4096", "config_differs") in _named(a)


@pytest.mark.parametrize("config_first", [True, False])
@pytest.mark.parametrize(
    "prose",
    [
        "配置不变，序列长度改成 8192，2 张 A100 够吗",
        "Same config, but change the sequence length to 8192; is 2 A100 enough?",
    ],
)
def test_a_change_word_in_the_lengths_clause_still_wins(prose: str, config_first: bool) -> None:
    a = _ask(prose, config_first)
    assert a.report.request.seq_len == 8192
    assert ("cutoff_len: 1024", "prose_changes") in _named(a)
