"""A small portable seeded RNG: the same string seed gives the same sequence everywhere.

Python's `random` may change its algorithms between versions and is global state; generated
puzzles and shuffled pouches must be reproducible from a game ID forever. So: SHA-256 of the
UTF-8 seed fills the 256-bit state of xoshiro256** (Blackman and Vigna), and integers below n
are drawn by rejection so that they are unbiased and platform-independent.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")
MASK64 = (1 << 64) - 1


class Rng:
    __slots__ = ("_s", "seed")

    def __init__(self, seed: str) -> None:
        if not isinstance(seed, str):
            raise TypeError("an Rng seed is a string")
        self.seed = seed
        digest = hashlib.sha256(seed.encode("utf-8")).digest()
        self._s = [int.from_bytes(digest[i:i + 8], "little") for i in range(0, 32, 8)]
        if not any(self._s):  # the one state xoshiro cannot leave; SHA-256 never gives it
            self._s[0] = 1

    @classmethod
    def from_state(cls, words: list[int]) -> Rng:
        """An Rng with a raw xoshiro256** state (four 64-bit words): for test vectors."""
        rng = cls("")
        rng.seed = None
        rng._s = [w & MASK64 for w in words]
        return rng

    def state_words(self) -> list[int]:
        """The raw state (four 64-bit words), for a compiled kernel that draws as this does."""
        return list(self._s)

    def set_state_words(self, words: list[int]) -> None:
        """Go on from a state a compiled kernel left (see state_words)."""
        self._s = [w & MASK64 for w in words]

    @staticmethod
    def new_seed() -> str:
        """A fresh random seed string, for games started without one."""
        return secrets.token_hex(6)

    def next_u64(self) -> int:
        # The two rotations written out, not called: this is the generators' hottest
        # function (half of 2mino's puzzle making), and a call costs what the arithmetic does.
        s0, s1, s2, s3 = self._s
        x = (s1 * 5) & MASK64
        result = ((((x << 7) | (x >> 57)) & MASK64) * 9) & MASK64
        t = (s1 << 17) & MASK64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        self._s = [s0, s1, s2, ((s3 << 45) | (s3 >> 19)) & MASK64]
        return result

    def below(self, n: int) -> int:
        """Uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below(n) needs n > 0")
        bits = n.bit_length()
        while True:  # take the top bits (the best ones of xoshiro) and reject overshoots
            value = self.next_u64() >> (64 - bits) if bits <= 64 else self._wide(bits)
            if value < n:
                return value

    def _wide(self, bits: int) -> int:
        value = 0
        for _ in range((bits + 63) // 64):
            value = (value << 64) | self.next_u64()
        return value >> (-bits % 64)

    def randint(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi], both ends included."""
        return lo + self.below(hi - lo + 1)

    def random(self) -> float:
        """Uniform float in [0, 1) with 53 bits."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def chance(self, numerator: int, denominator: int) -> bool:
        """True with probability numerator/denominator, exactly (no float rounding)."""
        return self.below(denominator) < numerator

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("choice from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out
