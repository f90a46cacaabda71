"""Settlement of a Taiwanese 16-tile win: who pays what, in 底 (base) and 台 (tai) (DIGEST §1.7).

Every payment is ``base + tai x tai_value`` (options ``base`` and ``tai_value``, default 1 and 1). The dealer
tai, 作莊 1 (item 9, "胡放皆加計1台") and 連N拉N 2N (item 10), are added only to a payment between the dealer
and the other party: every payment when the dealer wins, the dealer's own payment when he pays.

Who pays:
- a win on a discard (放銃): the discarder; 搶槓: the player who added the kong, as the discarder; 七搶一: the
  player robbed of the 8th flower, "視同被搶花者放銃" (item 30);
- a self-draw and 八仙過海: each of the other three ("三家賠付"), each base + tai (choice A9);
- 七搶一 won with 槓上開花 on the way 2 of item 30 (you held 6, another player 1, and you drew the 8th): a
  self-draw, all three pay the hand tai, and the robbed player alone also pays 七搶一 8 tai.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.result import Item

DISCARD, SELF_DRAW = "discard", "self_draw"


@dataclass(frozen=True, slots=True)
class Settlement:
    """How a win is paid. kind: ``discard`` (one payer) or ``self_draw`` (all three). robbed_extra: tai the
    robbed player pays on top of his share (七搶一 way 2 with 槓上開花), 0 otherwise."""

    kind: str
    robbed_extra: int = 0


def dealer_items(streak: int) -> list[Item]:
    """作莊 1 (item 9) and, on the dealer's N-th repeat, 連N拉N 2N (item 10)."""
    items = [Item("dealer", "Dealer", 1, 1, [], {"name_zh": "作莊"})]
    if streak:
        items.append(
            Item("dealer_streak", f"Dealer Streak {streak}", 2, streak, [], {"name_zh": f"連{streak}拉{streak}"})
        )
    return items


def dealer_involved(settlement: Settlement, winner_dealer: bool, loser_is_dealer: bool) -> bool:
    """True when some payment is between the dealer and the other party."""
    return winner_dealer or settlement.kind == SELF_DRAW or loser_is_dealer


def payments(
    settlement: Settlement,
    tai: int,
    dealer_tai: int,
    winner_dealer: bool,
    loser_is_dealer: bool,
    base: int,
    tai_value: int,
) -> dict[str, int]:
    """The payments of a win worth ``tai`` hand tai; ``dealer_tai`` goes only on payments with the dealer.

    Keys: ``discarder`` (one payer), or ``each_non_dealer`` and, when the winner is not the dealer,
    ``dealer`` (self-draw); ``robbed_player_adds`` for 七搶一 way 2; ``total``, what the winner receives.
    """

    def pay(t: int) -> int:
        return base + t * tai_value

    if settlement.kind == DISCARD:
        amount = pay(tai + (dealer_tai if winner_dealer or loser_is_dealer else 0))
        return {"discarder": amount, "total": amount}
    if winner_dealer:
        out = {"each_non_dealer": pay(tai + dealer_tai)}
        total = 3 * out["each_non_dealer"]
    else:
        out = {"dealer": pay(tai + dealer_tai), "each_non_dealer": pay(tai)}
        total = out["dealer"] + 2 * out["each_non_dealer"]
    if settlement.robbed_extra:
        out["robbed_player_adds"] = settlement.robbed_extra * tai_value
        total += out["robbed_player_adds"]
    out["total"] = total
    return out
