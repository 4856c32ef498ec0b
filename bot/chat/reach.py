"""One log line when a platform's endpoint cannot be reached (FIX2 item 3): what, why, what to check,
when the next try comes. Secrets (tokens, app secrets, proxy passwords) are redacted."""

from __future__ import annotations

from bot.chat.secrets import REDACTOR


def reason(error: BaseException) -> str:
    """``ErrorType: message`` on one line (just the type when the message is empty)."""
    text = "; ".join(part.strip() for part in str(error).splitlines() if part.strip())
    name = type(error).__name__
    return f"{name}: {text}" if text and text != name else name


def unreachable_line(platform: str, url: str, error: BaseException, check: str, delay_s: float) -> str:
    """``<platform>: cannot reach <url>: <reason>; check <check>; retrying in <delay_s> s``."""
    return REDACTOR.redact(
        f"{platform}: cannot reach {url}: {reason(error)}; check {check}; retrying in {delay_s:.0f} s"
    )
