"""The documentation's own build: the parts of ``docs/`` made from the code, in every language
(``pages``, with ``presets``, ``examples`` and ``money`` and their words in ``words``), and the
translations of ``docs/`` kept in step with their English pages (``translations``).

    python -m tools.docs                 # make docs: write the generated parts and the evening file's schema
    python -m tools.docs --check         # which files are out of date (exit 1 if any)
    python -m tools.docs translations    # which translations are behind their English page, and what changed
    python -m tools.docs stamp FILE...   # a translation brought up to date: record the English page it follows

It reads the presets and the engine's worked examples (``tests/rules/cases``): a build tool, not a part
of the site, which never imports it.
"""
