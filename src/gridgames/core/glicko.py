"""Glicko-2 ratings (Mark Glickman's system): a rating, its deviation (how unsure it is) and
a volatility, updated once a rating period from the games of that period.

Written from Glickman's description ("Example of the Glicko-2 system", 2012), whose worked
example tests/test_glicko.py checks to its printed digits. Ratings are on the familiar scale
(1500 a new player, deviation 350).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's internal scale to the familiar one
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
TAU = 0.5  # how much the volatility may change over time (Glickman: 0.3 to 1.2)
EPSILON = 1e-6  # the volatility's iteration stops this close


@dataclass(frozen=True)
class Rating:
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    def interval(self) -> tuple[float, float]:
        """About 95% sure the strength is in here: rating plus or minus two deviations."""
        return self.rating - 2 * self.deviation, self.rating + 2 * self.deviation


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def update(player: Rating, games: list[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after a period's games: (opponent's rating before the period,
    the player's score: 1 a win, 0.5 a draw, 0 a loss). No games: only the deviation grows."""
    mu = (player.rating - START_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)
    weights, expected, scores = [], [], []
    for opponent, score in games:
        g = _g(opponent.deviation / SCALE)
        weights.append(g)
        expected.append(1.0 / (1.0 + math.exp(-g * (mu - (opponent.rating - START_RATING)
                                                    / SCALE))))
        scores.append(score)
    v = 1.0 / sum(g * g * e * (1 - e) for g, e in zip(weights, expected, strict=True))
    gain = sum(g * (s - e) for g, s, e in zip(weights, scores, expected, strict=True))
    delta = v * gain
    sigma = _volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu += phi * phi * gain
    return Rating(START_RATING + SCALE * mu, SCALE * phi, sigma)


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """The new volatility: the root of Glickman's f by the Illinois method (his step 5)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        return top / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = middle, f_middle
    return math.exp(low / 2)
