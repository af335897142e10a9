"""Mail addresses we accept for seats, the GM and the server itself.

:func:`valid_address` is deliberately narrower than RFC 5322: one bare addr-spec
(``local@domain``), no display name, no angle brackets, no spaces, commas or other
separators, and a domain that has a dot (``example.org``) or is ``localhost``. Such an
address can be used as it is in a ``To`` header and as an SMTP recipient.
"""

from __future__ import annotations

import re

__all__ = ["valid_address"]

# Characters that never appear in an address we accept: blanks and control characters, and
# the separators of address lists, display names, comments and quoted strings.
_ATOM = r"""[^\s\x00-\x1f\x7f@<>()\[\]\\,;:"]+"""
_LOCAL = rf"{_ATOM}"
_LABEL = r"""[^\s\x00-\x1f\x7f@<>()\[\]\\,;:".]+"""
_ADDRESS = re.compile(rf"{_LOCAL}@(?:{_LABEL}(?:\.{_LABEL})+|localhost)", re.IGNORECASE)


def valid_address(address: str) -> bool:
    """Whether ``address`` is one usable mail address (``alice@example.org``, ``pbem@localhost``).

    >>> valid_address("alice@example.org"), valid_address("pbem@localhost")
    (True, True)
    >>> valid_address("x@"), valid_address("@"), valid_address("a@b"), valid_address("a@b.org, c@d.org")
    (False, False, False, False)
    """
    return isinstance(address, str) and _ADDRESS.fullmatch(address) is not None
