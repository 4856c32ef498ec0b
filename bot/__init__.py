"""The conversational side: parse a question, answer it, render the reply, talk to Telegram."""

import gc
import sys

# The start-up aids below load long-lived tables (the stored regex and dataclass code, the schema store's
# index): the ~12 collections they would trigger walk them and free nothing, so the collector is paused
# meanwhile (with bot/__main__.py: 3.4M instructions of ``ask`` fewer, callgrind 2026-12-04, RESULTS.md).
_collecting = gc.isenabled()
gc.disable()
try:
    from bot.regex_store import install as _install_regex_store

    _install_regex_store()  # before the first re.compile of a start: see the module

    import estimator  # noqa: F401  # installs the start-up aids before pydantic builds anything
finally:
    if _collecting:
        gc.enable()

# httpx's own command line (``httpx.main``: click, rich and pygments, ~20 modules and ~1.5 MiB of the idle
# bot's RSS), which ``import httpx`` loads whenever they are installed and replaces by a stub on ImportError
# (which a ``None`` here raises): the bot's HTTP clients (PTB, Feishu, DingTalk, WeCom) never run it.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
