"""Group settings on Feishu / Lark are changed by the group's owner and its administrators
(``owner_id`` + ``user_manager_id_list`` of ``GET /open-apis/im/v1/chats/:chat_id``), remembered
briefly; anyone else is told so. Through the real ``sizing-bot run`` against the fake Feishu."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from fake_feishu import FakeFeishu
from feishu_run import running_bot, wait

from bot.feishu.api import ADMINS_TTL_S, FeishuAPI

CHAT = "oc_group0001"
INFO = f"/open-apis/im/v1/chats/{CHAT}"


@pytest.fixture
def fake():
    with FakeFeishu() as server:
        yield server


def _texts(fake: FakeFeishu) -> list[str]:
    return [json.loads(m["body"]["content"])["text"] for m in fake.http.sent() if m["msg_type"] == "text"]


def _settings(fake: FakeFeishu, user: str, n: int, text: str = "/settings price H100 21元") -> str:
    fake.push(fake.group_message(f"@_user_1 {text}", chat_id=CHAT, user=user))
    text = wait(lambda: len(_texts(fake)) >= n and _texts(fake)[n - 1], 15, f"reply {n}")
    return text.replace("CN¥", "¥")  # the English list writes CN¥


def test_a_group_administrator_may_change_settings_and_a_member_is_told_who_may(fake, tmp_path: Path) -> None:
    fake.http.chat_owners[CHAT] = "ou_owner"
    fake.http.chat_managers[CHAT] = ["ou_admin1", "ou_admin2"]
    with running_bot(fake, tmp_path):
        assert "H100 ¥21" in _settings(fake, "ou_admin2", 1), _texts(fake)
        assert (
            _settings(fake, "ou_member", 2, "/settings price H100 30元") == "只有群管理员可以修改本群的设置。"
        )
        assert "H100 ¥21" in _settings(fake, "ou_member", 3, "/settings")  # unchanged, and anyone may look
        assert "H100 ¥25" in _settings(fake, "ou_owner", 4, "/settings price H100 25元")
        english = _settings(fake, "ou_member", 5, "/settings price A100 2 USD")
        assert english == "Only group administrators can change this group's settings."
    checks = [c for c in fake.http.calls if c.path == INFO]
    assert len(checks) == 1 and checks[0].query == {"user_id_type": "open_id"}  # cached for the next ones


def test_when_the_admin_check_fails_the_reply_says_so_and_nothing_changes(fake, tmp_path: Path) -> None:
    fake.http.chat_owners[CHAT] = "ou_owner"
    fake.http.chat_info_errors.add(CHAT)
    with running_bot(fake, tmp_path):
        refused = _settings(fake, "ou_owner", 1)
        assert refused == "抱歉，我没能向飞书确认你的管理员权限，请过一分钟再试。"
        assert "H100" not in _settings(fake, "ou_owner", 2, "/settings")
    assert "Traceback" not in (tmp_path / "bot.log").read_text()


def test_the_admins_are_remembered_for_a_minute_then_read_again() -> None:
    now = [100.0]

    async def main() -> list[frozenset[str]]:
        with FakeFeishu() as fake:
            fake.http.chat_owners[CHAT] = "ou_owner"
            fake.http.chat_managers[CHAT] = ["ou_admin1"]
            api = FeishuAPI(fake.app_id, fake.app_secret, domain=fake.domain, clock=lambda: now[0])
            seen = [await api.chat_admins(CHAT)]
            fake.http.chat_managers[CHAT] = []  # ou_admin1 is no longer an administrator
            now[0] += ADMINS_TTL_S - 1
            seen.append(await api.chat_admins(CHAT))
            now[0] += 2
            seen.append(await api.chat_admins(CHAT))
            await api.aclose()
            assert sum(c.path == INFO for c in fake.http.calls) == 2
            return seen

    first, cached, fresh = asyncio.run(main())
    assert first == cached == {"ou_owner", "ou_admin1"} and fresh == {"ou_owner"}
    assert ADMINS_TTL_S == 60.0
