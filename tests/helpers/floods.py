"""Outsiders on the players' address, for tests/test_shared_address.py and
bench/handshake_floods.py: a code guesser (`Guesser`), connections that send a byte or a
hello and are re-opened young (`Flood`), and hellos that never finish their key exchange
(`half_hellos`). Every socket goes to 127.0.0.1 and has a timeout; each thread ends on `stop()`.
"""

from __future__ import annotations

import socket
import threading
import time

from protocol import handshake as hs
from protocol.channel import Exchange
from protocol.codec import FrameReader, frame

from .network import WAIT, Raw


class Guesser(threading.Thread):
    """Someone without the code guessing it from the players' address, as fast as the host
    answers, until `stop()`; the host's answers counted by kind."""

    def __init__(self, port: int, pause: float = 0.05):
        super().__init__(daemon=True)
        self.port, self.pause = port, pause
        self.kinds: dict[str, int] = {}
        self.stopping = threading.Event()
        self.start()

    def run(self) -> None:
        n = 0
        while not self.stopping.is_set():
            n += 1
            try:
                raw = Raw(self.port)
                try:
                    kind, fields = raw.exchange(f"guess{n}")
                finally:
                    raw.close()
                if fields[0].startswith("guesses-"):  # no try left (a busy, its code protocol/reasons.py)
                    kind = "held"
            except (OSError, TypeError):  # closed without a word (TypeError: no frame at all)
                kind = "closed"
            self.kinds[kind] = self.kinds.get(kind, 0) + 1
            self.stopping.wait(self.pause)

    def stop(self) -> None:
        self.stopping.set()
        self.join(WAIT)


class Flood(threading.Thread):
    """Someone without the code holding `hold` connections that each send `first` (a byte, or
    a hello) and nothing more, re-opening each one the host closes, and closing (to open again)
    each one older than `life` seconds, so that every one it holds is young, until `stop()`."""

    def __init__(self, port: int, first: bytes, hold: int = 260, life: float = 0.5, seconds: float = 120.0):
        super().__init__(daemon=True)
        self.port, self.first, self.hold, self.life, self.seconds = port, first, hold, life, seconds
        self.born: dict[socket.socket, float] = {}
        self.opened = 0
        self.closed = 0
        self.stopping = threading.Event()
        self.start()

    def run(self) -> None:
        held: list[socket.socket] = []
        deadline = time.monotonic() + self.seconds
        try:
            while not self.stopping.is_set() and time.monotonic() < deadline:
                while len(held) < self.hold and not self.stopping.is_set():
                    held.append(self._open())
                held = self._still_open(held)
                time.sleep(0.01)
        finally:
            for sock in held:
                sock.close()

    def _open(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        sock.sendall(self.first)
        sock.setblocking(False)
        self.opened += 1
        self.born[sock] = time.monotonic()
        return sock

    def _still_open(self, held: list[socket.socket]) -> list[socket.socket]:
        """Those the host has not closed (the others are let go, to be opened again)."""
        kept = []
        old = time.monotonic() - self.life
        for sock in held:
            if self.born[sock] < old:
                del self.born[sock]
                sock.close()
                continue
            try:
                while sock.recv(65536):
                    pass
            except BlockingIOError:
                kept.append(sock)
                continue
            except OSError:
                pass
            del self.born[sock]
            sock.close()
            self.closed += 1
        return kept

    def stop(self) -> None:
        self.stopping.set()
        self.join(WAIT)


def half_hellos(port: int, stopping: threading.Event, answers: dict[str, int]) -> None:
    """Hellos that never finish their key exchange, one after another: each costs the host a
    SPAKE2 half, and the client nothing (it computes its own once)."""
    hello = frame(hs.hello(Exchange("client", "nothing").message))
    while not stopping.is_set():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                sock.sendall(hello)
                frames = FrameReader()
                while (data := frames.next_frame()) is None:
                    chunk = sock.recv(65536)
                    if not chunk:
                        raise ConnectionError
                    frames.feed(chunk)
                kind = hs.parse(data)[0]
        except OSError:
            kind = "closed"
        answers[kind] = answers.get(kind, 0) + 1
