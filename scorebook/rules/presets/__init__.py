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

# Per variant, its contracts in the order of how often they are played (the record form's first screen).
COMMON = {
    gand.RULES.key: gand.COMMON,
    kleurenwiezen.RULES.key: kleurenwiezen.COMMON,
    liege.RULES.key: liege.COMMON,
    encheres.RULES.key: encheres.COMMON,
}
