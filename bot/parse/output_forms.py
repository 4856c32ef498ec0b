"""How people write a serving request's output length and its request rate (issue 24, round 3).

- **Output tokens in other words** ("512 output tokens", "512 tokens of output", "max_tokens 512",
  "max_new_tokens 512" (transformers ``generate`` and TGI's request parameter),
  "generating 512 tokens each", "512 new tokens"): written 'output 512 tokens', the form the reply rule of
  :mod:`bot.parse.roles` reads (a serving context is the prompt plus the reply).
- **The people a service is for** ("40 employees", "a team of 15", "a 20-person team", "20 个同事"): its
  users, 'N users'.
- **A request rate with its output length** ("10 requests per second, 512 output tokens each"): the
  output tokens per second the service must produce, rate × output tokens (Little's law applied to
  decode: every request generates its reply; prefill is sized from the prompt). Without an output length
  the rate stays named (``qps_needs_output``).
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.rate_forms import rate_said
from bot.parse.regex import rc
from bot.parse.timed_rate import NOT_PREFILL_ZH, TIME_GATE_RE, timed_rate

_N = r"(\d+(?:,\d{3})*(?:\.\d+)?(?:\s*k(?![a-z]))?)"
"""A length: thousands grouped by commas ('8,192'), a 'k' suffix; never the comma after it ('3072, n=16')."""
_OUT = r"output \1 tokens"
_EACH = (
    r"(?:\s*(?:each|per\s+(?:request|response|query|call|reply|answer)|/\s*req(?:uest)?|a\s+request|apiece))?"
)
"""'each', 'per request' after the length: part of the form (else the per-sample rule reads it first)."""
REPLY_FORMS = (
    (rc(rf"(?<![\w.]){_N}\s*(?:output|generated|completion|new|response|decoded?)\s+tokens?\b{_EACH}"), _OUT),
    (rc(rf"(?<![\w.]){_N}\s*tokens?\s+(?:of\s+)?(?:output|generation|completion|response)\b{_EACH}"), _OUT),
    (rc(rf"\boutputs?\s*[:=]?\s*{_N}\s*tokens?\b{_EACH[:-1]}"), _OUT),  # 'output 256 tokens each' (s18)
    # HF/TGI max_new_tokens; s49-workmiss: 'max_token' as people type it (it was dropped without a word)
    (rc(rf"\bmax[_\s\-]?(?:new[_\s\-]?)?tokens?\s*[=:]?\s*{_N}(?![\d.])"), _OUT),
    (rc(rf"\bgenerat(?:e|es|ing)\s+(?:up\s+to\s+|about\s+|around\s+|~\s*)?{_N}\s*tokens?\b{_EACH}"), _OUT),
    (
        rc(rf"(?<![\w.]){_N}\s*个?\s*(?:输出|生成)\s*(?:的\s*)?(?:tokens?|词元)"),
        _OUT,
    ),  # '500 个输出 token' (s17)
)
"""(pattern, rewrite): the output length of each request, written 'output N tokens'."""
PAIR_FORM = rc(
    rf"(?<![\w.]){_N}\s*(?:prompts?|inputs?)\s*(?:and|with|plus|,|/|\+)\s*{_N}\s*"
    r"(?:outputs?|completions?|responses?|generations?)\b(?!\s*(?:per|each|for\s+each|/\s*prompt))"
)
"""s43 trial q09_en: '4k prompts and 1k outputs' — a prompt length and an output length said with the
request's words for them (the OpenAI API's ``prompt_tokens`` / ``completion_tokens``): written '4k input
tokens and output 1k tokens', the form the input and reply rules read. Never in a training or RL message,
where 'N prompts' and 'N completions' count them (GRPO's 512 prompts, 8 completions per prompt)."""
_TRAINING_RE = rc(r"grpo|ppo|rlhf|dpo|rollout|train|fine[\s\-]?tun|sft|lora|训练|微调")
"""A training or RL job: its prompts and completions are counts, never lengths (:data:`PAIR_FORM`)."""
_GATE = re.compile(
    r"output|generat|new token|completion|response|decode|max_token|max token|max_new|max new"
    r"|\d\s*个?\s*(?:输出|生成)|tokens in |秒生成|秒内生成|秒输出|分钟生成|分钟内生成|分钟输出"
    r"|seconds for |secs for |minutes for |minute for |mins for |min for | s for | s to generate"
)


TOKENS_THEN_TIME_RE = rc(
    r"个\s*(?:tokens?|词元)\s*(?:要|用了?|花了?|需要|耗时)\s*\d+(?:\.\d+)?\s*(?:秒|分钟|毫秒|s\b|ms\b)"
)
"""s43 fixread2: a run's tokens, then its time ('128 个 token 用了 3 秒'): a timed run (:data:`TIMED_FORMS`)
that :data:`_GATE` does not open for (searched only where a time in seconds or minutes is said)."""
TIMED_FORMS = (
    (
        rc(
            rf"(?<!prompt\s)(?<!input\s)(?<!prefill\s)(?<!processed\s)(?<!processing\s)(?<!processes\s)"
            rf"(?<!process\s)(?<!of\s)(?<![\w.]){_N}\s*tokens?\s+in\s+"
            r"(?=\d+(?:\.\d+)?\s*(?:s|secs?|seconds?|ms|milliseconds?)\b"
            r"(?!\s*(?:per|a|an|/|each|every)\s*(?:training\s+)?(?:step|iter|iteration|batch)))"
        ),
        r"output \1 tokens in ",
    ),
    (
        rc(rf"(?:秒|s|分钟)\s*(?:内|之内)?\s*(?:生成|输出)了?\s*{_N}\s*个\s*(?:tokens?|词元)"),
        r"秒 output \1 tokens",
    ),
    (  # s43 fixread2: the tokens first, then the time ('生成 128 个 token 要 3 秒', '128 个 token 用了 3 秒')
        rc(
            rf"{NOT_PREFILL_ZH}(?<![\w.]){_N}\s*个\s*(?:tokens?|词元)\s*(?=(?:要|用了?|花了?|需要|耗时)\s*\d+(?:\.\d+)?\s*"
            r"(?:秒|s\b|分钟|毫秒|ms\b))"
        ),
        r"output \1 tokens ",
    ),
    (  # r39 en: the time first, 'about 2 minutes for 200 tokens', '3 s to generate 128 tokens'
        rc(
            r"(?<![\w.])(\d+(?:\.\d+)?\s*(?:s|secs?|seconds?|mins?|minutes?))\s+(?:for|to\s+(?:generate|produce|get"
            rf"|output))\s+{_N}\s*(?:new\s+|output\s+|generated\s+)?tokens?\b(?!\s*(?:of\s+)?(?:prompt|input|context"
            r"|prefill)|\s*(?:per|a|an|each|every)\s*(?:training\s+)?(?:step|iter|iteration|batch))"
        ),
        r"\1 for output \2 tokens",
    ),
)
"""s42 (issue 24, en36-008): a timed run's tokens, 'N tokens in S seconds' ('1024 tokens in 8.56 seconds,
119.64 tokens/second'), '8.56 秒生成了 1024 个 token': the output length of that run — a prompt's, an
input's, a prefill's or 'processing of N tokens' are none, nor a training step's. Read only when it is the
message's one timed run and no output length is said otherwise (:func:`_timed_run`): several timings are
several runs ('256 tokens in 3.14 s …, 417 tokens in 4.41 s … 128 generated tokens', test_s41_workmiss).
Round 39 en: the time first ('about 2 minutes for 200 tokens'; before, the 200 was dropped in silence)."""
_SAID_OUTPUT_RE = rc(r"output\s+[\d,.]+(?:\s*k)?\s+tokens")
"""An output length already written by :data:`REPLY_FORMS`."""


def _timed_run(s: str) -> str:
    """``s`` with its one timed run's tokens written as the output (:data:`TIMED_FORMS`), else as it was."""
    found = [(pattern, words) for pattern, words in TIMED_FORMS for _ in pattern.finditer(s)]
    if len(found) != 1 or _SAID_OUTPUT_RE.search(s):
        return s
    return found[0][0].sub(found[0][1], s)


def output_forms(s: str) -> str:
    """The normalized text ``s`` with each request's output length written 'output N tokens', and the
    people a service is for written 'N users' (:func:`user_forms`)."""
    s = user_forms(s)
    seconds = s.count("秒") > s.count("每秒")  # a time in seconds, not a rate's '每秒'
    if not _GATE.search(s) and not ((seconds or "分钟" in s) and TOKENS_THEN_TIME_RE.search(s)):
        return s
    for pattern, words in REPLY_FORMS:
        s = _sub(pattern, words, s)
    if ("prompt" in s or "input" in s) and PAIR_FORM.search(s) and not _TRAINING_RE.search(s):
        s = _sub(PAIR_FORM, r"input \1 tokens and output \2 tokens", s)  # as the other forms: 4k = 4,000
    if "tokens in " in s or "生成" in s or "输出" in s or " for " in s or " to " in s or seconds:  # a run
        s = _timed_run(s)
    if (
        "tokens in " in s
        or " for output " in s
        or " to output " in s
        or " to generate " in s
        or " to produce " in s
        or seconds
    ) and (
        TIME_GATE_RE.search(s)
    ):  # s43 fixread2: a timed run's speed too (the gate: the words of bot.parse.timed_rate's forms)
        s = timed_rate(s)
    return s


_PEOPLE = (
    r"employees|colleagues|co-?workers|engineers|developers|devs|staff(?:ers)?|students|members|customers"
    r"|clients|analysts|researchers|agents|seats|testers|doctors|lawyers|teachers|员工|同事|同学|学生|成员|客户|工程师"
)
_ORG = (
    r"(?:team|group|company|org|organi[sz]ation|lab|firm|startup|department|dept|division|office|business)\b"
)
_ORG_ZH = r"(?:公司|团队|部门|企业|单位|机构|小组|组织|集团|工作室)"
"""An organisation, in English and Chinese: its head count ('a 200-person company', '200 人的公司') counts
its users (s33)."""
_ORG_HEAD = r"(?:全|整个)?(?:公司|部门|企业|单位|机构|集团)"
"""An organisation before its head count ('全公司 300 人'); not '团队 4 个人', a team's size
(:data:`bot.parse.schedule_words.TEAM_RE`)."""
_NO_TRAIN = r"(?![^,.;?!]{0,8}?(?:训练|微调|train|fine-?tun))"
"""Not a team that trains ('3 人团队训练 7B': the team, :func:`bot.parse.schedule_words.team_size`)."""
_NUM = r"(\d{1,3}(?:,\d{3})+|\d+)"
"""A count, its thousands commas included, never a comma after it ('a team of 200, how many')."""
USER_FORMS = (
    (rc(rf"(?<![\d.])(\d[\d,]*)\s*(?:个|名|位)?\s*(?:{_PEOPLE})(?![a-z])"), r"\1 users"),
    (rc(rf"\bteam\s+of\s+(?:about\s+|around\s+|~\s*)?{_NUM}(?![\d.])"), r"team of \1 users"),
    (
        rc(rf"(?<![\d.])(\d[\d,]*)[\s\-]*(?:person|people|member|man|employee|staff)[\s\-]+{_ORG}"),
        r"\1 users",
    ),
    (rc(rf"(?<![\d.]){_NUM}\s*(?:个)?\s*人\s*的?\s*{_ORG_ZH}{_NO_TRAIN}"), r"\1 users "),
    (
        rc(
            rf"({_ORG_HEAD}\s*(?:共|一共|总共|大概|大约|约|有|是|:)*\s*){_NUM}\s*(?:个)?\s*人(?![工民数次]){_NO_TRAIN}"
        ),
        r"\1\2 users",
    ),
)
"""The people a service is for ('40 employees', 'a team of 15', 'a 20-person team', '20 个同事'; s33: 'a
200-person company', '200 人的公司', '全公司 300 人'): its users, written 'N users' (the concurrency rule
reads them as the load, as it reads '40 users')."""
USER_GATE = re.compile(
    "team|employee|colleague|worker|engineer|developer|devs|staff|student|member|customer|client|analyst"
    "|researcher|agent|seat|tester|doctor|lawyer|teacher|员工|同事|同学|学生|成员|客户|工程师"
    "|person|people|公司|团队|部门|企业|单位|机构|小组|组织|集团|工作室"
)


def user_forms(s: str) -> str:
    """The normalized text ``s`` with the people a service is for written 'N users'."""
    if not USER_GATE.search(s):
        return s
    for pattern, words in USER_FORMS:
        s = _sub(pattern, words, s)
    return s


_RATE_RE = re.compile(r"\d+(?:\.\d+)?")


def rate_times_output(named: list[tuple[str, str]], reply: float | None, fields: dict[str, Any]) -> None:
    """When a request rate was named for want of an output length (``qps_needs_output``) and the
    message gives the output tokens per request (``reply``), set ``target_tokens_per_s`` = rate × reply
    and drop the naming; otherwise leave both as they are."""
    if not reply or fields.get("target_tokens_per_s") is not None:
        return
    for item in named:
        if item[1] == "qps_needs_output" and (m := _RATE_RE.search(item[0])):
            fields["target_tokens_per_s"] = float(m.group()) * reply
            fields["qps"] = float(m.group())  # the rate: its load by Little's law (estimator.rate_load)
            named.remove(item)
            named.append((rate_said(float(m.group()), reply), "rate_times_output"))  # s17: used, and said so
            return


def _sub(pattern: Any, repl: str, s: str) -> str:
    """``pattern.sub(repl, s)`` only when ``pattern`` matches: a template's parse is a few Python calls, and
    most messages have none of these forms."""
    return pattern.sub(repl, s) if pattern.search(s) else s
