"""bot.feishu.client.LongConnection against the fake Feishu (tests/fake_feishu.py): acks, exactly-once
delivery under duplicate pushes, lost acks and drops, reassembly, reconnects, the watchdog, fatal errors."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import time
from collections import Counter
from typing import Any

import pytest
from fake_feishu import FakeFeishu

from bot.feishu.client import (
    DEDUPE_TTL_S,
    REFUSED_BACKOFF_S,
    FeishuConnectError,
    LongConnection,
    MemorySeen,
    ack_payload,
)


class Recorder:
    """The event handler: records (kind, event); optionally blocks until ``release`` is set."""

    def __init__(self, *, block: bool = False) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.started: list[float] = []
        self.finished: list[float] = []
        self.release = asyncio.Event()
        if not block:
            self.release.set()

    async def __call__(self, kind: str, event: dict[str, Any]) -> None:
        self.started.append(time.monotonic())
        self.events.append((kind, event))
        await self.release.wait()
        self.finished.append(time.monotonic())

    def ids(self) -> Counter[str]:
        return Counter(event["header"]["event_id"] for _, event in self.events)


def run(coro: Any, timeout: float = 30) -> Any:
    return asyncio.run(asyncio.wait_for(coro, timeout))


def new_client(fake: FakeFeishu, handler: Recorder, secret: str | None = None) -> LongConnection:
    secret = fake.app_secret if secret is None else secret
    client = LongConnection(fake.app_id, secret, handler, domain=fake.domain, proxy=None)
    client.config.reconnect_interval = 0.01  # before the server's ClientConfig arrives (default 120 s)
    return client


async def started(fake: FakeFeishu, handler: Recorder, client: LongConnection | None = None):
    client = client or new_client(fake, handler)
    task = asyncio.create_task(client.run())
    await fake.until(lambda: fake.connections >= 1 and fake.pings >= 1)
    return client, task


async def stopped(client: LongConnection, task: asyncio.Task) -> None:
    await client.stop()
    await asyncio.wait_for(task, 5)


def endpoint_calls(fake: FakeFeishu) -> int:
    return sum(call.path == "/callback/ws/endpoint" for call in fake.http.calls)


def test_group_message_is_acked_and_handled() -> None:
    async def main() -> None:
        with FakeFeishu() as fake:
            handler = Recorder()
            client, task = await started(fake, handler)
            event = fake.group_message("@_user_1 7B 1T A100 要多少卡")
            frame_id = fake.push(event)
            await fake.until(lambda: len(fake.acks) == 1 and len(handler.events) == 1)
            [ack] = fake.acks
            assert ack.message_id == frame_id and ack.code == 200
            assert json.loads(base64.b64decode(ack.data)) == {}
            assert int(ack.headers["biz_rt"]) >= 0 and ack.headers["type"] == "event"
            kind, got = handler.events[0]
            assert kind == "event" and got == event
            message = got["event"]["message"]
            assert json.loads(message["content"])["text"].startswith("@_user_1 ")
            assert message["mentions"][0]["id"]["open_id"] == fake.bot_open_id
            assert client.config.ping_interval == pytest.approx(0.3)  # the endpoint's ClientConfig
            ping = fake.ping_frames[0]  # the SDK's _new_ping_frame: service = the URL's service_id
            assert (ping.service, ping.method, ping.payload) == (33, 0, None)
            assert ping.headers == [("type", "ping")]
            await stopped(client, task)

    run(main())


def test_ack_is_sent_before_a_slow_handler_finishes() -> None:
    async def main() -> None:
        with FakeFeishu() as fake:
            handler = Recorder(block=True)
            client, task = await started(fake, handler)
            fake.push(fake.message_event("70B 推理 H100"))
            await fake.until(lambda: len(fake.acks) == 1 and len(handler.started) == 1)
            assert fake.acks[0].latency < 0.5  # Feishu's limit is 3 s
            assert handler.finished == []  # the handler is still running
            await asyncio.sleep(fake.ack_timeout + 0.3)  # past the 3 s re-push deadline
            assert len(fake.pushes) == 1  # acked in time: no re-push
            handler.release.set()
            await stopped(client, task)
            assert len(handler.finished) == 1

    run(main())


def test_duplicate_push_reaches_the_handler_once() -> None:
    async def main() -> None:
        with FakeFeishu() as fake:
            handler = Recorder()
            client, task = await started(fake, handler)
            first = fake.message_event("13B LoRA")
            fake.push(first, times=3)
            # Feishu re-pushes under a new frame id: dedupe goes by event id and message id.
            fake.push(first)
            await fake.until(lambda: len(fake.acks) == 4)
            await asyncio.sleep(0.1)
            assert handler.ids() == {first["header"]["event_id"]: 1}
            assert client.duplicates == 3
            await stopped(client, task)

    run(main())


def test_split_payload_is_reassembled_and_acked_once() -> None:
    async def main() -> None:
        with FakeFeishu() as fake:
            handler = Recorder()
            client, task = await started(fake, handler)
            event = fake.group_message("@_user_1 " + "很长的问题 " * 400)
            fake.push(event, parts=3, reverse=True)
            await fake.until(lambda: len(handler.events) == 1)
            await asyncio.sleep(0.1)
            assert handler.events[0][1] == event
            assert len(fake.acks) == 1 and fake.acks[0].headers["sum"] == "3"
            await stopped(client, task)

    run(main())


def test_lost_ack_is_repushed_and_deduped() -> None:
    async def main() -> None:
        with FakeFeishu(ack_timeout=0.3) as fake:
            handler = Recorder()
            client, task = await started(fake, handler)
            fake.lose_acks(1)
            event = fake.message_event("Qwen2-72B 全参微调")
            fake.push(event)
            await fake.until(lambda: len(fake.acks) == 1)
            assert len(fake.pushes) == 2 and len(fake.lost_acks) == 1
            assert handler.ids() == {event["header"]["event_id"]: 1}
            await stopped(client, task)

    run(main())


def test_exactly_once_under_duplicates_lost_acks_and_drops() -> None:
    async def main() -> None:
        with FakeFeishu(ack_timeout=0.3) as fake:
            handler = Recorder()
            client, task = await started(fake, handler)
            events = [fake.message_event(f"question {i}", chat_id=f"oc_{i % 3}") for i in range(30)]
            for i, event in enumerate(events[:15]):
                fake.push(event, times=2 if i % 3 == 0 else 1)
            fake.lose_acks(4)
            fake.drop()
            for i, event in enumerate(events[15:]):
                fake.push(event, times=2 if i % 4 == 0 else 1, parts=2 if i % 5 == 0 else 1)
            await fake.until(lambda: len(handler.events) == 30, timeout=10)
            await asyncio.sleep(fake.ack_timeout * 2)  # let re-pushes arrive
            assert handler.ids() == {event["header"]["event_id"]: 1 for event in events}
            assert client.connections >= 2 and len(fake.pushes) > 30
            await stopped(client, task)

    run(main())


def test_silent_socket_trips_the_watchdog() -> None:
    async def main() -> None:
        with FakeFeishu(ping_interval=0.2) as fake:
            handler = Recorder()
            client, task = await started(fake, handler)
            fake.silence()
            silenced = time.monotonic()
            await fake.until(lambda: fake.connections == 2, timeout=5)
            waited = time.monotonic() - silenced
            assert 3 * 0.2 - 0.25 <= waited < 3 * 0.2 + 1.0  # 3 ping intervals, not the 2 min default
            event = fake.message_event("after the watchdog")
            fake.push(event)
            await fake.until(lambda: len(handler.events) == 1)
            await stopped(client, task)

    run(main())


def test_pong_carries_a_new_client_config() -> None:
    async def main() -> None:
        with FakeFeishu(ping_interval=0.1) as fake:
            client, task = await started(fake, Recorder())
            fake.pong_config = {"PingInterval": 0.25, "ReconnectCount": 7, "ReconnectInterval": 9}
            await fake.until(lambda: client.config.ping_interval == 0.25)
            assert (client.config.reconnect_count, client.config.reconnect_interval) == (7, 9.0)
            await stopped(client, task)

    run(main())


def test_auth_failure_on_the_endpoint_is_retried_with_backoff_not_fatal(caplog) -> None:
    """Was fatal (the SDK ends its client); part FS item 4 asks for a clear log line and a retry with
    backoff, so a supervisor never sees a crash loop."""

    async def main() -> None:
        with FakeFeishu() as fake:
            fake.fail_endpoint(514, 514)
            client, task = await started(fake, Recorder())
            calls = [c.at for c in fake.http.calls if c.path == "/callback/ws/endpoint"]
            assert len(calls) == 3 and fake.connections == 1
            assert calls[1] - calls[0] >= REFUSED_BACKOFF_S[0] and calls[2] - calls[1] >= REFUSED_BACKOFF_S[1]
            await stopped(client, task)

    with caplog.at_level(logging.ERROR, logger="bot.feishu.client"):
        run(main())
    refused = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused) == 2 and "FEISHU_APP_ID / FEISHU_APP_SECRET refused (code 514" in refused[0]
    assert refused[0].endswith("retrying in 1 s") and refused[1].endswith("retrying in 2 s")


def test_too_many_connections_is_retried_with_backoff_not_fatal() -> None:
    """Was fatal; part FS item 4: back off and retry."""

    async def main() -> None:
        with FakeFeishu() as fake:
            fake.refuse_connections(1)
            client, task = await started(fake, Recorder())
            calls = [c.at for c in fake.http.calls if c.path == "/callback/ws/endpoint"]
            assert len(calls) == 2 and calls[1] - calls[0] >= REFUSED_BACKOFF_S[0]
            await stopped(client, task)

    run(main())


def test_a_refused_client_stops_at_once_while_backing_off() -> None:
    async def main() -> None:
        with FakeFeishu() as fake:
            client = new_client(fake, Recorder(), "wrong-secret")
            task = asyncio.create_task(client.run())
            await fake.until(lambda: endpoint_calls(fake) == 1)
            started_at = time.monotonic()
            await stopped(client, task)
            assert time.monotonic() - started_at < REFUSED_BACKOFF_S[0] and endpoint_calls(fake) == 1

    run(main())


def test_busy_endpoint_is_retried_up_to_reconnect_count() -> None:
    async def main() -> None:
        with FakeFeishu(reconnect_count=2) as fake:
            fake.fail_endpoint(1)  # busy once, then fine
            client, task = await started(fake, Recorder())
            assert endpoint_calls(fake) == 2
            await stopped(client, task)
        with FakeFeishu(reconnect_count=2) as fake:
            client = new_client(fake, Recorder())
            client.config.reconnect_count = 2
            fake.fail_endpoint(1, 1, 1, 1)
            with pytest.raises(FeishuConnectError, match="gave up after 3 tries"):
                await client.run()
            assert endpoint_calls(fake) == 3

    run(main())


def test_secrets_never_reach_the_logs(caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> None:
        with FakeFeishu() as fake:
            client, task = await started(fake, Recorder())
            fake.drop()
            await fake.until(lambda: fake.connections == 2)
            await stopped(client, task)
            return fake.app_secret

    with (
        caplog.at_level(logging.DEBUG),
        caplog.at_level(logging.DEBUG, logger="httpx"),  # other tests may have quietened these
        caplog.at_level(logging.DEBUG, logger="websockets"),
    ):
        secret = run(main())
    # The fake's own server logs the request line with the ticket: only the client's side counts.
    client_side = [r for r in caplog.records if not r.name.startswith("websockets.server")]
    text = "\n".join(record.getMessage() for record in client_side)
    assert any(r.name.startswith("httpx") for r in client_side)  # DEBUG was really on
    assert "feishu: connected to ws://127.0.0.1" in text  # the log is there, without its query
    assert secret not in text and "ticket" not in text and "SECRET" not in text


def test_runs_inside_a_running_uvloop_loop() -> None:
    uvloop = pytest.importorskip("uvloop")

    async def main() -> None:
        assert "uvloop" in type(asyncio.get_running_loop()).__module__
        with FakeFeishu() as fake:
            handler = Recorder()
            client, task = await started(fake, handler)
            fake.push(fake.message_event("uvloop"))
            await fake.until(lambda: len(handler.events) == 1)
            await stopped(client, task)

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(asyncio.wait_for(main(), 20))


def test_memory_seen_keeps_keys_seven_hours() -> None:
    now = [0.0]
    seen = MemorySeen(clock=lambda: now[0])
    assert DEDUPE_TTL_S >= 7 * 3600
    assert seen.seen("message:om_1") is False
    now[0] = 7 * 3600
    assert seen.seen("message:om_1") is True
    now[0] = DEDUPE_TTL_S + 1
    assert seen.seen("message:om_2") is False and len(seen) == 1  # om_1 expired and was dropped
    assert seen.seen("message:om_1") is False


def test_a_delivery_is_decided_by_its_first_key_alone() -> None:
    """Two replicas taking the same re-pushed event at once: one recorded the event id first, the other
    the message id. Deciding on any key dropped it on both (CI, issue 29); the message id decides."""
    from bot.chat.seen import seen_delivery
    from bot.feishu.client import dedupe_keys

    event = {"header": {"event_id": "ev_1"}, "event": {"message": {"message_id": "om_1"}}}
    keys = dedupe_keys(event)
    assert keys == ["message:om_1", "event:ev_1"]
    store = MemorySeen()
    store.seen("event:ev_1")  # the other replica recorded the secondary key first
    assert seen_delivery(store, keys) is False  # still new here: answered once
    assert seen_delivery(store, keys) is True
    assert seen_delivery(store, []) is False


def test_ack_payload_shape() -> None:
    body = json.loads(ack_payload(200, {"toast": {"type": "info"}}, biz_rt="3"))
    assert body["code"] == 200 and body["headers"] == {"biz_rt": "3"}
    assert json.loads(base64.b64decode(body["data"])) == {"toast": {"type": "info"}}


def test_card_action_frame_is_acked_and_handled_as_card() -> None:
    async def main() -> None:
        with FakeFeishu() as fake:
            handler = Recorder()
            client, task = await started(fake, handler)
            click = fake.card_action({"action": "gpu", "gpu": "H100"}, message_id="om_card1")
            fake.push(click, kind="card")
            await fake.until(lambda: len(handler.events) == 1 and len(fake.acks) == 1)
            kind, got = handler.events[0]
            assert kind == "card" and got["event"]["action"]["value"] == {"action": "gpu", "gpu": "H100"}
            assert fake.acks[0].code == 200 and fake.acks[0].headers["type"] == "card"
            await stopped(client, task)

    run(main())


def test_retry_delays_follow_the_client_config() -> None:
    client = LongConnection("cli_x", "s", Recorder())
    client.config.update({"ReconnectNonce": 30, "ReconnectInterval": 120, "PingInterval": 5, "Bogus": 1})
    first = [client._retry_delay(0) for _ in range(200)]
    assert min(first) >= 0 and max(first) <= 30 and max(first) - min(first) > 10  # jitter over 0…30 s
    assert client._retry_delay(1) == client._retry_delay(5) == 120.0
    assert client.config.ping_interval == 5.0
    client.config.update({"PingInterval": "soon", "ReconnectCount": True})  # wrong types are ignored
    assert (client.config.ping_interval, client.config.reconnect_count) == (5.0, -1)


def test_stop_while_waiting_to_reconnect_returns_at_once() -> None:
    async def main() -> None:
        with FakeFeishu() as fake:
            client = new_client(fake, Recorder())
            client.config.reconnect_interval = 60.0
            fake.fail_endpoint(1)  # busy: the client waits ReconnectInterval before the next try
            task = asyncio.create_task(client.run())
            await fake.until(lambda: endpoint_calls(fake) == 1)
            await asyncio.sleep(0.05)
            start = time.monotonic()
            await stopped(client, task)
            assert time.monotonic() - start < 1.0 and endpoint_calls(fake) == 1

    run(main())


def test_a_dropped_socket_reconnects_after_the_nonce_not_the_interval() -> None:
    async def main() -> None:
        with FakeFeishu(reconnect_interval=60, reconnect_nonce=0.2) as fake:
            client, task = await started(fake, Recorder())
            fake.drop()
            start = time.monotonic()
            await fake.until(lambda: fake.connections == 2, timeout=3)
            assert time.monotonic() - start < 1.5  # a random 0…0.2 s, not ReconnectInterval (60 s)
            await stopped(client, task)

    run(main())
