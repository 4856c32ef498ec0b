"""The answer as a DingTalk message: Markdown (headline, key figures, contact line, details) and, when
the web page's public URL is set (``SIZING_BOT_WEB_PUBLIC_URL``), an ``actionCard`` whose buttons are
LINKS to that page with the question and the action prefilled.

DingTalk robot messages (open.dingtalk.com, "机器人发送消息的类型"): ``markdown {title, text}`` and
``actionCard {title, text, btnOrientation, btns: [{title, actionURL}]}``; the Markdown subset has
headings, bold, links, images, lists and quotes (no tables, no folding), so the details follow a rule
instead of a collapsed panel. ``title`` is what the chat list and the notification show.

Buttons are the core's actions (:mod:`bot.core.actions`), translated only: a GPU, method or stage
switch opens the page asking the follow-up question the page itself offers
(:func:`bot.web.actions.followup`, with the asked question as ``prev``); 📊 opens the chart PNG,
⚙️ the recipes, 🧾 the quote PDF, 🌐 the answer in the other language; the details toggle has no
meaning in a message that shows everything, so it has no button. DingTalk cannot call a robot back
from an ``actionCard`` (callback cards need a card template made in DingTalk's console).
"""

from __future__ import annotations

import contextlib
import json
import re
from collections import OrderedDict
from typing import Any
from urllib.parse import urlencode

from bot.chat.adapter import Outbound
from bot.core.actions import Action, ActionKind
from bot.web.state import Asked

TEXT_MAX = 5000
"""Characters of Markdown kept in one message (DingTalk truncates longer robot messages)."""
TITLE_MAX = 60
MAX_ASKED = 2000
SHARED_ASKED_TTL_S = 24 * 3600.0
"""Seconds a user's last question is kept in a shared store (replicas); longer than the follow-up
memory (30 min), which decides whether a question follows it."""
PATHS = {ActionKind.CHART: "/chart.png", ActionKind.RECIPE: "/recipes", ActionKind.QUOTE: "/quote.pdf"}
_MARKUP = re.compile(r"[*_`#>\[\]]")


def parts_of(text: str) -> dict[str, str]:
    """The parts the seam's renderer made (:func:`bot.feishu.card.card_text`: ``h``, ``f``, ``d``, ``c``);
    plain text (a refusal) is all key figures."""
    try:
        parts = json.loads(text)
    except ValueError:
        parts = None
    if not isinstance(parts, dict):
        return {"h": "", "f": text, "d": ""}
    return {k: str(v) for k, v in parts.items()}


def _unescape(line: str) -> str:
    """``line`` with the escapes DingTalk does not need dropped (:func:`bot.render.md_subset.bare_here`):
    the subset (open.dingtalk.com, "机器人发送消息的类型", markdown: headings, quote, bold/italic, link,
    image, lists, the two-space line break) has no tables (``|``) and no strikethrough (``~``), and
    documents no backslash escape, so one kept shows its backslash: the s25 trial copied
    ``rope\\_scaling`` out of a command."""
    from bot.render.md_subset import unescape_line

    return unescape_line(line, "|~")


def dingtalk_markdown(text: str) -> str:
    """The Markdown dialect's text in DingTalk's subset: a hard break (``\\`` at a line's end) becomes
    two spaces (DingTalk's documented line break), a fenced block's lines become lines with breaks
    (DingTalk shows fences as text), and an escape DingTalk does not need loses its backslash
    (:func:`_unescape`; nothing inside a code span or a fenced block). The line before a fence (a heading
    such as '卡数 → 小时（区间）：') ends with the break too: DingTalk joins lines at a single newline, so
    without it the first row ran on after the heading (trial s38 fixm #3)."""
    lines: list[str] = []
    fenced = False
    for line in text.split("\n"):
        if line.startswith("```"):
            if not fenced and lines and lines[-1].strip() and not lines[-1].endswith("  "):
                lines[-1] += "  "  # the heading's own line: a fence's rows start below it
            fenced = not fenced
            continue
        if line.endswith("\\"):
            line = line[:-1] + "  "
        elif fenced:
            line = line + "  "
        lines.append(line if fenced else _unescape(line))
    return "\n".join(lines)


def markdown_of(out: Outbound) -> tuple[str, str]:
    """(title, Markdown text) of a reply: the headline as a heading, the key figures, the contact line,
    then the details under a rule; cut at :data:`TEXT_MAX` characters."""
    parts = parts_of(out.text)
    head, figures, details, contact = (parts.get(k, "").strip() for k in ("h", "f", "d", "c"))
    blocks = [f"### {head}" if head else "", figures, contact, f"---\n\n{details}" if details else ""]
    text = dingtalk_markdown("\n\n".join(b for b in blocks if b))
    if len(text) > TEXT_MAX:
        text = text[: TEXT_MAX - 1].rstrip() + "…"
    title = plain_title(head or figures.split("\n", 1)[0]).strip() or "sizing"
    return short_title(title), text


_ESCAPED = re.compile(r"(\\.)")


def plain_title(markdown: str) -> str:
    """``markdown`` with its markup characters dropped and its escaped ones kept as typed: 'Q8\\_0' is 'Q8_0'
    in the chat list, not 'Q8\\0' (s45 trial: the headline's escaped underscore lost its underscore)."""
    parts = _ESCAPED.split(markdown)
    return "".join(p[1] if p.startswith("\\") and len(p) == 2 else _MARKUP.sub("", p) for p in parts)


_JOINERS = frozenset(
    {"×", "x", "on", "of", "for", "with", "at", "in", "to", "and", "or", "a", "the", "—", "-"}
)
"""Words a cut title must not end with ('… does not fit on 1 ×'): they belong to the name after them."""


def short_title(title: str) -> str:
    """``title`` within :data:`TITLE_MAX` characters, never cut inside a word or a card's name (trial s18
    #5: '… does not fit on 1 × RTX'): without its brackets, or its first clause, when that fits; else whole
    words with '…', the joining words and counts before a name dropped; a clause with no spaces (Chinese)
    cut with '…'."""
    if len(title) <= TITLE_MAX:
        return title
    bare = re.sub(r"\s*(?:（[^（）]*）|\([^()]*\))", "", title)  # '全参微调（LLaMA-Factory：…）：8 张 …'
    if len(bare) <= TITLE_MAX:
        return bare
    clause = re.split(r"[:：;；,，]", bare, maxsplit=1)[0].strip()
    if 0 < len(clause) <= TITLE_MAX:
        return clause
    words, kept = clause.split(" "), []
    for word in words:
        if len(" ".join([*kept, word])) > TITLE_MAX - 1:
            break
        kept.append(word)
    while kept and (kept[-1].lower() in _JOINERS or kept[-1].isdigit()):
        kept.pop()
    return (" ".join(kept) if len(kept) > 1 else clause[: TITLE_MAX - 1]).rstrip() + "…"


class WebLinks:
    """Link buttons to the page at ``public_url`` ("" = no buttons). ``remember`` keeps, per turn, the
    question and the earlier ones of the chat (the page rebuilds the conversation from the URL)."""

    def __init__(self, public_url: str, shared: Any = None) -> None:
        self.base = public_url.strip().rstrip("/")
        self._asked: OrderedDict[str, Asked] = OrderedDict()
        self._last: OrderedDict[tuple[str, str], Asked] = OrderedDict()
        self.shared = shared
        """replicas: the store (:mod:`bot.store`) that keeps each user's last question too"""

    def remember(self, turn_id: str, chat_id: str, user_id: str, question: str, followup: bool) -> None:
        """Note what ``turn_id`` answered; a follow-up carries the user's earlier questions as ``prev``."""
        last = self._last.get((chat_id, user_id)) or self._shared_last(chat_id, user_id)
        asked = Asked(q=question, prev=last.chain(question) if followup and last else ())
        self._share_last(chat_id, user_id, asked)
        for memo, key in ((self._asked, turn_id), (self._last, (chat_id, user_id))):
            memo[key] = asked  # type: ignore[index]
            memo.move_to_end(key)  # type: ignore[arg-type]
            while len(memo) > MAX_ASKED:
                memo.popitem(last=False)

    def _shared_last(self, chat_id: str, user_id: str) -> Asked | None:
        """The user's last question as another replica noted it (None without a store or on an error)."""
        if self.shared is None:
            return None
        try:
            raw = self.shared.get_context(f"dingtalk:asked:{chat_id}:{user_id}")
            data = json.loads(raw) if raw else None
            return Asked(q=str(data["q"]), prev=tuple(map(str, data["prev"]))) if data else None
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _share_last(self, chat_id: str, user_id: str, asked: Asked) -> None:
        if self.shared is None:
            return
        value = json.dumps({"q": asked.q, "prev": list(asked.prev)}, ensure_ascii=False)
        with contextlib.suppress(OSError):  # on an error, this replica's own links still carry the chain
            self.shared.put_context(f"dingtalk:asked:{chat_id}:{user_id}", value, SHARED_ASKED_TTL_S)

    def buttons(self, out: Outbound) -> list[dict[str, str]]:
        """``[{title, actionURL}]`` for the reply's actions (none without a public URL or a question)."""
        asked = self._asked.get(out.turn_id)
        if not self.base or asked is None:
            return []
        found = [self._button(action, asked, out.lang) for row in out.actions for action in row]
        return [b for b in found if b is not None]

    def _button(self, action: Action, asked: Asked, lang: str) -> dict[str, str] | None:
        from bot.web.actions import followup

        label = action.label(lang)
        if action.kind in (ActionKind.GPU, ActionKind.METHOD, ActionKind.STAGE):
            asks = followup(action, lang)
            if asks is None:
                return None
            q = asks[1]
            return {"title": label, "actionURL": self.url("/", Asked(q=q, prev=asked.chain(q)), lang)}
        if action.kind in PATHS:
            return {"title": label, "actionURL": self.url(PATHS[action.kind], asked, lang)}
        if action.kind is ActionKind.LANG and action.arg in ("zh", "en"):
            return {"title": label, "actionURL": self.url("/", asked, action.arg)}
        return None  # the details toggle: the message shows everything

    def url(self, path: str, asked: Asked, lang: str) -> str:
        """``base + path`` with the conversation in the query, as the page reads it (q, prev…, lang)."""
        pairs = [("q", asked.q), *(("prev", p) for p in asked.prev), ("lang", lang)]
        return f"{self.base}{path}?{urlencode(pairs)}"


def message_of(out: Outbound, buttons: list[dict[str, str]]) -> dict[str, Any]:
    """The session-webhook body: an ``actionCard`` with link buttons, or ``markdown`` without any."""
    title, text = markdown_of(out)
    if not buttons:
        return {"msgtype": "markdown", "markdown": {"title": title, "text": text}}
    card = {"title": title, "text": text, "btnOrientation": "0", "btns": buttons}
    return {"msgtype": "actionCard", "actionCard": card}


def openapi_markdown(out: Outbound, buttons: list[dict[str, str]]) -> dict[str, str]:
    """``sampleMarkdown``'s param for the OpenAPI: the buttons become Markdown links under the text."""
    title, text = markdown_of(out)
    links = " · ".join(f"[{b['title']}]({b['actionURL']})" for b in buttons)
    return {"title": title, "text": f"{text}\n\n{links}" if links else text}
