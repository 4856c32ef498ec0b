"""The cues that gate three readers of a stated length (s50-startup): searched in every message by
:mod:`bot.parse.more_roles`, while the readers themselves (:mod:`bot.parse.long_context`,
:mod:`bot.parse.doc_length`, :mod:`bot.parse.too_long`) are imported on their first call (a plain question
never reaches them: ~0.2M instructions each of every start, issue 23 item 7)."""

from __future__ import annotations

import re

DOC_EN = (
    r"(?:documents?|docs?|notes?|articles?|texts?|files?|transcripts?|papers?|reports?|contracts?|pdfs?"
    r"|emails?|books?|chapters?|essays?|manuscripts?|codebases?|passages?|contexts?\s+documents?)"
)
DOC_ZH = r"(?:文档|文章|文本|长文|报告|论文|合同|笔记|小说|书|章节|材料|资料|输入|邮件|代码库)"

LONG_GATE_RE = re.compile(
    r"long[\s\-]*(?:context|sequence|ctx|text|document)s?|长上下文|长文本|长序列|超长上下文|长文档|长窗口"
)
"""The long-context words, searched once before the pattern (a plain compiled pattern: its search is C)."""
DOC_GATE_RE = re.compile(DOC_EN + "|" + DOC_ZH)
"""The document words, searched once before the patterns (a plain compiled pattern: its search is C)."""
TOO_LONG_GATE_RE = re.compile(r">|requested|prompt\s*\(|(?:请求|输入|传入|发送)(?:了|的?\s*(?:长度|token))")
"""The cue searched once before the patterns (a plain compiled pattern: its search is C)."""
