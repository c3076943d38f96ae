"""The club's money in one place: every balance, every open transfer, every payment, the kitty and what
players won.

``books`` is what the pages read (one definition of a balance, docs/rules/money.md: the money of the
evenings and nights a player took part in, plus the payments he made, less the payments he received,
with the kitty's fees and prizes); each of its figures is computed by one module of this app, named in
``books`` and in docs/development.md (``balances``, ``remaining``, ``settle``, ``kitty``, ``history``,
``winnings``). ``services`` writes (payments on account, for a night, into and out of the kitty, the
kitty's expenses and prizes). The pages that show money (the league's ledger, settle-up, kitty, prizes,
season and player pages, the CSV, the backup) read it from here.

One evening's own money is written with the evening (``evenings.payments`` records and cancels its
payments), but its arithmetic is the engine's (``rules.settlement``: its settlement netted against its
payments, each seat's part of what remains), which the evening's settlement page and every figure here
read alike, so that the two cannot disagree.
"""
