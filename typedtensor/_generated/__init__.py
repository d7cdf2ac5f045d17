"""Only what ``tools/generate_signatures.py`` writes: do not edit by hand (a test fails when stale)."""
