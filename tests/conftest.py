"""Test isolation: no test reads the developer's environment or writes to the real home directory;
Hypothesis explores locally and runs derandomized in CI."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev")
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))

_DEVELOPER_VARIABLES = ("TELEGRAM_", "SIZING_BOT_", "HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "NO_PROXY")


@pytest.fixture(autouse=True)
def isolated_environment(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """HOME and the XDG folders point at a temporary folder, and the bot's own variables (token,
    database, pre-sales file, rates, proxies) are cleared: a test sets what it needs."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for name, sub in (
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_CACHE_HOME", ".cache"),
        ("XDG_STATE_HOME", ".local/state"),
    ):
        monkeypatch.setenv(name, str(home / sub))
    for name in list(os.environ):
        if name.upper().startswith(_DEVELOPER_VARIABLES):
            monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="session")
def postgres_server() -> object:
    """The URL of a throwaway PostgreSQL for this test session (tests/pg_server.py)."""
    from pg_server import throwaway_postgres

    with throwaway_postgres() as url:
        yield url
