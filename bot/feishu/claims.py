"""Feishu events in flight on a shared store (issue 29): an event a replica acked but never answered
(the replica died while answering it, or with it queued) is answered by another replica after a lease.

Feishu re-pushes only what was not acked, and the long connection acks every event at once (within
3 s), so the event itself is the only record of a question being answered. Each replica therefore
*claims* an event in the store (:meth:`bot.store.base.Store.claim`, stream ``feishu:<app id>``, body =
the event) before queueing it, and marks it finished once it is answered (or failed: one failed
answer is logged, not retried). Every :func:`takeover_every` seconds each replica renews the leases
of the claims it still holds (queued or being answered) and takes over the claims older than the
lease (:meth:`bot.store.base.Store.reclaim`, at most
:data:`bot.store.base.MAX_ATTEMPTS` times) and answers them.

The lease (``FEISHU_CLAIM_LEASE_S``, 30 s) must exceed the longest stretch a replica's event loop is
blocked (renewals run on it): a claim whose lease ends while still being answered is answered twice
(once by each replica), never lost.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)

KEEP_FINISHED = 2_000
"""Finished claims kept per stream after a prune (the newest)."""
RETENTION_S = 24 * 3600.0
"""Claims older than this (seconds) are pruned whatever their state."""


def event_key(event: dict[str, Any]) -> str | None:
    """The event's id (``header.event_id``; schema 1.0: ``uuid``), None when it has none."""
    header = event.get("header")
    key = header.get("event_id") if isinstance(header, dict) else None
    key = key or event.get("uuid")
    return str(key) if key else None


class FeishuClaims:
    """Claims of one Feishu app's events in ``store``; blocking methods (run them on a worker thread).
    A store error never stops an answer: the event is answered, unclaimed."""

    def __init__(self, store: Any, app_id: str, lease_s: float) -> None:
        self.store, self.lease_s = store, lease_s
        self.stream = f"feishu:{app_id}"
        self.owner = f"{socket.gethostname()}:{os.getpid()}"
        self._finished = 0

    def claim(self, key: str, kind: str, event: dict[str, Any]) -> bool:
        """True when this replica now answers ``key`` (False: another replica claimed it first)."""
        body = json.dumps({"kind": kind, "event": event}, ensure_ascii=False)
        try:
            return bool(self.store.claim(self.stream, key, body, self.owner))
        except OSError as err:
            log.warning("feishu: cannot claim event %s (%s): answering it unclaimed", key, err)
            return True

    def finish(self, key: str) -> None:
        try:
            self.store.finish(self.stream, [key])
            self._finished += 1
            if self._finished % 500 == 0:
                self.store.prune(self.stream, KEEP_FINISHED, time.time() - RETENTION_S)
        except OSError as err:
            log.warning("feishu: cannot mark event %s answered (%s)", key, err)

    def renew(self, keys: list[str]) -> None:
        """Restart the lease of the claims this replica is still answering (queued or in progress)."""
        try:
            self.store.renew(self.stream, keys, self.owner)
        except OSError as err:
            log.warning("feishu: cannot renew %d claims (%s)", len(keys), err)

    def reclaim(self) -> list[tuple[str, str, dict[str, Any]]]:
        """(key, kind, event) of every claim whose lease ran out, now this replica's."""
        try:
            rows = self.store.reclaim(self.stream, self.owner, self.lease_s)
        except OSError as err:
            log.warning("feishu: cannot look for unanswered events (%s)", err)
            return []
        found = []
        for key, body in rows:
            try:
                data = json.loads(body)
                found.append((key, str(data["kind"]), dict(data["event"])))
            except (ValueError, KeyError, TypeError):
                log.warning("feishu: claimed event %s has no readable body: skipped", key)
                self.finish(key)
        return found


def takeover_every(lease_s: float) -> float:
    """Seconds between two looks for expired claims: a quarter of the lease, 0.25 s to 5 s."""
    return min(5.0, max(0.25, lease_s / 4))


async def take_over(
    claims: FeishuClaims,
    held: Callable[[], list[str]],
    replay: Callable[[str, str, dict[str, Any]], Awaitable[None]],
) -> None:
    """Forever, every :func:`takeover_every` s: renew the leases of the claims this replica ``held()``
    (queued or being answered), then answer (``replay``) every other claim whose lease ran out."""
    every = takeover_every(claims.lease_s)
    while True:
        mine = held()
        if mine:
            await asyncio.to_thread(claims.renew, mine)
        for key, kind, event in await asyncio.to_thread(claims.reclaim):
            if key in held():
                continue  # ours, still queued (renewed late): answered once already
            log.warning("feishu: answering event %s another replica took but never answered", key)
            await replay(key, kind, event)
        await asyncio.sleep(every)
