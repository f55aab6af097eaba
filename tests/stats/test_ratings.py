"""The rating model against the formulas it is documented by, worked out here and not read
back from the library: Weng & Lin (2011), "A Bayesian Approximation Method for Online
Ranking", Algorithm 4 (Plackett–Luce), as openskill documents it, for two sides of any
sizes. Also imported by the database tests (tests/games/test_settlement_ratings.py)."""

import math

import pytest

from stats import ratings

MU, SIGMA, BETA, TAU, KAPPA = 25.0, 25.0 / 3.0, 25.0 / 6.0, 25.0 / 300.0, 0.0001


def plackett_luce(winners, losers):
    """(winners, losers) after the winners beat the losers: each a list of (mu, sigma).

    Each sigma first grows by tau (sigma² + tau²). A side's mu and sigma² are its players'
    sums; c² = Σ (sigma_side² + beta²). With e_s = exp(mu_s / c) and p = e_w / (e_w + e_l)
    the winners' chance, the winners' Ω = sigma_w²/c · (1 − p) and the losers'
    Ω = −sigma_l²/c · (1 − p); both sides' Δ = γ · sigma_s²/c² · p(1 − p), γ = sigma_s / c.
    A player j of side s: mu_j += sigma_j²/sigma_s² · Ω, sigma_j *= √max(1 − sigma_j²/sigma_s² · Δ, κ).
    """
    sides = [[(mu, math.sqrt(sigma ** 2 + TAU ** 2)) for mu, sigma in side]
             for side in (winners, losers)]
    mus = [sum(mu for mu, _ in side) for side in sides]
    variances = [sum(sigma ** 2 for _, sigma in side) for side in sides]
    c = math.sqrt(sum(v + BETA ** 2 for v in variances))
    p = math.exp(mus[0] / c) / (math.exp(mus[0] / c) + math.exp(mus[1] / c))
    omegas = [variances[0] / c * (1 - p), -variances[1] / c * (1 - p)]
    out = []
    for side, variance, omega in zip(sides, variances, omegas):
        delta = math.sqrt(variance) / c * variance / c ** 2 * p * (1 - p)
        out.append([(mu + sigma ** 2 / variance * omega,
                     sigma * math.sqrt(max(1 - sigma ** 2 / variance * delta, KAPPA)))
                    for mu, sigma in side])
    return out


def assert_close(got, expected):
    for got_side, expected_side in zip(got, expected, strict=True):
        for (mu, sigma), (mu_e, sigma_e) in zip(got_side, expected_side, strict=True):
            assert mu == pytest.approx(mu_e, abs=1e-9) and sigma == pytest.approx(sigma_e, abs=1e-9)


def test_four_newcomers_move_as_the_formula_and_the_librarys_documented_example():
    newcomer = (MU, SIGMA)
    got = ratings.hand_rate(teams=[[newcomer] * 2, [newcomer] * 2], ranks=[0, 1])
    assert_close(got, plackett_luce([newcomer] * 2, [newcomer] * 2))
    # openskill's README: a, b beat x, y, all new: a = 26.964294621803063, sigma 8.177962604389991.
    assert got[0][0] == pytest.approx((26.964294621803063, 8.177962604389991), abs=1e-12)
    assert got[1][1] == pytest.approx((23.035705378196937, 8.177962604389991), abs=1e-12)


def test_uneven_partners_share_the_move_by_their_uncertainty():
    winners, losers = [(31.0, 2.5), (22.0, 7.0)], [(27.5, 4.0), (24.0, 6.0)]
    got = ratings.hand_rate(teams=[losers, winners], ranks=[1, 0])
    expected_winners, expected_losers = plackett_luce(winners, losers)
    assert_close(got, [expected_losers, expected_winners])
    # The better-known partner (sigma 2.5) moves less than the other.
    assert got[1][0][0] - 31.0 < got[1][1][0] - 22.0


def contract(lone, others):
    """docs/ratings.md, "One against three": the missing seats at the others' average mu,
    plus c · logit(0.22), c² = Σ (sigma_side² + beta²); sigma nil."""
    c = math.sqrt(sum(s ** 2 for _, s in lone) + sum(s ** 2 for _, s in others) + 2 * BETA ** 2)
    average = sum(mu for mu, _ in others) / len(others)
    return ((len(others) - len(lone)) * average + c * math.log(0.22 / 0.78), 1e-6)


def test_point_bid_one_against_three_is_rated_with_the_contract_beside_the_dealer():
    dealer, defenders = [(26.0, 5.0)], [(25.0, SIGMA), (23.0, 6.0), (28.0, 3.0)]
    padded = dealer + [contract(dealer, defenders)]
    won = ratings.hand_rate(teams=[dealer, defenders], ranks=[0, 1])
    expected_dealer, expected_defenders = plackett_luce(padded, defenders)
    assert_close(won, [expected_dealer[:1], expected_defenders])
    lost = ratings.hand_rate(teams=[defenders, dealer], ranks=[0, 1])
    expected_defenders, expected_dealer = plackett_luce(defenders, padded)
    assert_close(lost, [expected_defenders, expected_dealer[:1]])


def test_equal_players_lone_dealer_is_expected_to_win_as_often_as_dealers_do():
    newcomer = (MU, SIGMA)
    lone, others = [newcomer], [newcomer] * 3
    mu_contract, _ = contract(lone, others)
    c = math.sqrt(4 * SIGMA ** 2 + 2 * BETA ** 2)
    chance = 1 / (1 + math.exp(-((MU + mu_contract) - 3 * MU) / c))
    assert chance == pytest.approx(0.22)
    assert ratings.contract_mu(lone=lone, others=others) == pytest.approx(mu_contract)
    # So a dealer's win moves them by (1 − 0.22) / 0.22 times a loss, not 18 times.
    won = ratings.hand_rate(teams=[lone, others], ranks=[0, 1])[0][0][0] - MU
    lost = MU - ratings.hand_rate(teams=[lone, others], ranks=[1, 0])[0][0][0]
    assert won / lost == pytest.approx(0.78 / 0.22, rel=0.01)


def test_a_hand_that_moved_nothing_is_a_draw_between_equal_sides():
    newcomer = (MU, SIGMA)
    got = ratings.hand_rate(teams=[[newcomer] * 2, [newcomer] * 2], ranks=[0, 0])
    assert all(mu == pytest.approx(MU) and sigma < SIGMA for side in got for mu, sigma in side)


def test_the_shown_number_is_mu_less_three_sigma_scaled():
    # 40 · (mu − 3 sigma) + 1000, rounded (docs/ratings.md).
    assert ratings.shown(MU, SIGMA) == 1000
    assert ratings.shown(30.0, 2.0) == 40 * (30 - 6) + 1000 == 1960
    assert ratings.shown(20.0, 7.5) == 40 * (20 - 22.5) + 1000 == 900


def test_bots_hold_the_documented_ratings():
    # docs/ratings.md, "Bots": (mu, sigma) per level.
    assert ratings.bot_rating("easy") == (25.0, 1.0)
    assert ratings.bot_rating("normal") == (25.86, 1.0)
    assert ratings.bot_rating("hard") == (26.29, 1.0)
