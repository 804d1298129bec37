"""A throwaway PostgreSQL server, for the tests and the load benchmark: Debian's binaries
(``/usr/lib/postgresql/N/bin``), a temp directory, a free loopback port, stopped and
deleted at the end.  Never for real games: anyone on the machine may connect to it.

``initdb`` refuses to run as root: as root, the cluster runs as ``nobody`` in a directory
that user owns.  ``durable=False`` switches ``fsync`` off (the tests check ordering and
what is committed, not the disk; the benchmark keeps it on).
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

__all__ = ["Cluster", "Outage", "find_binaries", "free_port", "running_cluster"]


def find_binaries() -> Path | None:
    """The newest ``/usr/lib/postgresql/N/bin`` with ``initdb`` and ``postgres``."""
    found = []
    for path in glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        bindir = Path(path).parent
        version = bindir.parent.name
        if (bindir / "postgres").exists() and version.isdigit():
            found.append((int(version), bindir))
    return max(found)[1] if found else None


class Cluster:
    """A running PostgreSQL server on 127.0.0.1, user ``postgres``, trusted locally."""

    def __init__(self, port: int, bindir: Path) -> None:
        self.port = port
        self.bindir = bindir
        self.process: subprocess.Popen[bytes] | None = None
        self._data = Path()
        self._names = itertools.count(1)

    def postmaster(self) -> int | None:
        """The server's process id (its backends are its children), if running."""
        with contextlib.suppress(OSError, ValueError, IndexError):
            return int((self._data / "postmaster.pid").read_text().split()[0])
        return None

    def url(self, database: str = "postgres") -> str:
        """The URL of one of its databases."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; returns its URL."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE template0")
        return self.url(name)


def free_port() -> int:
    """A TCP port free on loopback just now (another process may still take it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def running_cluster(bindir: Path, durable: bool = False) -> Iterator[Cluster]:
    """``initdb`` and ``postgres`` in a temp directory, as ``nobody`` when root."""
    import psycopg

    root = Path(tempfile.mkdtemp(prefix="euchre-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(root, "nobody")
        as_user = ["runuser", "-u", "nobody", "--"]
    data, sockets = root / "data", root / "sock"
    proc = None
    try:
        subprocess.run([*as_user, str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
                        "-A", "trust", "--no-sync", "-E", "UTF8", "--locale", "C"],
                       check=True, capture_output=True, cwd=root)
        subprocess.run([*as_user, "mkdir", str(sockets)], check=True, cwd=root)
        port = free_port()
        proc = subprocess.Popen(
            [*as_user, str(bindir / "postgres"), "-D", str(data), "-k", str(sockets),
             "-p", str(port), "-c", "listen_addresses=127.0.0.1",
             "-c", f"fsync={'on' if durable else 'off'}",
             "-c", f"full_page_writes={'on' if durable else 'off'}",
             "-c", "max_connections=300"],
            cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        cluster = Cluster(port, bindir)
        cluster.process = proc
        cluster._data = data
        deadline = time.monotonic() + 30
        while True:
            try:
                psycopg.connect(cluster.url(), connect_timeout=1).close()
                break
            except psycopg.OperationalError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    err = proc.stderr.read().decode() if proc.stderr else ""
                    raise RuntimeError(f"PostgreSQL did not start: {err}") from None
                time.sleep(0.1)
        yield cluster
    finally:
        if proc is not None:
            if proc.poll() is None:
                # an immediate shutdown (the data is thrown away), sent to the postmaster
                # itself: runuser does not pass signals on
                with contextlib.suppress(OSError, ValueError, IndexError):
                    pid = int((data / "postmaster.pid").read_text().split()[0])
                    os.kill(pid, signal.SIGQUIT)
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(5)
            if proc.stderr:
                proc.stderr.close()
        shutil.rmtree(root, ignore_errors=True)


class Outage:
    """A loopback TCP relay to a port (the cluster's) that can be cut: while cut, every
    connection through it is dropped and new ones are refused, as when the database's
    server or its network goes away; servers given :attr:`port` lose their database."""

    def __init__(self, target: int) -> None:
        self.target = target
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._cut = False
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, database_url: str) -> str:
        """A database URL of the cluster, through the relay."""
        return database_url.replace(f":{self.target}/", f":{self.port}/")

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                if self._cut:
                    client.close()
                    continue
                try:
                    server = socket.create_connection(("127.0.0.1", self.target))
                except OSError:
                    client.close()
                    continue
                self._open.update((client, server))
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                dst.sendall(data)
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        """The database goes away: every connection through the relay is dropped."""
        with self._lock:
            self._cut = True
            for s in self._open:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self._open.clear()

    def restore(self) -> None:
        """The database is back: new connections go through again."""
        with self._lock:
            self._cut = False

    def close(self) -> None:
        """Stop relaying."""
        self.cut()
        self._listener.close()
