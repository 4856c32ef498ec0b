"""Warm the answer path in the background once a platform is connected, so that the first user's answer
is as fast as the second.

Parsing, sizing and rendering load their work on first use: the parser's patterns are compiled when
first searched (:mod:`bot.parse.regex`), the GPU and model catalogs are read and validated, the Jinja
templates and the Babel catalogs of each language are loaded, and pydantic builds the schemas of its
deferred models. A fresh ``sizing-bot run`` paid all of that on its first message. :func:`start_warm_up`
pays it on a daemon thread right after a platform reports its connection (Telegram's post-init, the
Feishu, WeCom and DingTalk long connections): the connect is never delayed, and a message that arrives
meanwhile is answered as before (the lazy loads are thread-safe; the bot parses on worker threads).

Nothing is stored: the questions go through a throwaway :class:`bot.core.conversation.Conversation`
with no settings store, and the replies are rendered in every dialect the platforms use, then dropped.
"""

from __future__ import annotations

import logging
import threading
import time

log = logging.getLogger(__name__)

WARM_QUESTIONS = ("7B模型1万亿token要多少A100",)
"""Two pre-training questions in Chinese (the second pays what a process's second question compiles, e.g.
the card-vendor pattern): the parser's
and the estimator's paths a first question takes, and every template of those stages. (Session 23: the
English QLoRA question left out — the idle bot measured 80.004 MiB in a clean-clone CI venv with it, 1.6 MiB
less without it; the first English fine-tuning question pays its own pattern compiles. Session 35: the
memory-only fine-tuning question left out too — 80.2–80.3 MiB with it in a clean-clone CI venv, 0.44 MiB less
without it; the first fine-tuning question after a start pays its own loads. Session 36: the English serving
question left out — 0.15 MiB with it in one venv, and a clean-clone CI venv read 80.19 MiB with it at a merge
of the session; the first English question pays its own loads, as it pays its locale's. Then the serving
question too: a clean-clone CI venv read 80.05 MiB with it at the session's last merge (the idle
figure 79.5 → 79.0 MiB in a fresh venv with a second pre-training question instead);
the first serving question after a start pays its own loads. Session 37: the second question is the first's
job asked for its time on a stated count (70B on H800 before): a clean-clone CI venv read 80.05 MiB with the
70B/H800 one at the session's last merge; 79.3 → 78.5–78.6 MiB in one venv with this one; a first 70B or H800
question pays its own loads.)"""
PARSE_ONLY: tuple[str, ...] = ()
"""Parsed, not answered, after :data:`WARM_QUESTIONS` (session 40: '7B模型1万亿token用8张A100要多久', the
patterns a second question compiles, ~470 of them, ≈ 1.0 MiB; session 41: none — a clean-clone CI venv read
80.1 MiB idle with it at the session's last merge, 78.1 without; a process's first user question pays those
compiles, as tests/test_warmup.py pins)."""
RENDERED = ("zh",)
"""Languages whose replies are rendered: the templates are the same in every language, so one renders
them all; each more language only adds its Babel locale data and message catalog (~2.8 MiB RSS for
English), which the idle memory budget (80 MiB, bench/compare.py) does not leave room for — the first
English reply loads it (~20–40 ms)."""
DIALECTS = ("telegram_html", "markdown")
"""Telegram's HTML and the Markdown of Feishu/WeCom/DingTalk cards (bot.render.dialect)."""

_lock = threading.Lock()
_thread: threading.Thread | None = None
_enabled = False


def warm_up(dialects: tuple[str, ...] = DIALECTS) -> float:
    """Answer and render :data:`WARM_QUESTIONS` once, in ``dialects`` (default: every dialect the
    platforms use); the seconds it took. Never raises (a failure is logged: the first user then pays
    the loads, as before). Telegram warms its HTML only: each dialect's templates cost ~0.9 MiB of the
    idle budget (s21: 80.4 MiB with both, 79.4 with one, in a clean-clone CI venv)."""
    start = time.perf_counter()
    try:
        from bot.core.conversation import Conversation
        from bot.render.renderer import forget_contexts, render

        conversation = Conversation(max_entries=len(WARM_QUESTIONS))
        for n, question in enumerate(WARM_QUESTIONS, 1):
            turn = conversation.ask(f"warm-up:{n}", f"warm-up:{n}", question)
            conversation.actions(turn, details=True)
            for dialect in dialects if turn.answer.lang in RENDERED else ():
                forget_contexts()  # each dialect's own context made: the whole path warmed
                render(turn.answer, dialect)
        forget_contexts()  # an idle bot keeps no warm-up answer
        from bot.parse import parse

        for question in PARSE_ONLY:  # a process's second question compiles a few patterns (the card vendors')
            parse(question)
    except Exception:
        log.warning("warm-up failed; the first answer loads what it needs", exc_info=True)
    _give_back_freed_memory()
    took = time.perf_counter() - start
    log.info("answer path warmed in %.2f s", took)
    return took


def _give_back_freed_memory() -> None:
    """Return the heap the warm-up's answers freed to the OS: after ``gc.collect()``, glibc's
    ``malloc_trim(0)`` (man 3 malloc_trim) releases free pages at the top and inside the heap, which a
    long-running process otherwise keeps in its RSS (≈ 1 MiB here). A no-op where glibc is absent."""
    import contextlib
    import ctypes
    import ctypes.util
    import gc

    from bot import regex_store
    from estimator import _dataclass_code

    # the stored regex and dataclass code served the start-up; the rest of the run compiles any new one
    regex_store.release()
    _dataclass_code.release()
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):  # musl, macOS, Windows: no malloc_trim
        ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim(0)


def start_warm_up(dialects: tuple[str, ...] = DIALECTS) -> threading.Thread:
    """Run :func:`warm_up` of ``dialects`` on a daemon thread, once per process (later calls — another
    platform connecting, a reconnect — return the same thread)."""
    global _thread
    with _lock:
        if _thread is None:
            _thread = threading.Thread(target=warm_up, args=(dialects,), name="warm-up", daemon=True)
            _thread.start()
        return _thread


def enable_warm_up() -> None:
    """Let :func:`on_connected` warm up: ``sizing-bot run`` calls it at start. Tests that build an
    application in process leave it off, so no thread parses beside them."""
    global _enabled
    _enabled = True


def on_connected(dialects: tuple[str, ...] = DIALECTS) -> threading.Thread | None:
    """A platform is connected (Telegram's post-init; the Feishu, WeCom, DingTalk long connections):
    start the warm-up of its ``dialects`` when enabled (:func:`enable_warm_up`); None when not."""
    return start_warm_up(dialects) if _enabled else None
