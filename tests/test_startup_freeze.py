"""Issue 23 item 7, start-up (part S5-speed2): ``sizing-bot ask`` run as the console script freezes the
first answer's long-lived objects (``gc.freeze``) before the cyclic collector is back on, so the
collection the next allocation triggers and the one at interpreter shutdown do not walk them again
(~85–100 ms CPU of a ~440 ms start-up, bench/RESULTS.md); ``main([...])`` in process freezes nothing."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

from bot.cli import main

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "7B模型1万亿token要多少A100"


def _console(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter on this checkout, without the platform's settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SIZING_BOT_", "TELEGRAM_", "FEISHU_"))}
    return subprocess.run(
        [sys.executable, "-c", code], env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True
    )


def test_the_console_script_freezes_the_answers_objects_and_turns_the_collector_back_on() -> None:
    """As ``sizing-bot ask`` calls it (``main()``, argv from sys.argv): the answer is printed, tens of
    thousands of objects are frozen (modules, schemas, catalogs) and the collector is on again."""
    code = (
        "import gc, sys\n"
        f"sys.argv = ['sizing-bot', 'ask', {QUESTION!r}]\n"
        "import bot.cli\n"
        "bot.cli._exit_without_teardown = lambda code: None  # ends the process: see test_startup_deferred\n"
        "from bot.cli import main\n"
        "assert gc.get_freeze_count() > 0  # what import bot loaded (s43-speed: bot/__init__.py)\n"
        "code = main()\n"
        "print('PROBE', code, gc.get_freeze_count(), gc.isenabled(), file=sys.stderr)\n"
    )
    done = _console(code)
    assert done.returncode == 0, done.stderr
    assert "A100" in done.stdout and "7" in done.stdout
    probe = [line for line in done.stderr.splitlines() if line.startswith("PROBE")][-1].split()
    assert probe[1] == "0" and probe[3] == "True"
    assert int(probe[2]) > 20_000


def test_the_console_script_with_the_collector_off_leaves_it_off_and_freezes_nothing() -> None:
    """A caller that had the collector off gets it back off, and nothing frozen."""
    code = (
        "import gc, sys\n"
        f"sys.argv = ['sizing-bot', 'ask', {QUESTION!r}]\n"
        "import bot.cli\n"
        "bot.cli._exit_without_teardown = lambda code: None  # ends the process: see test_startup_deferred\n"
        "from bot.cli import main\n"
        "gc.disable()\n"
        "before = gc.get_freeze_count()  # what import bot froze (s43-speed): main adds nothing\n"
        "code = main()\n"
        "print('PROBE', code, gc.get_freeze_count() - before, gc.isenabled(), file=sys.stderr)\n"
    )
    done = _console(code)
    assert done.returncode == 0, done.stderr
    probe = [line for line in done.stderr.splitlines() if line.startswith("PROBE")][-1].split()
    # s43-speed: import bot froze what it loaded; main freezes nothing more (some of those objects are freed
    # by their reference counts during the answer: the count can only fall)
    assert probe[1] == "0" and int(probe[2]) <= 0 and probe[3] == "False"


def test_main_in_process_freezes_nothing(capsys) -> None:
    """``main([...])`` from a process that goes on (tests, the web's callers): no object frozen, so
    later garbage cycles among them are still collected; the collector is on as before."""
    before = gc.get_freeze_count()
    assert main(["ask", QUESTION]) == 0
    assert "A100" in capsys.readouterr().out
    assert gc.get_freeze_count() <= before and gc.isenabled()  # s43-speed: freed frozen objects leave it
