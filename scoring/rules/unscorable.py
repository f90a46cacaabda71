"""Games the sources describe that cannot be scored, listed so that ``mjscan rules`` and ``/v1/rules`` say why.

- The two-player online game 麻将番数计算规则 (DIGEST §12; 002 @12543, 003 @5685, 003 @13513): procedure
  only. Its title promises fan counting, but it lists no fan; it gives the 13-fan cap, 抢杠 scored as a
  self-draw, 门清 and 报听, nothing to score a hand with.
- 十万麻将 (DIGEST §11; 002 @16568): the tile set only (suits 1-10, winds, no dragons), cut off before its
  rules; the tile codes of mjscan have no 10 of a suit, so no hand of it can even be written.
"""

from __future__ import annotations

from scoring.ruleset import Unscorable

UNSCORABLE = [
    Unscorable(
        "online2p",
        "Two-player online mahjong (麻将番数计算规则)",
        "the source (DIGEST §12; 002 @12543, 003 @5685, 003 @13513) gives the procedure only: 71 of the 136 tiles "
        "per game, 14 and 13 tiles dealt, 抢杠 scored as a self-draw, a 13-fan cap (役满), 门清, 报听 and 海底捞月; "
        "it lists no fan at all, so no hand can be scored",
    ),
    Unscorable(
        "shiwan",
        "十万麻将 (Shiwan mahjong, suits 1-10)",
        "the source (DIGEST §11; 002 @16568) gives only its tile set, 万 饼 条 1-10 and 东南西北, 136 tiles, and "
        "breaks off before its rules; it needs tiles numbered 10, which mjscan's tile codes (contracts.md) and "
        "tile model do not have, and it gives no winning hands or scoring",
    ),
]
