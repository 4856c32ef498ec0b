"""SizingReport + language → reply text: Telegram HTML or plain terminal text, from one template set.

Wording lives in ``templates/*.j2`` (gettext via ``jinja2.ext.i18n``, newstyle) and, for the
keyed items (warning codes, assumption labels, memory parts), in the marked tables below.
Numbers are formatted here with Babel for the reply's locale (:mod:`bot.render.fmt`) and handed to
the templates as strings. One Jinja2 environment per (language, format), built once:
autoescape on for HTML, off for text; the ``b``/``i``/``code``/``pre``/``quote`` filters emit
Telegram tags in HTML and nothing in text.
"""

from __future__ import annotations

import html
import logging
import re
from functools import cache
from typing import Any, Literal

from jinja2 import Environment, FileSystemLoader
from markupsafe import Markup, escape

from bot.core.pipeline import ESTIMATOR_ERROR, MAX_INPUT_CHARS, Answer
from bot.parse import ParseResult
from bot.render.fmt import Fmt, bar, display_width, fmt_for, ljust, rjust
from bot.render.i18n import N_, templates_dir, translate, translations
from estimator.memory import FULL_STATE_BYTES_PER_PARAM, HEADROOM
from estimator.models import Band, Method, Note, Plan, SizingReport, Stage

log = logging.getLogger(__name__)

Format = Literal["html", "text"]

TELEGRAM_MAX_CHARS = 4096
"""Telegram's limit on a message's text after entity parsing (sendMessage ``text``)."""

SHORT_SOURCE_CHARS = 80
"""Sources in the ledger are cut to this length when the full reply would exceed the limit."""

# ---------------------------------------------------------------------------------------------
# Keyed wording (extracted by pybabel through N_)

NOTE_MESSAGES: dict[str, str] = {
    "below_chinchilla": N_(
        "Training data (%(tokens)s tokens) is below the Chinchilla-optimal ≈ %(chinchilla_tokens)s tokens "
        "(20 × N): the model would be under-trained for its size."
    ),
    "tiny_job": N_(
        "A small job (≈ %(gpu_hours)s GPU-hours): one node or even one GPU is enough; "
        "setup and evaluation will take longer than the training itself."
    ),
    "huge_job": N_(
        "A very large job (%(gpus)s GPUs, %(days)s days): plan for hardware failures, restarts, "
        "checkpointing and spare nodes."
    ),
    "mfu_outside_band": N_("MFU %(mfu)s is outside the usual 30–50%% band: please double-check it."),
    "gpu_no_bf16": N_("%(gpu)s has no bf16 tensor cores: sized at its fp16 peak (fp16 needs loss scaling)."),
    "consumer_no_nvlink": N_(
        "%(gpu)s is a consumer card without NVLink: GPUs talk over PCIe, so prefer data parallelism "
        "or ZeRO to tensor parallelism."
    ),
    "memory_tight": N_(
        "Memory is tight (%(ratio)s of the card): shorter sequences, a smaller micro-batch or "
        "activation recompute leave headroom."
    ),
    "does_not_fit_requested": N_("It does not fit on %(gpu_count)s GPUs: at least %(min_gpus)s are needed."),
    "deadline_missed": N_(
        "Not within %(deadline_days)s days: %(gpu_count)s GPUs take ≈ %(days)s days; the deadline needs "
        "≈ %(gpus)s GPUs."
    ),
    "budget_max_params": N_(
        "The largest model %(budget)s trains on %(tokens)s tokens: ≈ %(params_total)s parameters "
        "(at the middle of the price range and the likely MFU)."
    ),
    "total_memory_yes": N_(
        "%(total_gib)s of GPU memory in total is enough: the weights, one sequence's KV cache and the "
        "workspace need ≈ %(need_bytes)s."
    ),
    "total_memory_borderline": N_(
        "%(total_gib)s of GPU memory in total is only just enough: the weights, one sequence's KV cache "
        "and the workspace need ≈ %(need_bytes)s — give the engine nearly all of it "
        "(gpu_memory_utilization above 0.9) and keep contexts short."
    ),
    "total_memory_no": N_(
        "%(total_gib)s of GPU memory in total is not enough: the weights, one sequence's KV cache and "
        "the workspace need ≈ %(need_bytes)s."
    ),
    "no_fit": N_(
        "No layout fits within %(gpus_searched)s GPUs of this type: choose a card with more memory, "
        "LoRA/QLoRA, or CPU offload."
    ),
    "moe_active_params": N_(
        "MoE model: compute uses the %(params_active)s active parameters per token; memory must hold "
        "all %(params_total)s."
    ),
    "samples_to_tokens": N_(
        "Data converted to tokens: %(num_samples)s samples × %(tokens_per_sample)s tokens "
        "= %(tokens)s tokens."
    ),
    "tp_across_nodes": N_(
        "Tensor parallelism TP=%(tp)s spans more than one node: it needs NVLink-class bandwidth and will "
        "be much slower across nodes."
    ),
    "unknown_gpu_assumed": N_("GPU “%(gpu)s” is not in the catalog: sized with the default GPU instead."),
    "pipeline_across_nodes": N_(
        "The model is split over nodes (TP=%(tp)s × PP=%(pp)s): pipeline stages talk over the network "
        "between nodes; expect lower throughput than inside one node."
    ),
    "over_budget": N_(
        "Over budget: this costs %(cost_low)s – %(cost_high)s, more than the %(budget)s you have. "
        "Fewer tokens, a smaller model or cheaper GPUs would fit it."
    ),
    "within_budget": N_("Within budget: %(cost_low)s – %(cost_high)s of your %(budget)s."),
    "budget_borderline": N_(
        "Borderline for the budget: %(cost_low)s – %(cost_high)s against %(budget)s — it depends on the "
        "price you get."
    ),
    "concurrency_limited_assumed": N_(
        "Only ≈ %(max_concurrency)s sequences fit at this context (I assumed %(concurrency)s): "
        "add GPUs, shorten the context or use an fp8 KV cache."
    ),
    "tp_over_pcie": N_(
        "%(gpu)s has no NVLink: tensor parallelism runs over PCIe, so decoding is slower than on "
        "NVLink GPUs — or serve one replica per GPU if the model fits."
    ),
    "concurrency_limited": N_(
        "Only ≈ %(max_concurrency)s of the %(concurrency)s requested sequences fit at this context: "
        "add GPUs, shorten the context or use an fp8 KV cache."
    ),
    "no_price": N_("No rental price on file for %(gpu)s in %(currency)s: cost not estimated."),
}
NOTE_FALLBACK = N_("Note: %(code)s %(details)s")

FIELD_LABELS: dict[str, str] = {
    "gpu": N_("GPU"),
    "architecture": N_("Model shape"),
    "stage": N_("Stage"),
    "method": N_("Method"),
    "mfu": N_("MFU (likely)"),
    "mfu_band": N_("MFU range"),
    "price_per_gpu_hour": N_("Price per GPU-hour"),
    "currency": N_("Currency"),
    "epochs": N_("Epochs"),
    "tokens": N_("Training tokens"),
    "tokens_per_sample": N_("Tokens per sample"),
    "params_total": N_("Parameters"),
    "params_active": N_("Active parameters"),
    "precision": N_("Precision"),
    "context": N_("Context per sequence"),
    "seq_len": N_("Sequence length"),
    "concurrency": N_("Concurrent sequences"),
    "gpu_memory_utilization": N_("Usable GPU memory"),
    "workspace_bytes": N_("Activation workspace per GPU"),
    "kv_layout": N_("KV cache layout"),
    "total_memory_gib": N_("GPU memory in total"),
    "deadline_days": N_("Deadline (days)"),
    "flops_per_param_token": N_("FLOPs per parameter per token"),
    "micro_batch": N_("Micro-batch per GPU"),
    "batch_size": N_("Micro-batch per GPU"),
    "lora_rank": N_("LoRA rank"),
    "optimizer": N_("Optimizer"),
    "overhead": N_("Runtime overhead"),
    "gpus_per_node": N_("GPUs per node"),
}

MEMORY_PARTS: dict[str, str] = {
    "weights": N_("weights"),
    "gradients": N_("gradients"),
    "optimizer": N_("optimizer"),
    "activations": N_("activations"),
    "logits": N_("logits"),
    "adapters": N_("adapters"),
    "overhead": N_("overhead"),
    "cuda_context": N_("CUDA context"),
    "fragmentation": N_("fragmentation"),
    "kv_cache": N_("KV cache"),
    "master_weights": N_("fp32 master weights"),
}

RECOMPUTE: dict[str, str] = {
    "none": N_("no recompute"),
    "selective": N_("selective recompute"),
    "full": N_("full recompute"),
}

PLAN_REASONS: dict[str, str] = {
    # one sentence per layout shape, from the design's rules (§3.5) and estimator.memory.plan_preference
    "single": N_("it fits on one GPU, no parallelism needed"),
    "ddp": N_("each GPU holds all model states: plain data parallelism, the least communication"),
    "zero": N_(
        "the model states fit with ZeRO-%(zero)s over data parallelism (DP %(dp)s): the least communication"
    ),
    "zero3": N_(
        "ZeRO-3/FSDP shards weights, gradients and optimizer states over all GPUs: the simple alternative "
        "to TP + PP"
    ),
    "zero3_no_nvlink": N_(
        "no NVLink, so ZeRO-3/FSDP shards weights, gradients and optimizer states instead of tensor "
        "parallelism"
    ),
    "tp": N_("TP %(tp)s splits every layer over the fast links inside one node (NVLink/HCCS)"),
    "tp_dp": N_("TP %(tp)s inside each node (NVLink/HCCS), data parallelism (ZeRO-%(zero)s) across the rest"),
    "tp_no_nvlink": N_(
        "no NVLink, so ZeRO comes before TP; TP %(tp)s is still needed to split the activations"
    ),
    "pp": N_(
        "PP %(pp)s splits the layers into pipeline stages, which exchange little data and work across nodes"
    ),
    "tp_pp": N_("TP %(tp)s stays inside a node (NVLink/HCCS); PP %(pp)s splits the layers across nodes"),
    "offload": N_("optimizer states are offloaded to CPU memory: fewer GPUs, slower steps"),
}
CPU_OFFLOAD = N_("CPU offload")
FULL_RECOMPUTE_REASON = N_("; full recompute, because activations dominate")

ALTERNATIVES: dict[str, str] = {
    "adamw8bit": N_("With 8-bit AdamW"),
    "cpu_offload": N_("With CPU offload"),
    "lora": N_("LoRA instead"),
    "qlora": N_("QLoRA instead"),
    "no_full_recompute": N_("Without full recompute"),
}
MAX_ALTERNATIVES = 4

MIN_CHART_BYTES = 0.05 * 2**30
"""Breakdown parts below this (shown as 0.0 GiB) are left out of the bar chart."""

# Fractions shown as percentages, counts shown exactly, sizes as model sizes.
_PERCENT_KEYS = {"mfu", "ratio", "gpu_memory_utilization"}
_TOKEN_KEYS = {"tokens", "chinchilla_tokens", "num_samples"}
_PARAM_KEYS = {"params_active", "params_total"}
_COUNT_KEYS = {
    "gpu_hours",
    "gpus",
    "gpu_count",
    "min_gpus",
    "gpus_searched",
    "tp",
    "pp",
    "tokens_per_sample",
    "max_concurrency",
    "seq_len",
    "context",
    "concurrency",
    "micro_batch",
    "batch_size",
    "lora_rank",
    "epochs",
}


# ---------------------------------------------------------------------------------------------
# Environments


def _tag(name: str, attrs: str = "") -> Any:
    open_tag = f"<{name}{(' ' + attrs) if attrs else ''}>"

    def wrap(value: Any) -> Markup:
        return Markup(open_tag) + escape(value) + Markup(f"</{name}>")

    return wrap


def _indent(value: Any) -> str:
    return "\n".join(("  " + line) if line else line for line in str(value).splitlines())


@cache
def environment(lang: str, fmt: Format) -> Environment:
    """The Jinja2 environment for one language and format, with that catalog installed (cached)."""
    html_mode = fmt == "html"
    env = Environment(
        loader=FileSystemLoader(str(templates_dir())),
        autoescape=html_mode,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    if html_mode:
        env.filters.update(
            b=_tag("b"),
            i=_tag("i"),
            code=_tag("code"),
            pre=_tag("pre"),
            quote=_tag("blockquote", "expandable"),
        )
    else:
        env.filters.update(b=str, i=str, code=str, pre=str, quote=_indent)
    return env


# ---------------------------------------------------------------------------------------------
# Public API


def render(answer: Answer, fmt: Format = "html") -> str:
    """The reply for one answer. HTML is valid Telegram HTML within 4,096 characters."""
    parsed = answer.parsed
    if answer.report is None:
        return render_help(answer.lang, fmt, out_of_scope=parsed.out_of_scope, parsed=parsed)
    try:
        ctx = build_context(answer.report, answer.lang, parsed)
        others = answer.comparisons
        rows = [answer.report, *others] if others else []
        ctx["comparisons"] = [_comparison_row(r, answer.lang) for r in rows]
        ctx["cheapest"] = _cheapest(answer.report, answer.comparisons, answer.lang)
        text = _render_capped("reply.j2", answer.lang, fmt, ctx)
        return mac_words(text) if answer.lang == "zh" and _is_unified(answer.report) else text
    except Exception:  # a report shape we did not foresee must still get an answer
        log.exception("cannot render the reply")
        return render_help(answer.lang, fmt, parsed=parsed)


def render_help(
    lang: str, fmt: Format = "html", *, out_of_scope: bool = False, parsed: ParseResult | None = None
) -> str:
    """Short help with tappable examples in ``lang``; a polite scope line first if ``out_of_scope``."""
    failed = parsed is not None and ESTIMATOR_ERROR in parsed.notes
    ctx = {"out_of_scope": out_of_scope, "failed": failed, **_parse_extras(parsed)}
    return _render_capped("help.j2", lang, fmt, ctx)


def visible_length(html_text: str) -> int:
    """Length as Telegram counts it: tags removed, entities decoded, in UTF-16 code units."""
    plain = html.unescape(_TAG_RE.sub("", html_text))
    return len(plain.encode("utf-16-le")) // 2


def truncate_html(html_text: str, limit: int = TELEGRAM_MAX_CHARS, ellipsis: str = "…") -> str:
    """Cut HTML to ``limit`` visible characters without splitting a tag or an entity; close open tags."""
    if visible_length(html_text) <= limit:
        return html_text
    budget = limit - len(ellipsis)
    out: list[str] = []
    stack: list[str] = []
    used = 0
    for token in _TOKEN_RE.findall(html_text):
        if token.startswith("<"):
            name = token.strip("</>").split()[0].lower() if token.strip("</>") else ""
            if token.startswith("</"):
                if stack and stack[-1] == name:
                    stack.pop()
            else:
                stack.append(name)
            out.append(token)
            continue
        size = len(html.unescape(token).encode("utf-16-le")) // 2
        if used + size > budget:
            if not token.startswith("&"):
                room = budget - used
                cut = ""
                for ch in token:
                    w = len(ch.encode("utf-16-le")) // 2
                    if room < w:
                        break
                    cut += ch
                    room -= w
                out.append(cut)
            break
        out.append(token)
        used += size
    # drop tags opened with nothing inside, then close the rest
    out.append(escape(ellipsis))
    for name in reversed(stack):
        out.append(f"</{name}>")
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Rendering helpers

_TAG_RE = re.compile(r"<[^>]*>")
_TOKEN_RE = re.compile(r"<[^>]*>|&[#a-zA-Z0-9]+;|[^<&]+|[<&]")
_BLANKS_RE = re.compile(r"\n{3,}")


_EN_ONE_RE = re.compile(
    r"(?<![\d.,])1 ((?:[A-Za-z0-9]+ )?[A-Za-z0-9]+-hour|day|GPU|sequence|node|hour|replica|card)s\b"
)


_MAC_WORDS = (
    (re.compile(r"(\d+) 张 (M\d (?:Ultra|Max))"), r"\1 台 \2"),
    (re.compile(r"(\d+) 张卡："), r"\1 台："),
    (re.compile(r"每卡可用"), "GPU 可用"),
)


def mac_words(text: str) -> str:
    """A Mac is a machine, not a card: '1 台 M2 Ultra', 'GPU 可用' (Chinese measure words)."""
    for pattern, repl in _MAC_WORDS:
        text = pattern.sub(repl, text)
    return text


def english_singulars(text: str) -> str:
    """'1 days' → '1 day': English's n = 1 rule for the unit words our messages put after a number
    (msgids carry the plural; a count of exactly one is common for GPUs, days and sequences)."""
    return _EN_ONE_RE.sub(r"1 \1", text)


def _render_raw(template: str, lang: str, fmt: Format, ctx: dict[str, Any]) -> str:
    text = environment(lang, fmt).get_template(template).render(fmt=fmt, **ctx)
    text = "\n".join(line.rstrip() for line in text.splitlines())
    if lang == "en":
        text = english_singulars(text)
    return _BLANKS_RE.sub("\n\n", text).strip()


def _render_capped(template: str, lang: str, fmt: Format, ctx: dict[str, Any]) -> str:
    text = _render_raw(template, lang, fmt, ctx)
    if fmt != "html" or visible_length(text) <= TELEGRAM_MAX_CHARS:
        return text
    # 1) shorten the ledger's sources, 2) drop the details block, 3) cut safely
    if ctx.get("assumptions"):
        short = [{**a, "source": _shorten(a["source"], SHORT_SOURCE_CHARS)} for a in ctx["assumptions"]]
        text = _render_raw(template, lang, fmt, {**ctx, "assumptions": short})
        if visible_length(text) <= TELEGRAM_MAX_CHARS:
            return text
    text = _render_raw(template, lang, fmt, {**ctx, "show_details": False})
    return truncate_html(text, TELEGRAM_MAX_CHARS)


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# ---------------------------------------------------------------------------------------------
# Context: SizingReport → preformatted strings for the templates


def _count_layout(report: SizingReport) -> str:
    """The layout of exactly the user's count: TP inside a node, whole-node pipeline stages beyond."""
    from estimator import catalog

    count = report.request.gpu_count or 1
    spec = catalog.gpus().get(report.request.gpu or "")
    per_node = spec.gpus_per_node if spec else 8
    return f"TP={count}" if count <= per_node else f"TP={per_node} × PP={count // per_node}"


def _is_unified(report: SizingReport) -> bool:
    """Apple silicon (unified memory), including a memory configuration not in the catalog."""
    from estimator import catalog

    gpu_id = report.request.gpu or ""
    spec = catalog.gpus().get(gpu_id)
    return bool(spec.gpu_memory_fraction) if spec else gpu_id.startswith("Apple-")


def gpu_names(report: SizingReport) -> tuple[str, str, float | None]:
    """(short name for sentences, family for 'A100-hours', capacity bytes) of the report's GPU."""
    gpu_id = report.request.gpu
    try:
        from estimator import catalog

        spec = catalog.gpu(gpu_id) if gpu_id else None
    except KeyError:
        spec = None
    if spec is None:
        name = (report.gpu_name or gpu_id or "GPU").removeprefix("NVIDIA ").removeprefix("GeForce ")
        return name, name, None
    siblings = [g for g in catalog.gpus().values() if g.family == spec.family]
    short = spec.family
    if len(siblings) > 1:
        short = f"{spec.family} {spec.memory_gib:g}G"
    return short, spec.family, spec.memory_bytes


def model_label(report: SizingReport) -> str:
    req = report.request
    if report.model_name:
        return report.model_name
    if req.params_total:
        return Fmt.params(req.params_total)
    return req.model or "LLM"


def _stage_key(report: SizingReport) -> str:
    req = report.request
    if report.inference is not None or req.stage == Stage.inference:
        return "inference"
    if req.stage == Stage.finetune:
        method = (req.method or Method.full).value
        if req.algorithm is not None and req.algorithm.value in ("dpo", "ppo", "grpo"):
            return f"{req.algorithm.value}_{method}"  # e.g. "dpo_full", "grpo_lora"
        return method
    if req.stage == Stage.continued_pretrain:
        return "continued_pretrain"
    return "pretrain"


def _context_len(n: int) -> str:
    """Context lengths the way people say them, not localized: 32768 → '32K', 4000 → '4,000'."""
    return f"{n // 1024}K" if n >= 1024 and n % 1024 == 0 else f"{n:,}"


def format_param(f: Fmt, key: str, value: Any) -> str:
    """One note/assumption parameter, formatted by what its name says it is."""
    if value is None:
        return "—"
    if isinstance(value, str) and key == "mfu_band":
        try:
            low, high = (float(x) for x in value.split("–"))
            return f"{f.percent(low)}–{f.percent(high)}"
        except ValueError:
            return value
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if isinstance(value, int | float):
        if key in _PERCENT_KEYS or key.startswith("mfu"):
            return f.percent(value)
        if key in _PARAM_KEYS:
            return f.params(value)
        if key in _TOKEN_KEYS:
            return f.tokens(value)
        if key == "days" or key.endswith("_days"):
            return f.days(value)
        if key in {"context", "seq_len"}:
            return _context_len(int(value))
        if key == "gpu_hours":
            return f.hours(value)
        if key in _COUNT_KEYS:
            return f.int(value)
        if key.endswith("_bytes"):
            return f.gb(value)
        if key.endswith("_gib"):  # a size the user gave in "G": GiB as cards count it, and GB
            return f"{f.gib(value * 2**30)} ({f.gb(value * 2**30)})"
        if abs(value) >= 1e6:
            return f.compact(value)
        return f.num(value, 3)
    return str(value)


SINGULAR_NOTE_MESSAGES = {
    "does_not_fit_requested": N_("It does not fit on one GPU: at least %(min_gpus)s are needed."),
}
"""English needs a singular for a count of one (Chinese reads the same either way)."""

MONEY_KEYS = {"budget", "cost_low", "cost_high"}
BUDGET_VERDICTS = {
    "over_budget",
    "within_budget",
    "budget_borderline",
    "budget_max_params",
    "deadline_missed",
}
"""Shown right under the headline: they answer "is my budget enough?"."""
TOTAL_MEMORY_VERDICTS = {"total_memory_yes", "total_memory_borderline", "total_memory_no"}
"""Shown first: they answer "is my total GPU memory enough?" before the cards it would take."""


def note_text(note: Note, lang: str) -> str:
    """A warning in ``lang``; unknown codes (or missing parameters) get a generic line."""
    f = fmt_for(lang)
    params = {k: format_param(f, k, v) for k, v in note.params.items()}
    currency = note.params.get("currency")
    for key in MONEY_KEYS & set(note.params):
        value = note.params[key]
        if isinstance(value, int | float) and isinstance(currency, str):
            params[key] = f.money_compact(value, currency)
    msgid = NOTE_MESSAGES.get(note.code)
    if note.params.get("gpu_count") == 1 and note.code in SINGULAR_NOTE_MESSAGES:
        msgid = SINGULAR_NOTE_MESSAGES[note.code]
    if msgid is not None:
        try:
            return translate(lang, msgid, **params)
        except (KeyError, ValueError, TypeError):
            log.warning("note %s: parameters %s do not match its message", note.code, sorted(params))
    details = ", ".join(f"{k}={v}" for k, v in params.items())
    return translate(lang, NOTE_FALLBACK, code=note.code, details=f"({details})" if details else "").strip()


def _assumption_rows(report: SizingReport, lang: str) -> list[dict[str, str]]:
    f = fmt_for(lang)
    rows = []
    for a in report.assumptions:
        label = FIELD_LABELS.get(a.field)
        value = format_param(f, a.field, a.value)
        rows.append(
            {
                "label": translate(lang, label) if label else a.field,
                "value": ledger_text(lang, value) if isinstance(a.value, str) else value,
                "source": ledger_text(lang, a.source),
            }
        )
    return rows


def ledger_text(lang: str, text: str) -> str:
    """An estimator explanation in ``lang`` when the catalog has it (bot/ledger_texts.py), whole or
    clause by clause at "; "; citations and anything untranslated stay as written. (gettext without
    %-substitution: these texts contain literal "%".)"""
    if lang == "en" or not text:
        return text
    gettext = translations(lang).gettext
    whole = gettext(text)
    if whole != text:
        return whole
    parts = text.split("; ")
    translated = [gettext(part) for part in parts]
    if translated == parts:  # a citation: leave it exactly as written
        return text
    return ("；" if lang == "zh" else "; ").join(translated)


def _parse_extras(parsed: ParseResult | None) -> dict[str, Any]:
    if parsed is None:
        return {
            "unknown_gpu": None,
            "unknown_model": None,
            "gpu_suggestions": "",
            "model_suggestions": "",
            "truncated": False,
            "max_chars": MAX_INPUT_CHARS,
            "ignored_numbers": "",
            "asks_cost": False,
            "nonpositive_numbers": "",
        }
    return {
        "unknown_gpu": parsed.unknown_gpu,
        "gpu_suggestions": " / ".join(parsed.gpu_suggestions[:4]),
        "unknown_model": parsed.unknown_model,
        "model_suggestions": " / ".join(parsed.model_suggestions[:4]),
        "truncated": parsed.truncated,
        "max_chars": fmt_for("en").int(MAX_INPUT_CHARS),
        "ignored_numbers": ", ".join(parsed.ignored_numbers[:3]),
        "asks_cost": parsed.asks_cost,
        "nonpositive_numbers": ", ".join(f"“{n}”" for n in parsed.nonpositive_numbers[:3]),
    }


def _training(report: SizingReport, f: Fmt, per_node: int) -> dict[str, Any] | None:
    if report.flops is None:
        return None
    t: dict[str, Any] = {
        "flops": f.sci(report.flops),
        "formula": report.flops_formula or "6ND",
        "pf_days": (
            f.sci(report.pf_days)
            if report.pf_days < 0.01
            else f.num(report.pf_days, 2 if report.pf_days < 10 else 1 if report.pf_days < 100 else 0)
        )
        if report.pf_days
        else None,
        "tokens": f.tokens(report.request.tokens) if report.request.tokens else None,
    }
    gh = report.gpu_hours
    if gh is not None:
        if report.mfu is not None:
            band = report.mfu
        else:  # hand-built reports without the band: GPU-hours ∝ 1/MFU
            mfu = report.request.mfu or 0.4
            band = Band(
                low=mfu * gh.likely / gh.high if gh.high else mfu,
                likely=mfu,
                high=mfu * gh.likely / gh.low if gh.low else mfu,
            )
        t |= {
            "gh": f.hours(gh.likely),
            "gh_compact": f.compact(gh.likely) if gh.likely >= 10 else f.hours(gh.likely),
            "gh_low": f.hours(gh.low),
            "gh_high": f.hours(gh.high),
            "mfu": f.percent(band.likely),
            "band": gh.low != gh.high,
            "mfu_high": f.percent(band.high),
            "mfu_low": f.percent(band.low),
        }
    if report.gpus_for_deadline:
        n = report.gpus_for_deadline
        t |= {
            "need": f.int(n),
            "nodes": f.int(n // per_node) if n > per_node and n % per_node == 0 else None,
            "per_node": per_node,
            # the deadline, unless memory or whole nodes pushed the count well past it (then the real days)
            "deadline": _headline_days(report, n, f),
            "hours": _headline_hours(report, n, f),
            "one": n == 1,
        }
    if report.days is not None:
        d = report.days.days.likely
        t |= {
            "user_gpus": f.int(report.days.gpus),
            "user_days": f.days(d),
            "user_hours": f.hours(max(d * 24, 0.01)) if d < 1 else None,  # "≈ 7.2 hours", not "0.3 days"
        }
    t["rows"] = _days_rows(report, f)
    c = report.cost
    if c is not None:
        t["cost"] = {
            "low": f.money(c.low, c.currency),
            "high": f.money(c.high, c.currency),
            "same": c.low == c.high,
            "compact": f.money_compact((c.low + c.high) / 2, c.currency),
            "price_low": f.price(c.price_low, c.currency),
            "price_range": f.price_range(c.price_low, c.price_high, c.currency),
            "billed": f.hours(c.billed_gpu_hours),
            "source": c.price_source,
            "wide": None
            if c.low_with_mfu is None
            or c.high_with_mfu is None
            or (c.low_with_mfu, c.high_with_mfu) == (c.low, c.high)
            else f.money_compact_range(c.low_with_mfu, c.high_with_mfu, c.currency),
        }
    if report.chinchilla_tokens and report.request.tokens:
        t["chinchilla"] = {
            "tokens": f.tokens(report.chinchilla_tokens),
            "ratio": f.num(report.request.tokens / report.chinchilla_tokens, 1),
        }
    return t


def gpus_text(lang: str, n: int) -> str:
    """A GPU count as a phrase: ``1 GPU`` / ``8 GPUs``, ``8 张`` (English needs the singular)."""
    msgid = N_("%(n)s GPU") if n == 1 else N_("%(n)s GPUs")
    return translate(lang, msgid, n=fmt_for(lang).int(n))


def _paren(lang: str, text: str) -> str:
    """`` (text)`` in English, ``（text）`` in Chinese; empty for empty text."""
    return translate(lang, N_(" (%(text)s)"), text=text) if text else ""


def _nodes_text(lang: str, n: int, per_node: int) -> str:
    """Whole nodes for a GPU count: ``one 8-GPU node`` / ``3 × 8-GPU nodes``; empty below a node."""
    if n < per_node or n % per_node:
        return ""
    if n == per_node:
        return translate(lang, N_("one %(per_node)s-GPU node"), per_node=per_node)
    return translate(lang, N_("%(nodes)s × %(per_node)s-GPU nodes"), nodes=n // per_node, per_node=per_node)


def plan_layout(plan: Plan, lang: str) -> str:
    """``TP 1 × PP 1 × DP 2, ZeRO-2, selective recompute`` (+ CPU offload) in ``lang``; one GPU: the
    recompute mode alone."""
    f = fmt_for(lang)
    parts = [] if plan.tp == plan.pp == plan.dp == 1 else [f"TP {plan.tp} × PP {plan.pp} × DP {plan.dp}"]
    if plan.zero_stage or plan.dp > 1:
        parts.append(f"ZeRO-{plan.zero_stage}")
    if plan.recompute in RECOMPUTE:
        parts.append(translate(lang, RECOMPUTE[plan.recompute]))
    if plan.offload:
        parts.append(translate(lang, CPU_OFFLOAD))
    return f.sep.join(parts)


def plan_short(plan: Plan, lang: str) -> str:
    """The parts of a layout that are not the default, for a headline: ``ZeRO-2`` / ``TP 8, ZeRO-3``."""
    parts = [f"{k} {v}" for k, v in (("TP", plan.tp), ("PP", plan.pp)) if v > 1]
    if plan.zero_stage:
        parts.append(f"ZeRO-{plan.zero_stage}")
    if plan.recompute == "full":
        parts.append(translate(lang, RECOMPUTE["full"]))
    if plan.offload:
        parts.append(translate(lang, CPU_OFFLOAD))
    return fmt_for(lang).sep.join(parts)


def plan_reason_key(plan: Plan, nvlink: bool) -> str:
    """Which of :data:`PLAN_REASONS` explains ``plan`` (design §3.5; ZeRO-3 before TP without NVLink)."""
    if plan.offload:
        return "offload"
    if plan.pp > 1:
        return "tp_pp" if plan.tp > 1 and nvlink else "pp"
    if plan.tp > 1:
        if not nvlink:
            return "tp_no_nvlink"
        return "tp" if plan.dp == 1 else "tp_dp"
    if plan.dp == 1:
        return "single"
    if plan.zero_stage == 3:
        return "zero3" if nvlink else "zero3_no_nvlink"
    return "zero" if plan.zero_stage else "ddp"


def plan_reason(plan: Plan, nvlink: bool, lang: str) -> str:
    """One line on why this layout, in ``lang``."""
    msgid = PLAN_REASONS[plan_reason_key(plan, nvlink)]
    text = translate(lang, msgid, tp=plan.tp, pp=plan.pp, dp=plan.dp, zero=plan.zero_stage)
    if plan.recompute == "full":
        text += translate(lang, FULL_RECOMPUTE_REASON)
    return text


def _memory(
    report: SizingReport, f: Fmt, per_node: int = 8, nvlink: bool = True, timed: bool = False
) -> dict[str, Any] | None:
    """The memory answer. ``timed``: a training reply whose time and cost refer to ``plan_gpus``, so
    the plan explained is the one at that count (else the recommended one, or the user's if it fits)."""
    m = report.memory
    if m is None:
        return None
    lang = f.lang
    parts = [(k, v) for k, v in m.breakdown.items() if v >= MIN_CHART_BYTES]
    total = sum(v for _, v in parts) or m.per_gpu_bytes or 1.0
    labels = [translate(lang, MEMORY_PARTS[k]) if k in MEMORY_PARTS else k for k, _ in parts]
    w_label = max((display_width(lab) for lab in labels), default=0)
    values = [f.gib(v) for _, v in parts]
    w_val = max((len(v) for v in values), default=0)
    chart = [
        f"{ljust(lab, w_label)} {ljust(bar(v / total, 10), 10)} {rjust(val, w_val)}"
        for lab, (_, v), val in zip(labels, parts, values, strict=True)
    ]
    plan, at = m.plan, m.plan_gpus or m.min_gpus
    requested = report.request.gpu_count
    rec = m.recommended_gpus if m.min_gpus else None
    at_min = plan is not None and at == m.min_gpus
    # the layout a user would run: theirs if it fits, else the recommended one, else the minimum
    main = (
        plan
        if timed or (requested and m.fits_requested) or m.recommended_plan is None
        else m.recommended_plan
    )

    rows: list[dict[str, str | None]] = []
    if requested and m.fits_requested and requested not in (m.min_gpus, rec) and plan is not None:
        rows.append(
            {
                "label": translate(lang, N_("On %(gpus)s"), gpus=gpus_text(lang, requested)),
                "layout": plan_layout(plan, lang),
            }
        )
    if m.min_gpus and (at_min or not requested):  # a bare count only when the headline does not say it
        rows.append(
            {
                "label": translate(lang, N_("Minimum %(gpus)s"), gpus=gpus_text(lang, m.min_gpus)),
                "layout": plan_layout(plan, lang) if at_min and plan else None,
            }
        )
    if rec and rec != m.min_gpus:
        rows.append(
            {
                "label": translate(lang, N_("Recommended %(gpus)s"), gpus=gpus_text(lang, rec)),
                "layout": plan_layout(m.recommended_plan, lang) if m.recommended_plan else None,
            }
        )

    alternatives = [
        translate(
            lang,
            N_("%(change)s: %(gpus)s"),
            change=translate(lang, ALTERNATIVES[a.change]) if a.change in ALTERNATIVES else a.change,
            gpus=gpus_text(lang, a.min_gpus) if a.min_gpus else translate(lang, N_("does not fit")),
        )
        for a in m.alternatives
        if m.min_gpus and a.min_gpus != m.min_gpus
    ][:MAX_ALTERNATIVES]

    ckpt = report.checkpoint_bytes
    checkpoint = (
        None
        if ckpt is None
        else {
            "weights": f.storage(ckpt.weights),
            "full": f.storage(ckpt.full_state),
            "adapters": report.request.method in (Method.lora, Method.qlora),
            "bpp": f.num(FULL_STATE_BYTES_PER_PARAM, 1),
        }
    )
    states_total = f.storage(m.total_bytes)
    return {
        "per_gpu": f.gib(m.per_gpu_bytes),
        "usable": f.gib(m.usable_bytes),
        "capacity": f.gib(m.gpu_memory_bytes),
        "usable_differs": f.gib(m.usable_bytes) != f.gib(m.gpu_memory_bytes),
        "share": f.percent(m.per_gpu_bytes / m.gpu_memory_bytes) if m.gpu_memory_bytes else "",
        "min_gpus": f.int(m.min_gpus) if m.min_gpus else None,
        "min_text": gpus_text(lang, m.min_gpus) if m.min_gpus else None,
        "one_gpu": m.min_gpus == 1 and at_min,
        "min_layout": _paren(lang, plan_short(plan, lang)) if at_min and plan else "",
        "rec_gpus": f.int(rec) if rec and rec != m.min_gpus else None,
        "rec_text": gpus_text(lang, rec) if rec and rec != m.min_gpus else None,
        "rec_nodes": _paren(lang, _nodes_text(lang, rec, per_node)) if rec else "",
        "at": gpus_text(lang, at) if at else None,
        "at_layout": plan_layout(plan, lang) if plan else None,
        "requested": f.int(requested) if requested else None,
        "requested_layout": _paren(lang, plan_short(plan, lang)) if m.fits_requested and plan else "",
        "total": states_total,
        "show_total": checkpoint is None or states_total != checkpoint["full"],
        "chart": "\n".join(chart),
        "fits_requested": m.fits_requested if requested else None,
        "borderline": _borderline_text(report, f),
        "rows": rows,
        "reason": plan_reason(main, nvlink, lang) if main is not None else None,
        "reason_key": plan_reason_key(main, nvlink) if main is not None else None,
        "alternatives": alternatives,
        "checkpoint": checkpoint,
        "headroom": f.percent(HEADROOM),
    }


def _inference(report: SizingReport, f: Fmt, lang: str) -> dict[str, Any] | None:
    inf = report.inference
    if inf is None:
        return None
    decode = inf.decode_tokens_per_s
    cpm, cpmonth = inf.cost_per_million_tokens, inf.cost_per_month
    return {
        "precision": inf.weight_format,
        "kv_precision": inf.kv_precision,
        "weights": f.gb(inf.weights_bytes),
        "bytes_per_param": f.num(inf.bytes_per_param, 2),
        "kv_per_token": f.kib(inf.kv_bytes_per_token),
        "kv_total": f.gb(inf.kv_bytes_total),
        "total": f.gb(inf.weights_bytes + inf.kv_bytes_total),
        "usable": f.gib(inf.usable_bytes_per_gpu),
        "context": _context_len(inf.context_tokens),
        "concurrency": f.int(inf.concurrency),
        "min_gpus": f.int(inf.min_gpus),
        "rec_gpus": f.int(inf.recommended_gpus),
        "serving_gpus": f.int(inf.serving_gpus),
        "serving_one": inf.serving_gpus == 1,
        "unified": _is_unified(report),
        "local": inf.runtime == "llama.cpp",
        "same": inf.min_gpus == inf.recommended_gpus,
        "layout": "llama.cpp / MLX"
        if _is_unified(report) and inf.tp * inf.pp == 1
        else "llama.cpp"
        if inf.runtime == "llama.cpp"
        else f"FP8, TP={inf.fp8_min_gpus}"
        if report.feasible_reason == "fp8_only" and inf.fp8_min_gpus
        else _count_layout(report)
        if report.feasible_reason == "full_memory" and report.request.gpu_count
        else _serving_nodes(report, lang)
        + f"TP={inf.tp}"
        + (f" × PP={inf.pp}" if inf.pp > 1 else "")
        + (" × " + translate(lang, N_("%(n)s replicas"), n=f.int(inf.replicas)) if inf.replicas > 1 else ""),
        "max_concurrency": f.int(inf.max_concurrency),
        "table": [
            {"context": rjust(_context_len(ctx), 4), "n": f.int(n)} for ctx, n in inf.concurrency_table
        ],
        "decode_seq": f.num(decode.per_sequence, 1 if decode.per_sequence < 10 else 0) if decode else None,
        "decode_all": f.int(decode.aggregate) if decode else None,
        "decode_batch": f.int(decode.batch) if decode else None,
        "decode_one": bool(decode and decode.batch == 1),
        "ttft": f.num(inf.prefill_seconds, 2 if inf.prefill_seconds < 1 else 1)
        if inf.prefill_seconds is not None
        else None,
        "cpm": None if cpm is None else f.price_range(cpm.low, cpm.high, cpm.currency),
        "per_month": None
        if cpmonth is None
        else f"{f.money(cpmonth.low, cpmonth.currency)} – {f.money(cpmonth.high, cpmonth.currency)}",
        "user_gpus": f.int(report.request.gpu_count) if report.request.gpu_count else None,
        "load_given": not {"concurrency", "context"} <= {a.field for a in report.assumptions},
        "rec_nodes": "",  # folded into "layout"
        "count_ok": bool(report.request.gpu_count and report.request.gpu_count >= inf.min_gpus),
        "verdict": report.feasible,
        "verdict_text": translate(
            lang,
            SERVING_VERDICTS.get(report.feasible_reason or "", SERVING_VERDICTS[report.feasible or "yes"]),
        ),
        "alternatives": _lighter_weights(inf, f),
    }


BORDERLINE_REASONS = {
    "tight": N_("Borderline: %(share)s of each card — allocation spikes can still run out of memory."),
    "offload": N_(
        "Borderline: it relies on CPU offload — about %(host)s of host RAM for the optimizer "
        "states, and steps run several times slower."
    ),
    "sharded_4bit_base": N_(
        "Borderline: the 4-bit base does not fit on one card and must be sharded "
        "(FSDP-QLoRA / ZeRO-3) — works with recent PEFT and bitsandbytes, but is fiddly."
    ),
    "range_upper_end": N_("Borderline: only at the upper end of the GPU range you gave."),
}


def _borderline_text(report: SizingReport, f: Fmt) -> str | None:
    """One line saying why a 'fits' is only borderline (report.feasible_reason)."""
    reason = report.feasible_reason
    m = report.memory
    if report.feasible != "borderline" or reason not in BORDERLINE_REASONS or m is None:
        return None
    params = report.request.params_total or 0.0
    share = f.percent(m.per_gpu_bytes / m.gpu_memory_bytes) if m.gpu_memory_bytes else ""
    return translate(f.lang, BORDERLINE_REASONS[reason], share=share, host=f.gb(12.0 * params))


def _days_rows(report: SizingReport, f: Fmt) -> list[dict[str, Any]]:
    """The GPUs ↔ days table, aligned for a <pre> block."""
    rows = report.days_table
    if not rows:
        return []
    w_gpus = max(len(f.int(r.gpus)) for r in rows)
    w_days = max(len(f.days(r.days.likely)) for r in rows)
    return [
        {
            "gpus": rjust(f.int(r.gpus), w_gpus),
            "days": rjust(f.days(r.days.likely), w_days),
            "lo": f.days(r.days.low),
            "hi": f.days(r.days.high),
            "band": r.days.low != r.days.high,
            "one": r.gpus == 1,
        }
        for r in rows
    ]


def _cheapest(report: SizingReport, others: list[SizingReport], lang: str) -> str | None:
    """'Cheapest: H100 (¥73.1万 – ¥195万)' when the question compared GPUs and all have a cost."""
    reports = [report, *others]
    if others and all(r.inference is not None for r in reports):
        return _cheapest_serving(reports, lang)
    costs = [r.cost for r in reports]
    if not others or any(c is None for c in costs) or len({c.currency for c in costs}) > 1:
        return None
    best = min(reports, key=lambda r: r.cost.low + r.cost.high)
    f = fmt_for(lang)
    c = best.cost
    span = f.money_compact_range(c.low, c.high, c.currency)
    return translate(lang, N_("Cheapest: %(gpu)s (%(cost)s)"), gpu=gpu_names(best)[0], cost=span)


def _cheapest_serving(reports: list[SizingReport], lang: str) -> str | None:
    """'Cheapest per token: H20 (¥3.10–6.20 per million output tokens)' for a serving comparison."""
    costs = [r.inference.cost_per_million_tokens for r in reports if r.inference]
    if len(costs) != len(reports) or any(c is None for c in costs) or len({c.currency for c in costs}) > 1:
        return None
    best_i = min(range(len(reports)), key=lambda i: costs[i].low + costs[i].high)
    best, c = reports[best_i], costs[best_i]
    span = fmt_for(lang).price_range(c.low, c.high, c.currency)
    msgid = N_("Cheapest per token: %(gpu)s (%(cost)s per million output tokens)")
    return translate(lang, msgid, gpu=gpu_names(best)[0], cost=span)


def _serving_row(report: SizingReport, lang: str) -> str | None:
    """'H100 80G: 4 GPUs, ≈ 2,400 tokens/s in total, $1.10–2.50 per million output tokens'."""
    inf = report.inference
    if inf is None or inf.decode_tokens_per_s is None:
        return None
    f = fmt_for(lang)
    params = {
        "gpu": gpu_names(report)[0],
        "gpus": f.int(inf.serving_gpus),
        "tps": f.int(inf.decode_tokens_per_s.aggregate),
    }
    c = inf.cost_per_million_tokens
    if c is None:
        return translate(lang, N_("%(gpu)s: %(gpus)s GPUs, ≈ %(tps)s tokens/s in total"), **params)
    msgid = N_("%(gpu)s: %(gpus)s GPUs, ≈ %(tps)s tokens/s in total, %(cpm)s per million output tokens")
    return translate(lang, msgid, cpm=f.price_range(c.low, c.high, c.currency), **params)


def _comparison_row(report: SizingReport, lang: str) -> str:
    """One line sizing the same question on another GPU ("A100 vs H100")."""
    serving = _serving_row(report, lang)
    if serving is not None:
        return serving
    f = fmt_for(lang)
    gpu, family, _ = gpu_names(report)
    gh, need, cost = report.gpu_hours, report.gpus_for_deadline, report.cost
    if gh is not None and need:
        params = {"gpu": gpu, "gh": f.compact(gh.likely), "fam": family, "gpus": f.int(need),
                  "days": _headline_days(report, need, f)}  # fmt: skip
        if cost is None:
            msgid = N_("%(gpu)s: %(gh)s %(fam)s-hours, about %(gpus)s GPUs for %(days)s days")
            return translate(lang, msgid, **params)
        cost_text = f.money_compact_range(cost.low, cost.high, cost.currency)
        msgid = N_("%(gpu)s: %(gh)s %(fam)s-hours, about %(gpus)s GPUs for %(days)s days, %(cost)s")
        return translate(lang, msgid, cost=cost_text, **params)
    low, high = None, None
    if report.inference is not None:
        low, high = report.inference.min_gpus, report.inference.recommended_gpus
    elif report.memory is not None and report.memory.min_gpus:
        low, high = report.memory.min_gpus, report.memory.recommended_gpus
    if low is None:
        return translate(lang, N_("%(gpu)s: does not fit"), gpu=gpu)
    if high and high != low:
        return translate(
            lang,
            N_("%(gpu)s: at least %(min)s, %(rec)s recommended"),
            gpu=gpu,
            min=f.int(low),
            rec=f.int(high),
        )
    return translate(lang, N_("%(gpu)s: %(min)s needed"), gpu=gpu, min=f.int(low))


def _headline_hours(report: SizingReport, gpus: int, f: Fmt) -> str | None:
    """Wall-clock hours for a job under a day on ``gpus`` ('one GPU for 7.2 hours'), else None."""
    gh = report.gpu_hours
    if gh is None or gpus <= 0 or gh.likely / gpus >= 24:
        return None
    return f.hours(max(gh.likely / gpus, 0.01))


def _headline_days(report: SizingReport, gpus: int, f: Fmt) -> str:
    deadline = report.request.deadline_days or 30
    gh = report.gpu_hours
    days = gh.likely / gpus / 24 if gh else deadline
    return f.days(deadline if days >= 0.8 * deadline else days)


def _lighter_weights(inf: Any, f: Fmt) -> str:
    """'FP8/INT8: 20; INT4 (GPTQ/AWQ): 16' — GPUs for the same load, where they differ."""
    zh = f.lang == "zh"
    return ("；" if zh else "; ").join(
        f"{PRECISION_LABELS.get(a.change, a.change.upper())}{'：' if zh else ': '}{f.int(a.min_gpus)}"
        for a in inf.alternatives
        if a.min_gpus is not None and a.min_gpus != inf.recommended_gpus
    )


def _serving_nodes(report: SizingReport, lang: str) -> str:
    """'3 × 8-GPU nodes, ' ahead of the layout when the recommended GPUs fill whole nodes (and the
    headline is about the recommendation, not the user's count)."""
    from estimator import catalog

    inf = report.inference
    if inf is None or report.request.gpu_count:
        return ""
    spec = catalog.gpus().get(report.request.gpu or "")
    per_node = spec.gpus_per_node if spec else 8
    if inf.recommended_gpus <= per_node:
        return ""
    nodes = _nodes_text(lang, inf.recommended_gpus, per_node)
    return f"{nodes}{'，' if lang == 'zh' else ', '}" if nodes else ""


PRECISION_LABELS = {"fp8": "FP8/INT8", "int4": "INT4 (GPTQ/AWQ)"}
SERVING_VERDICTS = {  # by verdict, or by the reason of a borderline one
    "fp8_only": N_("only with FP8 weights (bf16 does not fit) — standard on this GPU, check quality"),
    "full_memory": N_(
        "fits only if the engine may use nearly all GPU memory (gpu_memory_utilization above 0.9) "
        "and contexts stay short"
    ),
    "local_4bit": N_("only with 4-bit weights (Q4_K_M): 8-bit and 16-bit don't fit — check quality"),
    "range_upper_end": N_("only at the upper end of the GPU range you gave"),
    "yes": N_("fits"),
    "borderline": N_("fits, but tight: little room left for the KV cache"),
    "no": N_("does not fit at the requested load"),
}


def _budget(report: SizingReport, f: Fmt, gpu: str) -> dict[str, Any] | None:
    hours = report.budget_gpu_hours
    if hours is None or report.flops is not None:
        return None
    req = report.request
    if req.budget:
        what = f.money(req.budget, req.currency or "CNY")
    else:
        what = f"{f.int(req.gpu_count or 0)} × {gpu}, {f.days(req.deadline_days or 0)}"
    tokens = report.tokens_for_budget
    return {
        "what": what,
        "gh": f.int(hours.likely),
        "gh_compact": f.compact(hours.likely),
        "gh_low": f.compact(hours.low),
        "gh_high": f.compact(hours.high),
        "band": hours.low != hours.high,
        "params": f.params(report.max_params_for_budget) if report.max_params_for_budget else None,
        "chinchilla": f.tokens(report.chinchilla_tokens) if report.chinchilla_tokens else None,
        "tokens": f.tokens(tokens.likely) if tokens else None,
        "tokens_low": f.tokens(tokens.low) if tokens else None,
        "tokens_high": f.tokens(tokens.high) if tokens else None,
        "rows": _days_rows(report, f),
    }


def build_context(report: SizingReport, lang: str, parsed: ParseResult | None = None) -> dict[str, Any]:
    """Everything the reply templates show, formatted for ``lang`` (strings, lists, flags)."""
    f = fmt_for(lang)
    gpu, family, _capacity = gpu_names(report)
    per_node, nvlink = 8, True
    try:
        from estimator import catalog

        if report.request.gpu:
            spec = catalog.gpu(report.request.gpu)
            per_node, nvlink = spec.gpus_per_node, spec.nvlink
    except Exception:
        pass
    training = _training(report, f, per_node)
    memory = _memory(report, f, per_node, nvlink, timed=training is not None)
    inference = _inference(report, f, lang)
    budget = _budget(report, f, gpu)
    kind = (
        "inference"
        if inference
        else "training"
        if training
        else "budget"
        if budget
        else "memory"
        if memory
        else "none"
    )
    return {
        "kind": kind,
        "sentence_gap": "" if lang == "zh" else " ",  # Chinese sentences run on without a space
        "model": model_label(report),
        "stage": _stage_key(report),
        "gpu": gpu,
        "gpu_family": family,
        "t": training,
        "m": memory,
        "inf": inference,
        "budget": budget,
        "notes": [
            note_text(n, lang)
            for n in report.warnings
            if not _said_elsewhere(n, kind, memory) and n.code not in BUDGET_VERDICTS | TOTAL_MEMORY_VERDICTS
        ],
        "budget_verdict": next(
            (note_text(n, lang) for n in report.warnings if n.code in BUDGET_VERDICTS), None
        ),
        "total_verdict": next(
            (note_text(n, lang) for n in report.warnings if n.code in TOTAL_MEMORY_VERDICTS), None
        ),
        "assumptions": _assumption_rows(report, lang),
        "show_details": True,
        **_parse_extras(parsed),
    }


def _said_elsewhere(note: Note, kind: str, memory: dict[str, Any] | None) -> bool:
    """Warnings the reply already states: "does not fit on N" in a memory headline, "no NVLink" in the
    plan's reason line."""
    if memory is None:
        return False
    if note.code == "does_not_fit_requested":
        return kind == "memory" and memory["fits_requested"] is False and memory["min_gpus"] is not None
    if note.code == "consumer_no_nvlink":
        return str(memory.get("reason_key") or "").endswith("no_nvlink")
    if note.code == "memory_tight":  # the borderline line under the headline already says it
        return bool(memory.get("borderline"))
    return False
