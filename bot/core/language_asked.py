"""A message that only asks for the answer in another language (s39 fixc item 5, trial s39): 'English
please', 'in English please?', 'answer in English', '用英文回答', '请用中文', 'in Chinese'. With an answer
before in the chat it is that answer again in the language asked (as the 🌐 button gives it,
:meth:`bot.core.conversation.Conversation.variant`), never the help text.

Only a short message that is nothing but the request is read (a question that mentions English —
'serve Qwen for English and Chinese users', '训练一个英文模型' — is a question). A language the bot does
not answer in ('auf Deutsch?', 'in French') is left to the help, which is in the question's language.
"""

from __future__ import annotations

import re

MAX_CHARS = 40
"""Longer messages are questions, not a request for a language."""
_POLITE = r"(?:please|pls|plz|thanks?|thank\s+you|again|now|instead)"
_EN = re.compile(
    rf"(?:{_POLITE}\s*,?\s*)?(?:(?:can|could|would)\s+you\s+)?(?:(?:answer|reply|respond|write|say\s+(?:it|that)|"
    rf"explain|repeat|translate|tell\s+me)(?:\s+(?:it|that|this))?\s+)?(?:in\s+|to\s+)?(?P<lang>english|chinese)"
    rf"(?:\s*,?\s*{_POLITE})*\s*[?!.]*",
    re.I,
)
_ZH = re.compile(
    r"(?:请|麻烦)?(?:用|换成|改用|换)?(?P<lang>英文|英语|中文|汉语)(?:回答|回复|说|写|版|显示)?(?:一下|吧|一遍)?[吗呢吧。！？?!.]*"
)
_LANG = {"english": "en", "chinese": "zh", "英文": "en", "英语": "en", "中文": "zh", "汉语": "zh"}


def asked_language(text: str) -> str | None:
    """'en' or 'zh' when ``text`` only asks for the answer in that language, else None."""
    s = text.strip()
    if not s or len(s) > MAX_CHARS:
        return None
    m = _EN.fullmatch(s) or _ZH.fullmatch(s)
    return _LANG[m.group("lang").lower()] if m else None
