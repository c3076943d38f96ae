"""Every preset, declared once. The registry (``scorebook.rules.registry``) reads this list."""

from . import classic, encheres, gand, kleurenwiezen, liege

PRESETS = (
    classic.CLASSIQUE,
    classic.SHORT,
    classic.FRANCAIS,
    classic.MORT,
    gand.RULES,
    kleurenwiezen.RULES,
    liege.RULES,
    encheres.RULES,
)
