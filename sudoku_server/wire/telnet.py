"""Telnet option handling (RFC 854), sans-I/O: strip negotiation from the byte stream; TRANSMIT-BINARY only.

A person may connect with ``telnet``, which sends IAC sequences among the
data. :class:`Telnet` removes them, answers ``DO x`` with ``WONT x`` and
``WILL x`` with ``DONT x`` for every option but TRANSMIT-BINARY (RFC 856),
which it accepts and, once the session knows a telnet client is there,
offers (:meth:`Telnet.offer_binary`: ``IAC DO BINARY IAC WILL BINARY``).
Linux telnet in its default 7-bit mode compares each byte's low 7 bits with
its own control keys: the last byte of a box-drawing character (``├`` is
E2 94 9C: 0x1C, its quit key; ``┃``: 0x03, Ctrl-C; ``╝``: 0x1D, its escape
``^]``) is taken for one of them, so a pasted box-drawn grid is cut short.
In binary mode it sends every byte as it is. The option state follows RFC
1143's "Q method" without its queue (an answer is never sent for an option
already in the state asked, so no negotiation loops). Passes an escaped ``IAC IAC``
through as one 0xFF data byte, turns interrupt process and abort output
(``IP``, ``AO``: Ctrl-C) into :data:`INTERRUPT`, and skips subnegotiations,
marking where each starts (:data:`SB_START`), reporting :data:`SB_TOO_LONG` for
one longer than the line limit and, at end of input, one never ended
(:attr:`Telnet.in_subnegotiation`) or a command cut short (:attr:`Telnet.cut_command`). Its state
carries over between calls, so a sequence split across packets is still
removed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

# Telnet (RFC 854) bytes.
IAC = 0xFF
DONT, DO, WONT, WILL = 0xFE, 0xFD, 0xFC, 0xFB
SB, SE = 0xFA, 0xF0
IP, AO = 0xF4, 0xF5  # interrupt process, abort output
BINARY = 0x00  # TRANSMIT-BINARY (RFC 856)
#: What :meth:`Telnet.offer_binary` sends: the client may send, and will receive, 8-bit data as it is.
OFFER_BINARY = bytes((IAC, DO, BINARY, IAC, WILL, BINARY))

_VERBS = {DONT: "DONT", DO: "DO", WONT: "WONT", WILL: "WILL"}

_NO, _WANT_YES, _YES = range(3)  # an option's state on one side (RFC 1143)

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
#: In :meth:`Telnet.feed`'s output: a subnegotiation (``IAC SB``) starts here; what follows is skipped until ``IAC SE``.
SB_START: Final = _Marker("SB_START")
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
        self._sb_bytes = 0  # length of the subnegotiation being skipped (its IAC escapes aside: the limit's count)
        self._sb_skipped = 0  # every byte after its IAC SB
        self._binary_him = _NO  # the client sends binary (it WILL)
        self._binary_us = _NO  # the server sends binary (we WILL)
        self.binary_offered = False

    @property
    def binary(self) -> bool:
        """True once the client agreed to send binary (its ``WILL BINARY``): its bytes come as they are."""
        return self._binary_him == _YES

    def offer_binary(self) -> bytes:
        """The bytes that offer TRANSMIT-BINARY both ways (:data:`OFFER_BINARY`), once; ``b""`` after.

        Send them only to a client known to speak telnet: any other would
        show them (a plain ``nc``). A side already binary is not asked again.
        """
        if self.binary_offered:
            return b""
        self.binary_offered = True
        out = bytearray()
        if self._binary_him == _NO:
            self._binary_him = _WANT_YES
            out += bytes((IAC, DO, BINARY))
        if self._binary_us == _NO:
            self._binary_us = _WANT_YES
            out += bytes((IAC, WILL, BINARY))
        return bytes(out)

    def _binary_answer(self, verb: int) -> bytes:
        """The answer to ``verb BINARY`` (``b""``: none), and the option's new state."""
        if verb in (WILL, WONT):
            state, agree, refuse = self._binary_him, DO, DONT
        else:
            state, agree, refuse = self._binary_us, WILL, WONT
        answer = b""
        if verb in (WILL, DO):
            if state == _NO:
                answer = bytes((IAC, agree, BINARY))  # asked first: we support it
            state = _YES  # an answer to our offer needs none
        else:
            if state == _YES:
                answer = bytes((IAC, refuse, BINARY))  # it turns the option off: acknowledged
            state = _NO  # a refusal of our offer needs none
        if verb in (WILL, WONT):
            self._binary_him = state
        else:
            self._binary_us = state
        return answer

    @property
    def pending(self) -> bool:
        """True inside a telnet sequence (its rest has not arrived)."""
        return self._state != _DATA

    @property
    def in_subnegotiation(self) -> int | None:
        """Inside a subnegotiation whose ``IAC SE`` has not arrived: the bytes skipped so far after ``IAC SB``;
        None outside one."""
        return self._sb_skipped if self._state in (_IN_SB, _SB_AFTER_IAC) else None

    @property
    def cut_command(self) -> str | None:
        """The telnet command the input stops inside, as an error names it, or None.

        ``"IAC (byte 0xFF) with no command byte after it"`` after a lone 0xFF,
        ``"IAC DO with no option byte after it"`` (``DONT``, ``WILL``,
        ``WONT``) after a verb; None between commands and inside a
        subnegotiation (:attr:`in_subnegotiation` names that one).
        """
        if self._state == _AFTER_IAC:
            return "IAC (byte 0xFF) with no command byte after it"
        if self._state == _AFTER_VERB:
            return f"IAC {_VERBS[self._verb]} with no option byte after it"
        return None

    def feed(self, data: bytes) -> Iterator[Item]:
        """Split ``data`` at telnet commands, in stream order, lazily.

        Yields: ``bytes`` (text), :class:`TelnetReply` (answers to
        DO/WILL, and to DONT/WONT BINARY once it is on), :data:`INTERRUPT` (IP or AO), :data:`SB_START` (``IAC SB``)
        and :data:`SB_TOO_LONG` (then the rest of ``data`` is dropped).

        The caller acts on each item before the next byte is read (a
        generator, not a list): what it does in between, such as
        :meth:`offer_binary` after the first negotiation, sees the options'
        state at that point of the stream, so the replies are the same
        however the stream is chunked (whole, or a byte at a time).
        """
        out = bytearray()
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
                    self._sb_bytes = self._sb_skipped = 0
                    yield from self._flushed(out, state)
                    yield SB_START
                elif byte < SE:  # no telnet command (RFC 854's are 240-255): the 0xFF and this byte are data,
                    out += bytes((IAC, byte))  # reported as any byte that is not UTF-8 (break-session finding:
                    state = _DATA  # the byte after a stray 0xFF, even a line end, was dropped)
                else:
                    state = _DATA
                    if byte in (IP, AO):
                        yield from self._flushed(out, state)
                        yield INTERRUPT
            elif state == _AFTER_VERB:
                state = _DATA
                if byte == BINARY:
                    answer = self._binary_answer(self._verb)
                    if answer:
                        yield from self._flushed(out, state)
                        yield TelnetReply(answer)
                elif self._verb in (DO, WILL):
                    yield from self._flushed(out, state)
                    refusal = WONT if self._verb == DO else DONT
                    yield TelnetReply(bytes((IAC, refusal, byte)))
            elif state == _IN_SB:
                self._sb_skipped += 1
                if byte == IAC:
                    state = _SB_AFTER_IAC
                else:
                    self._sb_bytes += 1
                    if self._sb_bytes > self.max_sb_bytes:
                        yield from self._flushed(out, state)
                        yield SB_TOO_LONG
                        return
            else:  # in a subnegotiation, after IAC
                self._sb_skipped += 1
                state = _DATA if byte == SE else _IN_SB
        self._state = state
        if out:
            yield bytes(out)

    def _flushed(self, out: bytearray, state: int) -> Iterator[bytes]:
        """The text gathered so far (if any), emptied from ``out``; records ``state`` first."""
        self._state = state
        if out:
            text = bytes(out)
            out.clear()
            yield text
