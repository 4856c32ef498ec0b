"""Session 38 fixm #3: a heading line followed by rows ('卡数 → 天数（区间）：' then '64 张 → 61 天…') reaches
DingTalk and Feishu with each row on its own line.

DingTalk's robot Markdown (open.dingtalk.com, "机器人发送消息的类型", markdown) is a subset with no code
fence, and it joins lines at a single newline: a line break is two trailing spaces (or a blank line). The
Markdown dialect's fence under the heading was dropped for DingTalk, so the heading's line, which had no
break, ran on into the first row. Feishu's card Markdown breaks at every newline and shows the fence as a
code block (bot.feishu.lark_md), so its rows were on their own lines already: pinned here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dingtalk_run import answers, running_bot, text_of
from fake_dingtalk import FakeDingTalk
from fake_feishu import FakeFeishu
from feishu_run import card_of, cards
from feishu_run import running_bot as running_feishu
from platform_run import wait

from bot.dingtalk.card import dingtalk_markdown

_Q = "7B模型1万亿token要多少A100"
# the rows the answer's table gives (its figures are pinned elsewhere; here: each on its own line)
_ROWS = [
    "卡数 → 天数（区间）：",
    " 64 张 →  61 天（46–98）",
    "128 张 →  30 天（23–49）",
    "512 张 → 8.6 天（6.6–14）",
]


def test_a_line_before_a_fence_gets_dingtalks_break() -> None:
    text = "卡数 → 小时（区间）：\n```\n 4 张 → 19\n 8 张 → 9.6\n```\n建议"
    assert dingtalk_markdown(text) == "卡数 → 小时（区间）：  \n 4 张 → 19  \n 8 张 → 9.6  \n建议"
    # a line that already breaks, or a blank one, is left as it is
    assert dingtalk_markdown("a\\\n```\nb\n```") == "a  \nb  "
    assert dingtalk_markdown("a\n\n```\nb\n```") == "a\n\nb  "


def _lines_shown(markdown: str) -> list[str]:
    """The lines DingTalk shows: a blank line ends a paragraph; within one, a line joins the next unless it
    ends with two spaces."""
    shown: list[str] = []
    cur: str | None = None
    for part in markdown.split("\n"):
        if not part.strip():
            if cur is not None:
                shown.append(cur.strip())
            cur = None
        elif cur is None:
            cur = part
        elif cur.endswith("  "):
            shown.append(cur.strip())
            cur = part
        else:
            cur = f"{cur} {part}"
    return [*shown, cur.strip()] if cur is not None else shown


def test_the_reading_of_dingtalks_lines() -> None:
    assert _lines_shown("a\nb  \nc\n\nd") == ["a b", "c", "d"]


@pytest.fixture
def dingtalk():
    with FakeDingTalk() as server:
        yield server


def test_dingtalk_shows_each_row_on_its_own_line(dingtalk: FakeDingTalk, tmp_path: Path) -> None:
    with running_bot(dingtalk, tmp_path):
        dingtalk.push(dingtalk.message(_Q))
        sent = wait(lambda: answers(dingtalk), 15, "answer")[0]
    shown = _lines_shown(text_of(sent))
    for row in _ROWS:
        assert row.strip() in shown, row


@pytest.fixture
def feishu():
    with FakeFeishu() as server:
        yield server


def test_feishu_card_keeps_each_row_on_its_own_line(feishu: FakeFeishu, tmp_path: Path) -> None:
    with running_feishu(feishu, tmp_path):
        feishu.push(feishu.group_message(f"@_user_1 {_Q}"))
        card = card_of(wait(lambda: cards(feishu), 15, "card")[0])
    words = json.dumps(card, ensure_ascii=False)
    content = next(
        e["content"] for e in _elements(card) if e.get("tag") == "markdown" and "卡数" in e.get("content", "")
    )
    lines = content.split("\n")  # Feishu's card Markdown breaks at each newline
    for row in _ROWS:
        assert row in lines, row
    assert "卡数" in words


def _elements(node: object) -> list[dict]:
    """Every element of a card, depth first."""
    if isinstance(node, dict):
        return [node, *(e for v in node.values() for e in _elements(v))]
    if isinstance(node, list):
        return [e for v in node for e in _elements(v)]
    return []
