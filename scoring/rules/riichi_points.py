"""Riichi fu (minipoints) and points: the fu table, rounding, the limits and who pays what.

``fu`` reads one arrangement (a ``Reading``); ``points`` turns han and fu into the payments. The rule card
``scoring/docs/riichi.md`` gives the source of each value.
"""

from __future__ import annotations

from typing import Any, Final

from scoring.decompose import CLOSED, EDGE, SEVEN_PAIRS, SINGLE, STANDARD
from scoring.rules.riichi_yaku import TERMINAL_OR_HONOUR, Facts, Reading
from scoring.tiles import DRAGONS

#: fu of a pung by (terminal or honour, kong, concealed); an open simple pung is 2 and each doubles it
_SET_FU: Final = {
    (t, k, c): 2 * (2 if t else 1) * (4 if k else 1) * (2 if c else 1)
    for t in (False, True)
    for k in (False, True)
    for c in (False, True)
}
_SET_REASON: Final = {
    (t, k, c): f"{'concealed' if c else 'open'}_{'terminal_' if t else ''}{'kong' if k else 'pung'}"
    for t in (False, True)
    for k in (False, True)
    for c in (False, True)
}
#: the reason ids of the set entries (open_pung, concealed_terminal_kong, ...)
SET_REASONS: Final = tuple(_SET_REASON.values())
_WAIT_FU: Final = {EDGE: "edge_wait", CLOSED: "closed_wait", SINGLE: "single_wait"}

#: (han needed, base points, name) of the limits from mangan up, highest first
_LIMITS: Final = ((11, 6000, "sanbaiman"), (8, 4000, "baiman"), (6, 3000, "haneman"), (5, 2000, "mangan"))
_YAKUMAN_NAMES: Final = {1: "yakuman", 2: "double yakuman", 3: "triple yakuman"}

#: One fu entry: (reason id, fu, block index or -1).
FuEntry = tuple[str, int, int]


def fu(f: Facts, r: Reading) -> tuple[int, int, list[FuEntry]]:
    """(fu rounded up to 10, fu before rounding, the entries) of one reading.

    Seven pairs are a flat 25. Thirteen orphans have no blocks and no fu (a yakuman needs none).
    """
    if r.shape == SEVEN_PAIRS:
        return 25, 25, [("seven_pairs", 25, -1)]
    if r.shape != STANDARD:
        return 0, 0, []
    entries: list[FuEntry] = [("base", 20, -1)]
    raw = 20
    for i, k, kong, concealed in r.sets:
        key = (k in TERMINAL_OR_HONOUR, kong, concealed)
        n = _SET_FU[key]
        entries.append((_SET_REASON[key], n, i))
        raw += n
    win_block = -1 if r.arr.win_block is None else r.arr.win_block
    wait = _WAIT_FU.get(r.wait)
    if wait is not None:
        entries.append((wait, 2, win_block))
        raw += 2
    pair = r.pair
    if pair is not None and pair >= 27:
        if pair in DRAGONS:
            entries.append(("dragon_pair", 2, r.pair_index))
            raw += 2
        if pair == f.seat:
            entries.append(("seat_wind_pair", 2, r.pair_index))
            raw += 2
        if pair == f.round:
            entries.append(("round_wind_pair", 2, r.pair_index))
            raw += 2
    has_fu = raw > 20
    if f.tsumo and (has_fu or f.is_open or f.options["pinfu_tsumo_fu"]):
        entries.append(("tsumo", 2, win_block))
        raw += 2
    if not f.tsumo:
        if not f.is_open:
            entries.append(("closed_ron", 10, -1))
            raw += 10
        elif not has_fu and f.options["open_pinfu_fu"]:
            entries.append(("open_pinfu", 2, -1))
            raw += 2
    return -(-raw // 10) * 10, raw, entries


def base_points(han: int, fu_: int, yakuman: int, options: dict[str, Any]) -> tuple[int, str | None]:
    """The base points (a quarter of a non-dealer's ron, before rounding) and the limit reached.

    yakuman: the number of yakuman (13 han each) when the hand is a yakuman, else 0.
    """
    if yakuman:
        return 8000 * yakuman, _YAKUMAN_NAMES.get(yakuman, f"{yakuman}x yakuman")
    if han >= 13:
        rule = options["counted_yakuman"]
        if rule == "limited":
            return 8000, "counted yakuman"
        if rule == "sanbaiman":
            return 6000, "sanbaiman (counted)"
        n = han // 13
        return 8000 * n, "counted " + _YAKUMAN_NAMES.get(n, f"{n}x yakuman")
    for need, base, name in _LIMITS:
        if han >= need:
            return base, name
    base = fu_ * 2 ** (han + 2)
    if base > 2000:
        return 2000, "mangan"
    if options["kiriage"] and (han, fu_) in ((4, 30), (3, 60)):
        return 2000, "mangan (kiriage)"
    return base, None


def _up100(x: int) -> int:
    return -(-x // 100) * 100


def paid(base: int, dealer: bool, tsumo: bool) -> int:
    """What the winner receives for the hand alone (no honba, no sticks): ``settle(...)["total"]``, quickly
    (each payment rounded up to 100 in place: -(-x // 100) * 100)."""
    if tsumo:
        main = -(-2 * base // 100) * 100
        return 3 * main if dealer else main + 2 * (-(-base // 100) * 100)
    return -(-(6 if dealer else 4) * base // 100) * 100


def settle(base: int, dealer: bool, tsumo: bool, honba: int, sticks: int) -> dict[str, Any]:
    """``points`` of the score: main and additional (as the reference library defines them), bonuses, total.

    Ron: ``main`` is what the discarder pays (4 x base, the dealer 6 x base), ``additional`` 0; the discarder
    also pays 300 per honba. Tsumo: ``main`` is what the dealer pays a non-dealer winner (2 x base) and
    ``additional`` what each non-dealer pays (1 x base); a dealer winner gets ``main`` = ``additional`` =
    2 x base from each player. Each payer adds 100 per honba. Every payment is rounded up to 100. The winner
    also takes the riichi sticks on the table, 1000 each.
    """
    if tsumo:
        main = _up100(2 * base)
        additional = main if dealer else _up100(base)
        main_bonus = additional_bonus = 100 * honba
        total = main + main_bonus + 2 * (additional + additional_bonus)
    else:
        main = _up100((6 if dealer else 4) * base)
        additional = additional_bonus = 0
        main_bonus = 300 * honba
        total = main + main_bonus
    sticks_bonus = 1000 * sticks
    return {
        "main": main,
        "additional": additional,
        "main_bonus": main_bonus,
        "additional_bonus": additional_bonus,
        "riichi_sticks": sticks_bonus,
        "total": total + sticks_bonus,
        "base": base,
    }


def payments(points: dict[str, Any], dealer: bool, tsumo: bool) -> dict[str, int]:
    """Who pays the winner what, honba included; the riichi sticks come from the table."""
    main = points["main"] + points["main_bonus"]
    if not tsumo:
        out = {"discarder": main}
    elif dealer:
        out = {"each_non_dealer": main}
    else:
        out = {"dealer": main, "each_non_dealer": points["additional"] + points["additional_bonus"]}
    if points["riichi_sticks"]:
        out["riichi_sticks"] = points["riichi_sticks"]
    return out
