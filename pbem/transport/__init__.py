"""Mail transports: inbound (Maildir, IMAP) and outbound (Maildir, SMTP), plus the durable outbox."""
