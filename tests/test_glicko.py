"""Glicko-2 (core/glicko.py) against Glickman's own worked example, and the behaviour a
rating must have."""

import pytest

from gridgames.core.glicko import Rating, update


def test_glickmans_worked_example():
    """His paper: a 1500 player (deviation 200, volatility 0.06, tau 0.5) beats a 1400 (30)
    and loses to a 1550 (100) and a 1700 (300): 1464.06, 151.52, 0.05999."""
    after = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
                                             (Rating(1700, 300), 0.0)])
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_wins_raise_losses_lower_and_no_games_only_widen():
    start = Rating()
    assert update(start, [(Rating(), 1.0)]).rating > 1500 > update(start, [(Rating(), 0.0)]).rating
    assert update(start, [(Rating(), 0.5)]).rating == pytest.approx(1500)
    idle = update(Rating(1600, 50), [])
    assert idle.rating == 1600 and idle.deviation > 50
    low, high = update(start, [(Rating(), 1.0)] * 10).interval()
    assert low < update(start, [(Rating(), 1.0)] * 10).rating < high
