"""The club's money in one place: every balance, every open transfer, every payment and the kitty.

``books`` reads (one definition of a balance, docs/rules/money.md: the money of the evenings and nights a
player took part in, plus the payments he made, less the payments he received, with the kitty's fees
and prizes), ``services`` writes (payments on account, for a night, into and out of the kitty, the
kitty's expenses and prizes). The pages that show money (the league's ledger, settle-up, kitty and
player pages, the CSV, the backup) read it from here.

One evening's own money stays with the evening (``evenings.payments``): its settlement netted against
its payments, recording and cancelling a payment. The evening's settlement page, which the scoring page
links to, is below this app, so what it shows must be too; this module builds every figure of many
evenings on that same netting, so that the two cannot disagree.
"""
