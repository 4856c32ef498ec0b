"""A setup said to work is the comparison, not the one asked about (issue 24, round 4): 'I run TGI … and
get "Not enough memory" … vLLM works fine without errors' asks about TGI. When no asking sentence names
one engine (:func:`bot.parse.engines_named._asked`), the engines named in a sentence that says it works
('works fine', 'runs without errors', 'has no problem', '没问题', '能正常跑') are set aside, and the one
left is sized; the others are still named as another setup."""

from __future__ import annotations

from collections.abc import Callable

from bot.parse.regex import rc

WORKS_RE = rc(
    r"\b(?:works?|worked|working|runs?|ran|running|is|was|goes|went)\s+(?:just\s+)?(?:fine|well|ok|okay|perfectly"
    r"|smoothly|great|without\s+(?:any\s+)?(?:errors?|issues?|problems?|oom))\b"
    r"|\bno\s+(?:problems?|issues?|errors?)\s+(?:with|on|in)\b|\bhas\s+no\s+(?:problems?|issues?)\b"
    r"|没问题|没有问题|(?:可以|能)\s*正常\s*(?:跑|运行|启动|使用)|跑得很?(?:好|顺)|正常运行"
    r"|(?:一切|都|很)?正常(?![吗么不否])|(?:可以|能)\s*跑(?:起来|通)?(?![吗么不否多几\w\s]*[吗么?？])(?!多|几)"
)
"""Words that say a setup works."""


_CLAUSE_RE = rc(
    r"(?:[^,，。;；!！?？\n.]|\.(?!\s|$))+?"
    r"(?=[,，。;；!！?？\n]|\.(?:\s|$)|但是?|而|\bbut\b|\bwhile\b|\bwhereas\b|\bhowever\b|$)"
)
"""A clause: up to a punctuation mark or a contrast word ('vLLM 没问题但 TGI 老是 OOM', 'vLLM works fine but
TGI keeps OOMing': the works word belongs to the engine before it in its clause only)."""
DEPLOYED_WITH_RE = rc(
    r"(?:\b(?:serv(?:e|es|ed|ing)|deploy(?:s|ed|ing)?|run(?:s|ning)?|host(?:s|ed|ing)?)\b[^,，。;；!！?？\n]{0,40}?"
    r"\b(?:with|using|via|on|through)|用|使用|基于|通过|拿)\s*$"
)
"""Words right before the engine the user deploys with ('serving with lmdeploy', '用 TGI 部署')."""


def _working(s: str, found: list[tuple[int, str]], named_in: Callable[[str, str], bool]) -> set[str]:
    """The engines named in a clause that says it works, before the works word."""
    return {
        name
        for m in _CLAUSE_RE.finditer(s)
        if (w := WORKS_RE.search(m.group(0)))
        for _, name in found
        if named_in(m.group(0)[: w.start()], name)
    }


def engine_not_said_to_work(
    s: str, found: list[tuple[int, str]], named_in: Callable[[str, str], bool]
) -> str | None:
    """The one engine of ``found`` ((position, name) in the normalized text ``s``) not said to work, when
    the others are ('用 TGI 部署…，vLLM 没问题但 TGI 老是 OOM': TGI); of several left, the one the user
    deploys with ('serving with lmdeploy …, vLLM works fine but TGI keeps OOMing': lmdeploy); else None."""
    if not WORKS_RE.search(s):
        return None
    working = _working(s, found, named_in)
    left = {name for _, name in found} - working
    if working and len(left) > 1:
        left = {n for pos, n in found if n in left and DEPLOYED_WITH_RE.search(s[max(0, pos - 60) : pos])}
    return left.pop() if working and len(left) == 1 else None
