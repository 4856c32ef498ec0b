"""Python pasted from a training script: ``TrainingArguments(...)``, TRL's ``SFTConfig`` / ``DPOConfig``
/ ``GRPOConfig(...)``, PEFT's ``LoraConfig(r=…, target_modules=[…])`` and ``BitsAndBytesConfig(
load_in_4bit=True)``. Keyword arguments with literal values are read (Python's own parser, no
evaluation); a sizing keyword whose value is a variable or an expression is named as not read
(bad_value)."""

from __future__ import annotations

import ast
import re
from typing import Any

from bot.parse.configs.model import StackConfig
from bot.parse.configs.training import HANDLERS, NO_FIELD_KEYS, read_training
from bot.parse.regex import compile_pattern

CALL_RE = compile_pattern(
    r"\b(TrainingArguments|Seq2SeqTrainingArguments|SFTConfig|DPOConfig|GRPOConfig|KTOConfig|ORPOConfig|"
    r"RewardConfig|LoraConfig|BitsAndBytesConfig)\s*\("
)
"""The constructors read (transformers, TRL, PEFT, bitsandbytes through transformers)."""
LORA_KEYS = {"r": "lora_r", "target_modules": "lora_target_modules", "lora_alpha": "lora_alpha"}
"""PEFT LoraConfig keywords → the TRL ModelConfig names the reader knows; other LoraConfig keywords
(lora_dropout, bias, task_type) do not change the sizing."""
PEFT_ONLY = frozenset({"LoraConfig", "BitsAndBytesConfig"})
"""Constructors of PEFT and of the 4-bit load: pasted without a trainer's config (``TrainingArguments``, TRL's
``SFTConfig`` …), the tool is PEFT (round 35 en: 'LoraConfig(r=16, …)' was named TRL)."""
ELLIPSIS_RE = compile_pattern(r"(^|[(,\s])\.\.\.[ \t]*(,|(?=\))|$)", re.M)


def _call_args(text: str, open_paren: int) -> tuple[str, int] | None:
    """The text between ``(`` at ``open_paren`` and its closing ``)`` (strings and comments skipped)."""
    depth, i, quote = 0, open_paren, ""
    while i < len(text):
        ch = text[i]
        if quote:
            quote = "" if ch == quote and text[i - 1] != "\\" else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            nl = text.find("\n", i)
            i = len(text) if nl < 0 else nl
            continue
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return text[open_paren + 1 : i], i + 1
        i += 1
    return None


def _keywords(args: str) -> dict[str, Any] | None:
    """Keyword → literal value, or the unparsed expression as ``_Expr`` when it is not a literal."""
    args = ELLIPSIS_RE.sub(r"\1", args)  # "SFTConfig(..., bf16=True)" as the docs write it
    try:
        call = ast.parse(f"f({args})", mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(call, ast.Call):
        return None
    out: dict[str, Any] = {}
    for kw in call.keywords:
        if kw.arg is None:
            continue
        try:
            out[kw.arg] = ast.literal_eval(kw.value)
        except (ValueError, TypeError, SyntaxError, RecursionError):
            out[kw.arg] = _Expr(ast.unparse(kw.value))
    return out


class _Expr(str):
    """A keyword value that is not a literal (a variable, a call): shown, never used."""


def find_python_config(text: str, source: str) -> tuple[StackConfig, str] | None:
    """Every recognised constructor call in ``text``, read into one :class:`StackConfig` (tool 'trl':
    TrainingArguments and TRL's configs share one table), and the text without those calls."""
    flat: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    spans: list[tuple[int, int]] = []
    calls: list[str] = []
    for m in CALL_RE.finditer(text):
        found = _call_args(text, m.end() - 1)
        kwargs = _keywords(found[0]) if found else None
        if found is None or kwargs is None:
            continue
        spans.append((m.start(), found[1]))
        calls.append(m.group(1))
        if m.group(1) == "LoraConfig":
            flat["use_peft"] = True
            for key, value in kwargs.items():
                (
                    flat.__setitem__(LORA_KEYS[key], value)
                    if key in LORA_KEYS
                    else extra.__setitem__(key, value)
                )
        else:
            flat.update(kwargs)
    if not spans:
        return None
    tool = "trl" if set(calls) - PEFT_ONLY else "peft"  # r35 en: a LoraConfig alone is PEFT's, not TRL's
    cfg = StackConfig(tool=tool, tools=[tool], format="python", source=source)
    exprs = {k: v for k, v in flat.items() if isinstance(v, _Expr)}
    read_training({k: v for k, v in flat.items() if k not in exprs}, "trl", cfg)
    for key, value in exprs.items():
        sizing = key in HANDLERS or key in NO_FIELD_KEYS
        from bot.parse.configs.vocab import known

        cfg.skip(key, value, "bad_value" if sizing else "not_sized" if known("trl", key) else "unknown_key")
    for key, value in extra.items():
        cfg.skip(f"LoraConfig.{key}", value, "not_sized")
    rest = text
    for start, end in reversed(spans):
        rest = rest[:start] + " " + rest[end:]
    return cfg, rest.strip()
