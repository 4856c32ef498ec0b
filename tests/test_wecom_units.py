"""WeCom pieces on their own (issue 28): send limits, the per-user in-flight limit, button keys and
the card's six-button limit, message parsing, the shared dedupe store."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from bot.chat.adapter import Inbound, Outbound
from bot.chat.ratelimit import Rate
from bot.chat.seen import SqliteSeen
from bot.core.actions import Action, ActionKind
from bot.feishu.seen import SqliteSeen as FeishuSeen
from bot.wecom.adapter import GROUP_RATE, WecomAdapter, message_inbound
from bot.wecom.card import MAX_BUTTONS, build_card, button_key, buttons, parse_key
from bot.wecom.serve import IN_FLIGHT_PER_USER, WecomService


def test_the_group_limit_is_wecoms_20_a_minute_and_further_sends_wait_for_their_slot() -> None:
    assert (GROUP_RATE.events, GROUP_RATE.window_s) == (20, 60)

    async def go() -> list[float]:
        adapter = WecomAdapter("bot", "secret", group_rate=Rate(2, 0.6))
        adapter._groups["wecom:wrkGroup"] = True
        adapter._groups["wecom:zhangsan"] = False
        start, times = time.monotonic(), []
        for _ in range(3):
            await adapter._pace_group("wecom:wrkGroup")
            times.append(time.monotonic() - start)
        for _ in range(5):  # a single chat is not paced
            await adapter._pace_group("wecom:zhangsan")
        times.append(time.monotonic() - start)
        return times

    first, second, third, singles = asyncio.run(go())
    assert first < 0.3 and second < 0.3
    assert third >= 0.55  # the third of 2-per-0.6 s waited for the first to leave the window
    assert singles - third < 0.3


def test_at_most_three_items_of_one_user_are_answered_at_once() -> None:
    async def go() -> tuple[int, int]:
        service = WecomService(None, None)  # type: ignore[arg-type]
        running, peak, others = 0, 0, 0

        async def handle(item: Inbound) -> None:
            nonlocal running, peak, others
            if item.user_id == "wecom:lisi":
                others += 1
                return
            running += 1
            peak = max(peak, running)
            await asyncio.sleep(0.3)
            running -= 1

        service.handle = handle  # type: ignore[method-assign]
        items = [Inbound("wecom", "wecom:c", "wecom:zhangsan", str(i)) for i in range(8)]
        tasks = [asyncio.create_task(service._guarded(i)) for i in items]
        await asyncio.sleep(0.01)
        await service._guarded(Inbound("wecom", "wecom:c", "wecom:lisi", "x"))  # not held up
        assert others == 1 and running == IN_FLIGHT_PER_USER
        await asyncio.gather(*tasks)
        return peak, others

    assert IN_FLIGHT_PER_USER == 3
    assert asyncio.run(go()) == (3, 1)


def test_button_keys_round_trip_and_foreign_keys_are_ignored() -> None:
    action = Action(ActionKind.GPU, "H100-SXM5-80GB", text="🖥 H100")
    key = button_key("AbC123", action)
    assert key == "1|AbC123|g|H100-SXM5-80GB"
    assert parse_key(key) == ("AbC123", Action(ActionKind.GPU, "H100-SXM5-80GB"))
    for foreign in ("2|AbC123|g|H100", "1||g|H100", "1|AbC123|zz|x", "approve", None, "1|t|g"):
        assert parse_key(foreign) is None


def test_a_card_has_at_most_six_buttons_the_gpu_row_giving_way_first() -> None:
    gpus = [Action(ActionKind.GPU, g, text=f"🖥 {g}") for g in ("H100", "H800", "A800")]
    rest = [
        Action(ActionKind.STAGE, "inference", "inference"),
        Action(ActionKind.DETAILS, "0", "hide"),
        Action(ActionKind.CHART, "", "chart"),
        Action(ActionKind.RECIPE, "", "recipe"),
        Action(ActionKind.LANG, "en", text="🌐 English"),
        Action(ActionKind.QUOTE, "", "quote"),
    ]
    out = Outbound('{"h": "**7B 预训练**", "f": "• 计算量"}', "T1", [gpus, rest[:1], rest[1:]], lang="zh")
    shown = buttons(out)
    assert len(shown) == MAX_BUTTONS == 6
    assert [a.kind for a in shown] == ["g", "g", "s", "r", "l", "q"]
    card = build_card(out, "sz-T1-00000000")
    assert card["main_title"]["title"] == "7B 预训练" and card["sub_title_text"] == "• 计算量"
    assert [b["key"] for b in card["button_list"]][-1] == "1|T1|q|"


def test_a_group_message_keeps_its_text_without_the_mention() -> None:
    body = {
        "msgid": "m1",
        "chattype": "group",
        "chatid": "wrkG",
        "from": {"userid": "zhangsan"},
        "msgtype": "text",
        "text": {"content": "@Sizing\u2005那H100呢"},
    }
    msg = message_inbound(body)
    assert msg is not None
    assert (msg.chat_id, msg.user_id, msg.text, msg.is_group, msg.mentioned) == (
        "wecom:wrkG",
        "wecom:zhangsan",
        "那H100呢",
        True,
        True,
    )
    single = message_inbound(
        {**body, "chattype": "single", "chatid": None, "text": {"content": "7B @ 8 cards"}}
    )
    assert single is not None and single.chat_id == "wecom:zhangsan" and single.text == "7B @ 8 cards"
    assert message_inbound({**body, "msgtype": "image", "image": {"url": "x"}}) is None


def test_the_dedupe_store_is_shared_and_each_platform_keeps_its_table(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    wecom, feishu = SqliteSeen(db, table="wecom_seen"), FeishuSeen(db)
    assert [wecom.seen("wecom:m1"), wecom.seen("wecom:m1"), feishu.seen("wecom:m1")] == [False, True, False]
    assert SqliteSeen(db, table="wecom_seen").seen("wecom:m1") is True  # survives a restart
    assert feishu.table == "feishu_seen"
