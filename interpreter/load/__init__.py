"""Stages 1–2: YAML text with a source map, JSON Schema checks, and the resolved GameModel."""
