"""The web app's test client over the real Starlette app, shared by the API tests that post questions:
``client_fixture()`` (a module-scoped fixture: ``client = client_fixture()`` in a module, as
tests/tg_harness.api_fixture) and ``ask_api`` (one POST to ``/api/v1/ask``, asserted 200, its JSON body)."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from bot.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note on httpx (as tests/test_web.py)
    from starlette.testclient import TestClient


def client_fixture() -> Any:
    @pytest.fixture(scope="module")
    def client() -> Iterator[TestClient]:
        with TestClient(create_app(rate_per_minute=0)) as c:
            yield c

    return client


def ask_api(client: TestClient, body: dict) -> dict:
    response = client.post("/api/v1/ask", json=body)
    assert response.status_code == 200, response.text
    return json.loads(response.text)
