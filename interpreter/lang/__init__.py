"""Stages 3–5: the DSL parser, name and type resolution, and code generation."""
