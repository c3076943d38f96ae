"""The path converter for every id and number in the site's addresses.

``<id:pk>`` matches a positive integer that fits the database's 64-bit key; anything
larger (or zero) is no row's id and answers 404 before a view or the database sees it.
"""

MAX_ID = 2**63 - 1


class IdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 0 < number <= MAX_ID:
            raise ValueError(f"{value} is no id")  # the pattern does not match: 404
        return number

    def to_url(self, value: int | str) -> str:
        return str(int(value))


class TokenConverter:
    """``<token:token>``: a link's secret as the site makes them (``secrets.token_urlsafe``, and the
    read-only links' ``<id>.<secret>``). Anything else (a NUL byte, which PostgreSQL refuses in a
    query, other characters, more than 200 of them) is no link: 404 before a view sees it."""

    regex = "[A-Za-z0-9_.-]{1,200}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: object) -> str:
        return str(value)
