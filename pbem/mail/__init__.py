"""Reading order mail (MIME to :class:`~pbem.mail.types.Submission`) and composing our own."""
