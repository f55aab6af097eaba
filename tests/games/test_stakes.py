from games.stakes import stake_required_balance, worst_loss_stakes


def test_worst_loss_covers_the_escape_penalty_and_the_largest_plausible_level_loss():
    assert worst_loss_stakes("classic") == 4  # 200 points to the defenders: 4 levels > escape 3
    assert worst_loss_stakes("guigang") == 4
    assert worst_loss_stakes("point_bid") == 9  # a dealer's escape, 1 against 3 (A29)
    assert stake_required_balance(variant="classic", base_stake=25) == 100
    assert all(worst_loss_stakes(v) >= 3 for v in ("classic", "four_deck", "guigang", "point_bid"))
