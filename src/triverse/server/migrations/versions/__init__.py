"""The migration scripts, oldest first: ``r0001_initial`` creates the three tables."""
