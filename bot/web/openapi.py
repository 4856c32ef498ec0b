"""The API's OpenAPI 3.1 description (``/openapi.json``) and a plain HTML page of it (``/docs``: no
JavaScript and no CDN, so it loads under the page's CSP and where foreign CDNs are blocked)."""

from __future__ import annotations

import html
import json
from typing import Any

_ERROR = {
    "type": "object",
    "properties": {
        "error": {
            "type": "object",
            "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
            "required": ["code", "message"],
        }
    },
}
ERROR_CODES = {
    "bad_json": "400: the body is not a JSON object",
    "too_deep": "400: the body is JSON nested too deeply to read (about 1,000 levels or more)",
    "bad_question": "400: q is not a string",
    "missing_question": "400: q is absent or blank (and, for POST, no config is given)",
    "bad_lang": '400: lang is not "zh" or "en"',
    "bad_config": "400: config is neither a config.json object nor a config file's text",
    "bad_prev": "400: prev is not the request object of an earlier answer (its fields, types and bounds)",
    "question_too_long": "413: q (or a prev) is longer than 20,000 characters",
    "body_too_large": "413: the body is larger than 256 KiB",
    "rate_limited": "429: too many requests from this client; see Retry-After",
    "not_found": "404: no such path",
    "internal": "500: the answer could not be made",
}


def spec(prefix: str = "") -> dict[str, Any]:
    """The OpenAPI document; ``prefix``: the path prefix behind a reverse proxy (a server URL)."""
    answer = {
        "description": "exactly what `sizing-bot ask --format json` prints (schema 1; see the README)",
        "content": {"application/json": {"schema": {"type": "object"}}},
    }
    errors = {
        code[:3]: {"description": code, "content": {"application/json": {"schema": _ERROR}}}
        for code in sorted({c.split(":")[0] for c in ERROR_CODES.values()})
    }
    q = {"name": "q", "in": "query", "required": True, "schema": {"type": "string", "maxLength": 20000}}
    lang = {"name": "lang", "in": "query", "schema": {"enum": ["zh", "en"]}}
    body = {
        "type": "object",
        "required": ["q"],
        "properties": {
            "q": {"type": "string", "maxLength": 20000, "example": "7B模型1万亿token要多少A100"},
            "lang": {"enum": ["zh", "en"], "description": "reply language (default: the question's)"},
            "config": {"description": "a model's config.json (object) or a training/serving config's text"},
            "prev": {
                "type": "object",
                "description": "the `request` object of the previous answer: q is then a follow-up of it",
            },
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "LLM compute sizing API",
            "version": "1",
            "description": "Error codes: " + "; ".join(f"{k} ({v})" for k, v in ERROR_CODES.items()),
        },
        "servers": [{"url": prefix or "/"}],
        "paths": {
            "/api/v1/ask": {
                "get": {
                    "summary": "Answer one question",
                    "parameters": [q, lang],
                    "responses": {"200": answer, **errors},
                },
                "post": {
                    "summary": "Answer one question (with a config)",
                    "requestBody": {"required": True, "content": {"application/json": {"schema": body}}},
                    "responses": {"200": answer, **errors},
                },
            },
            "/healthz": {
                "get": {"summary": "Liveness", "responses": {"200": {"description": '{"status": "ok"}'}}}
            },
        },
    }


def docs_page(prefix: str = "") -> str:
    """``/docs``: the endpoints, a curl example, the error codes and the OpenAPI document itself."""
    e = html.escape
    codes = "".join(f"<li><code>{e(k)}</code> — {e(v)}</li>" for k, v in ERROR_CODES.items())
    curl = (
        f"curl -s -X POST http://HOST{prefix}/api/v1/ask -H 'content-type: application/json' "
        '-d \'{"q": "7B模型1万亿token要多少A100"}\''
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f'<title>API — LLM compute sizing</title><link rel="stylesheet" href="{e(prefix)}/page.css"></head>'
        "<body><h1>LLM compute sizing API</h1>"
        '<p><code>POST /api/v1/ask</code> with <code>{"q", "lang"?, "config"?, "prev"?}</code>, or '
        "<code>GET /api/v1/ask?q=…&amp;lang=…</code>: "
        "the JSON of <code>sizing-bot ask --format json</code>.</p>"
        f'<pre>{e(curl)}</pre><h2>Errors</h2><p><code>{{"error": {{"code", "message"}}}}</code></p>'
        f'<ul>{codes}</ul><h2><a href="{e(prefix)}/openapi.json">openapi.json</a></h2>'
        f"<pre>{e(json.dumps(spec(prefix), ensure_ascii=False, indent=1))}</pre></body></html>"
    )
