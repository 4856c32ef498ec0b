"""A fresh-user trial: with only FEISHU_APP_ID set, ``run`` printed the generic "TELEGRAM_BOT_TOKEN
is not set" line and ``health`` said "healthy", never naming the missing FEISHU_APP_SECRET. A platform
with one of its two credentials is named, and neither command passes. The real processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PREFIXES = ("TELEGRAM_", "FEISHU_", "WECOM_", "DINGTALK_", "SIZING_BOT_")
CASES = [
    ({"FEISHU_APP_ID": "cli_x"}, "Feishu/Lark: FEISHU_APP_ID is set but FEISHU_APP_SECRET is not"),
    ({"WECOM_BOT_SECRET": "s"}, "WeCom: WECOM_BOT_SECRET is set but WECOM_BOT_ID is not"),
    ({"DINGTALK_CLIENT_ID": "d"}, "DingTalk: DINGTALK_CLIENT_ID is set but DINGTALK_CLIENT_SECRET is not"),
]


def _bot(tmp: Path, command: str, extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(PREFIXES)}
    env.update(extra, SIZING_BOT_DB=str(tmp / "settings.sqlite3"))
    return subprocess.run(
        [sys.executable, "-m", "bot", command], cwd=tmp, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(("env", "said"), CASES)
def test_run_names_the_missing_credential_and_exits_2(tmp_path: Path, env: dict[str, str], said: str) -> None:
    done = _bot(tmp_path, "run", env)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"sizing-bot: {said}: set both, or neither"]


def test_health_is_not_healthy_with_half_a_platform(tmp_path: Path) -> None:
    env, said = CASES[0]
    done = _bot(tmp_path, "health", env)
    assert done.returncode == 1
    assert said in done.stdout and "healthy" not in done.stdout.replace("unhealthy", "")
