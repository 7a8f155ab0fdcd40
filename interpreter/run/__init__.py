"""Stages 6–7: the state of a match and its generic verbs, the step API and the simulator."""
