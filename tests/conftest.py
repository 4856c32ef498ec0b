"""Test isolation: no test reads the developer's environment or writes to the real home directory;
Hypothesis explores locally and runs derandomized in CI."""

from __future__ import annotations

import os
import sys

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


@pytest.fixture(autouse=True)
def nothing_kept_across_tests() -> None:
    """Each test starts with no training search kept from another (estimator.plan.kept_searches) and no
    generic shape made (estimator.architecture.shape_for_size): a test that spies on the search, or
    patches what it reads, sees its own searches whatever ran before it. Only where those modules are
    already imported (a test of lazy imports imports nothing here)."""
    plan = sys.modules.get("estimator.plan")
    if plan is not None:
        plan.forget_searches()
    architecture = sys.modules.get("estimator.architecture")
    if architecture is not None:
        architecture.shape_for_size.cache_clear()


@pytest.fixture(scope="session")
def postgres_server() -> object:
    """The URL of a throwaway PostgreSQL for this test session (tests/pg_server.py)."""
    from pg_server import throwaway_postgres

    with throwaway_postgres() as url:
        yield url


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): at least 4 workers, one per CPU on a larger machine. Most of
    the suite's wall time is waiting (real ``sizing-bot run`` processes starting, loopback fakes, retry
    back-offs), not computing: 4 workers on CI's 2 cores took the suite from ~10 to ~4 min under load.
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` overrides it; ``-n 0`` runs in this process."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "").isdigit():
        return int(os.environ["PYTEST_XDIST_AUTO_NUM_WORKERS"])
    return max(4, len(os.sched_getaffinity(0)))


SLOW_FILES_FIRST = (
    "test_dingtalk_run.py",
    "test_wecom_run.py",
    "test_feishu_run.py",
    "test_telegram_unreachable.py",
    "test_feishu_client.py",
    "test_feishu_faults.py",
    "test_load.py",
    "test_replicas_feishu.py",
    "test_send_outage.py",
    "test_loop_stalls.py",
    "test_replicas_run.py",
    "test_quote_fonts.py",
    "test_install.py",
    "test_replicas_wecom_dingtalk.py",
    "test_reliability_kill.py",
    "test_quote_flood.py",
    "test_dingtalk_cards.py",
)
"""The slowest test files (10-47 s each in a plain run on 2 cores, 2026-12-02), handed to the workers
first so that none of them is the last one left running."""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a pytest-xdist worker (``--dist loadfile``: each file's tests in one worker, so a module's
    fixtures are made once), the slowest files come first; in-file order is kept. Every worker sorts
    the same way, as xdist requires. A plain run keeps the collection order."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    rank = {name: i for i, name in enumerate(SLOW_FILES_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))
