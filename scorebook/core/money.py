"""The bounds of money typed into the site's forms, the same on every form that takes an amount."""

from decimal import Decimal

# What one amount typed into a form may be (a payment in part or free, on account, for a night, the
# kitty's expenses and prizes): at most a hundred thousand, far above what a card club pays, so that
# every sum the site stores beside the payments stays within its column for a club's lifetime (a
# seat's still-open figure, 14 digits: ten million payments of the largest amount on one evening).
# A transfer marked paid in full is the settlement's own amount (what the seat's money holds).
AMOUNT_LIMIT = Decimal("100000.00")

# A fee per player that the club's kitty charges for an evening or a night (a house rule): 0.01 to a thousand.
FEE_LIMIT = Decimal("1000.00")
