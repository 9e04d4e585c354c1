"""What each view of the studio asks the library, as JSON-ready dicts: pure functions of
a rule base's text and the view's inputs (no HTTP here; ``fuzzeval.studio.app`` routes)."""
