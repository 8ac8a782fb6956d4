"""Czech Kozel's tests: its rules, its compiled core held to them, its reference model."""
