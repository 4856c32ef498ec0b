"""Which actions (buttons) an answer offers: decided here, once, for every front end.

An :class:`Action` is neutral: a kind (switch GPU, method or stage, show/hide details, chart, launch
recipes, the other language, the PDF quote), an argument (a catalog GPU id, ``"qlora"``,
``"inference"``, ``"0"``/``"1"``, ``"en"``) and a label (a msgid key of :data:`LABELS`, or a literal
such as ``🖥 H100`` for product names, which are not translated). A front end only translates them:
Telegram into ``InlineKeyboardButton`` s (:mod:`bot.telegram.keyboards`), a card platform into card
buttons, the tests' in-memory adapter into nothing at all.

Rules (docs/design.md §5): switch GPU (the conversation's suggestions, a pre-sales deployment's GPUs
first), switch fine-tuning method or stage where it makes sense, the details toggle, 📊 chart when the
answer has one, ⚙️ launch recipes for training and serving answers with a plan, the other language,
and in a pre-sales deployment 🧾 the PDF quote. Nothing when nothing was sized.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from bot.render.i18n import N_, translate
from estimator import catalog
from estimator.models import Method, Stage

if TYPE_CHECKING:
    from bot.core.pipeline import Answer


class ActionKind(StrEnum):
    """What a button does. The values are the one-letter codes buttons carry (``v1|turn|g|H100…``)."""

    GPU = "g"
    METHOD = "m"
    STAGE = "s"
    DETAILS = "d"
    CHART = "c"
    LANG = "l"
    RECIPE = "r"
    QUOTE = "q"


VARIANT_FIELDS = {ActionKind.GPU: "gpu", ActionKind.METHOD: "method", ActionKind.STAGE: "stage"}
"""Actions that re-answer the turn with one request field changed (the argument is the value)."""
COSTLY = frozenset(set(ActionKind) - {ActionKind.DETAILS})
"""Actions that make an answer (a variant, a chart, recipes, a PDF): flood-limited. The details
toggle is navigation: never limited."""

LABELS: dict[str, str] = {
    "hide": N_("🔼 Hide details"),
    "show": N_("🔽 Show details"),
    "chart": N_("📊 Chart"),
    "recipe": N_("⚙️ Config"),
    "quote": N_("🧾 Quote (PDF)"),
    "full": N_("Full FT"),
    "lora": "LoRA",
    "qlora": "QLoRA",
    "inference": N_("🚀 Serve it"),
    "finetune": N_("🎯 Fine-tune"),
    "auto": N_("auto"),
    "days": N_("%(n)s d"),
    "prev": "◀",
    "next": "▶",
}
"""Button labels (msgids; product names are not translated)."""
LANGUAGE_NAMES = {"zh": "中文", "en": "English", "zh-Hant": "繁體中文"}
"""Each language in its own script: the 🌐 button offers the other one by its own name."""


@dataclass(frozen=True, slots=True)
class Action:
    """One button: ``kind`` + ``arg``; its label is ``LABELS[label_key]`` translated, or ``text``."""

    kind: ActionKind
    arg: str = ""
    label_key: str = ""
    text: str = ""

    def label(self, lang: str) -> str:
        """The button's text in ``lang``."""
        return translate(lang, LABELS[self.label_key]) if self.label_key else self.text


def gpu_label(gpu_id: str) -> str:
    """What users call a GPU: its family, plus the memory for a non-default variant ('A100 40G')."""
    spec = catalog.gpus().get(gpu_id)
    if spec is None:
        return gpu_id
    return spec.family if spec.default_for_family else f"{spec.family} {spec.memory_gib:g}G"


def _enum_value(value: Any) -> str | None:
    return None if value is None else str(getattr(value, "value", value))


def _switches(answer: Answer) -> list[Action]:
    """Method buttons for a fine-tuning answer; the other stage for a sized model."""
    request = answer.report.request  # type: ignore[union-attr]
    stage, method = _enum_value(request.stage), _enum_value(request.method)
    sized_a_model = request.model is not None or request.params_total is not None
    out: list[Action] = []
    if stage == Stage.finetune.value:
        out += [  # the three common methods; freeze-tuning and P-tuning are typed, not offered
            Action(ActionKind.METHOD, m.value, m.value)
            for m in (Method.full, Method.lora, Method.qlora)
            if m.value != method
        ]
    trains = (Stage.pretrain.value, Stage.continued_pretrain.value, Stage.finetune.value)
    if sized_a_model and stage in trains:
        out.append(Action(ActionKind.STAGE, Stage.inference.value, "inference"))
    elif sized_a_model and stage == Stage.inference.value:
        out.append(Action(ActionKind.STAGE, Stage.finetune.value, "finetune"))
    return out


def answer_actions(
    answer: Answer,
    lang: str | None = None,
    *,
    details: bool = True,
    gpus: list[str] | None = None,
    quote: bool = False,
) -> list[list[Action]]:
    """The rows of actions under one answer; ``[]`` when nothing was sized. ``lang``: the labels'
    language (default: the answer's); the 🌐 action offers the other one.

    ``details``: whether the message shows the expandable details (the toggle offers the opposite).
    ``gpus``: catalog ids for the GPU row (at most three). ``quote``: a 🧾 row (pre-sales deployments).
    """
    report = answer.report
    if report is None:
        return []
    from bot.recipes import has_recipes  # light, but only needed once something was sized
    from bot.render.chart import chart_kind  # matplotlib is imported only when drawing

    rows: list[list[Action]] = []
    if gpus:
        rows.append([Action(ActionKind.GPU, g, text=f"🖥 {gpu_label(g)}") for g in gpus[:3]])
    second = _switches(answer)
    if second:
        rows.append(second)
    other = "en" if (lang or answer.lang) == "zh" else "zh"
    last = [Action(ActionKind.DETAILS, "0" if details else "1", "hide" if details else "show")]
    if chart_kind(report) is not None:
        last.append(Action(ActionKind.CHART, label_key="chart"))
    if has_recipes(report, (answer.chosen_plan,)):
        last.append(Action(ActionKind.RECIPE, label_key="recipe"))
    last.append(Action(ActionKind.LANG, other, text=f"🌐 {LANGUAGE_NAMES[other]}"))
    rows.append(last)
    if quote:
        rows.append([Action(ActionKind.QUOTE, label_key="quote")])
    return rows
