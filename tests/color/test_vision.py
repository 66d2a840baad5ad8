"""The colour science of the accessibility checks against published reference values."""

from __future__ import annotations

import pytest

from cardgen.color.vision import ciede2000, contrast_ratio, delta_e2000, required_ratio, simulate


# Sharma, Wu and Dalal (2005), "The CIEDE2000 color-difference formula", table 1 (pairs 1, 2, 7, 17, 18, 25).
SHARMA_PAIRS = [
    ((50.0000, 2.6772, -79.7751), (50.0000, 0.0000, -82.7485), 2.0425),
    ((50.0000, 3.1571, -77.2803), (50.0000, 0.0000, -82.7485), 2.8615),
    ((50.0000, 0.0000, 0.0000), (50.0000, -1.0000, 2.0000), 2.3669),
    ((50.0000, 2.5000, 0.0000), (73.0000, 25.0000, -18.0000), 27.1492),
    ((50.0000, 2.5000, 0.0000), (61.0000, -5.0000, 29.0000), 22.8977),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
]


@pytest.mark.parametrize("first, second, expected", SHARMA_PAIRS)
def test_ciede2000_matches_sharma(first, second, expected):
    assert ciede2000(first, second) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(second, first) == pytest.approx(expected, abs=1e-4)  # symmetric


# Machado 2009 at severity 100 as colorspacious 1.1.2 computes it
# (cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": ..., "severity": 100}, "sRGB1")), in-gamut results.
COLORSPACIOUS = [
    ("#2e7d32", "protanopia", (0.4994, 0.4462, 0.1664)),
    ("#2e7d32", "deuteranopia", (0.4605, 0.4197, 0.2191)),
    ("#2e7d32", "tritanopia", (0.1170, 0.4771, 0.4257)),
    ("#c62828", "protanopia", (0.3558, 0.3198, 0.1478)),
    ("#c62828", "deuteranopia", (0.5073, 0.4534, 0.1273)),
    ("#1976d2", "protanopia", (0.2720, 0.4929, 0.8374)),
    ("#1976d2", "deuteranopia", (0.1153, 0.4303, 0.8165)),
]


@pytest.mark.parametrize("colour, vision, expected", COLORSPACIOUS)
def test_machado_simulation_matches_colorspacious(colour, vision, expected):
    got = [v / 255 for v in simulate(colour, vision)]
    assert got == pytest.approx(expected, abs=6e-4)


def test_simulation_keeps_greys_and_clips_out_of_gamut():
    for vision in ("protanopia", "deuteranopia", "tritanopia"):
        assert simulate("#808080", vision) == pytest.approx((128, 128, 128), abs=0.1)
    # a tritanope's red lands below zero green: clipped to the gamut, never negative
    assert simulate("#c62828", "tritanopia")[1] == 0.0
    with pytest.raises(ValueError):
        simulate("#ffffff", "achromatopsia")


def test_wcag_contrast_reference_values():
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#ffffff", "#ffffff") == pytest.approx(1.0)
    # WebAIM's contrast checker: #777777 on white 4.48:1, #888888 on white 3.54:1
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.005)
    assert contrast_ratio("#ffffff", "#888888") == pytest.approx(3.54, abs=0.005)
    assert required_ratio(9, bold=True) == 4.5
    assert required_ratio(14, bold=True) == 3.0
    assert required_ratio(14, bold=False) == 4.5


def test_the_issue_measures():
    # issue 30's figures: head-game's geography and action groups under deuteranopia, card-football's faces
    assert delta_e2000("#2e7d32", "#c62828", "deuteranopia") == pytest.approx(6.6, abs=0.05)
    assert delta_e2000("#2e7d32", "#ef6c00", "protanopia") == pytest.approx(8.2, abs=0.05)
    assert delta_e2000("#ffffff", "#f8e8e8") == pytest.approx(8.1, abs=0.05)
    assert delta_e2000("#2e7d32", "#c62828") > 40  # far apart for normal vision
    assert contrast_ratio("#ffffff", "#4fc3f7") == pytest.approx(2.0, abs=0.01)
