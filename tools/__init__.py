"""The repository's own tools, which build what the repository publishes and are not part of the site:
``tools.docs`` writes the parts of ``docs/`` that are made from the code (``make docs``) and keeps the
translations of ``docs/`` in step with their English pages. The site never imports them."""
