"""The application layer: what a mail does to a game, apart from mail servers and disks.

- :mod:`pbem.application.state`: the game's state as its log makes it, and
  :func:`~pbem.application.state.apply_record`, shared by a replay and live mail;
- :mod:`pbem.application.mail`: :func:`~pbem.application.mail.handle_mail`, the pure
  function from (state, sender, the mail's lines, config) to (records, replies);
- :mod:`pbem.application.texts`: the texts of the replies (reports, HELP, welcomes).

Nothing is imported here, so :mod:`pbem.games` may use the state module without a cycle.
"""
