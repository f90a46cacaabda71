"""Tile codes and the compact notation of contracts.md."""

import pytest

from scoring.tiles import (
    TileError,
    code_of,
    is_red,
    kind,
    name_zh,
    next_in_cycle,
    normal,
    parse_tiles,
    to_compact,
)


def test_every_code_of_the_contract_round_trips():
    codes = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
    codes += [f"{n}f" for n in range(1, 9)]
    assert [code_of(kind(c)) for c in codes] == codes
    assert [kind(c) for c in codes] == list(range(42))


def test_red_fives_have_the_kind_of_the_plain_five():
    assert kind("0m") == kind("5m") and kind("0p") == kind("5p") and kind("0s") == kind("5s")
    assert is_red("0p") and not is_red("5p")
    assert normal("0s") == "5s"


def test_honour_order_is_tenhou_white_green_red():
    assert name_zh(kind("5z")) == "白" and name_zh(kind("6z")) == "发" and name_zh(kind("7z")) == "中"


def test_compact_notation_example_of_the_contract():
    assert parse_tiles("123m456p789s11z") == [
        "1m",
        "2m",
        "3m",
        "4p",
        "5p",
        "6p",
        "7s",
        "8s",
        "9s",
        "1z",
        "1z",
    ]


def test_compact_allows_spaces_lists_and_red_fives():
    assert parse_tiles("12m 0p") == ["1m", "2m", "0p"]
    assert parse_tiles(["1m", "23p"]) == ["1m", "2p", "3p"]


@pytest.mark.parametrize("bad", ["8z", "0z", "9f", "0f", "12x", "m12", "12", "1m?"])
def test_unknown_codes_are_refused_with_the_piece_named(bad):
    with pytest.raises(TileError) as err:
        parse_tiles(bad)
    assert bad[-1] in err.value.message or bad in err.value.message


def test_to_compact_groups_runs_of_a_suit():
    assert to_compact(["1m", "2m", "5z", "0p", "5p"]) == "12m5z05p"
    assert to_compact(["3p", "1m", "2m"], sort=True) == "12m3p"


def test_indicator_cycles_wrap():
    assert code_of(next_in_cycle(kind("9m"))) == "1m"
    assert code_of(next_in_cycle(kind("4z"))) == "1z"
    assert code_of(next_in_cycle(kind("7z"))) == "5z"
    with pytest.raises(TileError):
        next_in_cycle(kind("1f"))
