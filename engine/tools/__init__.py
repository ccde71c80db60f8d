"""What a designer runs on rule files: validate, lint, diff, explain, doc, and the catalogue of diagnostic codes."""
