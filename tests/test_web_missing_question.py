"""FIX2 item 5: ``GET /api/v1/ask`` without ``q`` (or with a blank one) is a 400 with the API's error
shape and code ``missing_question`` (was: 200 with understood:false); a present question that is not
understood stays 200 with understood:false; the code is in the OpenAPI document and on /docs."""

from __future__ import annotations

import warnings

import pytest

from bot.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(rate_per_minute=0))


@pytest.mark.parametrize(
    "params", [{}, {"q": ""}, {"q": "   "}, {"lang": "en"}], ids=["none", "empty", "blank", "lang"]
)
def test_get_without_a_question_is_400_missing_question(client: TestClient, params: dict[str, str]) -> None:
    got = client.get("/api/v1/ask", params=params)
    assert got.status_code == 400
    assert got.headers["content-type"].startswith("application/json")
    error = got.json()["error"]
    assert set(got.json()) == {"error"} and set(error) == {"code", "message"}
    assert error["code"] == "missing_question" and "q" in error["message"]


def test_post_without_a_question_or_config_is_400_missing_question(client: TestClient) -> None:
    got = client.post("/api/v1/ask", json={"lang": "zh"})
    assert got.status_code == 400 and got.json()["error"]["code"] == "missing_question"


def test_a_present_question_that_is_not_understood_stays_200(client: TestClient) -> None:
    got = client.get("/api/v1/ask", params={"q": "hello there"})
    assert got.status_code == 200
    assert got.json()["understood"] is False


def test_the_openapi_document_and_docs_name_missing_question(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert "missing_question (400: q is absent or blank" in spec["info"]["description"]
    get = spec["paths"]["/api/v1/ask"]["get"]
    assert "400" in get["responses"] and any(p["name"] == "q" and p["required"] for p in get["parameters"])
    assert "<code>missing_question</code>" in client.get("/docs").text
