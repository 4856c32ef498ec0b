"""Launch recipes: the plan an answer recommends, as configurations and commands people can run.

``build_recipes(report, lang)`` → ``[Recipe(tool, title, filename, language, text)]``: a DeepSpeed
config and its launcher, Megatron-LM arguments, a LLaMA-Factory YAML or a torchtune command for
training; ``vllm serve`` and SGLang, or llama.cpp and Ollama on a personal machine, for serving.
Pure functions of the report (its plan or serving layout, its request with defaults filled in);
every flag and key is one the pinned tool version has (``bot/recipes/flags/``, :mod:`.flags`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.lazylog import lazy_logger
from estimator.models import Stage

if TYPE_CHECKING:
    from collections.abc import Iterable

    from bot.recipes.model import SERVING_TOOLS, TOOLS, TRAINING_TOOLS, Job, Recipe, chosen_plan
    from estimator.models import Plan, SizingReport

log = lazy_logger(__name__)

_FROM_MODEL = frozenset(
    ("SERVING_TOOLS", "TOOLS", "TRAINING_TOOLS", "Job", "Recipe", "chosen_plan", "job_for")
)
"""Names of :mod:`bot.recipes.model`, imported on first use: a plain ``ask`` imports this package only
for the flag tables and references (:mod:`.flags`, :mod:`.refs`) and builds no recipe (start-up,
bench/RESULTS.md session 18)."""


def __getattr__(name: str) -> Any:
    """The names of :mod:`bot.recipes.model` (``from bot.recipes import Recipe`` works as before)."""
    if name in _FROM_MODEL:
        from bot.recipes import model

        return getattr(model, name)
    raise AttributeError(f"module 'bot.recipes' has no attribute {name!r}")


__all__ = [
    "SERVING_TOOLS",
    "TOOLS",
    "TRAINING_TOOLS",
    "Job",
    "Recipe",
    "build_recipes",
    "chosen_plan",
    "has_recipes",
    "matching",
]


def build_recipes(
    report: SizingReport | None, lang: str = "en", known_plan: tuple[Plan | None] | None = None
) -> list[Recipe]:
    """Every recipe for one answer (empty when nothing was sized, or nothing fits). Never raises: a
    report shape no builder foresaw gives no recipes, logged. ``known_plan``: ``(answer.chosen_plan,)``
    where an :class:`bot.core.answer.Answer` is at hand (its layout is then not chosen again)."""
    if report is None:
        return []
    from bot.recipes.model import job_for

    try:
        job = job_for(report, lang, known_plan)
        if report.request.stage == Stage.inference or report.inference is not None:
            from bot.recipes.serving import serving_recipes

            return serving_recipes(job)
        from bot.recipes.flags import flag_data
        from bot.recipes.training import training_recipes

        return training_recipes(job, flag_data("torchtune")["recipes"])
    except Exception:
        log.exception("cannot build recipes for %r", report.request)
        return []


def has_recipes(report: SizingReport | None, known_plan: tuple[Plan | None] | None = None) -> bool:
    """Whether the answer has something to launch: a serving layout, or a training plan that fits.
    ``known_plan``: ``(answer.chosen_plan,)`` where the answer is at hand (see :func:`build_recipes`)."""
    if report is None:
        return False
    if report.inference is not None:
        return True
    if report.request.stage == Stage.inference:
        return False
    from bot.recipes.model import chosen_plan

    return (known_plan[0] if known_plan is not None else chosen_plan(report)) is not None


def matching(recipes: list[Recipe], tools: Iterable[str] | None) -> list[Recipe]:
    """The recipes for the tools asked for ("给我DeepSpeed配置" → the DeepSpeed config and its launcher);
    all of them when none was named or none matches."""
    wanted = set(tools or ())
    if "deepspeed" in wanted:
        wanted.add("torchrun")  # the launcher of a multi-node DeepSpeed job
    picked = [r for r in recipes if r.tool in wanted]
    return picked or recipes
