"""The conversational side: parse a question, answer it, render the reply, talk to Telegram."""

import gc
import sys

# The start-up aids below load ~60,000 long-lived objects (the stored regex and dataclass code, the schema
# store's index): the ~12 collections they would trigger walk them and free nothing (~5M instructions of
# ``ask``, measured 2026-12-04 with callgrind, bench/RESULTS.md), so the collector is paused meanwhile.
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
