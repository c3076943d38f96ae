"""The club's books: every figure of money a page or a file shows, read from one place.

The pages (the league's ledger, settle-up, kitty, prizes and player pages, the CSV, the backup) read
money through this module's names; each figure is computed by one module (docs/development.md):

* a party's balance (``balances``, ``balance_of``), source by source (the seats, the kitty's fees, its
  prizes, the payments): ``ledger.balances``;
* what remains to pay, evening by evening (``open_evenings``) and night by night (``night_ledgers``,
  ``open_nights``): ``ledger.remaining``;
* the club's settle-up (``settle``): ``ledger.settle``; the kitty (``kitty``): ``ledger.kitty``; the
  history of payments, expenses and prizes (``history``): ``ledger.history``;
* winnings: a purse by currency (``add_money``, ``money_of``), per variant (``variant_winnings``), a
  season's prizes (``prize_shares``): ``ledger.winnings``;
* below the ledger, in the engine: an evening's money, what remains of it after its payments and each
  seat's part of that (``rules.settlement``), and the fewest transfers of every page (``rules.settle_up``).
"""

from __future__ import annotations

from .balances import Balance, balance_of, balances
from .choices import club_currency, players, variant_name
from .history import HistoryLine, history
from .kitty import Kitty, kitty
from .parties import KITTY
from .remaining import (
    EveningLedger,
    NightLedger,
    NightTransfer,
    OpenTransfer,
    night_ledgers,
    open_evenings,
    open_nights,
)
from .settle import SettleLine, SettleUp, settle
from .winnings import add_money, money_of, prize_shares, variant_winnings

__all__ = [
    "KITTY",
    "Balance",
    "EveningLedger",
    "HistoryLine",
    "Kitty",
    "NightLedger",
    "NightTransfer",
    "OpenTransfer",
    "SettleLine",
    "SettleUp",
    "add_money",
    "balance_of",
    "balances",
    "club_currency",
    "history",
    "kitty",
    "money_of",
    "night_ledgers",
    "open_evenings",
    "open_nights",
    "players",
    "prize_shares",
    "settle",
    "variant_name",
    "variant_winnings",
]
