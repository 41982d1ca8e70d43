"""The integration tier (CONTRIBUTING.md "The tests, in tiers")."""
