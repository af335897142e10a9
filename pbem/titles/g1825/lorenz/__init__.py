"""Kevin Lorenz's private-company variant of 1825 (variant ``lorenz``, seed 002)."""
