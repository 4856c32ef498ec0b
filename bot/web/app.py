"""The ASGI application of ``sizing-bot serve`` (Starlette): the page, the JSON API, the chart, the
launch recipes, the PDF quote, OpenAPI and /healthz. Errors are JSON ``{"error": {"code", "message"}}``
(the API) or a short page, never a traceback.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from bot.web import openapi
from bot.web.guard import MAX_BODY_BYTES, Guard, RateLimiter
from bot.web.page import CSS, message_page, page
from bot.web.state import (
    Asked,
    WebInputError,
    api_json,
    checked_lang,
    checked_prev,
    checked_question,
    client_lang,
    converse,
)
from bot.web.wording import word

if TYPE_CHECKING:
    from bot.settings.presales import PresalesConfig

log = logging.getLogger("bot.web")
RATE_PER_MINUTE = 60
"""Default per-client rate ($SIZING_BOT_WEB_RATE; 0 = no limit), with bursts of :data:`RATE_BURST`."""
RATE_BURST = 20


def _prefix(request: Request) -> str:
    return request.scope.get("root_path", "").rstrip("/")


def _error(code: str, message: str, status: int, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


def _page_lang(request: Request) -> str:
    lang = request.query_params.get("lang")
    if lang in ("zh", "en", "zh-Hant", "zh-Hans"):
        return "zh-Hant" if lang == "zh-Hant" else lang[:2]  # the page's words in its script (s38 fixm)
    return client_lang(request.headers.get("accept-language")) or "zh"


def _asked(request: Request) -> Asked:
    params = request.query_params
    prev = tuple(checked_question(p, "prev") for p in params.getlist("prev"))
    return Asked(
        q=checked_question(params.get("q")),
        prev=prev,
        lang=checked_lang(params.get("lang")),
        client=client_lang(request.headers.get("accept-language")),
    )


def _json_text(text: str) -> Response:
    return Response(text, media_type="application/json; charset=utf-8")


def create_app(presales: PresalesConfig | None = None, rate_per_minute: float | None = None) -> Any:
    """The application: ``presales`` is the provider's offer (None: market prices); the rate limit is
    ``rate_per_minute`` per client (default $SIZING_BOT_WEB_RATE, else :data:`RATE_PER_MINUTE`)."""
    if rate_per_minute is None:
        from bot.config import current_if_set

        settings = current_if_set()
        rate_per_minute = settings.web.rate if settings is not None else RATE_PER_MINUTE
    from starlette.exceptions import HTTPException

    fixed = [
        Route("/healthz", _healthz),
        Route("/page.css", _css),
        Route("/openapi.json", _spec),
        Route("/docs", _docs),
    ]
    app = Starlette(
        routes=[*_answer_routes(presales), *fixed],
        exception_handlers={WebInputError: _bad_input, HTTPException: _http_error, Exception: _crashed},
    )
    return Guard(app, RateLimiter(rate_per_minute, RATE_BURST), _too_many, _too_large)


def _answer_routes(presales: PresalesConfig | None) -> list[Route]:
    """The routes that answer a question (the page, the API, its chart, recipes and quote) with
    ``presales``."""

    async def home(request: Request) -> Response:
        asked = _asked(request)
        lang = _page_lang(request)
        if not asked.q.strip():
            return HTMLResponse(page(_prefix(request), lang, None, None))
        from bot.render.renderer import render
        from bot.web.actions import action_links, extras

        result = converse(asked, presales)
        prefix = _prefix(request)
        lang = asked.lang[:2] if asked.lang else result.lang
        lang = "zh-Hant" if lang == "zh" and result.script == "Hant" else lang  # its words as the reply's
        acts = action_links(prefix, asked, result, presales) if result.understood else []
        more = extras(prefix, asked, result, presales) if result.understood else ""
        body = page(prefix, lang, asked, result, render(result, "html"), acts, more)
        return HTMLResponse(body)

    async def api_get(request: Request) -> Response:
        params = request.query_params
        q = _required(checked_question(params.get("q")), None)
        return _json_text(api_json(q, checked_lang(params.get("lang")), None, presales))

    async def api_post(request: Request) -> Response:
        q, lang, config, prev = _posted(await request.body())
        return _json_text(api_json(_required(q, config), lang, config, presales, prev))

    async def chart(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        from bot.render.chart import render_chart

        result = converse(_asked(request), presales)
        png = await run_in_threadpool(render_chart, result)
        if png is None:
            return _error("no_chart", "nothing to chart for this answer", 404)
        return Response(png, media_type="image/png", headers={"cache-control": "public, max-age=3600"})

    async def recipes(request: Request) -> Response:
        from bot.recipes import build_recipes
        from bot.recipes.present import as_text

        result = converse(_asked(request), presales)
        found = build_recipes(result.report, result.lang, (result.chosen_plan,)) if result.report else []
        if not found:
            return _error("no_recipe", "no launch recipe for this answer", 404)
        return PlainTextResponse(as_text(found))

    async def quote(request: Request) -> Response:
        from bot.quote import QuoteError, can_quote, quote_filename, quote_pdf

        asked = _asked(request)
        result = converse(asked, presales)
        if presales is None or not can_quote(result):
            return _error("no_quote", "no quote for this answer (no provider's offer, or nothing sized)", 404)
        try:
            pdf = quote_pdf(result, asked.q)
        except QuoteError as exc:
            return _error("no_quote", str(exc), 404)
        disposition = f'attachment; filename="{quote_filename(result)}"'
        return Response(pdf, media_type="application/pdf", headers={"content-disposition": disposition})

    return [
        Route("/", home),
        Route("/api/v1/ask", api_get, methods=["GET"]),
        Route("/api/v1/ask", api_post, methods=["POST"]),
        Route("/chart.png", chart),
        Route("/recipes", recipes),
        Route("/quote.pdf", quote),
    ]


def _required(q: str, config: Any) -> str:
    """``q``; :class:`WebInputError` ``missing_question`` (400) when it is absent or blank and no
    ``config`` is sized instead (a present question that is not understood stays 200, understood:false)."""
    if not q.strip() and config is None:
        raise WebInputError("missing_question", "no question: give q, e.g. ?q=7B模型1万亿token要多少A100")
    return q


def _posted(body: bytes) -> tuple[str, str | None, Any, Any]:
    """(question, language, config, previous request) of a POSTed JSON body; :class:`WebInputError`
    when it is not one."""
    if len(body) > MAX_BODY_BYTES:
        raise WebInputError("body_too_large", f"the body is larger than {MAX_BODY_BYTES:,} bytes", 413)
    try:
        data = json.loads(body)
    except RecursionError:  # deeper than the decoder follows (≈ 1,000 levels)
        from estimator.hf_config import closes_its_brackets

        if closes_its_brackets(body):  # valid JSON, only too deep
            raise WebInputError("too_deep", "the body is JSON nested too deeply to read") from None
        raise WebInputError("bad_json", "the body is not JSON") from None
    except ValueError:
        raise WebInputError("bad_json", "the body is not JSON") from None
    if not isinstance(data, dict):
        raise WebInputError("bad_json", 'the body must be a JSON object: {"q": "..."}')
    q, lang = checked_question(data.get("q")), checked_lang(data.get("lang"))
    return q, lang, data.get("config"), checked_prev(data.get("prev"))


async def _healthz(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


async def _css(request: Request) -> Response:
    return Response(CSS, media_type="text/css", headers={"cache-control": "public, max-age=86400"})


async def _spec(request: Request) -> Response:
    return JSONResponse(openapi.spec(_prefix(request)))


async def _docs(request: Request) -> Response:
    return HTMLResponse(openapi.docs_page(_prefix(request)))


def _wants_json(request: Request) -> bool:
    path = request.scope["path"][len(request.scope.get("root_path", "")) :]
    return path.startswith("/api/") or "application/json" in request.headers.get("accept", "")


async def _bad_input(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, WebInputError)
    if _wants_json(request):
        return _error(exc.code, exc.message, exc.status)
    return HTMLResponse(message_page(_prefix(request), _page_lang(request), exc.message), exc.status)


async def _http_error(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 500)
    code = {404: "not_found", 405: "method_not_allowed"}.get(status, "http_error")
    if _wants_json(request):
        return _error(code, str(getattr(exc, "detail", "")) or code, status)
    text = word(_page_lang(request), "not_found") if status == 404 else code
    return HTMLResponse(message_page(_prefix(request), _page_lang(request), text), status)


async def _crashed(request: Request, exc: Exception) -> Response:
    log.exception("web request failed", exc_info=exc)
    return _error("internal", "the answer could not be made; please try again", 500)


async def _too_many(scope, receive, send, seconds: int) -> None:
    request = Request(scope)
    headers = {"retry-after": str(seconds)}
    if _wants_json(request):
        response: Response = _error("rate_limited", f"too many requests; retry in {seconds} s", 429, headers)
    else:
        lang = _page_lang(request)
        text = word(lang, "too_many", seconds=seconds)
        try:
            asked: Asked | None = _asked(request)  # the conversation kept for the next try (trial s18 #5)
        except WebInputError:
            asked = None
        response = HTMLResponse(message_page(_prefix(request), lang, text, asked), 429, headers)
    await response(scope, receive, send)


async def _too_large(scope, receive, send) -> None:
    message = f"the body is larger than {MAX_BODY_BYTES:,} bytes"
    await _error("body_too_large", message, 413)(scope, receive, send)
