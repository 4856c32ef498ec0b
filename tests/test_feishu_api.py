"""bot.feishu.api.FeishuAPI against the fake Feishu: token cache and refresh, messages, uploads, bot
info, 429 / 99991400 retries honouring x-ogw-ratelimit-reset, and the 5 QPS per-chat limiter."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from fake_feishu import FakeFeishu

from bot.chat.token import TOKEN_MARGIN_S
from bot.feishu.api import ChatLimiter, FeishuAPI, FeishuAPIError

MESSAGES = "/open-apis/im/v1/messages"
TOKEN = "/open-apis/auth/v3/tenant_access_token/internal"


class Sleeps:
    """A recording ``sleep`` that does not wait."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def run(coro: Any, timeout: float = 30) -> Any:
    return asyncio.run(asyncio.wait_for(coro, timeout))


def api_for(fake: FakeFeishu, **kwargs: Any) -> FeishuAPI:
    return FeishuAPI(fake.app_id, kwargs.pop("secret", fake.app_secret), domain=fake.domain, **kwargs)


def calls(fake: FakeFeishu, path: str) -> list[Any]:
    return [call for call in fake.http.calls if call.path.startswith(path)]


def test_token_is_cached_until_expire_minus_margin() -> None:
    now = [1000.0]

    async def main() -> None:
        with FakeFeishu() as fake:
            api = api_for(fake, clock=lambda: now[0])
            first = await api.tenant_token()
            assert first == await api.tenant_token()
            [call] = calls(fake, TOKEN)
            assert call.body == {"app_id": fake.app_id, "app_secret": fake.app_secret}
            now[0] += 7200 - TOKEN_MARGIN_S - 1
            assert await api.tenant_token() == first
            now[0] += 2  # within the margin of the 7200 s expiry: fetch a new one
            assert await api.tenant_token() != first
            assert len(calls(fake, TOKEN)) == 2
            await api.aclose()

    run(main())


def test_invalid_token_code_fetches_a_new_token_once() -> None:
    async def main() -> None:
        with FakeFeishu() as fake:
            api = api_for(fake)
            await api.send("oc_group0001", "text", {"text": "one"})
            fake.expire_tokens()
            data = await api.send("oc_group0001", "text", {"text": "two"})
            assert json.loads(data["body"]["content"]) == {"text": "two"}
            assert len(calls(fake, TOKEN)) == 2
            assert [c.refused for c in calls(fake, MESSAGES)] == [None, 99991663, None]
            await api.aclose()

    run(main())


def test_bad_credentials_raise() -> None:
    async def main() -> None:
        with FakeFeishu() as fake:
            api = api_for(fake, secret="wrong")
            with pytest.raises(FeishuAPIError) as info:
                await api.bot_info()
            assert info.value.code == 10014
            await api.aclose()

    run(main())


def test_messages_cards_uploads_and_bot_info() -> None:
    async def main() -> None:
        with FakeFeishu() as fake:
            api = api_for(fake)
            assert (await api.bot_info())["open_id"] == fake.bot_open_id
            card = {"schema": "2.0", "body": {"elements": [{"tag": "markdown", "content": "**8 × H100**"}]}}
            sent = await api.send("oc_group0001", "interactive", card, uuid="req-1")
            reply = await api.reply(sent["message_id"], "text", {"text": "详情"}, chat_id="oc_group0001")
            assert reply["parent_id"] == sent["message_id"] and reply["chat_id"] == "oc_group0001"
            card["body"]["elements"][0]["content"] = "**16 × A100**"
            await api.update_card(sent["message_id"], card, chat_id="oc_group0001")
            stored = fake.http.messages[sent["message_id"]]
            assert json.loads(stored["updates"][-1]) == card and stored["uuid"] == "req-1"
            image_key = await api.upload_image(b"\x89PNG fake", "chart.png")
            file_key = await api.upload_file(b"%PDF-1.7 fake", "quote.pdf")
            assert image_key.startswith("img_v2_") and file_key.startswith("file_v3_")
            assert fake.http.uploads[image_key]["image_type"] == "message"
            assert fake.http.uploads[image_key]["image"] == b"\x89PNG fake"
            upload = fake.http.uploads[file_key]
            assert (upload["file_type"], upload["file_name"], upload["file"]) == (
                "pdf",
                "quote.pdf",
                b"%PDF-1.7 fake",
            )
            [send_call] = [c for c in calls(fake, MESSAGES) if c.query]
            assert send_call.query == {"receive_id_type": "chat_id"}
            with pytest.raises(FeishuAPIError) as info:  # a text message is not a card
                await api.update_card(reply["message_id"], card)
            assert info.value.code == 230001
            await api.aclose()

    run(main())


def test_429_waits_for_the_reset_header() -> None:
    async def main() -> None:
        with FakeFeishu() as fake:
            sleeps = Sleeps()
            api = api_for(fake, sleep=sleeps, limiter=ChatLimiter(qps=1e9))
            fake.rate_limit(MESSAGES, 7, 3)
            await api.send("oc_group0001", "text", {"text": "hi"})
            assert sleeps.waits == [7.0, 3.0]
            assert [c.refused for c in calls(fake, MESSAGES)] == [99991400, 99991400, None]
            assert len(fake.http.sent()) == 1
            await api.aclose()

    run(main())


def test_429_really_waits_and_gives_up_after_retries() -> None:
    async def main() -> None:
        with FakeFeishu() as fake:
            api = api_for(fake, retries=2)
            fake.rate_limit(MESSAGES, 1)
            start = time.monotonic()
            await api.send("oc_group0001", "text", {"text": "hi"})
            assert time.monotonic() - start >= 1.0
            fake.rate_limit(MESSAGES, 0, 0, 0)
            with pytest.raises(FeishuAPIError, match="gave up after 3 tries"):
                await api.send("oc_group0001", "text", {"text": "again"})
            await api.aclose()

    run(main())


def test_chat_limiter_spaces_calls_per_chat() -> None:
    now = [0.0]
    limiter = ChatLimiter(clock=lambda: now[0])
    assert [limiter.reserve("oc_a") for _ in range(6)] == pytest.approx([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    assert limiter.reserve("oc_b") == 0  # another chat is not held up
    now[0] = 5.0
    assert limiter.reserve("oc_a") == 0  # idle long enough: no wait


def test_sends_to_one_group_stay_under_5_qps() -> None:
    """The limiter's planned waits are asserted, not server arrival gaps (those jitter under load)."""
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        await asyncio.sleep(seconds)

    async def main() -> None:
        with FakeFeishu() as fake:
            api = api_for(fake, sleep=sleep)
            await api.tenant_token()
            await asyncio.gather(
                *(api.send("oc_busy", "text", {"text": str(i)}) for i in range(8)),
                api.send("oc_quiet", "text", {"text": "other"}),
            )
            busy = sorted(c.at for c in calls(fake, MESSAGES) if c.body.get("receive_id") == "oc_busy")
            quiet = [c.at for c in calls(fake, MESSAGES) if c.body.get("receive_id") == "oc_quiet"]
            assert len(busy) == 8
            # 8 sends to one chat at 5 qps: the first at once, each next 0.2 s later (≤ 5 a second).
            assert sorted(waits) == pytest.approx([0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4], abs=0.05)
            assert busy[-1] - busy[0] >= 1.2  # the waits were slept before the sends reached the server
            assert quiet[0] - busy[0] < 0.5  # the other group went out at once
            await api.aclose()

    run(main())
