"""The engines' chance events: the fast shuffle deals exactly what ``random.shuffle`` deals."""

from __future__ import annotations

import random

from cardgen.engines import base
from cardgen.engines.base import EventRandom, shuffle_like_random


def test_fast_shuffle_gives_the_library_permutation_for_every_size_and_seed():
    for size in range(0, 120):
        for seed in (0, 1, size, 10**12 + size):
            ours, theirs = list(range(size)), list(range(size))
            shuffle_like_random(random.Random(seed), ours)
            random.Random(seed).shuffle(theirs)
            assert ours == theirs, (size, seed)


def test_fast_shuffle_leaves_the_generator_where_the_library_does():
    ours, theirs = random.Random(7), random.Random(7)
    shuffle_like_random(ours, list(range(72)))
    theirs.shuffle(list(range(72)))
    assert ours.getstate() == theirs.getstate()


def test_event_random_uses_the_fast_shuffle_here_and_still_deals_as_before():
    assert base._shuffle is shuffle_like_random  # this Python shuffles as CPython 3.11 does
    cards = list(range(72))
    EventRandom(12345).shuffle(cards)
    expected = list(range(72))
    random.Random("12345/0").shuffle(expected)  # the event's own generator, the library's shuffle
    assert cards == expected


def test_event_shuffles_seed_the_c_generator_as_random_random_seeds_it_from_the_text():
    """EventRandom.shuffle seeds the bare C generator with the integer random.Random
    derives from the event's text: every event deals what random.Random(text) deals."""
    assert base._CoreRandom is not random.Random  # the fast path is the one that runs here
    events = EventRandom(10**18 + 3)
    for event, size in enumerate((72, 18, 18, 72, 1, 0, 40)):
        cards, expected = list(range(size)), list(range(size))
        events.shuffle(cards)
        random.Random(f"{10**18 + 3}/{event}").shuffle(expected)
        assert cards == expected, (event, size)
    assert events.getstate() == (10**18 + 3, 7)
    assert events.randrange(1000) == random.Random(f"{10**18 + 3}/7").randrange(1000)
