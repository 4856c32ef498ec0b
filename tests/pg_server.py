"""A throwaway PostgreSQL for the store tests: ``initdb --no-sync -A trust`` in a temporary folder,
``pg_ctl -w start`` on 127.0.0.1 and a free port with ``fsync=off``; stopped at the end of the session.

``initdb`` refuses root: as root, the server runs as the ``postgres`` OS user (``runuser -u postgres
--``) on a folder it owns. Binaries: ``pg_config --bindir``, else ``/usr/lib/postgresql/*/bin``.
Outside CI a machine without them skips the tests; in CI (``CI`` set) they fail instead.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def bindir() -> Path | None:
    candidates = []
    if shutil.which("pg_config"):
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=False)
        candidates.append(out.stdout.strip())
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for folder in candidates:
        if folder and (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A running server; yields its URL (database ``postgres``, user ``postgres``, no password)."""
    binaries = bindir()
    if binaries is None:
        if os.environ.get("CI"):
            pytest.fail("no PostgreSQL binaries (.ci/run installs Debian's postgresql package)")
        pytest.skip("no PostgreSQL binaries on this machine (pg_config / /usr/lib/postgresql)")
    root = os.geteuid() == 0
    as_pg = ["runuser", "-u", "postgres", "--"] if root else []
    top = Path(tempfile.mkdtemp(prefix="sizing-pg-"))
    data = top / "data"
    if root:
        shutil.chown(top, "postgres")
        top.chmod(0o700)
    port = free_port()

    def run(*args: str) -> None:
        subprocess.run([*as_pg, *args], check=True, capture_output=True, cwd=top)

    run(str(binaries / "initdb"), "--no-sync", "-A", "trust", "-U", "postgres", "-D", str(data))
    opts = f"-h 127.0.0.1 -p {port} -k {top} -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    run(str(binaries / "pg_ctl"), "-w", "-D", str(data), "-o", opts, "-l", str(top / "log"), "start")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*as_pg, str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
            check=False,
            cwd=top,
        )
        shutil.rmtree(top, ignore_errors=True)


def fresh_database(url: str, name: str) -> str:
    """A new empty database on the server at ``url``; its URL."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + "/" + name
