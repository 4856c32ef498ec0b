"""The web page's own words (the answers' words live in templates/): msgids translated through the
Babel catalogs in locales/ like every other user-visible text, numbers formatted for the page's
language by :mod:`bot.render.fmt` (CLDR, as in the replies)."""

from __future__ import annotations

from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translations

WORDS: dict[str, str] = {
    "title": N_("LLM compute sizing"),
    "tagline": N_("How many GPUs, how long and how much to train, fine-tune or serve a model"),
    "ask": N_("Ask"),
    "placeholder": N_("e.g. fine-tune Llama-3.1-8B with LoRA"),
    "examples": N_("Example questions"),
    "details": N_("Details, assumptions and sources"),
    "chart": N_("Chart"),
    "actions": N_("Try another"),
    "followup": N_("Follow-up question"),
    "followup_hint": N_("e.g. what about H100?"),
    "conversation": N_("This conversation"),
    "recipes": N_("⚙️ Launch recipes"),
    "quote": N_("🧾 Download quote (PDF)"),
    "share": N_("Link to this answer"),
    "new": N_("New question"),
    "api": N_("API docs"),
    "too_many": N_("Too many requests: please try again in %(seconds)s s."),
    "error": N_("Something went wrong: %(message)s"),
    "not_found": N_("There is no such page."),
    # follow-ups the action links ask (the parser reads them as follow-ups of the previous question)
    "ask_gpu": N_("What about %(gpu)s?"),
    "ask_lora": N_("With LoRA?"),
    "ask_qlora": N_("With QLoRA?"),
    "ask_full": N_("Full fine-tuning?"),
    "ask_inference": N_("For inference?"),
    "ask_finetune": N_("Fine-tune it?"),
}
"""The page's words by key: English msgids, translated at use (locales/*/LC_MESSAGES/messages.po)."""

EXAMPLES: tuple[str, ...] = (
    "7B模型1万亿token要多少A100",
    "Qwen2.5-72B 推理部署，200 并发，8K 上下文，要多少卡？",
    "一张4090能跑多大的模型",
    "How long to pretrain a 70B model on 2T tokens with 1024 H100s?",
    "QLoRA Llama-3.1-8B on one RTX 4090",
    "full fine-tune Qwen2.5-14B on 8 A100",
)
"""Examples on the empty page: the README's questions, in both languages."""


def answer_lang(result: object) -> str:
    """The page language of an answer's words: 'zh-Hant' for a reply in Traditional (s38 fixm #4)."""
    lang = str(getattr(result, "lang", "en"))
    return "zh-Hant" if lang == "zh" and getattr(result, "script", "Hans") == "Hant" else lang


def word(lang: str, key: str, **values: object) -> str:
    """The page's word ``key`` in ``lang`` (zh, zh-Hant: in Traditional, s38 fixm #4, or en), with ``values``
    filled in: numbers formatted for ``lang`` by :class:`bot.render.fmt.Fmt` (grouped integers, CLDR
    decimals), texts as given."""
    if lang == "zh-Hant":
        from bot.render.hant import to_hant  # a Traditional page only: start-up

        return to_hant(word("zh", key, **values))
    lang = "zh" if lang == "zh" else "en"
    text = translations(lang).gettext(WORDS[key])  # not translate(): its 'message' is a parameter here
    return text % {k: _shown(lang, v) for k, v in values.items()}


def _shown(lang: str, value: object) -> object:
    """A number as the replies print it in ``lang`` (``1,234`` / ``2.5``); anything else unchanged."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    f = fmt_for(lang)
    return f.int(value) if isinstance(value, int) else f.num(value)
