"""bot/chat/token.py: the access-token cache Feishu and DingTalk share."""

from __future__ import annotations

import asyncio

from bot.chat.token import TOKEN_MARGIN_S, TokenCache


def test_one_fetch_for_concurrent_callers_then_refetched_near_expiry_refresh_and_forget() -> None:
    now = [1000.0]
    fetched: list[int] = []
    seen: list[str] = []

    async def fetch() -> tuple[str, float]:
        fetched.append(1)
        await asyncio.sleep(0)
        return f"t{len(fetched)}", 7200.0

    async def main() -> list[str]:
        cache = TokenCache(fetch, lambda: now[0], on_token=seen.append)
        out = list(await asyncio.gather(*(cache.get() for _ in range(5))))  # one fetch for all five
        now[0] += 7200 - TOKEN_MARGIN_S - 1  # still inside the margin: kept
        out.append(await cache.get())
        now[0] += 2  # 5 minutes before expiry: fetched again
        out.append(await cache.get())
        out.append(await cache.get(refresh=True))
        cache.forget()
        out.append(await cache.get())
        return out

    assert asyncio.run(main()) == ["t1"] * 6 + ["t2", "t3", "t4"]
    assert seen == ["t1", "t2", "t3", "t4"]


def test_a_short_lived_token_is_kept_for_half_its_life() -> None:
    now = [0.0]

    async def fetch() -> tuple[str, float]:
        return f"t{now[0]:g}", 400.0  # shorter than twice the margin

    async def main() -> list[str]:
        cache = TokenCache(fetch, lambda: now[0])
        first = await cache.get()
        now[0] = 199.0
        kept = await cache.get()
        now[0] = 200.0
        return [first, kept, await cache.get()]

    assert asyncio.run(main()) == ["t0", "t0", "t200"]
