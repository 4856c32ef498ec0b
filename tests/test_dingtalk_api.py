"""DingTalk's HTTP side against the fake: the 20-messages-a-minute window per group, the session
webhook guard, token refresh, and the upload + send of a file."""

from __future__ import annotations

import asyncio

import pytest
from fake_dingtalk import FakeDingTalk

from bot.dingtalk.api import GROUP_PER_MINUTE, DingTalkAPI, DingTalkAPIError, MinuteWindow


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_the_window_books_at_most_20_sends_a_minute_per_group_in_order() -> None:
    clock = Clock()
    window = MinuteWindow(clock=clock)
    waits = [window.reserve("g1") for _ in range(GROUP_PER_MINUTE + 3)]
    assert GROUP_PER_MINUTE == 20
    assert waits[:20] == [0.0] * 20 and waits[20:] == [60.0, 60.0, 60.0]
    assert window.reserve("g2") == 0.0  # another group has its own window
    clock.now += 30
    assert window.reserve("g1") == 30.0  # the 24th send: 60 s after the 4th


def test_the_api_waits_for_the_window_before_the_21st_message(tmp_path) -> None:
    clock = Clock()

    async def main(fake: FakeDingTalk) -> list[float]:
        api = DingTalkAPI(
            fake.client_id,
            fake.client_secret,
            endpoint=fake.endpoint,
            oapi_endpoint=fake.endpoint,
            window=MinuteWindow(clock=clock),
            sleep=clock.sleep,
            clock=clock,
        )
        target = {"robotCode": fake.client_id, "openConversationId": "cidG"}
        for i in range(21):
            await api.send(target, "sampleText", {"content": f"{i}"}, chat="dingtalk:cidG")
        await api.aclose()
        return clock.slept

    with FakeDingTalk() as fake:
        slept = asyncio.run(main(fake))
        assert slept == [60.0] and len(fake.sent) == 21
        assert [s.body["content"] for s in fake.sent] == [str(i) for i in range(21)]


def test_a_webhook_off_the_oapi_host_is_never_posted_to() -> None:
    async def main(fake: FakeDingTalk) -> None:
        api = DingTalkAPI(
            fake.client_id, fake.client_secret, endpoint=fake.endpoint, oapi_endpoint=fake.endpoint
        )
        good = fake.message("hi")["sessionWebhook"]
        assert api.webhook_ok(good)
        for bad in ("https://evil.example/robot/sendBySession?session=x", f"{fake.endpoint}/other?session=x"):
            assert not api.webhook_ok(bad)
            with pytest.raises(DingTalkAPIError):
                await api.webhook(bad, {"msgtype": "text", "text": {"content": "x"}}, chat="c")
        await api.aclose()

    with FakeDingTalk() as fake:
        asyncio.run(main(fake))
        assert ("POST", "/other") not in fake.calls and not fake.sent


def test_an_invalid_token_is_fetched_again_once_and_a_file_goes_out() -> None:
    async def main(fake: FakeDingTalk) -> str:
        api = DingTalkAPI(
            fake.client_id, fake.client_secret, endpoint=fake.endpoint, oapi_endpoint=fake.endpoint
        )
        await api.access_token()
        with fake.lock:
            fake.tokens.clear()  # DingTalk forgot it (expired early): 401 → a new token
        media = await api.upload(b"%PDF-1.4 quote", "quote.pdf", "file")
        param = {"mediaId": media, "fileName": "quote.pdf", "fileType": "pdf"}
        await api.send({"robotCode": "r", "userIds": ["staff1"]}, "sampleFile", param, chat="dingtalk:c")
        await api.aclose()
        return media

    with FakeDingTalk() as fake:
        media = asyncio.run(main(fake))
        assert fake.uploads[media]["media"] == b"%PDF-1.4 quote"
        assert fake.calls.count(("POST", "/v1.0/oauth2/accessToken")) == 2
        assert fake.sent[0].kind == "sampleFile" and fake.sent[0].chat == "staff1"


def test_a_callback_becomes_a_scoped_inbound_without_leading_mentions() -> None:
    from bot.dingtalk.adapter import message_inbound

    with FakeDingTalk() as fake:
        data = fake.message("@算力助手  7B模型1万亿token要多少A100", staff_id="staff7")
        data["text"].update(isReplyMsg=True, repliedMsg={"msgId": "msgBot01"})
        inbound = message_inbound(data)
        single = message_inbound(fake.message("那H100呢", group=False))
        picture = message_inbound({**fake.message("x"), "msgtype": "picture"})
    assert inbound is not None and single is not None and picture is None
    assert inbound.text == "7B模型1万亿token要多少A100"
    assert inbound.chat_id == "dingtalk:cidGroupFake001==" and inbound.user_id == "dingtalk:staff7"
    assert inbound.is_group and inbound.mentioned and inbound.reply_to == "msgBot01"
    assert not single.is_group and not single.mentioned and single.text == "那H100呢"


def test_an_unreachable_session_webhook_is_a_refusal_naming_no_url() -> None:
    async def main(fake: FakeDingTalk) -> DingTalkAPIError:
        api = DingTalkAPI(
            fake.client_id, fake.client_secret, endpoint=fake.endpoint, oapi_endpoint="http://127.0.0.1:9"
        )
        with pytest.raises(DingTalkAPIError) as caught:
            await api.webhook(
                "http://127.0.0.1:9/robot/sendBySession?session=SECRET", {"msgtype": "text"}, chat="c"
            )
        await api.aclose()
        return caught.value

    with FakeDingTalk() as fake:
        error = asyncio.run(main(fake))
    assert error.code == "ConnectError" and "SECRET" not in str(error)
