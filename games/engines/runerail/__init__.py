"""Runerail: this project's own fantasy crayon-rail game on the shared rail core (issue 15)."""
