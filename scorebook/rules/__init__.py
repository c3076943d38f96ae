"""The scoring engine: plain Python, no Django.

- ``model``: rules as data (contracts and payout tables, classic parameters);
- ``presets``: the eight variants (docs/rules/), declared once; ``registry`` looks them up;
- ``deals``: the engine's input; ``scoring``: deals in, deltas, totals, bête, robres out;
- ``settlement``: money in cents and the minimum transfers;
- ``evening_file``: the interchange format.
- ``messages``: the errors' messages as templates marked with ``gettext_noop``, for the site to translate.
"""
