"""The answer's actions as links: switch GPU (three alternatives: the offered GPUs first in a
pre-sales deployment), fine-tuning method, stage, and the launch recipes, the chart and the PDF quote.

A switch is a follow-up question ("那H100呢", "With LoRA?") the parser reads as a change of the
previous request, so the link stays stateless and shows in the box what it asked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.web.page import followup_link, link
from bot.web.state import Asked
from bot.web.wording import word

if TYPE_CHECKING:
    from bot.core.pipeline import Answer
    from bot.settings.presales import PresalesConfig


def gpu_label(gpu_id: str) -> str:
    """What users call a GPU: its family, plus the memory for a non-default variant ('A100 40G')."""
    from estimator import catalog

    spec = catalog.gpus().get(gpu_id)
    if spec is None:
        return gpu_id
    return spec.family if spec.default_for_family else f"{spec.family} {spec.memory_gib:g}G"


def _value(x: object) -> str | None:
    return None if x is None else str(getattr(x, "value", x))


def switches(result: Answer, presales: PresalesConfig | None) -> list[tuple[str, str]]:
    """(label, follow-up question) for the answer's GPU, method and stage switches."""
    from bot.core.suggest import alternative_gpus, answer_gpu, offered_alternatives

    report, lang = result.report, result.lang
    if report is None:
        return []
    current = answer_gpu(report, result.request)
    families = presales.families() if presales is not None else []
    gpus = offered_alternatives(current, families) if families else alternative_gpus(current)
    out = [(f"🖥 {gpu_label(g)}", word(lang, "ask_gpu", gpu=gpu_label(g))) for g in gpus[:3]]
    request = report.request
    stage, method = _value(request.stage), _value(request.method)
    sized_a_model = request.model is not None or request.params_total is not None
    if stage == "finetune":
        out += [
            (word(lang, f"ask_{m}"), word(lang, f"ask_{m}")) for m in ("full", "lora", "qlora") if m != method
        ]
    if sized_a_model and stage in ("pretrain", "continued_pretrain", "finetune"):
        out.append((word(lang, "ask_inference"), word(lang, "ask_inference")))
    elif sized_a_model and stage == "inference":
        out.append((word(lang, "ask_finetune"), word(lang, "ask_finetune")))
    return out


def action_links(
    prefix: str, asked: Asked, result: Answer, presales: PresalesConfig | None
) -> list[tuple[str, str]]:
    """(label, escaped href) for every action under an understood answer."""
    from bot.recipes import has_recipes

    out = [(label, followup_link(prefix, asked, q)) for label, q in switches(result, presales)]
    if has_recipes(result.report, (result.chosen_plan,)):
        out.append((word(result.lang, "recipes"), link(prefix, "/recipes", asked)))
    return out


def extras(prefix: str, asked: Asked, result: Answer, presales: PresalesConfig | None) -> str:
    """The chart image and, in a pre-sales deployment, the quote link (HTML)."""
    from bot.quote import can_quote
    from bot.render.chart import chart_kind

    parts = []
    if chart_kind(result.report) is not None:
        alt = word(result.lang, "chart")
        src = link(prefix, "/chart.png", asked)
        parts.append(f'<img class="chart" src="{src}" alt="{alt}" width="1000" height="700" loading="lazy">')
    if presales is not None and can_quote(result):
        parts.append(f'<p><a href="{link(prefix, "/quote.pdf", asked)}">{word(result.lang, "quote")}</a></p>')
    return "\n".join(parts)
