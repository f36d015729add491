"""core.rng: the portable RNG is xoshiro256** and its outputs are pinned forever."""

from collections import Counter

import pytest

from gridgames.core.rng import Rng


def test_xoshiro256starstar_reference_vector():
    # Output of the reference C implementation (Blackman and Vigna) from state {1, 2, 3, 4}.
    rng = Rng.from_state([1, 2, 3, 4])
    assert [rng.next_u64() for _ in range(4)] == [11520, 0, 1509978240, 1215971899390074240]


# Golden values: if these change, every saved seed ID would give another game.
GOLDEN = {
    "": ([5498618246466440243, 13816175270264620262, 5407233070716075500], 305,
         [0, 1, 4, 3, 5, 2]),
    "gridgames": ([8789688597319022675, 17938060907146524950, 6266334948719586401], 487,
                  [0, 1, 4, 5, 2, 3]),
    "seed-42": ([17076988567477292897, 14916512650174892529, 1584989437840919279], 947,
                [1, 5, 2, 3, 4, 0]),
    "ünïcode": ([10566102291932284184, 5023087571777237908, 17116418472708537860], 586,
                [0, 1, 5, 3, 2, 4]),
}


@pytest.mark.parametrize("seed", sorted(GOLDEN))
def test_golden_outputs(seed):
    words, below, shuffled = GOLDEN[seed]
    rng = Rng(seed)
    assert [rng.next_u64() for _ in range(3)] == words
    assert Rng(seed).below(1000) == below
    assert Rng(seed).shuffled(range(6)) == shuffled


def test_below_is_in_range_and_roughly_uniform():
    rng = Rng("uniform")
    counts = Counter(rng.below(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(850 < c < 1150 for c in counts.values())
    assert all(0 <= rng.below(3) < 3 for _ in range(100))
    big = 1 << 100
    assert all(0 <= rng.below(big) < big for _ in range(100))


def test_helpers():
    rng = Rng("helpers")
    assert all(3 <= rng.randint(3, 5) <= 5 for _ in range(50))
    assert all(0.0 <= rng.random() < 1.0 for _ in range(50))
    assert rng.choice("abc") in "abc"
    assert sorted(rng.shuffled(range(10))) == list(range(10))
    assert {rng.chance(1, 2) for _ in range(50)} == {True, False}
    with pytest.raises(ValueError):
        rng.below(0)
    with pytest.raises(ValueError):
        rng.choice([])
    with pytest.raises(TypeError):
        Rng(42)
