"""Answers for the web: the API's JSON (exactly ``sizing-bot ask --format json``) and the page's
conversation, rebuilt from the URL on every request (no server-side state).

A conversation is the list of earlier questions (``prev``) and the current one (``q``): the earlier
ones are answered first, each as a follow-up of the one before, and the last understood request is
the current question's ``Context.previous`` -- what the Telegram bot remembers per chat, carried in
the link instead.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.core.configfile import ConfigInfo
    from bot.core.pipeline import Answer
    from bot.parse.configs import StackConfig
    from bot.settings.presales import PresalesConfig
    from estimator.request import SizingRequest

MAX_QUESTION_CHARS = 20_000
"""Longest question the web takes: a question with a pasted data sample or config (the corpus's
longest real one has 12,473 characters; the parser keeps the head and tail of long pastes)."""
MAX_PREVIOUS = 5
"""Earlier questions a link may carry; older ones are dropped (the bot, too, remembers one request)."""
LANGS = ("zh", "en", "zh-Hant", "zh-Hans")
"""The ``lang`` a page or the API takes: bot.core.script.LANG_TAGS ('zh-Hant': Traditional, s38)."""


class WebInputError(ValueError):
    """Input the web refuses before answering: ``code`` is stable (the API's error code)."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


@dataclass(frozen=True)
class Asked:
    """One web question with its conversation: ``q``, the earlier questions ``prev`` (oldest first),
    a language fixed by the switch (``lang``) and the browser's ``Accept-Language`` (``client``)."""

    q: str
    prev: tuple[str, ...] = field(default_factory=tuple)
    lang: str | None = None
    client: str | None = None

    def chain(self, q: str) -> tuple[str, ...]:
        """``prev`` for a follow-up ``q`` of this question: this one appended, the oldest dropped."""
        return (*self.prev, self.q)[-MAX_PREVIOUS:] if self.q.strip() else self.prev


def checked_question(q: Any, what: str = "q") -> str:
    """``q`` as a string within :data:`MAX_QUESTION_CHARS`; WebInputError otherwise."""
    if q is None:
        return ""
    if not isinstance(q, str):
        raise WebInputError("bad_question", f"{what} must be a string")
    if len(q) > MAX_QUESTION_CHARS:
        raise WebInputError(
            "question_too_long", f"{what} has {len(q):,} characters; at most {MAX_QUESTION_CHARS:,}", 413
        )
    return q


def checked_lang(lang: Any) -> str | None:
    """``zh``, ``en`` or None (not given); WebInputError for anything else."""
    if lang in (None, ""):
        return None
    if lang not in LANGS:
        raise WebInputError("bad_lang", 'lang must be "zh", "zh-Hant" or "en"')
    return lang


def client_lang(accept_language: str | None) -> str | None:
    """The first language of an ``Accept-Language`` header that we answer in (zh or en), or None."""
    for part in (accept_language or "")[:200].split(","):
        tag = part.split(";", 1)[0].strip().lower()
        if tag.startswith("zh"):
            return "zh"
        if tag.startswith("en"):
            return "en"
    return None


def converse(asked: Asked, presales: PresalesConfig | None = None) -> Answer:
    """The answer to ``asked.q`` after its earlier questions (each a follow-up of the last understood
    one), in the switch's language, else the question's, else the browser's."""
    from bot.core.pipeline import Context, answer
    from bot.core.script import LANG_TAGS

    previous, previous_lang, previous_script, failed = None, None, None, False
    fixed, script = LANG_TAGS.get(asked.lang or "", (None, None))
    result = None
    for text in (*asked.prev[-MAX_PREVIOUS:], asked.q):
        ctx = Context(
            previous=previous,
            previous_lang=previous_lang,
            client_lang=asked.client,
            fixed_lang=fixed,  # type: ignore[arg-type]
            previous_failed=failed,
            previous_script=previous_script,
            fixed_script=script,
        )
        result = answer(text, ctx, None, presales)
        if result.understood:
            previous = result.request or result.parsed.request
            previous_lang, previous_script = result.lang, result.script
            failed = "gpu_counts_failed" in result.parsed.notes  # bot.parse.counts_tried.COUNTS_FAILED
    assert result is not None
    return result


def config_from_api(config: Any) -> ConfigInfo | StackConfig | None:
    """The API's ``config``: a config.json object (or its text), or a training/serving config's text
    (read as ``sizing-bot ask --config FILE`` reads a file's bytes)."""
    from bot.core.configfile import read_config_file_data

    if config is None:
        return None
    if isinstance(config, dict):
        data = json.dumps(config, ensure_ascii=False).encode("utf-8")
    elif isinstance(config, str):
        data = config.encode("utf-8", "replace")
    else:
        raise WebInputError("bad_config", "config must be a config.json object or a config file's text")
    return read_config_file_data(data)


def checked_prev(prev: Any) -> SizingRequest | None:
    """The API's ``prev``: the ``request`` object of an earlier answer's JSON (the contract's, as
    ``sizing-bot ask --format json`` prints it), which a follow-up ("换成H100呢") changes; None when not
    given. Validated as any request is (:class:`estimator.request.SizingRequest`: its fields, types and
    declared bounds; no other key); the body's size limit bounds it. WebInputError ``bad_prev``
    otherwise, naming the first field at fault."""
    from pydantic import ValidationError

    from estimator.request import SizingRequest

    if prev is None:
        return None
    if not isinstance(prev, dict):
        raise WebInputError(
            "bad_prev", "prev must be the request object of an earlier answer (a JSON object)"
        )
    try:
        request = SizingRequest.model_validate({k: v for k, v in prev.items() if v is not None})
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err.get("loc", ())) or "prev"
        raise WebInputError(
            "bad_prev", f"prev.{where}: {err.get('msg', 'not a valid value')}"[:300]
        ) from None
    _within_declared_bounds(request)
    return as_stated(request)


FILLED_FIELDS = (
    *("mfu", "deadline_days", "currency", "seq_len"),
    *("batch_size", "concurrency", "precision", "method"),
)
"""Fields the estimate fills in when a question leaves them out (its assumptions): the ``request`` of an
answer's JSON carries them filled, and a follow-up must not take them as said (the efficiency would be
fixed at the first card's, a default deadline become a stated one)."""


def as_stated(request: SizingRequest) -> SizingRequest:
    """``request`` (an earlier answer's JSON ``request``) without the values the estimate itself filled
    in: each of :data:`FILLED_FIELDS` whose value is what sizing the request without them fills in is
    dropped, to be filled again for the follow-up (an MFU for the new card, the default deadline); a
    value the estimate would not have chosen was said, and stays. Unchanged when it cannot be sized.
    A request that names its filled fields (``assumed_fields``, an answer's JSON since s25) drops exactly
    those: a stated value equal to the default (concurrency 16) stays stated."""
    from estimator import estimate

    request = _tokens_as_stated(request)
    if request.assumed_fields is not None:  # the answer said which it filled (s25 trial #3)
        filled = set(request.assumed_fields) & set(type(request).model_fields)
        return request.model_copy(update=dict.fromkeys([*sorted(filled), "assumed_fields"]))
    present = [name for name in FILLED_FIELDS if getattr(request, name) is not None]
    if not present:
        return request
    bare = request.model_copy(update=dict.fromkeys(present))
    try:
        filled = estimate(bare).request
    except Exception:  # an unsizeable prev is taken as given (the answer says why)
        return request
    said = {n: getattr(request, n) for n in present if getattr(filled, n) != getattr(request, n)}
    return bare.model_copy(update=said)


def _tokens_as_stated(request: SizingRequest) -> SizingRequest:
    """``request`` with its ``tokens`` as stated: an answer's JSON carries the tokens trained, D = data ×
    epochs (or samples × tokens per sample × epochs), beside the epochs themselves; taken as said, each
    follow-up would multiply by the epochs again (600M → 1.8B → 5.4B). The first of (no tokens: the samples
    give them; tokens ÷ epochs) whose estimate trains exactly ``tokens`` is what was stated; else as is."""
    from estimator import estimate

    if not request.tokens or not request.epochs or request.epochs == 1:
        return request
    for tokens in (None, request.tokens / request.epochs):
        candidate = request.model_copy(update={"tokens": tokens})
        try:
            trained = estimate(candidate).request.tokens
        except Exception:  # an unsizeable prev is taken as given (the answer says why)
            return request
        if trained is not None and abs(trained - request.tokens) <= 1e-9 * request.tokens:
            return candidate
    return request


def _within_declared_bounds(request: SizingRequest) -> None:
    """WebInputError ``bad_prev`` when a field of ``request`` lies outside the bounds a user may state
    for it (``estimator.request.bounds``: the one set a typed question and /settings are checked against)."""
    from estimator.request import setting

    for name in sorted(request.model_fields_set):
        value, stated = getattr(request, name), setting(name).get("stated")
        if stated and isinstance(value, int | float) and not stated[0] <= value <= stated[1]:
            raise WebInputError("bad_prev", f"prev.{name}: {value:g} is outside {stated[0]:g}–{stated[1]:g}")


def api_json(
    q: str,
    lang: str | None = None,
    config: Any = None,
    presales: PresalesConfig | None = None,
    prev: SizingRequest | None = None,
) -> str:
    """The text ``sizing-bot ask --format json [--lang L]`` prints for ``q`` (without the final
    newline): the same call of the pipeline, the same contract (bot.contract), the same dump. With
    ``prev`` (:func:`checked_prev`), ``q`` is answered as a follow-up of that request, as a chat would."""
    from bot.contract import to_json
    from bot.core.pipeline import API_NO_HISTORY, Context, answer, without_history
    from bot.parse.configs import StackConfig
    from bot.render.renderer import render

    read = config_from_api(config)
    stack = read if isinstance(read, StackConfig) else None
    info = None if stack is not None else read
    from bot.core.script import LANG_TAGS

    fixed, script = LANG_TAGS[lang] if lang else (None, None)  # 'zh-Hant': Traditional (s38)
    ctx = Context(previous=prev, previous_lang=fixed, fixed_lang=fixed, fixed_script=script)  # type: ignore[arg-type]
    result = _in_language(q, prev, presales) if prev is not None and len(q) <= 40 else None
    if result is None:
        result = answer(q, ctx, None, presales, config=info, stack=stack)
        result = without_history(result, API_NO_HISTORY)  # "那H100呢" alone: the API keeps no history
    return json.dumps(to_json(result, render(result, "text")), ensure_ascii=False, indent=2)


def _in_language(q: str, prev: SizingRequest, presales: PresalesConfig | None) -> Answer | None:
    """'English please' with ``prev``: the previous request answered again in the language asked, as a
    chat's 🌐 button and bot.core.conversation do (s39 fixl2 #4; bot.core.language_asked); None when ``q``
    asks for no language."""
    from bot.core.language_asked import asked_language

    asked = asked_language(q)
    if asked is None:
        return None
    from bot.core.pipeline import answer_request, parse_capped

    return answer_request(prev, parse_capped(""), asked, presales, followup=True, changed=["lang"])
