"""The wording of a config value read as the closest one its tool takes (s39 fixc, issue 24 item 1:
'finetuning_type: lroa' → "not understood: did you mean lora? …"), from
:func:`bot.parse.configs.close_values.suggestion`."""

from __future__ import annotations

from bot.parse.configs.close_values import suggestion
from bot.render.i18n import N_, translate

CLOSE_VALUE = N_("not understood: did you mean %(value)s? This setting takes %(values)s; sized as %(value)s")
CLOSE_VALUE_PLAIN = N_("not understood: not a value this setting takes, read as the closest one it takes")
"""The same without the value (an item whose text no longer names its key and value)."""


def close_value_text(text: str, lang: str) -> str:
    """Why ``text`` ('finetuning_type: lroa') was read as another value, naming it and the tool's list."""
    near = suggestion(text)
    if near is None:
        return translate(lang, CLOSE_VALUE_PLAIN)
    return translate(lang, CLOSE_VALUE, value=near[0], values=near[1])
