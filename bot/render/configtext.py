"""Why a config.json cannot be sized, in the reply's language: one friendly paragraph per error code
(:class:`bot.core.configfile.ConfigInfo`), the fields concerned as typed, and what to do instead."""

from __future__ import annotations

from bot.core.configfile import ConfigInfo
from bot.render.dialect import Dialect, Format, dialect_for
from bot.render.i18n import N_, translate

ERROR_TEXTS: dict[str, str] = {
    "cannot_read": N_("I could not open that config file (%(fields)s)."),
    "too_large": N_(
        "That file is too large for a config.json (%(fields)s): a model's config.json is a few kilobytes. "
        "Send the config.json from the model's folder or its Hugging Face page."
    ),
    "not_json": N_(
        "I could not read that as JSON. Send the model's config.json as it is, as a file or pasted text."
    ),
    "not_config_yaml": N_(
        "That YAML is not a config I can read (its keys: %(fields)s): I read LLaMA-Factory, axolotl, "
        "TRL, torchtune and verl YAML files. Write its settings into the question instead, e.g. "
        "“lora_rank 16, cutoff_len 4096”."
    ),
    "yaml_aliases": N_(
        "I refused that YAML file: its %(aliases)s aliases would expand it to about %(nodes)s values, far "
        "more than any training or serving config holds. Send the config with its values written out."
    ),
    "too_deep": N_(
        "That JSON is nested too deeply to read (a model's config.json is two or three levels deep). "
        "Send the config.json from the model's folder or its Hugging Face page."
    ),
    "not_object": N_(
        "That JSON is not a model config: a config.json is one object such as "
        '{"model_type": …, "hidden_size": …}.'
    ),
    "unsupported": N_(
        "I can't size “%(model_type)s” models from their config: I read decoder-only transformers "
        "(Llama, Qwen, Mistral/Mixtral, DeepSeek, Gemma, ChatGLM, Phi, GPT-NeoX, Falcon and their kin)."
    ),
    "unsupported_fields": N_(
        "I can't size this model from its config: a decoder-only transformer's config has %(fields)s, and "
        "this one does not."
    ),
    "unsupported_missing": N_("Fields such a config has and this one lacks: %(fields)s."),
    "unsupported_layout": N_(
        "This %(model_type)s config has a mixture of experts (%(fields)s) in a family I only know as dense, "
        "so I won't guess its size."
    ),
    "missing_fields": N_("This config.json lacks fields its size depends on: %(fields)s."),
    "bad_values": N_("Some values in this config.json are not possible for a real model: %(fields)s."),
}
"""Error codes → a sentence (``fields`` joined, ``model_type`` as given)."""

INSTEAD = N_("You can also ask with the model's name or size, e.g. “serve Qwen2.5-7B on two 4090s”.")


def config_error_text(info: ConfigInfo, lang: str, fmt: Format | Dialect = "html") -> str:
    """The reply to a config.json that cannot be used."""
    code = info.error or "not_json"
    if code == "unsupported" and not info.model_type:
        code = "unsupported_fields"
    fields = ", ".join(info.fields[:8]) + (" …" if len(info.fields) > 8 else "")
    model_type = info.model_type or "?"
    dialect = dialect_for(fmt)
    if dialect.autoescape:
        fields = ", ".join(dialect.code_text(f) for f in info.fields[:8])
        fields += " …" if len(info.fields) > 8 else ""
        model_type = dialect.escape_text(model_type)
    msgid = ERROR_TEXTS.get(code, ERROR_TEXTS["not_json"])
    counts = [f"{int(f):,}" for f in info.fields if f.isdigit()] if code == "yaml_aliases" else []
    aliases, nodes = [*counts, "?", "?"][:2]
    message = translate(lang, msgid, fields=fields, model_type=model_type, aliases=aliases, nodes=nodes)
    if code == "unsupported" and info.fields:
        message += ("" if lang == "zh" else " ") + translate(
            lang, ERROR_TEXTS["unsupported_missing"], fields=fields
        )
    return message + "\n\n" + translate(lang, INSTEAD)
