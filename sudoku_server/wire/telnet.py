"""Telnet option handling (RFC 854), sans-I/O: strip negotiation from the byte stream, refuse every option.

A person may connect with ``telnet``, which sends IAC sequences among the
data. :class:`Telnet` removes them, answers ``DO x`` with ``WONT x`` and
``WILL x`` with ``DONT x`` (we support no option), passes an escaped ``IAC IAC``
through as one 0xFF data byte, turns interrupt process and abort output
(``IP``, ``AO``: Ctrl-C) into :data:`INTERRUPT`, and skips subnegotiations,
reporting :data:`SB_TOO_LONG` for one longer than the line limit. Its state
carries over between calls, so a sequence split across packets is still
removed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# Telnet (RFC 854) bytes.
IAC = 0xFF
DONT, DO, WONT, WILL = 0xFE, 0xFD, 0xFC, 0xFB
SB, SE = 0xFA, 0xF0
IP, AO = 0xF4, 0xF5  # interrupt process, abort output

_DATA, _AFTER_IAC, _AFTER_VERB, _IN_SB, _SB_AFTER_IAC = range(5)


@dataclass
class TelnetReply:
    """Bytes to send at once: a telnet negotiation answer (``IAC WONT x``)."""

    data: bytes


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


#: In :meth:`Telnet.feed`'s output: telnet IP or AO (Ctrl-C): forget the puzzle being typed.
INTERRUPT: Final = _Marker("INTERRUPT")
#: In :meth:`Telnet.feed`'s output: a subnegotiation longer than the limit; nothing after it is read.
SB_TOO_LONG: Final = _Marker("SB_TOO_LONG")

Item = bytes | TelnetReply | _Marker


class Telnet:
    """The telnet state of one connection.

    Args:
      max_sb_bytes: longest subnegotiation skipped (bytes); a longer one is :data:`SB_TOO_LONG`.
    """

    def __init__(self, max_sb_bytes: int) -> None:
        self.max_sb_bytes = max_sb_bytes
        self._state = _DATA
        self._verb = 0
        self._sb_bytes = 0  # length of the subnegotiation being skipped

    @property
    def pending(self) -> bool:
        """True inside a telnet sequence (its rest has not arrived)."""
        return self._state != _DATA

    def feed(self, data: bytes) -> list[Item]:
        """Split ``data`` at telnet commands, in stream order.

        Returns a list of: ``bytes`` (text), :class:`TelnetReply` (answers to
        DO/WILL), :data:`INTERRUPT` (IP or AO) and :data:`SB_TOO_LONG` (then
        the rest of ``data`` is dropped).
        """
        items: list[Item] = []
        out = bytearray()

        def flush() -> None:
            if out:
                items.append(bytes(out))
                out.clear()

        state = self._state
        for byte in data:
            if state == _DATA:
                if byte == IAC:
                    state = _AFTER_IAC
                else:
                    out.append(byte)
            elif state == _AFTER_IAC:
                if byte == IAC:
                    out.append(IAC)  # escaped 0xFF data byte
                    state = _DATA
                elif byte in (DO, DONT, WILL, WONT):
                    self._verb = byte
                    state = _AFTER_VERB
                elif byte == SB:
                    state = _IN_SB
                    self._sb_bytes = 0
                else:
                    if byte in (IP, AO):
                        flush()
                        items.append(INTERRUPT)
                    state = _DATA
            elif state == _AFTER_VERB:
                if self._verb in (DO, WILL):
                    flush()
                    refusal = WONT if self._verb == DO else DONT
                    items.append(TelnetReply(bytes((IAC, refusal, byte))))
                state = _DATA
            elif state == _IN_SB:
                if byte == IAC:
                    state = _SB_AFTER_IAC
                else:
                    self._sb_bytes += 1
                    if self._sb_bytes > self.max_sb_bytes:
                        flush()
                        items.append(SB_TOO_LONG)
                        break
            else:  # in a subnegotiation, after IAC
                state = _DATA if byte == SE else _IN_SB
        flush()
        self._state = state
        return items
