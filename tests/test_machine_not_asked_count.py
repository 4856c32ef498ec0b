"""Two machines, a question about one: the other machine is named as not sized, and its count is not
named again as a number left unread (session 17, s17-fix item 5: bot.parse.machine_asked)."""

from __future__ import annotations

import pytest

from bot.parse import parse


@pytest.mark.parametrize(
    ("text", "aside"),
    [
        (
            "My laptop has an RTX 4060 (8GB), the server has 8 A100s. Can the laptop run a 7B model?",
            "the server has 8 A100s",
        ),
        (
            "I have a laptop with RTX 4060 8GB and a server with 8x A100 80GB. "
            "Can I run Qwen2.5-7B on the laptop?",
            "a server with 8x A100 80GB",
        ),
        ("我笔记本是 RTX 4060 8G，服务器是 8 张 A100，在笔记本上能跑 7B 推理吗", "服务器是 8 张 A100"),
    ],
)
def test_the_other_machine_is_named_not_its_count(text: str, aside: str) -> None:
    p = parse(text)
    # s21: the laptop word resolves to the laptop card (its catalog entry, s21 fxa)
    assert (p.request.gpu, p.request.gpu_count, p.request.gpu_memory_gib) == ("RTX-4060-Laptop", 1, 8)
    assert p.unused_numbers == [(aside, "other_setup")]  # not also ('8', 'repeated' / 'other_setup')
