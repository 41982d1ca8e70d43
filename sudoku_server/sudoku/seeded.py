"""Seeded randomness: SplitMix64 and a Fisher-Yates permutation (the same draws on every machine).

The generator (:mod:`.generator`) and the rules that make their data
(:mod:`.rules`: random jigsaw regions, killer cages) draw from these, so a
seed gives the same puzzle everywhere.
"""

from __future__ import annotations

__all__ = ["SEED_LIMIT", "SplitMix64", "permutation"]

#: Seeds are ``0 .. SEED_LIMIT - 1`` (64 bits).
SEED_LIMIT = 1 << 64
_M64 = SEED_LIMIT - 1
_GAMMA = 0x9E3779B97F4A7C15  # SplitMix64's increment: 2**64 / golden ratio, odd


class SplitMix64:
    """The SplitMix64 generator: 64-bit state, 64-bit outputs.

    ``next()`` adds the odd constant ``0x9E3779B97F4A7C15`` to the state
    modulo ``2**64`` and returns the state through Stafford's "Mix13"
    finalizer (Vigna's ``splitmix64.c``). Seeded with 1234567 its first
    outputs are 6457827717110365317, 3203168211198807973,
    9817491932198370423 (the published reference values).

    Args:
      seed: any int; taken modulo ``2**64``.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _M64

    def next(self) -> int:
        """The next output, an int in ``0 .. 2**64 - 1``."""
        self.state = z = (self.state + _GAMMA) & _M64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An int in ``0 .. n - 1`` from one output: ``next() * n >> 64``.

        (Lemire's multiply-shift, without the rejection step: the bias is
        below ``n / 2**64``.)
        """
        return (self.next() * n) >> 64


def permutation(rng: SplitMix64, n: int) -> list[int]:
    """A random order of ``0 .. n - 1`` (Fisher-Yates), from ``rng``.

    Draws ``w = (n!.bit_length() + 127) // 64`` words and reads them as one
    fraction ``x / 2**(64 w)`` (first word most significant); step ``i`` of
    the shuffle (``i = n - 1 .. 1``) takes ``j = x * (i + 1) >> 64 w`` and
    keeps the remainder as the next fraction. That is the mixed-radix
    expansion of the fraction, so each of the ``n!`` orders comes out with
    probability within ``2**-64`` of ``1 / n!``; integers only.
    """
    words = (_factorial_bits(n) + 127) // 64
    x = 0
    for _ in range(words):
        x = (x << 64) | rng.next()
    bits = 64 * words
    low = (1 << bits) - 1
    items = list(range(n))
    for i in range(n - 1, 0, -1):
        x *= i + 1
        j = x >> bits
        x &= low
        items[i], items[j] = items[j], items[i]
    return items


def _factorial_bits(n: int) -> int:
    f = 1
    for k in range(2, n + 1):
        f *= k
    return f.bit_length()
