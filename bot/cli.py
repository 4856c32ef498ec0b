"""Command line: ``sizing-bot ask …`` answers one question; ``sizing-bot run`` starts the Telegram bot;
``sizing-bot validate`` compares time estimates with published training runs.

``ask`` never ends in a traceback over its input or output: input that is mostly not text (random
bytes piped in) is "not understood" (exit 2, a note on stderr); an answer the output cannot take (a
full disk, a closed pipe other than ``| head``, an ASCII-only terminal and a Chinese answer) ends with
one line on stderr and exit 1, as does a standard output closed at start (``>&-``). JSON stays JSON on
such a terminal: it is written with ``\\u`` escapes. Files (``--presales``, ``--config``,
``validate --runs``, ``.env``) are read up to a cap before they are parsed (:mod:`bot.readfile`).
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import sys
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from types import SimpleNamespace

    from bot.core.configfile import ConfigInfo
    from bot.core.pipeline import Answer
    from bot.parse.configs import StackConfig
    from bot.settings.presales import PresalesConfig

EXIT_OK = 0
EXIT_NOT_UNDERSTOOD = 2
EXIT_CHART_FAILED = 1
EXIT_RECIPE_FAILED = 1
EXIT_WRITE_FAILED = 1
MAX_NON_TEXT_SHARE = 0.25
"""Input with more than this share of undecodable bytes or control characters is not a question."""
EXIT_QUOTE_FAILED = 1
EXIT_BAD_OFFER = 2


def ask(
    question: str,
    lang: str | None,
    fmt: str,
    config_path: str | None = None,
    presales: PresalesConfig | None = None,
) -> tuple[str, int]:
    """Answer ``question`` (with the provider's offer, when given); returns (output text, exit code)."""
    out, code, _ = _ask(question, lang, fmt, config_path, presales)
    return out, code


def load_offer(path: str | None) -> PresalesConfig | None:
    """The offer from ``--presales FILE``, else from ``SIZING_BOT_PRESALES``, else None
    (:func:`bot.settings.presales_path.load_offer`). Raises ``PresalesError`` for a bad file."""
    from bot.settings.presales_path import load_offer as offer_from

    return offer_from(path)


MAX_CONFIG_FILE_BYTES = 1_000_000
"""``--config`` reads at most this much (estimator.hf_config.MAX_CONFIG_BYTES: a config.json is a few kB)."""


def read_config_file(path: str) -> ConfigInfo | StackConfig:
    """The config.json at ``path``, read (at most :data:`MAX_CONFIG_FILE_BYTES` + 1 bytes) and converted;
    a file that cannot be opened is a ``cannot_read`` error naming the OS's reason. A file that is not a
    model's config.json but a training or serving config or command line (format detected from the
    content: :mod:`bot.parse.configs`) is returned as its :class:`StackConfig`
    (:func:`bot.core.configfile.read_config_file_data`, shared with the web and the chat platforms)."""
    from bot.core.configfile import file_too_large, file_unreadable, read_config_file_data

    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_CONFIG_FILE_BYTES + 1)
            if len(data) > MAX_CONFIG_FILE_BYTES:
                fh.seek(0, os.SEEK_END)
                return file_too_large(fh.tell())
    except OSError as exc:
        return file_unreadable(exc.strerror or type(exc).__name__)
    return read_config_file_data(data)


def _ask(
    question: str,
    lang: str | None,
    fmt: str,
    config_path: str | None = None,
    presales: PresalesConfig | None = None,
) -> tuple[str, int, Answer]:
    from bot.core.pipeline import Context, answer, without_history
    from bot.core.script import LANG_TAGS
    from bot.parse.configs import StackConfig
    from bot.render.renderer import render

    config = read_config_file(config_path) if config_path else None
    stack = config if isinstance(config, StackConfig) else None
    config = None if stack is not None else config
    fixed, script = LANG_TAGS[lang] if lang else (None, None)  # 'zh-Hant': Chinese, Traditional (s38)
    context = Context(fixed_lang=fixed, fixed_script=script)  # type: ignore[arg-type]
    result = answer(question, context, None, presales, config=config, stack=stack)
    result = without_history(result)
    answered = result.understood or result.ceiling or result.family_fits or result.accumulation  # s30–32
    answered = answered or result.embedding  # an embedding job (s32 fixk)
    code = EXIT_OK if answered else EXIT_NOT_UNDERSTOOD
    if fmt == "json":
        from bot.contract import to_json

        out = json.dumps(to_json(result, render(result, "text")), ensure_ascii=False, indent=2)
        return out, code, result
    return render(result, fmt), code, result  # type: ignore[arg-type]


def write_chart(result: Answer, path: str) -> bool:
    """Write the answer's chart to ``path``; a note on stderr when there is nothing to chart.

    matplotlib is imported here only, so ``ask`` without ``--chart`` stays fast.
    """
    from bot.render.chart import render_chart

    png = render_chart(result)
    if png is None:
        print("note: nothing to chart for this answer; no PNG written", file=sys.stderr)
        return False
    with open(path, "wb") as fh:
        fh.write(png)
    return True


def mostly_binary(text: str) -> bool:
    """More than :data:`MAX_NON_TEXT_SHARE` of ``text`` is not text: replacement characters from
    undecodable bytes, or control, unassigned and private-use characters (tab and newlines count as
    text). Random bytes score about 0.6; any real question in any script scores 0."""
    if not text:
        return False
    bad = sum(
        1
        for ch in text
        if ch == "\ufffd" or (unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") and ch not in "\t\n\r")
    )
    return bad > MAX_NON_TEXT_SHARE * len(text)


def read_question(words: list[str]) -> str:
    """The question from the arguments, else standard input read as bytes and decoded as UTF-8 with
    undecodable bytes replaced. Mostly-binary input becomes "" (not understood), with a note."""
    if words:
        text = " ".join(words)
    else:
        stream = getattr(sys.stdin, "buffer", None)
        raw = stream.read() if stream is not None else sys.stdin.read()
        text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")  # undecodable argv bytes
    if mostly_binary(text):
        print("note: the input is mostly not text (binary data?); nothing to size", file=sys.stderr)
        return ""
    return text


def _detach_stdout() -> None:
    """Point file descriptor 1 at /dev/null, so Python's final flush at exit has nowhere to fail."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def write_answer(out: str, fmt: str, result: Answer | None = None) -> int | None:
    """Print the answer. None when written (or the reader left: ``| head``), else the exit code after
    one line on stderr."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    if sys.stdout is None:  # started with standard output closed (`>&-`)
        print("error: cannot write the answer: standard output is closed", file=sys.stderr)
        return EXIT_WRITE_FAILED
    try:
        try:
            sys.stdout.write(out + "\n")
        except UnicodeEncodeError:
            if fmt != "json" or result is None:
                raise
            from bot.contract import to_json
            from bot.render.renderer import render

            sys.stdout.write(json.dumps(to_json(result, render(result, "text")), indent=2) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # `sizing-bot ask … | head`: the reader left; not an error
        _detach_stdout()
        return None
    except UnicodeEncodeError:
        print(
            f"error: the output encoding ({encoding}) cannot show this answer; "
            "set PYTHONIOENCODING=utf-8 (or a UTF-8 locale), or use --format json",
            file=sys.stderr,
        )
        return EXIT_WRITE_FAILED
    except OSError as exc:  # a full disk, a closed file, an I/O error
        _detach_stdout()
        print(f"error: cannot write the answer: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_WRITE_FAILED
    return None


MAX_RUNS_FILE_BYTES = 10_000_000
"""``validate --runs`` reads at most this much (the shipped training_runs.json is about 60 kB)."""


def validate(runs: str | None) -> int:
    """``sizing-bot validate [--runs FILE]``: the report, or one line naming the file's problem."""
    from bot.readfile import decode_utf8, read_bounded
    from estimator.validation import report

    try:
        data = json.loads(decode_utf8(runs, read_bounded(runs, MAX_RUNS_FILE_BYTES))) if runs else None
        text = report(data)
    except OSError as exc:
        print(f"error: cannot read runs from {runs}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_NOT_UNDERSTOOD
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        print(f"error: cannot read runs from {runs}: {_one_line(exc)}", file=sys.stderr)
        return EXIT_NOT_UNDERSTOOD
    return EXIT_OK if write_answer(text, "text") is None else EXIT_WRITE_FAILED


def _preview(platform: str, messages: list[str]) -> int:
    """``sizing-bot preview``: the platform's message bodies for ``messages`` (bot.chat.preview)."""
    from bot.chat.preview import preview_command
    from bot.config import load_settings
    from bot.settings.presales_path import PresalesError, load_offer

    try:
        offer = load_offer()
    except PresalesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_OFFER
    text = preview_command(platform, messages, load_settings().web.public_url, offer)
    return EXIT_OK if write_answer(text, "json") is None else EXIT_WRITE_FAILED


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())[:300]
    return text or type(exc).__name__


def write_quote(result: Answer, path: str, question: str = "") -> bool:
    """Write the answer's one-page PDF quote to ``path``; a note on stderr when there is nothing to
    quote (not understood). False when the file cannot be written or the PDF cannot be made."""
    from bot.quote import QuoteError, quote_pdf

    if not result.understood:
        print("note: nothing to quote for this question; no PDF written", file=sys.stderr)
        return True
    try:
        pdf = quote_pdf(result, question)
    except QuoteError as exc:
        print(f"error: cannot make the quote: {exc}", file=sys.stderr)
        return False
    try:
        Path(path).write_bytes(pdf)
    except OSError as exc:
        print(f"error: cannot write the quote to {path}: {exc.strerror or exc}", file=sys.stderr)
        return False
    print(f"wrote {path}", file=sys.stderr)
    return True


def main(argv: list[str] | None = None) -> int:
    from bot.config import SettingsProblem

    try:
        return _main(argv)
    except SettingsProblem as exc:  # a bad SIZING_BOT_* / TELEGRAM_* value, read where it is used
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_OFFER


def _main(argv: list[str] | None) -> int:
    from bot.cli_args import parser, plain_ask, question_first

    words = question_first(list(sys.argv[1:] if argv is None else argv))
    args = plain_ask(words) or parser(words[0] if words else None).parse_args(words)
    if args.command == "validate":
        return validate(args.runs)
    if args.command == "health":
        from bot.health import health

        return health(args.heartbeat, args.max_age)
    if args.command == "preview":
        return _preview(args.platform, args.message)
    if args.command == "chat":
        return _chat_command(args)
    if args.command == "serve":
        from bot.web.serve import serve

        return serve(args.host, args.port)
    if args.command == "run":
        from bot.config import SettingsProblem, load_settings
        from bot.run import run

        try:
            settings = load_settings()
        except SettingsProblem as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_BAD_OFFER
        return run(settings)
    with _collector_paused(ending=argv is None):
        code = _ask_command(args)
    if argv is None:  # the console script or ``python -m bot``: the process ends here
        _exit_without_teardown(code)
    return code


def _exit_without_teardown(code: int) -> None:
    """End the process with ``code`` once standard output and error are flushed, skipping the interpreter's
    teardown: clearing ~400 modules and freeing every object one by one (~15M instructions, ~1.5 % of
    ``ask``, measured 2026-12-04, bench/RESULTS.md) that the operating system frees at once. ``ask``
    registers no ``atexit`` work and closes every file it writes (``with``, ``write_bytes``). Returns
    (the caller ends as usual) when a stream cannot be flushed: Python's own ending reports it."""
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return
    os._exit(code)


@contextlib.contextmanager
def _collector_paused(ending: bool = False) -> Iterator[None]:
    """Python's cyclic garbage collector off for one ``ask`` (back on after, as it was): the first answer
    allocates ~50,000 long-lived objects (modules, schemas, catalogs), and the ~120 collections they
    trigger took ~7 % of the start-up while freeing nothing of note; the process then ends.

    ``ending`` (the console script, whose process exits right after): those objects are frozen
    (``gc.freeze``) before the collector is back on, so neither the collection the next allocation
    triggers nor the one at interpreter shutdown walks them again (~85–100 ms CPU, ~20 % of ``ask``,
    measured 2026-12-01). In process (``main([...])``, tests) nothing is frozen."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if ending:
                gc.freeze()
            gc.enable()


def _write_recipes(result: Answer, tools: str | None, directory: str | None, show: bool = True) -> bool:
    from bot.cli_recipes import write_recipes  # only when recipes are asked for

    return write_recipes(result, tools, directory, show)


def _chat_command(args: argparse.Namespace) -> int:
    """``sizing-bot chat``: one conversation over standard input (bot.cli_chat)."""
    from bot.cli_chat import chat
    from bot.settings.presales_path import PresalesError

    try:
        presales = load_offer(args.presales)
    except PresalesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_OFFER
    return chat(args.lang, args.fmt, presales)


def _ask_command(args: argparse.Namespace | SimpleNamespace) -> int:
    """``sizing-bot ask``: the offer, the question (or the --config file), the answer and what it writes."""
    from bot.settings.presales_path import PresalesError

    try:
        presales = load_offer(args.presales)
    except PresalesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_OFFER
    if args.quote and presales is None:
        print(
            "error: --quote needs the provider's offer: --presales FILE or SIZING_BOT_PRESALES "
            "(see presales.example.toml)",
            file=sys.stderr,
        )
        return EXIT_BAD_OFFER
    question = read_question(args.question) if args.question or not args.config_path else ""
    out, code, result = _ask(question, args.lang, args.fmt, args.config_path, presales)
    failed = write_answer(out, args.fmt, result)
    if failed is not None:
        return failed
    if args.chart:
        try:
            write_chart(result, args.chart)
        except OSError as exc:
            print(f"error: cannot write the chart to {args.chart}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_CHART_FAILED
    if args.quote and not write_quote(result, args.quote, question):
        return EXIT_QUOTE_FAILED
    asked = result.parsed.recipe_tools
    wanted = args.recipe or args.recipe_dir or (asked is not None and args.fmt != "json")
    if wanted and not _write_recipes(result, args.recipe, args.recipe_dir, show=args.fmt != "json"):
        return EXIT_RECIPE_FAILED
    return code


if __name__ == "__main__":
    sys.exit(main())
