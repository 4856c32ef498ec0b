"""The web page and the JSON API (bot.web, issue 26), through Starlette's test client: the API's JSON
is exactly `sizing-bot ask --format json`, the page shows the answer with its actions and follow-ups,
and the guards (limits, rate limit, CSP, escaping, path prefix) hold."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest

from bot.cli import main
from bot.settings.presales import load_presales
from bot.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

REPO = Path(__file__).resolve().parent.parent
README_QUESTIONS = sorted(
    set(
        re.findall(
            r'sizing-bot ask (?:--(?:recipe|quote) \S+ |--recipe )?"([^"]+)"',
            (REPO / "README.md").read_text(),
        )
    )
)
SEED = "7B模型1万亿token要多少A100"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(rate_per_minute=0))


def cli_json(capsys, *args: str) -> str:
    capsys.readouterr()
    main(["ask", "--format", "json", *args])
    return capsys.readouterr().out.rstrip("\n")


def test_readme_has_examples_in_both_languages() -> None:
    assert len(README_QUESTIONS) >= 6
    assert SEED in README_QUESTIONS
    assert any(re.search(r"[\u4e00-\u9fff]", q) for q in README_QUESTIONS)
    assert any(q.startswith("How long") for q in README_QUESTIONS)


@pytest.mark.parametrize("question", README_QUESTIONS)
def test_api_json_is_exactly_the_clis(client, capsys, question: str) -> None:
    expected = cli_json(capsys, question)
    got = client.get("/api/v1/ask", params={"q": question})
    assert got.status_code == 200 and got.headers["content-type"].startswith("application/json")
    assert got.text == expected
    posted = client.post("/api/v1/ask", json={"q": question})
    assert posted.text == expected
    assert json.loads(posted.text)["schema"] == 1


def test_api_lang_and_config_are_the_clis(client, capsys, tmp_path) -> None:
    config = {
        "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
        "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,
        "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 8192,
    }  # fmt: skip
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    question = "serve it on 2 H100 with 32 users"
    expected = cli_json(capsys, "--lang", "zh", "--config", str(path), question)
    got = client.post("/api/v1/ask", json={"q": question, "lang": "zh", "config": config})
    assert got.text == expected
    data = json.loads(got.text)
    assert data["lang"] == "zh" and data["config"]["error"] is None
    assert data["report"]["inference"] is not None


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"not json", 400, "bad_json"),
        (b"[1, 2]", 400, "bad_json"),
        (json.dumps({"q": 7}).encode(), 400, "bad_question"),
        (json.dumps({"q": SEED, "lang": "fr"}).encode(), 400, "bad_lang"),
        (json.dumps({"q": "7B" * 10_001}).encode(), 413, "question_too_long"),
        (json.dumps({"q": SEED, "config": 5}).encode(), 400, "bad_config"),
        (b'{"q": "' + b"x" * 300_000 + b'"}', 413, "body_too_large"),
    ],
)
def test_api_errors_are_json_with_a_stable_code(client, body: bytes, status: int, code: str) -> None:
    got = client.post("/api/v1/ask", content=body, headers={"content-type": "application/json"})
    assert got.status_code == status
    assert got.json()["error"]["code"] == code
    assert "Traceback" not in got.text


def test_unknown_api_path_is_json_404(client) -> None:
    got = client.get("/api/v1/nothing")
    assert got.status_code == 404 and got.json()["error"]["code"] == "not_found"


def test_page_shows_the_answer_with_details_chart_and_actions(client) -> None:
    got = client.get("/", params={"q": SEED})
    page = got.text
    assert got.status_code == 200
    assert "<b>7B 预训练 1万亿 token ≈ 9.3万 A100·时" in page  # the bot's headline
    assert "<details><summary>详细计算、假设与来源</summary>" in page and "<blockquote" not in page
    assert 'src="/chart.png?q=' in page
    assert "%E9%82%A3H100%E5%91%A2" in page  # 那H100呢, a follow-up link
    assert 'name="prev" value="7B模型1万亿token要多少A100"' in page  # the follow-up form keeps it
    assert len(got.content) < 50_000
    assert "script-src" not in got.headers["content-security-policy"]  # default-src 'none': no script
    assert "default-src 'none'" in got.headers["content-security-policy"]
    assert "<script" not in page and " style=" not in page


def test_followup_in_the_link_keeps_the_conversation(client) -> None:
    page = client.get("/", params={"q": "那H100呢", "prev": SEED}).text
    assert "7B 预训练 1万亿 token" in page and "H100·时" in page
    # the new-question box starts empty after a follow-up (its words alone lose the conversation);
    # the turns are listed, escaped, in order
    assert 'class="ask"><input type="text" name="q" value=""' in page
    turns = "<li>7B模型1万亿token要多少A100</li><li>那H100呢</li></ol>"
    assert f'<ol class="turns small" aria-label="本次对话">{turns}' in page
    first = client.get("/", params={"q": SEED}).text
    assert f'class="ask"><input type="text" name="q" value="{SEED}"' in first
    assert '<ol class="turns' not in first
    alone = client.get("/", params={"q": "那H100呢"}).text
    assert "H100·时" not in alone  # without the earlier question there is nothing to continue


def test_language_follows_accept_language_and_the_switch(client) -> None:
    assert "LLM compute sizing" in client.get("/", headers={"accept-language": "en-US,en;q=0.8"}).text
    assert "大模型算力估算" in client.get("/", headers={"accept-language": "zh-CN"}).text
    page = client.get("/", params={"q": SEED, "lang": "en"}).text
    assert "A100-hours" in page and 'html lang="en"' in page


def test_every_answer_page_is_small(client) -> None:
    for question in README_QUESTIONS:
        got = client.get("/", params={"q": question})
        assert got.status_code == 200 and len(got.content) < 50_000, question


def test_user_text_is_escaped(client) -> None:
    evil = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
    page = client.get("/", params={"q": evil, "prev": evil}).text
    assert "<script>" not in page and "<img src=x" not in page
    assert "&lt;script&gt;" in page


def test_long_question_gets_a_page_not_a_traceback(client) -> None:
    got = client.get("/", params={"q": "x" * 20_001})
    assert got.status_code == 413 and "20,000" in got.text and "Traceback" not in got.text


def test_rate_limit_answers_429_page_and_json() -> None:
    # 0.6 a minute: one token back every 100 s, so a slow machine's burst cannot earn one back (at 60 a
    # minute, 20 answers taking over a second under load refilled a token and the 21st passed)
    limited = TestClient(create_app(rate_per_minute=0.6))
    codes = [limited.get("/api/v1/ask", params={"q": SEED}).status_code for _ in range(20)]
    assert codes == [200] * 20  # a burst of 20
    over = limited.get("/api/v1/ask", params={"q": SEED})
    assert over.status_code == 429 and over.json()["error"]["code"] == "rate_limited"
    assert 90 <= int(over.headers["retry-after"]) <= 100  # the rest of the 100 s the next token takes
    page = limited.get("/", headers={"accept-language": "zh"})
    assert page.status_code == 429 and "请求太频繁" in page.text
    assert limited.get("/healthz").status_code == 200  # load balancers are never limited


def test_path_prefix_from_the_proxy_header_and_root_path() -> None:
    for client, headers in (
        (TestClient(create_app(rate_per_minute=0)), {"x-forwarded-prefix": "/sizing"}),
        (TestClient(create_app(rate_per_minute=0), root_path="/sizing"), {}),
    ):
        page = client.get("/", params={"q": SEED}, headers=headers).text
        assert 'href="/sizing/page.css"' in page and 'action="/sizing/"' in page
        assert 'src="/sizing/chart.png?q=' in page
        assert client.get("/healthz", headers=headers).json() == {"status": "ok"}
    bad = TestClient(create_app(rate_per_minute=0)).get("/", headers={"x-forwarded-prefix": '/"><b>'})
    assert 'href="/page.css"' in bad.text  # a prefix that is not a path is ignored


def test_quote_link_and_pdf_with_an_offer() -> None:
    offer = TestClient(create_app(load_presales(REPO / "presales.example.toml"), rate_per_minute=0))
    question = "Qwen2.5-72B 推理部署，200 并发，8K 上下文，要多少卡？每月多少钱？"
    page = offer.get("/", params={"q": question}).text
    assert "Example GPU Cloud" in page and "下载报价单（PDF）" in page
    pdf = offer.get("/quote.pdf", params={"q": question})
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert (
        TestClient(create_app(rate_per_minute=0)).get("/quote.pdf", params={"q": question}).status_code == 404
    )


def test_chart_recipes_health_and_docs(client) -> None:
    png = client.get("/chart.png", params={"q": SEED})
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    recipes = client.get("/recipes", params={"q": "QLoRA Llama-3.1-8B on one RTX 4090"})
    assert recipes.status_code == 200 and "llamafactory" in recipes.text.lower()
    assert client.get("/healthz").json() == {"status": "ok"}
    spec = client.get("/openapi.json").json()
    assert set(spec["paths"]["/api/v1/ask"]) == {"get", "post"}
    assert "rate_limited" in client.get("/docs").text


def test_cli_serve_refuses_a_bad_port(capsys, monkeypatch) -> None:
    monkeypatch.setenv("SIZING_BOT_WEB_PORT", "eighty")
    assert main(["serve"]) == 2
    assert "SIZING_BOT_WEB_PORT" in capsys.readouterr().err
