"""SizingReport + language → reply text: Telegram HTML or plain terminal text, from one template set.

Wording lives in ``templates/*.j2`` (gettext via ``jinja2.ext.i18n``, newstyle) and, for the
keyed items (warning codes, assumption labels, memory parts), in the marked tables below.
Numbers are formatted here with Babel for the reply's locale (:mod:`bot.render.fmt`) and handed to
the templates as strings. One Jinja2 environment per (language, format), built once:
autoescape on for HTML, off for text; the ``b``/``i``/``code``/``pre``/``quote`` filters emit
Telegram tags in HTML and nothing in text.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from bot.core.calendar_days import calendar_days
from bot.core.compare_currency import table_currency
from bot.core.pipeline import ABSURD_MODEL, API_NO_HISTORY, ESTIMATOR_ERROR, LOST_FOLLOWUP, NO_HISTORY, Answer
from bot.core.serving_rank import cheaper_but_slow
from bot.later_names import (  # s42-speed
    active_in_name,
    budget_pick_line,
    calendar_line,
    rows_within,
    unknown_card_head,  # s43-speed
)
from bot.lazylog import lazy_logger
from bot.parse import ParseResult
from bot.parse.non_llm import KINDS as NON_LLM_KINDS
from bot.parse.parse_error import PARSE_ERROR
from bot.parse.which_cards import CHEAPEST_ASKED
from bot.render.compare import (
    cheapest_line,
    comparison_row,
    currency_note,
    first_line,
    named_order,
    own_price_line,
    tie_line,
    unpriced_line,
)
from bot.render.context import build_context, parse_extras
from bot.render.describe import is_unified
from bot.render.dialect import Dialect, Format
from bot.render.env import mac_words, render_capped
from bot.render.offer_text import offer_lines
from bot.render.rig_text import rig_headline
from bot.render.understood import help_not_used, switch_line
from estimator.models import Stage
from estimator.money_kinds import Currency

if TYPE_CHECKING:
    from bot.parse.configs import StackConfig
    from bot.render.contexts import HelpContext

log = lazy_logger("bot.render")


# ---------------------------------------------------------------------------------------------
# Public API


def _unsized_text(answer: Answer, fmt: Format | Dialect) -> str:
    """The reply when nothing was sized: a config that cannot be read (the pipeline sizes nothing then), a
    no-model answer (a ceiling, an accumulation, an embedding job, a family's sizes) or the help."""
    if answer.config is not None and not answer.config.ok:
        from bot.render.configtext import config_error_text  # imported when used: start-up (s26)

        return config_error_text(answer.config, answer.lang, fmt)
    if answer.ceiling is not None:  # no model: the user's per-card ceiling scaled (s30 fixe)
        from bot.render.ceiling_text import ceiling_text

        return ceiling_text(answer.ceiling, answer.lang, fmt)
    if answer.accumulation is not None:  # no model: the accumulation's formula on their figures (s32)
        from bot.render.accumulation_text import accumulation_text

        return accumulation_text(answer.accumulation, answer.lang, fmt)
    if answer.embedding is not None:  # a corpus to encode by an embedding model (s32 fixk)
        from bot.render.embedding_text import embedding_text

        return embedding_text(answer.embedding, answer.lang, fmt)
    if answer.family_fits is not None:  # a family beside a card: which sizes fit (s31)
        from bot.render.family_fits_text import family_fits_text

        return family_fits_text(answer.family_fits, answer.lang, fmt)
    return render_help(
        answer.lang, fmt, out_of_scope=answer.parsed.out_of_scope, parsed=answer.parsed, stack=answer.stack
    )


KEPT_CONTEXTS = 4
"""Answers whose reply context :func:`render` keeps (the last ones rendered, each with its context): the
context (:func:`bot.render.context.build_context` and the comparison, offer, switch and calendar lines:
~half of a reply's Python calls) reads the answer and its language, never the dialect, so the same answer
rendered again — in another dialect (an inline card's text beside its HTML, a quote's text, the API's
text beside its page) or again in the same one (the details button) — renders the template only. The
answer is kept with it (found by identity, never by an id reused after it was freed); at most this many,
so the memory they hold is bounded."""
_CONTEXTS: dict[int, tuple[Answer, dict]] = {}
_KEEPING = threading.Lock()
"""Held while :data:`_CONTEXTS` drops its first entry and files one (answers rendered by several
threads: Feishu's ``asyncio.to_thread``)."""


def forget_contexts() -> None:
    """Drop every reply context :func:`render` keeps (the warm-up: an idle bot holds no answer)."""
    with _KEEPING:
        _CONTEXTS.clear()


_FASTER = "compared_faster"
"""The note of a question that asks which is faster (bot.parse.models_compared.FASTER_ASKED)."""


def _models_compared(answer: Answer, cheapest: str | None = None) -> dict[str, object]:
    """The rows and the line that answers which of the models compared, or of a fine-tuning budget's
    largest models (bot.render.model_rows; imported when used: start-up); {} for a budget's size (s35).
    Cards compared and asked which is faster: the speed line before ``cheapest`` (s37 fixg #1)."""
    from bot.render.model_rows import model_rows

    assert answer.report is not None
    if not answer.compared_models and not answer.report.request.largest_asked:
        from bot.render.faster_line import speed_first

        return speed_first(answer.compared, answer.lang, cheapest)
    if not answer.compared_models and answer.report.request.model is None:
        return {}

    if answer.report.request.largest_asked:  # a fine-tuning budget's largest models (s36 #2)
        from bot.render.model_rows import budget_rows

        rows, line = budget_rows(answer.report, answer.compared_models, answer.lang)
        return {"comparisons": rows, "cheapest": line}
    faster = _FASTER in answer.parsed.notes
    fewer = "compared_fewer" in answer.parsed.notes  # bot.parse.models_compared.FEWER_ASKED (s39 fixp #4)
    each = "compared_count" in answer.parsed.notes  # bot.parse.models_compared.EACH_ASKED (s39 fixs2 #1)
    rows, line = model_rows(answer.report, answer.compared_models, answer.lang, faster, fewer, each)
    return {"comparisons": rows, "cheapest": line}


def render(answer: Answer, fmt: Format | Dialect = "html") -> str:
    """The reply for one answer in ``fmt``'s dialect (:mod:`bot.render.dialect`; "html" and "text" are
    the older names of ``telegram_html`` and ``plain``). HTML is valid Telegram HTML within 4,096 chars."""
    parsed = answer.parsed
    if answer.report is None:  # nothing sized: a config refused, a no-model answer, or the help
        return _scripted(_unsized_text(answer, fmt), answer, fmt)
    try:
        kept = _CONTEXTS.get(id(answer))  # this very answer rendered before: another dialect, details
        if kept is not None and kept[0] is answer:
            ctx = kept[1]
        else:
            ctx = build_context(answer.report, answer.lang, parsed, answer)
            families = answer.offer.families if answer.offer is not None else None
            reports, best = answer.compared, answer.cheapest_index
            rows = named_order(reports, [answer.said.gpu, *parsed.gpu_alternatives])
            at_count = "option_counts" in parsed.notes  # each option at its own stated count
            table = table_currency(rows)  # one currency a table (trial s18 #3)
            cents = False
            if rows:  # one money style for the rows (s25 #6); the module imported when used (s26)
                from bot.render.row_time import rows_cents

                cents = rows_cents([answer.report, *rows])
            lang = answer.lang
            ctx["comparisons"] = [comparison_row(r, lang, families, at_count, table, cents) for r in rows]
            ctx["cheapest"] = (
                # a budget per period: what fits it leads (s29 fix b); gated here: render's call count
                (rows and answer.report.request.budget and budget_pick_line(answer.budget_pick, answer.lang))
                or tie_line(reports, best, answer.lang)
                or cheapest_line(
                    reports[best] if best is not None else None,
                    answer.lang,
                    cents,
                    cheaper_but_slow(reports, best) if best is not None else None,
                )
                or own_price_line(reports, answer.lang, parsed)  # s19
                or unpriced_line(reports, answer.lang)  # some options have no price: no winner, and why
            )
            if rows and answer.report.request.budget and answer.budget_pick is not None:  # s40 fixt #13
                ctx["comparisons"] = rows_within(ctx["comparisons"], rows, answer.budget_pick, lang)
            asked = parsed.request.currency or (Currency.CNY if answer.lang == "zh" else Currency.USD)
            if note := currency_note(rows, table, asked, answer.lang):  # one currency a table, said (s18 #3)
                sep = "；" if answer.lang == "zh" else " — "
                ctx["cheapest"] = f"{ctx['cheapest']}{sep}{note}" if ctx["cheapest"] else note
            if answer.compared_models or answer.report.request.largest_asked or _FASTER in parsed.notes:
                ctx |= _models_compared(answer, ctx["cheapest"])  # s36: models side by side; s37: cards
            ctx["first"] = first_line(rows, lang) if at_count and "asks_choice" in parsed.notes else None
            if rows and CHEAPEST_ASKED in parsed.notes:  # the cards not compared, after the verdict (s27 #2)
                from bot.render.unpriced_cards import unpriced_cards_line

                ctx["unpriced"] = unpriced_cards_line(answer)
            ctx["offer"] = offer_lines(answer.report, answer.offer, answer.lang)
            ctx["switched"] = switch_line(answer.kept, answer.reset, answer.report, answer.lang)
            # s21; no schedule said (no unused number): no calendar line, and no frames (s36)
            cal = calendar_days(parsed, answer.report) if parsed.unused_numbers else None
            ctx["calendar"] = calendar_line(cal, answer.lang) if cal is not None else ""
            with _KEEPING:  # the context reads the answer and its language, never the dialect
                if len(_CONTEXTS) >= KEPT_CONTEXTS:
                    del _CONTEXTS[next(iter(_CONTEXTS))]  # the first kept
                _CONTEXTS[id(answer)] = (answer, ctx)
        text = rig_headline(render_capped("reply.j2", answer.lang, fmt, ctx), answer)  # 'RTX 4090 + RTX 3090'
        if answer.report.batch_work is not None or answer.report.request.merge_asked:  # s44, s46 trial #2
            from bot.render.batch_head import batch_head

            text = batch_head(text, answer)  # 'how long for 1B tokens?'; 'how much memory to merge a LoRA?'
        if answer._derived.get("per_value"):  # a row per value of one setting listed (s36-lists)
            text = _per_value_lines(text, answer)
        if parsed.unknown_gpu:  # no memory given: the default card's figures only for reference (s25)
            text = unknown_card_head(text, answer)
        if answer.parsed.notes:  # s20: a serving asked after the training; a laptop's one card
            from bot.render.assumed_head import assumed_head
            from bot.render.laptop_text import laptop_reply
            from bot.render.second_stage import second_stage_text

            text = assumed_head(laptop_reply(second_stage_text(text, answer), answer), answer)
            text = _machine_heads(text, answer, fmt)
        text = mac_words(text) if answer.lang == "zh" and is_unified(answer.report) else text
    except Exception:  # a report shape we did not foresee must still get an answer
        log.exception("cannot render the reply")
        text = render_help(answer.lang, fmt, parsed=parsed)
    return text if answer.script == "Hans" else _hant(text, fmt)  # a Traditional question's reply (s38)


def _machine_heads(text: str, answer: Answer, fmt: Format | Dialect = "html") -> str:
    """The machine's own lines before the GPU figures: a CPU and no GPU named (s34 review), and the host
    memory asked for llama.cpp and its kin (s39 fixm #2); each module imported for its note only."""
    if "cpu_only" in answer.parsed.notes:
        from bot.render.cpu_head import cpu_head

        text = cpu_head(text, answer, fmt == "markdown" or getattr(fmt, "name", "") == "markdown")
    if "host_ram_asked" in answer.parsed.notes:
        from bot.render.ram_head import ram_head

        text = ram_head(text, answer)
    return text


def _hant(text: str, fmt: Format | Dialect) -> str:
    """The reply in Traditional characters (bot.render.hant; imported for such a reply only: start-up),
    still within the dialect's length limit (Taiwan's words can be longer: 内存 → 記憶體)."""
    from bot.render.env import within_limit
    from bot.render.hant import to_hant

    out = to_hant(text)
    return out if len(out) == len(text) else within_limit(out, fmt)


def in_script(text: str, lang: str, script: str | None, fmt: Format | Dialect = "html") -> str:
    """A Chinese text of the bot's own (/help, /settings, a page's words) in the chat's script: Traditional
    for ``script`` 'Hant' (the chat's /settings or the conversation's), as a reply (s38 fixm #4)."""
    return _hant(text, fmt) if lang == "zh" and script == "Hant" else text


def _scripted(text: str, answer: Answer, fmt: Format | Dialect) -> str:
    """``text`` in the answer's script (s38)."""
    return text if answer.script == "Hans" else _hant(text, fmt)


def _per_value_lines(text: str, answer: Answer) -> str:
    from bot.render.per_value_text import per_value_lines  # imported when used: start-up

    return per_value_lines(text, answer)


def needs_model_size(parsed: ParseResult | None) -> bool:
    """A training question with no model named nor sized ('训练一个客服模型需要几张卡'): the answer
    needs the model's size, which the data does not give (never invented from it)."""
    if parsed is None or parsed.out_of_scope or parsed.followup_cue:
        return False  # a follow-up ('what about LoRA?') asks about the question before, not a new job
    if {ESTIMATOR_ERROR, LOST_FOLLOWUP, NO_HISTORY, API_NO_HISTORY, ABSURD_MODEL} & set(parsed.notes):
        return False
    req = parsed.request
    training = req.stage in (Stage.pretrain, Stage.finetune)
    return training and req.model is None and req.params_total is None and req.architecture is None


def needs_model_card(parsed: ParseResult | None) -> bool:
    """A serving question about a card with no model named nor sized ('4090 24G 能跑吗？如果不行，A100 40G
    可以吗？', 'will it run on a 4090?'): whether it runs depends on the model, which the reply asks for
    (never a default model sized in its place; s37-left)."""
    if parsed is None or parsed.out_of_scope or parsed.followup_cue or needs_model_size(parsed):
        return False
    if {ESTIMATOR_ERROR, LOST_FOLLOWUP, NO_HISTORY, API_NO_HISTORY, ABSURD_MODEL} & set(parsed.notes):
        return False
    req = parsed.request
    card = req.gpu is not None or req.gpu_memory_gib is not None
    serving = req.stage in (None, Stage.inference)
    return card and serving and req.model is None and req.params_total is None and req.architecture is None


def vague_not_used(parsed: ParseResult | None, lang: str, out_of_scope: bool = False) -> str:
    """The 'not used' line of a message the help answers (nothing sized): every item of its interpretation
    named as the sized replies name them (:func:`bot.render.understood.not_used_line`: the rough amounts
    '几十万条', and since s42 zhleft #1 every other one, e.g. a card named beside an unknown model,
    ``card_unsized`` 'A100 (40 GB)'); ``out_of_scope``: a question not about LLMs ('4K gaming'), whose
    figures are no sizing's: its rough amounts only, as before. "" when there is none (docs/design.md §8)."""
    if parsed is None or not parsed.unused_numbers:
        return ""
    return help_not_used(parsed, lang, ("vague", "vague_count") if out_of_scope else None)


def unread_message(parsed: ParseResult | None) -> str:
    """The message a failed parse could not read (note ``parse_error``, :mod:`bot.parse.parse_error`),
    on one line and cut to 80 characters; "" for any other parse. The template escapes it."""
    if parsed is None or PARSE_ERROR not in parsed.notes:
        return ""
    line = " ".join(parsed.normalized.split())
    return line if len(line) <= 80 else line[:79] + "…"


MAX_KEYS_READ = 12
"""Config keys named in the help's 'read from your config' line (a long config keeps its first ones)."""


def config_keys_read(stack: StackConfig | None) -> dict[str, str] | None:
    """The tool and the keys a pasted config set, as written (``StackConfig.used``), for the help that
    asks for the model (s25 trial #17: a TRL ``GRPOConfig(...)`` with no model got the generic help with
    no sign of the nine settings it read); None without a config or a key read."""
    if stack is None or not stack.used:
        return None
    keys = list(stack.used)
    shown = ", ".join(keys[:MAX_KEYS_READ]) + (", …" if len(keys) > MAX_KEYS_READ else "")
    return {"tool": str(stack.values.get("training_tool") or stack.tool), "names": shown}


def render_help(
    lang: str,
    fmt: Format | Dialect = "html",
    *,
    out_of_scope: bool = False,
    parsed: ParseResult | None = None,
    stack: StackConfig | None = None,
    script: str | None = None,
) -> str:
    """Short help with tappable examples in ``lang``; a polite scope line first if ``out_of_scope``;
    ``stack``: a pasted training/serving config, whose keys read are named when the model is missing;
    ``script``: the chat's script, 'Hant' for Traditional (s38 fixm #4)."""
    failed = parsed is not None and ESTIMATOR_ERROR in parsed.notes
    ctx: HelpContext = {
        "out_of_scope": out_of_scope,
        "failed": failed,
        "unread": unread_message(parsed),
        "lost_followup": parsed is not None and LOST_FOLLOWUP in parsed.notes,
        "no_history": parsed is not None and NO_HISTORY in parsed.notes,
        "api_no_history": parsed is not None and API_NO_HISTORY in parsed.notes,
        "absurd_model": parsed is not None and ABSURD_MODEL in parsed.notes,
        "non_llm": next((k for k, note in NON_LLM_KINDS.items() if parsed and note in parsed.notes), ""),
        "switched": "",
        "needs_model": needs_model_size(parsed),
        "needs_model_card": needs_model_card(parsed),
        "read_config": config_keys_read(stack),
        "not_used": "",  # after what the help asks for (not_used_help): the reply answers first (s42)
        # a config with no model: its keys read are named above, the others when it is sent with the model
        "not_used_help": vague_not_used(parsed, lang, out_of_scope or bool(config_keys_read(stack))),
        "substitutions": [],
        "unknown_gpu_line": "",
        **parse_extras(parsed),
    }
    ctx["active_in_name"] = active_in_name(ctx["unknown_model"]) if ctx["unknown_model"] else None
    return in_script(render_capped("help.j2", lang, fmt, ctx), lang, script, fmt)
